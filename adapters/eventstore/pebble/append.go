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
	wait, err := s.QueueAppend(ctx, stream, expected, events)
	if err != nil {
		return es.WriteResult{}, err
	}
	return wait()
}

// QueueAppend decides an append and hands it to Pebble: once it returns,
// whatever is queued after it, by any caller, comes after it in the log.
// The append is durable, and seen by readers, only once wait returns its
// result. wait must be called exactly once; Close waits for it.
func (s *Store) QueueAppend(ctx context.Context, stream string, expected es.ExpectedRevision, events []es.EventData) (wait func() (es.WriteResult, error), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	evs, err := prepareAppend(stream, events)
	if err != nil {
		return nil, err
	}
	done, err := s.use()
	if err != nil {
		return nil, err
	}
	if err := s.failure(); err != nil {
		done()
		return nil, err
	}
	s.inFlight.Add(1)
	release := func() {
		s.inFlight.Add(-1)
		done()
	}
	// The ids are looked up before the append is queued, so that appenders
	// look theirs up side by side; what is handed to Pebble meanwhile is in
	// s.recent.
	since := s.applied.Load()
	found, err := s.lookUp(stream, evs)
	if err != nil {
		release()
		return nil, err
	}
	q := &queued{stream: stream, expected: expected, evs: evs, found: found, since: since, turn: make(chan struct{}, 1)}
	s.queueMu.Lock()
	s.queue = append(s.queue, q)
	lead := len(s.queue) == 1
	s.queueMu.Unlock()
	if !lead {
		<-q.turn
	}
	var led *group // the batch this append wrote as leader: its sync is ours to wait for
	if !q.decided {
		led = s.lead()
	}
	if q.err != nil {
		if led != nil {
			s.settle(led)
		}
		release()
		return nil, q.err
	}
	return func() (es.WriteResult, error) {
		defer release()
		if led != nil {
			s.settle(led)
		}
		switch {
		case q.group != nil:
			<-q.group.synced
			if q.group.err != nil {
				return es.WriteResult{}, q.group.err
			}
		case q.d.result.Position > s.durable.Load():
			// A duplicate of an append whose fsync is under way, decided in a
			// group that wrote nothing: it is answered once that append is
			// durable.
			if err := s.syncUpTo(q.head); err != nil {
				return es.WriteResult{}, err
			}
		}
		return q.d.result, nil
	}, nil
}

// maxGroup bounds the appends written in one Pebble batch.
const maxGroup = 256

// queued is an append waiting in s.queue. The append at the head of the
// queue leads: it decides the appends queued up to then, itself first, in
// queue order, writes them in one Pebble batch and wakes the next head to
// lead; the leader's wait settles the batch. While that batch syncs, the
// next leader writes the next one.
type queued struct {
	stream   string
	expected es.ExpectedRevision
	evs      []preparedEvent
	found    []idEntry
	since    uint64
	// turn is sent on once: when the append is decided, or when it is at
	// the head of the queue, undecided, and must lead.
	turn chan struct{}

	// Set by the leader that decides the append.
	decided bool
	d       decision
	err     error
	group   *group // the batch the append waits for; nil for none
	head    uint64 // the last position handed to Pebble when decided
}

// group is the appends written in one Pebble batch.
type group struct {
	batch  *pebble.Batch
	last   uint64
	synced chan struct{} // closed once the batch is durable, or failed
	err    error
}

// lead decides the appends at the head of the queue, hands them to Pebble
// in one batch and makes the next append queued the leader. It returns the
// batch, for the leader to settle, or nil when it wrote none.
func (s *Store) lead() *group {
	s.queueMu.Lock()
	n := min(len(s.queue), maxGroup)
	appends := append([]*queued(nil), s.queue[:n]...)
	s.queueMu.Unlock()

	g := s.write(appends)

	s.queueMu.Lock()
	rest := copy(s.queue, s.queue[n:])
	clear(s.queue[rest:])
	s.queue = s.queue[:rest]
	var next *queued
	if rest > 0 {
		next = s.queue[0]
	}
	s.queueMu.Unlock()
	if next != nil {
		next.turn <- struct{}{}
	}
	for _, q := range appends[1:] {
		q.turn <- struct{}{}
	}
	return g
}

