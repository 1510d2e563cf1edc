package pebblestore

import (
	"context"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/eventchat/eventchat/domain/es"
)

// Append appends events to stream atomically and returns once they are
// durable. See commands.EventStore for the duplicate and expected-revision
// rules. An event id repeated inside events is stored once, at its first
// place.
func (s *Store) Append(ctx context.Context, stream string, expected es.ExpectedRevision, events []es.EventData) (es.WriteResult, error) {
	if err := ctx.Err(); err != nil {
		return es.WriteResult{}, err
	}
	evs, err := prepareAppend(stream, events)
	if err != nil {
		return es.WriteResult{}, err
	}
	done, err := s.use()
	if err != nil {
		return es.WriteResult{}, err
	}
	defer done()
	if err := s.failure(); err != nil {
		return es.WriteResult{}, err
	}

	s.seqMu.Lock()
	d, err := s.decide(stream, expected, evs)
	if err != nil || d.batch == nil {
		head := s.head
		s.seqMu.Unlock()
		if err == nil && d.result.Position > s.durable.Load() {
			// A duplicate of an append whose fsync is under way: it is
			// answered once that append is durable.
			err = s.syncUpTo(head)
		}
		return d.result, err
	}
	if err := s.db.ApplyNoSyncWait(d.batch, pebble.Sync); err != nil {
		s.seqMu.Unlock()
		return es.WriteResult{}, s.fail(err)
	}
	s.head = d.result.Position
	s.streams[stream] = d.result.NextRevision
	s.trimStreams()
	s.pubMu.Lock()
	s.pending = append(s.pending, pendingBatch{last: d.result.Position, events: d.events})
	s.pubMu.Unlock()
	s.seqMu.Unlock()

	// Pebble syncs the WAL for every batch waiting here at once.
	if err := d.batch.SyncWait(); err != nil {
		return es.WriteResult{}, s.fail(err)
	}
	_ = d.batch.Close()
	s.advance(d.result.Position)
	return d.result, nil
}

// decision is an append decided: a result, and for an append to write, its
// batch and events.
type decision struct {
	result es.WriteResult
	batch  *pebble.Batch
	events []es.RecordedEvent
}

// decide answers an append against the log; s.seqMu is held. The store
// holds every batch handed to Pebble so far, durable or not.
func (s *Store) decide(stream string, expected es.ExpectedRevision, evs []es.EventData) (decision, error) {
	if d, done, err := s.duplicate(stream, evs); done || err != nil {
		return d, err
	}
	last, exists, err := s.streamRevision(stream)
	if err != nil {
		return decision{}, err
	}
	if !expected.Check(last, exists) {
		return decision{}, concurrencyError(stream, last, exists, expected)
	}
	next := uint64(0)
	if exists {
		next = last + 1
	}
	prefix := streamPrefix(stream)
	b := s.db.NewBatch()
	recs := make([]es.RecordedEvent, len(evs))
	pos := s.head
	for i, e := range evs {
		pos++
		recs[i] = es.RecordedEvent{
			ID: e.ID, Stream: stream, Revision: next, Position: pos,
			Type: e.Type, Data: e.Data, Metadata: e.Metadata,
		}
		v, err := encodeEvent(&recs[i])
		if err != nil {
			_ = b.Close()
			return decision{}, fmt.Errorf("pebblestore: append to %s: event %d: %w", stream, i, err)
		}
		err = errors.Join(
			b.Set(eventKey(pos), v, nil),
			b.Set(streamKey(prefix, next), positionValue(pos), nil),
			b.Set(idKey(e.ID), idValue(pos, next), nil))
		if err != nil {
			_ = b.Close()
			return decision{}, fmt.Errorf("pebblestore: append to %s: %w", stream, err)
		}
		next++
	}
	return decision{result: es.WriteResult{NextRevision: next - 1, Position: pos}, batch: b, events: recs}, nil
}

