package sqlitestore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/eventchat/eventchat/domain/es"
)

// appendRequest is one Append waiting for the writer.
type appendRequest struct {
	ctx      context.Context
	stream   string
	expected es.ExpectedRevision
	events   []newEvent
	reply    chan appendReply
}

type appendReply struct {
	result es.WriteResult
	err    error
}

// newEvent is an event ready to store, its metadata already encoded.
type newEvent struct {
	id       string
	typ      string
	data     []byte
	metaJSON string
	meta     es.Metadata
}

// Append appends events to stream atomically and returns once they are
// durable. See commands.EventStore for the duplicate and expected-revision
// rules. An event id repeated inside events is stored once, at its first
// place.
func (s *Store) Append(ctx context.Context, stream string, expected es.ExpectedRevision, events []es.EventData) (es.WriteResult, error) {
	if err := ctx.Err(); err != nil {
		return es.WriteResult{}, err
	}
	if s.isClosed() {
		return es.WriteResult{}, ErrClosed
	}
	evs, err := prepareAppend(stream, events, int(s.maxAppend.Load()))
	if err != nil {
		return es.WriteResult{}, err
	}
	s.inflight.Add(1)
	defer s.inflight.Add(-1)
	req := &appendRequest{ctx: ctx, stream: stream, expected: expected, events: evs, reply: make(chan appendReply, 1)}
	select {
	case s.requests <- req:
	case <-s.closing:
		return es.WriteResult{}, ErrClosed
	case <-ctx.Done():
		return es.WriteResult{}, ctx.Err()
	}
	select {
	case r := <-req.reply:
		return r.result, r.err
	case <-s.stopped:
		// The syncer answers before it stops: a reply may be waiting.
		select {
		case r := <-req.reply:
			return r.result, r.err
		default:
			return es.WriteResult{}, ErrClosed
		}
	case <-ctx.Done():
		// The append may still commit; a retry with the same ids is safe.
		return es.WriteResult{}, ctx.Err()
	}
}

// prepareAppend validates an append and encodes its events; nothing is
// queued when it fails.
func prepareAppend(stream string, events []es.EventData, limit int) ([]newEvent, error) {
	if stream == "" {
		return nil, errors.New("sqlitestore: append: empty stream name")
	}
	if _, err := es.ParseStream(stream); err != nil {
		return nil, fmt.Errorf("sqlitestore: append: %w", err)
	}
	if len(events) == 0 {
		return nil, fmt.Errorf("sqlitestore: append to %s: no events", stream)
	}
	seen := make(map[string]struct{}, len(events))
	out := make([]newEvent, 0, len(events))
	size := 0
	for i, e := range events {
		if e.ID == "" {
			return nil, fmt.Errorf("sqlitestore: append to %s: event %d has no id", stream, i)
		}
		if e.Type == "" {
			return nil, fmt.Errorf("sqlitestore: append to %s: event %d has no type", stream, i)
		}
		if _, dup := seen[e.ID]; dup {
			continue
		}
		seen[e.ID] = struct{}{}
		ev, err := encodeEvent(e)
		if err != nil {
			return nil, fmt.Errorf("sqlitestore: append to %s: event %d: %w", stream, i, err)
		}
		if size += len(ev.data) + len(ev.metaJSON) + 2*len(ev.typ); size > limit {
			return nil, fmt.Errorf("sqlitestore: append to %s: over %d bytes: %w", stream, limit, es.ErrAppendTooLarge)
		}
		out = append(out, ev)
	}
	return out, nil
}

func encodeEvent(e es.EventData) (newEvent, error) {
	meta := e.Metadata
	// In UTC, the time decodes from the stored JSON exactly as it is here, so
	// live subscribers see what a read from the file gives.
	meta.Time = meta.Time.UTC()
	encoded, err := json.Marshal(meta)
	if err != nil {
		return newEvent{}, fmt.Errorf("encode metadata: %w", err)
	}
	data := make([]byte, len(e.Data)) // never nil: the column is NOT NULL
	copy(data, e.Data)
	return newEvent{id: e.ID, typ: e.Type, data: data, metaJSON: string(encoded), meta: meta}, nil
}
