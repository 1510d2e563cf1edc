package esdb

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	client "github.com/EventStore/EventStore-Client-Go/v4/esdb"
	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/eventchat/eventchat/domain/es"
)

// appStreamRegex selects the application's streams for the $all
// subscription: not system streams ($...) nor the adapter's own (_...).
const appStreamRegex = "^[^$_]"

func isAppStream(name string) bool {
	return name != "" && name[0] != '$' && name[0] != '_'
}

// validateStream refuses names that are not <tenant>.<category>-<id> or
// that fall in the reserved ranges.
func validateStream(stream string) error {
	if stream == "" {
		return errors.New("empty stream name")
	}
	if !isAppStream(stream) {
		return fmt.Errorf("stream %q is reserved", stream)
	}
	if _, err := es.ParseStream(stream); err != nil {
		return err
	}
	return nil
}

// encodeEvents validates events, drops ids repeated inside the call (the
// first place wins) and converts them for the client.
func encodeEvents(events []es.EventData) ([]client.EventData, error) {
	if len(events) == 0 {
		return nil, errors.New("no events")
	}
	seen := make(map[uuid.UUID]struct{}, len(events))
	out := make([]client.EventData, 0, len(events))
	for i, e := range events {
		id, err := uuid.Parse(e.ID)
		if err != nil {
			return nil, fmt.Errorf("event %d: id %q is not a UUID", i, e.ID)
		}
		if e.Type == "" {
			return nil, fmt.Errorf("event %d has no type", i)
		}
		if _, dup := seen[id]; dup {
			continue
		}
		seen[id] = struct{}{}
		meta := e.Metadata
		meta.Time = meta.Time.UTC()
		metaJSON, err := json.Marshal(meta)
		if err != nil {
			return nil, fmt.Errorf("event %d: encode metadata: %w", i, err)
		}
		contentType := client.ContentTypeBinary
		if json.Valid(e.Data) {
			contentType = client.ContentTypeJson
		}
		out = append(out, client.EventData{
			EventID:     id,
			EventType:   e.Type,
			ContentType: contentType,
			Data:        append([]byte{}, e.Data...),
			Metadata:    metaJSON,
		})
	}
	return out, nil
}

func decodeEvent(r *client.RecordedEvent) (es.RecordedEvent, error) {
	e := es.RecordedEvent{
		ID:       r.EventID.String(),
		Stream:   r.StreamID,
		Revision: r.EventNumber,
		Position: r.Position.Commit,
		Type:     r.EventType,
		Data:     r.Data,
	}
	if e.Data == nil {
		e.Data = []byte{}
	}
	if err := json.Unmarshal(r.UserMetadata, &e.Metadata); err != nil {
		return es.RecordedEvent{}, fmt.Errorf("event %s of %s: decode metadata: %w", e.ID, e.Stream, err)
	}
	return e, nil
}

func toExpected(e es.ExpectedRevision) client.ExpectedRevision {
	switch {
	case e.IsNoStream():
		return client.NoStream{}
	case e.IsStreamExists():
		return client.StreamExists{}
	}
	if r, ok := e.Revision(); ok {
		return client.Revision(r)
	}
	return client.Any{}
}

func hasCode(err error, code client.ErrorCode) bool {
	var e *client.Error
	return errors.As(err, &e) && e.Code() == code
}

// refusal maps what EventStoreDB refuses to the log's errors: a read or a
// subscription from a position that is no record boundary (a read fails as
// "Unexpected ReadAllResult: InvalidPosition", a subscription as "Trying to
// read from an invalid position."), and an append over its MaxAppendSize.
func refusal(err error) error {
	st, ok := status.FromError(err)
	if !ok {
		return err
	}
	msg := st.Message()
	switch {
	case st.Code() == codes.Unknown && strings.Contains(msg, "InvalidPosition"),
		st.Code() == codes.InvalidArgument && strings.Contains(msg, "invalid position"):
		return fmt.Errorf("%w: %s", es.ErrInvalidPosition, msg)
	case st.Code() == codes.InvalidArgument && strings.Contains(msg, "Maximum Append Size"):
		return fmt.Errorf("%w: %s", es.ErrAppendTooLarge, msg)
	}
	return err
}

// isNotFound says whether err is a read of a stream with no events.
func isNotFound(err error) bool { return hasCode(err, client.ErrorCodeResourceNotFound) }

// startOf returns where a read of $all after position after starts.
func startOf(after uint64) client.AllPosition {
	if after == 0 {
		return client.Start{}
	}
	return client.Position{Commit: after, Prepare: after}
}
