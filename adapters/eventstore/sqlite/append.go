package sqlitestore

import (
	"context"
	"encoding/json"
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
	events, err := es.CheckAppend(stream, events, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: %w", err)
	}
	out := make([]newEvent, len(events))
	for i, e := range events {
		if out[i], err = encodeEvent(e); err != nil {
			return nil, fmt.Errorf("sqlitestore: append to %s: event %s: %w", stream, e.ID, err)
		}
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