// duplicate applies the idempotency rule, which comes before the
// expected-revision check: all ids known is a duplicate, some is an error.
func (s *Store) duplicate(stream string, evs []es.EventData) (decision, bool, error) {
	var found int
	var lastPos, lastRev uint64
	for _, e := range evs {
		v, closer, err := s.db.Get(idKey(e.ID))
		if errors.Is(err, pebble.ErrNotFound) {
			continue
		}
		if err != nil {
			return decision{}, true, fmt.Errorf("pebblestore: append to %s: look up event ids: %w", stream, err)
		}
		pos, rev, err := decodeIDValue(v)
		_ = closer.Close()
		if err != nil {
			return decision{}, true, fmt.Errorf("pebblestore: append to %s: event id %s: %w", stream, e.ID, err)
		}
		found++
		if pos > lastPos {
			lastPos, lastRev = pos, rev
		}
	}
	switch {
	case found == 0:
		return decision{}, false, nil
	case found < len(evs):
		return decision{}, true, fmt.Errorf("%w: %d of %d events of the append to %s are already stored",
			es.ErrPartialDuplicate, found, len(evs), stream)
	default:
		return decision{result: es.WriteResult{NextRevision: lastRev, Position: lastPos, Duplicate: true}}, true, nil
	}
}

// streamRevision returns the last revision of stream and whether it has
// events, from the cache or else from the store.
func (s *Store) streamRevision(stream string) (uint64, bool, error) {
	if rev, ok := s.streams[stream]; ok {
		return rev, true, nil
	}
	prefix := streamPrefix(stream)
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: upperBound(prefix)})
	if err != nil {
		return 0, false, fmt.Errorf("pebblestore: read revision of %s: %w", stream, err)
	}
	found := it.Last()
	var rev uint64
	if found {
		rev = revisionOfKey(it.Key())
	}
	if err := it.Close(); err != nil {
		return 0, false, fmt.Errorf("pebblestore: read revision of %s: %w", stream, err)
	}
	if found {
		s.streams[stream] = rev
	}
	return rev, found, nil
}

// trimStreams keeps the stream cache bounded.
func (s *Store) trimStreams() {
	if len(s.streams) <= maxCachedStreams {
		return
	}
	for k := range s.streams {
		delete(s.streams, k)
		if len(s.streams) <= maxCachedStreams/2 {
			return
		}
	}
}

// syncUpTo makes durable everything handed to Pebble up to position upTo,
// the last of a batch: a record synced to the WAL after them syncs them too.
func (s *Store) syncUpTo(upTo uint64) error {
	if err := s.db.LogData(nil, pebble.Sync); err != nil {
		return s.fail(err)
	}
	s.advance(upTo)
	return nil
}

// prepareAppend validates an append and copies its events, their time in
// UTC as a read gives it back; nothing is written when it fails.
func prepareAppend(stream string, events []es.EventData) ([]es.EventData, error) {
	if stream == "" {
		return nil, errors.New("pebblestore: append: empty stream name")
	}
	if _, err := es.ParseStream(stream); err != nil {
		return nil, fmt.Errorf("pebblestore: append: %w", err)
	}
	if len(events) == 0 {
		return nil, fmt.Errorf("pebblestore: append to %s: no events", stream)
	}
	seen := make(map[string]struct{}, len(events))
	out := make([]es.EventData, 0, len(events))
	for i, e := range events {
		if e.ID == "" {
			return nil, fmt.Errorf("pebblestore: append to %s: event %d has no id", stream, i)
		}
		if e.Type == "" {
			return nil, fmt.Errorf("pebblestore: append to %s: event %d has no type", stream, i)
		}
		if _, dup := seen[e.ID]; dup {
			continue
		}
		seen[e.ID] = struct{}{}
		e.Data = append([]byte{}, e.Data...)
		e.Metadata.Time = e.Metadata.Time.UTC()
		out = append(out, e)
	}
	return out, nil
}

func concurrencyError(stream string, last uint64, exists bool, expected es.ExpectedRevision) error {
	state := "has no events"
	if exists {
		state = fmt.Sprintf("is at revision %d", last)
	}
	want := expected.String()
	if rev, ok := expected.Revision(); ok {
		want = fmt.Sprintf("revision %d", rev)
	}
	return fmt.Errorf("%w: stream %s %s, expected %s", es.ErrConcurrency, stream, state, want)
}