// settle waits for a batch to be durable and publishes it; the appends in
// it wait on g.synced.
func (s *Store) settle(g *group) {
	// Pebble syncs the WAL for every batch waiting here at once.
	if err := g.batch.SyncWait(); err != nil {
		g.err = s.fail(err)
	} else {
		s.advance(g.last)
	}
	_ = g.batch.Close()
	close(g.synced)
}

// write decides appends in order and hands those to write to Pebble in one
// batch, whose group it returns (nil when nothing was written).
func (s *Store) write(appends []*queued) *group {
	s.seqMu.Lock()
	defer s.seqMu.Unlock()
	var written []*queued
	var waiting []*queued // written, or duplicates of what is not durable
	for _, q := range appends {
		q.decided = true
		if q.err = s.failure(); q.err != nil {
			continue
		}
		if s.head-q.since >= recentIDs {
			if q.found, q.err = s.lookUp(q.stream, q.evs); q.err != nil {
				continue
			}
		}
		for i := range q.evs {
			if q.found[i].pos == 0 {
				q.found[i] = s.recent[q.evs[i].rec.ID]
			}
		}
		q.d, q.err = s.decide(q.stream, q.expected, q.evs, q.found)
		q.head = s.head
		if q.err != nil {
			continue
		}
		if q.d.events != nil {
			s.applyDecided(q.stream, q.d)
			written = append(written, q)
		}
		if q.d.result.Position > s.durable.Load() {
			waiting = append(waiting, q)
		}
	}
	s.streams.Trim()
	if len(written) == 0 {
		return nil
	}
	b, err := s.batch(written)
	if err == nil {
		err = s.db.ApplyNoSyncWait(b, pebble.Sync)
	}
	if err != nil {
		err = s.fail(err)
		_ = b.Close()
		for _, q := range waiting {
			q.err = err
		}
		return nil
	}
	g := &group{batch: b, last: s.head, synced: make(chan struct{})}
	for _, q := range waiting {
		q.group = g
	}
	return g
}

// batch is a Pebble batch of the events of the appends decided to be
// written, their stream revisions and their ids, each kind of key in its
// own run: Pebble inserts a batch's keys into its memtable one after the
// other, and a key next to the one before it is found without a search from
// the top.
func (s *Store) batch(written []*queued) (*pebble.Batch, error) {
	b := s.db.NewBatch()
	var err error
	set := func(k, v []byte) {
		if err == nil {
			err = b.Set(k, v, nil)
		}
	}
	for _, q := range written {
		for i, e := range q.d.events {
			set(eventKey(e.Position), q.evs[i].value)
		}
	}
	for _, q := range written {
		prefix := streamPrefix(q.stream)
		for _, e := range q.d.events {
			set(streamKey(prefix, e.Revision), positionValue(e.Position))
		}
	}
	for _, q := range written {
		for _, e := range q.d.events {
			set(idKey(e.ID), idValue(e.Position, e.Revision))
		}
	}
	return b, err
}

// decision is an append decided: a result, and for an append to write, its
// events (their values are in the append's prepared events).
type decision struct {
	result es.WriteResult
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
	recs := make([]es.RecordedEvent, len(evs))
	pos := s.head
	for i := range evs {
		pos++
		recs[i] = evs[i].rec
		recs[i].Revision, recs[i].Position = next, pos
		setRevision(evs[i].value, next)
		next++
	}
	return decision{result: es.WriteResult{NextRevision: next - 1, Position: pos}, events: recs}, nil
}

// applyDecided records an append about to be handed to Pebble; s.seqMu is
// held.
func (s *Store) applyDecided(stream string, d decision) {
	s.head = d.result.Position
	for _, e := range d.events {
		s.remember(e.ID, idEntry{pos: e.Position, rev: e.Revision})
	}
	s.applied.Store(s.head)
	s.streams[stream] = d.result.NextRevision
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
