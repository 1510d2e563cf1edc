package es

import (
	"encoding/json"
	"errors"
	"fmt"
)

// CheckAppend validates an append to stream as every store does, so that an
// append one store refuses every store refuses: a stream name ParseStream
// takes, at least one event, each with an id and a type, a time JSON can
// encode, and at most limit bytes as MaxAppendSize counts them. It returns
// the events to store: an id repeated inside events is kept once, at its
// first place.
func CheckAppend(stream string, events []EventData, limit int) ([]EventData, error) {
	if stream == "" {
		return nil, errors.New("append: empty stream name")
	}
	if _, err := ParseStream(stream); err != nil {
		return nil, fmt.Errorf("append: %w", err)
	}
	if len(events) == 0 {
		return nil, fmt.Errorf("append to %s: no events", stream)
	}
	kept := events
	var seen map[string]struct{}
	upper := 0
	for i, e := range events {
		if e.ID == "" {
			return nil, fmt.Errorf("append to %s: event %d has no id", stream, i)
		}
		if e.Type == "" {
			return nil, fmt.Errorf("append to %s: event %d has no type", stream, i)
		}
		if y := e.Metadata.Time.UTC().Year(); y < 0 || y > 9999 {
			return nil, fmt.Errorf("append to %s: event %d: time %v is outside the years 0 to 9999", stream, i, e.Metadata.Time)
		}
		if len(events) > 1 {
			if seen == nil {
				seen = make(map[string]struct{}, len(events))
				kept = make([]EventData, 0, len(events))
			}
			if _, dup := seen[e.ID]; dup {
				continue
			}
			seen[e.ID] = struct{}{}
			kept = append(kept, e)
		}
		upper += len(e.Data) + 2*len(e.Type) + metadataSizeBound(e.Metadata)
	}
	if upper > limit && appendSize(kept) > limit {
		return nil, fmt.Errorf("append to %s: over %d bytes: %w", stream, limit, ErrAppendTooLarge)
	}
	return kept, nil
}

// appendSize is the size of events as MaxAppendSize counts it, their
// metadata encoded as the stores encode it, with its time in UTC, whose
// year CheckAppend has checked: the encoding cannot fail.
func appendSize(events []EventData) int {
	size := 0
	for _, e := range events {
		m := e.Metadata
		m.Time = m.Time.UTC()
		meta, _ := json.Marshal(m)
		size += len(e.Data) + len(meta) + 2*len(e.Type)
	}
	return size
}

// metadataSizeBound is at least the length of m encoded in JSON, computed
// without encoding it: JSON escapes a byte of a string into at most six
// (\u00XX, or \ufffd for a byte of invalid UTF-8), and the rest is the
// field names, punctuation and a UTC time of at most 30 bytes.
func metadataSizeBound(m Metadata) int {
	const rest = len(`{"tenant":"","actor":"","correlationId":"","causationId":"","clientUuid":"","time":""}`) + len("2006-01-02T15:04:05.999999999Z")
	return rest + 6*(len(m.Tenant)+len(m.Actor)+len(m.CorrelationID)+len(m.CausationID)+len(m.ClientUUID))
}
