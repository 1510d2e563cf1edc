package pebblestore

import (
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/eventchat/eventchat/domain/es"
)

// Import appends events recorded by another store, in position order,
// keeping their ids, streams, revisions, positions and metadata, and
// returns once they are durable. Each position must follow the head, each
// revision its stream's last, and no id may be stored already: a log is
// copied as it was, or not at all.
func (s *Store) Import(events []es.RecordedEvent) error {
	done, err := s.use()
	if err != nil {
		return err
	}
	defer done()
	if err := s.failure(); err != nil {
		return err
	}
	s.seqMu.Lock()
	defer s.seqMu.Unlock()
	b := s.db.NewBatch()
	defer b.Close()
	head := s.head
	revisions := make(map[string]uint64) // next revision of the streams imported
	ids := make(map[string]struct{}, len(events))
	for i := range events {
		e := &events[i]
		if err := s.checkImport(e, head, revisions, ids); err != nil {
			return fmt.Errorf("pebblestore: import: event at %d: %w", e.Position, err)
		}
		v, err := encodeEvent(e)
		if err != nil {
			return fmt.Errorf("pebblestore: import: event at %d: %w", e.Position, err)
		}
		err = errors.Join(
			b.Set(eventKey(e.Position), v, nil),
			b.Set(streamKey(streamPrefix(e.Stream), e.Revision), positionValue(e.Position), nil),
			b.Set(idKey(e.ID), idValue(e.Position, e.Revision), nil))
		if err != nil {
			return fmt.Errorf("pebblestore: import: %w", err)
		}
		head = e.Position
		revisions[e.Stream] = e.Revision + 1
		ids[e.ID] = struct{}{}
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return s.fail(err)
	}
	for stream, next := range revisions {
		s.streams[stream] = next - 1
	}
	s.streams.Trim()
	for i := range events {
		s.remember(events[i].ID, idEntry{pos: events[i].Position, rev: events[i].Revision})
	}
	s.head = head
	s.applied.Store(head)
	s.pubMu.Lock()
	s.pending = append(s.pending, pendingBatch{last: head, events: events})
	s.pubMu.Unlock()
	s.advance(head)
	return nil
}

func (s *Store) checkImport(e *es.RecordedEvent, head uint64, revisions map[string]uint64, ids map[string]struct{}) error {
	if e.Position <= head {
		return fmt.Errorf("position not after %d", head)
	}
	if e.ID == "" || e.Type == "" {
		return errors.New("no id or no type")
	}
	if _, err := es.ParseStream(e.Stream); err != nil {
		return err
	}
	next, ok := revisions[e.Stream]
	if !ok {
		last, exists, err := s.streamRevision(e.Stream)
		if err != nil {
			return err
		}
		if exists {
			next = last + 1
		}
	}
	if e.Revision != next {
		return fmt.Errorf("revision %d of %s, which is at revision %d next", e.Revision, e.Stream, next)
	}
	if _, dup := ids[e.ID]; dup {
		return fmt.Errorf("id %s twice", e.ID)
	}
	if !s.ids.mayHold(e.ID) {
		return nil
	}
	_, closer, err := s.db.Get(idKey(e.ID))
	switch {
	case err == nil:
		_ = closer.Close()
		return fmt.Errorf("id %s already stored", e.ID)
	case !errors.Is(err, pebble.ErrNotFound):
		return err
	}
	return nil
}
