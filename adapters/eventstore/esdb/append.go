package esdb

import (
	"context"
	"fmt"

	client "github.com/EventStore/EventStore-Client-Go/v4/esdb"

	"github.com/eventchat/eventchat/domain/es"
)

// Append appends events to stream if the stream is at the expected revision.
// An append whose event ids are all stored already is answered with the
// result of the first one (Duplicate set), whatever the expected revision;
// one repeating only some ids fails with es.ErrPartialDuplicate.
func (s *Store) Append(ctx context.Context, stream string, expected es.ExpectedRevision, events []es.EventData) (es.WriteResult, error) {
	if err := ctx.Err(); err != nil {
		return es.WriteResult{}, err
	}
	if s.isClosed() {
		return es.WriteResult{}, ErrClosed
	}
	if err := validateStream(stream); err != nil {
		return es.WriteResult{}, fmt.Errorf("esdb: append: %w", err)
	}
	evs, err := encodeEvents(events)
	if err != nil {
		return es.WriteResult{}, fmt.Errorf("esdb: append to %s: %w", stream, err)
	}
	unlock := s.lockStream(stream)
	defer unlock()

	if err := s.repair(ctx, stream); err != nil {
		return es.WriteResult{}, fmt.Errorf("esdb: append to %s: %w", stream, err)
	}
	if res, dup, err := s.lookUpAppend(ctx, evs); err != nil || dup {
		if err != nil {
			return es.WriteResult{}, fmt.Errorf("esdb: append to %s: %w", stream, err)
		}
		return res, nil
	}
	written, err := s.db.AppendToStream(ctx, stream, client.AppendToStreamOptions{ExpectedRevision: toExpected(expected)}, evs...)
	if hasCode(err, client.ErrorCodeWrongExpectedVersion) {
		return es.WriteResult{}, fmt.Errorf("esdb: append to %s (expected %s): %w", stream, expected, es.ErrConcurrency)
	}
	if err != nil {
		return es.WriteResult{}, fmt.Errorf("esdb: append to %s: %w", stream, refusal(err))
	}
	first := written.NextExpectedVersion + 1 - uint64(len(evs))
	stored, err := s.readStream(ctx, stream, client.ReadStreamOptions{Direction: client.Forwards, From: client.Revision(first)}, len(evs))
	if err != nil {
		return es.WriteResult{}, fmt.Errorf("esdb: append to %s: read back: %w", stream, err)
	}
	if len(stored) != len(evs) || stored[len(stored)-1].EventNumber != written.NextExpectedVersion {
		return es.WriteResult{}, fmt.Errorf("esdb: append to %s: read back %d of %d events", stream, len(stored), len(evs))
	}
	if err := s.record(ctx, stored); err != nil {
		return es.WriteResult{}, fmt.Errorf("esdb: append to %s: %w", stream, err)
	}
	last := stored[len(stored)-1]
	return es.WriteResult{NextRevision: last.EventNumber, Position: last.Position.Commit}, nil
}
