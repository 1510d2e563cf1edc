package esdb

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	client "github.com/EventStore/EventStore-Client-Go/v4/esdb"
	"github.com/google/uuid"

	"github.com/eventchat/eventchat/domain/es"
)

// recordParallelism bounds the record reads or writes one append has in
// flight.
const recordParallelism = 32

// repairPage is the number of events read per step when walking back over
// a stream's unrecorded tail.
const repairPage = 256

// recordType is the event type of an id record.
const recordType = "EventIdRecorded"

// recordNamespace derives the ids of record events from event ids.
var recordNamespace = uuid.NewSHA1(uuid.NameSpaceURL, []byte("https://eventchat/esdb/event-id-record"))

// idRecord is where an event id was first stored.
type idRecord struct {
	Stream   string `json:"stream"`
	Revision uint64 `json:"revision"`
	Position uint64 `json:"position"`
}

func recordStream(id uuid.UUID) string { return "_esdb.id-" + id.String() }

// lookUpAppend answers an append whose ids are all recorded as a duplicate
// of the first, and refuses one whose ids are only partly recorded.
func (s *Store) lookUpAppend(ctx context.Context, evs []client.EventData) (es.WriteResult, bool, error) {
	ids := make([]uuid.UUID, len(evs))
	for i, e := range evs {
		ids[i] = e.EventID
	}
	recs, err := s.lookUp(ctx, ids)
	if err != nil {
		return es.WriteResult{}, false, err
	}
	known := 0
	for _, r := range recs {
		if r != nil {
			known++
		}
	}
	switch known {
	case 0:
		return es.WriteResult{}, false, nil
	case len(recs):
		last := recs[len(recs)-1]
		return es.WriteResult{NextRevision: last.Revision, Position: last.Position, Duplicate: true}, true, nil
	default:
		return es.WriteResult{}, false, fmt.Errorf("%d of %d ids stored already: %w", known, len(recs), es.ErrPartialDuplicate)
	}
}

// lookUp returns the record of each id, nil for ids never stored.
func (s *Store) lookUp(ctx context.Context, ids []uuid.UUID) ([]*idRecord, error) {
	out := make([]*idRecord, len(ids))
	err := forEach(len(ids), func(i int) error {
		raw, err := s.readStream(ctx, recordStream(ids[i]), client.ReadStreamOptions{Direction: client.Forwards, From: client.Start{}}, 1)
		if err != nil {
			return fmt.Errorf("look up id %s: %w", ids[i], err)
		}
		if len(raw) == 0 {
			return nil
		}
		var r idRecord
		if err := json.Unmarshal(raw[0].Data, &r); err != nil {
			return fmt.Errorf("look up id %s: decode record: %w", ids[i], err)
		}
		out[i] = &r
		return nil
	})
	return out, err
}

// record writes the records of stored, events of one stream in revision
// order; the last one's record is written after all the others.
func (s *Store) record(ctx context.Context, stored []*client.RecordedEvent) error {
	write := func(e *client.RecordedEvent) error {
		data, err := json.Marshal(idRecord{Stream: e.StreamID, Revision: e.EventNumber, Position: e.Position.Commit})
		if err != nil {
			return fmt.Errorf("record id %s: %w", e.EventID, err)
		}
		rec := client.EventData{
			EventID:     uuid.NewSHA1(recordNamespace, e.EventID[:]),
			EventType:   recordType,
			ContentType: client.ContentTypeJson,
			Data:        data,
		}
		if _, err := s.db.AppendToStream(ctx, recordStream(e.EventID), client.AppendToStreamOptions{ExpectedRevision: client.Any{}}, rec); err != nil {
			return fmt.Errorf("record id %s: %w", e.EventID, err)
		}
		return nil
	}
	last := len(stored) - 1
	if err := forEach(last, func(i int) error { return write(stored[i]) }); err != nil {
		return err
	}
	return write(stored[last])
}

// repair records the events at the end of stream that an interrupted
// append left without records. A recorded last event means a recorded
// stream, because records are written in that order.
func (s *Store) repair(ctx context.Context, stream string) error {
	var tail []*client.RecordedEvent // newest first
	var from client.StreamPosition = client.End{}
	size := 1 // nearly always the last event is recorded: look at it alone first
	for {
		page, err := s.readStream(ctx, stream, client.ReadStreamOptions{Direction: client.Backwards, From: from}, size)
		if err != nil {
			return fmt.Errorf("repair: %w", err)
		}
		ids := make([]uuid.UUID, len(page))
		for i, e := range page {
			ids[i] = e.EventID
		}
		recs, err := s.lookUp(ctx, ids)
		if err != nil {
			return fmt.Errorf("repair: %w", err)
		}
		for i, e := range page {
			if recs[i] != nil {
				return s.recordTail(ctx, tail)
			}
			tail = append(tail, e)
		}
		if len(page) < size || page[len(page)-1].EventNumber == 0 {
			return s.recordTail(ctx, tail)
		}
		from = client.Revision(page[len(page)-1].EventNumber - 1)
		size = repairPage
	}
}

func (s *Store) recordTail(ctx context.Context, newestFirst []*client.RecordedEvent) error {
	if len(newestFirst) == 0 {
		return nil
	}
	inOrder := make([]*client.RecordedEvent, len(newestFirst))
	for i, e := range newestFirst {
		inOrder[len(newestFirst)-1-i] = e
	}
	if err := s.record(ctx, inOrder); err != nil {
		return fmt.Errorf("repair: %w", err)
	}
	return nil
}

// forEach runs fn for 0..n-1, recordParallelism at a time, and returns the
// first error.
func forEach(n int, fn func(i int) error) error {
	if n == 1 {
		return fn(0)
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		slots = make(chan struct{}, recordParallelism)
	)
	for i := range n {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			if err := fn(i); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}
