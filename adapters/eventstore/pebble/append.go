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
	// The ids are looked up before seqMu is taken, so that appenders look
	// theirs up side by side; what is handed to Pebble meanwhile is in
	// s.recent.
	since := s.applied.Load()
	found, err := s.lookUp(stream, evs)
	if err != nil {
		return es.WriteResult{}, err
	}

	s.seqMu.Lock()
	if s.head-since >= recentIDs {
		if found, err = s.lookUp(stream, evs); err != nil {
			s.seqMu.Unlock()
			return es.WriteResult{}, err
		}
	}
	for i := range evs {
		if found[i].pos == 0 {
			found[i] = s.recent[evs[i].rec.ID]
		}
	}
	d, err := s.decide(stream, expected, evs, found)
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
	s.applyDecided(stream, d)
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

// decide answers an append against the log; s.seqMu is held. found tells
// where each event id already is in the log.
func (s *Store) decide(stream string, expected es.ExpectedRevision, evs []preparedEvent, found []idEntry) (decision, error) {
	if d, done, err := duplicate(stream, found); done || err != nil {
		return d, err
	}
	last, exists, err := s.streamRevision(stream)
	if err != nil {
		return decision{}, err
	}
	if !expected.Check(last, exists) {
		return decision{}, es.ConcurrencyError(stream, last, exists, expected)
	}
	next := uint64(0)
	if exists {
		next = last + 1
	}
	prefix := streamPrefix(stream)
	b := s.db.NewBatch()
	recs := make([]es.RecordedEvent, len(evs))
	pos := s.head
	for i := range evs {
		pos++
		recs[i] = evs[i].rec
		recs[i].Revision, recs[i].Position = next, pos
		setRevision(evs[i].value, next)
		err = errors.Join(
			b.Set(eventKey(pos), evs[i].value, nil),
			b.Set(streamKey(prefix, next), positionValue(pos), nil),
			b.Set(idKey(recs[i].ID), idValue(pos, next), nil))
		if err != nil {
			_ = b.Close()
			return decision{}, fmt.Errorf("pebblestore: append to %s: %w", stream, err)
		}
		next++
	}
	return decision{result: es.WriteResult{NextRevision: next - 1, Position: pos}, batch: b, events: recs}, nil
}

// applyDecided records an append handed to Pebble; s.seqMu is held.
func (s *Store) applyDecided(stream string, d decision) {
	s.head = d.result.Position
	for _, e := range d.events {
		s.remember(e.ID, idEntry{pos: e.Position, rev: e.Revision})
	}
	s.applied.Store(s.head)
	s.streams[stream] = d.result.NextRevision
	s.streams.Trim()
	s.pubMu.Lock()
	s.pending = append(s.pending, pendingBatch{last: d.result.Position, events: d.events})
	s.pubMu.Unlock()
}

// idEntry is where an event id is in the log; pos is 0 for an id not in it.
type idEntry struct{ pos, rev uint64 }

// remember adds an id handed to Pebble to s.ids and s.recent, forgetting
// from s.recent the one recentIDs positions before it; s.seqMu is held.
func (s *Store) remember(id string, at idEntry) {
	slot := &s.recentRing[at.pos%recentIDs]
	if old, ok := s.recent[*slot]; ok && old.pos+recentIDs == at.pos {
		delete(s.recent, *slot)
	}
	*slot = id
	s.recent[id] = at
	s.ids.add(id)
}

// lookUp returns where each id of evs is in the store.
func (s *Store) lookUp(stream string, evs []preparedEvent) ([]idEntry, error) {
	found := make([]idEntry, len(evs))
	for i := range evs {
		if !s.ids.mayHold(evs[i].rec.ID) {
			continue
		}
		v, closer, err := s.db.Get(idKey(evs[i].rec.ID))
		if errors.Is(err, pebble.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("pebblestore: append to %s: look up event ids: %w", stream, err)
		}
		found[i].pos, found[i].rev, err = decodeIDValue(v)
		_ = closer.Close()
		if err != nil {
			return nil, fmt.Errorf("pebblestore: append to %s: event id %s: %w", stream, evs[i].rec.ID, err)
		}
	}
	return found, nil
}

// duplicate applies the idempotency rule, which comes before the
// expected-revision check: all ids known is a duplicate, some is an error.
func duplicate(stream string, found []idEntry) (decision, bool, error) {
	var n int
	var last idEntry
	for _, f := range found {
		if f.pos != 0 {
			n++
			if f.pos > last.pos {
				last = f
			}
		}
	}
	switch {
	case n == 0:
		return decision{}, false, nil
	case n < len(found):
		return decision{}, true, fmt.Errorf("%w: %d of %d events of the append to %s are already stored",
			es.ErrPartialDuplicate, n, len(found), stream)
	default:
		return decision{result: es.WriteResult{NextRevision: last.rev, Position: last.pos, Duplicate: true}}, true, nil
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

// syncUpTo makes durable everything handed to Pebble up to position upTo,
// the last of a batch: a record synced to the WAL after them syncs them too.
func (s *Store) syncUpTo(upTo uint64) error {
	if err := s.db.LogData(nil, pebble.Sync); err != nil {
		return s.fail(err)
	}
	s.advance(upTo)
	return nil
}

// preparedEvent is an event ready to store: its value is encoded but for
// its revision, and rec lacks its revision and position.
type preparedEvent struct {
	rec   es.RecordedEvent
	value []byte
}

// prepareAppend validates an append and encodes its events, their time in
// UTC as a read gives it back; nothing is written when it fails.
func prepareAppend(stream string, events []es.EventData) ([]preparedEvent, error) {
	events, err := es.CheckAppend(stream, events, es.MaxAppendSize)
	if err != nil {
		return nil, fmt.Errorf("pebblestore: %w", err)
	}
	out := make([]preparedEvent, len(events))
	for i, e := range events {
		rec := es.RecordedEvent{ID: e.ID, Stream: stream, Type: e.Type, Data: append([]byte{}, e.Data...), Metadata: e.Metadata}
		rec.Metadata.Time = rec.Metadata.Time.UTC()
		v, err := encodeEvent(&rec)
		if err != nil {
			return nil, fmt.Errorf("pebblestore: append to %s: event %s: %w", stream, e.ID, err)
		}
		out[i] = preparedEvent{rec: rec, value: v}
	}
	return out, nil
}
