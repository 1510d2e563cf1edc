package esdbtest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/EventStore/EventStore-Client-Go/v4/esdb"
	"github.com/EventStore/EventStore-Client-Go/v4/protos/shared"
	api "github.com/EventStore/EventStore-Client-Go/v4/protos/streams"
	"github.com/google/uuid"

	"github.com/eventchat/eventchat/domain/es"
)

// payload is what the double keeps as the data of a SQLite event: the
// proposed message as sent, which es.EventData cannot hold as such.
type payload struct {
	ID          string `json:"i"` // the client's event id
	Data        []byte `json:"d"`
	Custom      []byte `json:"m"`
	ContentType string `json:"c"`
	Created     int64  `json:"t"` // .NET ticks (100 ns) since the Unix epoch
}

const (
	keyType        = "type"
	keyContentType = "content-type"
	keyCreated     = "created"
)

// fromProposed is the event the double stores for m, and m's id.
func fromProposed(m *api.AppendReq_ProposedMessage, now time.Time) (es.EventData, uuid.UUID, error) {
	id, err := fromUUID(m.GetId())
	if err != nil {
		return es.EventData{}, uuid.UUID{}, err
	}
	data, err := json.Marshal(payload{
		ID:          id.String(),
		Data:        m.GetData(),
		Custom:      m.GetCustomMetadata(),
		ContentType: m.GetMetadata()[keyContentType],
		Created:     now.UnixNano() / 100,
	})
	if err != nil {
		return es.EventData{}, uuid.UUID{}, fmt.Errorf("encode event %s: %w", id, err)
	}
	return es.EventData{ID: uuid.NewString(), Type: m.GetMetadata()[keyType], Data: data}, id, nil
}

// sizeOnDisk is how EventStoreDB counts an event against its append limit.
func sizeOnDisk(m *api.AppendReq_ProposedMessage) int {
	return len(m.GetData()) + len(m.GetCustomMetadata()) + 2*len(m.GetMetadata()[keyType])
}

// toReadEvent is e as read, at position pos.
func toReadEvent(e es.RecordedEvent, pos uint64) (*api.ReadResp, error) {
	var p payload
	if err := json.Unmarshal(e.Data, &p); err != nil {
		return nil, fmt.Errorf("decode event %s: %w", e.ID, err)
	}
	id, err := clientID(e)
	if err != nil {
		return nil, err
	}
	most, least := esdb.UUIDAsInt64(id)
	rec := &api.ReadResp_ReadEvent_RecordedEvent{
		Id:               &shared.UUID{Value: &shared.UUID_Structured_{Structured: &shared.UUID_Structured{MostSignificantBits: most, LeastSignificantBits: least}}},
		StreamIdentifier: &shared.StreamIdentifier{StreamName: []byte(e.Stream)},
		StreamRevision:   e.Revision,
		PreparePosition:  pos,
		CommitPosition:   pos,
		Metadata: map[string]string{
			keyType:        e.Type,
			keyContentType: p.ContentType,
			keyCreated:     strconv.FormatInt(p.Created, 10),
		},
		CustomMetadata: p.Custom,
		Data:           p.Data,
	}
	return &api.ReadResp{Content: &api.ReadResp_Event{Event: &api.ReadResp_ReadEvent{
		Event:    rec,
		Position: &api.ReadResp_ReadEvent_CommitPosition{CommitPosition: pos},
	}}}, nil
}

func fromUUID(u *shared.UUID) (uuid.UUID, error) {
	if s := u.GetStructured(); s != nil {
		return esdb.ParseUUIDFromInt64(s.GetMostSignificantBits(), s.GetLeastSignificantBits())
	}
	id, err := uuid.Parse(u.GetString_())
	if err != nil {
		return uuid.UUID{}, fmt.Errorf("event id: %w", err)
	}
	return id, nil
}
