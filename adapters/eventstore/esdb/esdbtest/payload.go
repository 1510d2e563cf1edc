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

func fromProposed(m *api.AppendReq_ProposedMessage, now time.Time) (es.EventData, error) {
	id, err := fromUUID(m.GetId())
	if err != nil {
		return es.EventData{}, err
	}
	data, err := json.Marshal(payload{
		Data:        m.GetData(),
		Custom:      m.GetCustomMetadata(),
		ContentType: m.GetMetadata()[keyContentType],
		Created:     now.UnixNano() / 100,
	})
	if err != nil {
		return es.EventData{}, fmt.Errorf("encode event %s: %w", id, err)
	}
	return es.EventData{ID: id.String(), Type: m.GetMetadata()[keyType], Data: data}, nil
}

func toReadEvent(e es.RecordedEvent) (*api.ReadResp, error) {
	var p payload
	if err := json.Unmarshal(e.Data, &p); err != nil {
		return nil, fmt.Errorf("decode event %s: %w", e.ID, err)
	}
	id, err := uuid.Parse(e.ID)
	if err != nil {
		return nil, fmt.Errorf("event id %q: %w", e.ID, err)
	}
	most, least := esdb.UUIDAsInt64(id)
	rec := &api.ReadResp_ReadEvent_RecordedEvent{
		Id:               &shared.UUID{Value: &shared.UUID_Structured_{Structured: &shared.UUID_Structured{MostSignificantBits: most, LeastSignificantBits: least}}},
		StreamIdentifier: &shared.StreamIdentifier{StreamName: []byte(e.Stream)},
		StreamRevision:   e.Revision,
		PreparePosition:  e.Position,
		CommitPosition:   e.Position,
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
		Position: &api.ReadResp_ReadEvent_CommitPosition{CommitPosition: e.Position},
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
