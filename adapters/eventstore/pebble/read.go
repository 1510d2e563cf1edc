package pebblestore

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/eventchat/eventchat/domain/es"
)

// DefaultReadMax is the number of events a read returns when asked for max <= 0.
const DefaultReadMax = 4096

// ReadStream returns up to max events of stream (DefaultReadMax when
// max <= 0): Forwards from revision from upwards, Backwards from revision
// from downwards (es.End: from the last event). A stream with no events
// yields an empty slice.
func (s *Store) ReadStream(ctx context.Context, stream string, dir es.Direction, from uint64, max int) ([]es.RecordedEvent, error) {
	switch dir {
	case es.Forwards, es.Backwards:
	default:
		return nil, fmt.Errorf("pebblestore: read %s: unknown direction %d", stream, dir)
	}
	done, err := s.use()
	if err != nil {
		return nil, err
	}
	defer done()
	evs, err := s.readStream(ctx, stream, dir, from, readMax(max))
	if err != nil {
		return nil, fmt.Errorf("pebblestore: read %s: %w", stream, err)
	}
	return evs, nil
}

func (s *Store) readStream(ctx context.Context, stream string, dir es.Direction, from uint64, max int) ([]es.RecordedEvent, error) {
	durable := s.durable.Load()
	prefix := streamPrefix(stream)
	it, err := s.db.NewIterWithContext(ctx, &pebble.IterOptions{LowerBound: prefix, UpperBound: upperBound(prefix)})
	if err != nil {
		return nil, err
	}
	var positions []uint64
	valid := false
	if dir == es.Forwards {
		valid = it.SeekGE(streamKey(prefix, from))
	} else if from == es.End {
		valid = it.Last()
	} else {
		valid = it.SeekLT(streamKey(prefix, from+1))
	}
	for ; valid && len(positions) < max; valid = stepStream(it, dir) {
		v := it.Value()
		if len(v) != 8 {
			return nil, errors.Join(fmt.Errorf("revision %d: %w", revisionOfKey(it.Key()), errMalformed), it.Close())
		}
		pos := binary.BigEndian.Uint64(v)
		if pos > durable {
			// Past the durable head: the rest of a forward read is too.
			if dir == es.Forwards {
				break
			}
			continue
		}
		positions = append(positions, pos)
	}
	if err := it.Close(); err != nil {
		return nil, err
	}
	return s.readPositions(ctx, positions)
}

func stepStream(it *pebble.Iterator, dir es.Direction) bool {
	if dir == es.Forwards {
		return it.Next()
	}
	return it.Prev()
}

// readPositions reads the events at positions, which are durable.
func (s *Store) readPositions(ctx context.Context, positions []uint64) ([]es.RecordedEvent, error) {
	evs := make([]es.RecordedEvent, 0, len(positions))
	if len(positions) == 0 {
		return evs, nil
	}
	it, err := s.db.NewIterWithContext(ctx, &pebble.IterOptions{LowerBound: []byte{prefixEvent}, UpperBound: []byte{prefixEvent + 1}})
	if err != nil {
		return nil, err
	}
	for _, pos := range positions {
		key := eventKey(pos)
		if !it.SeekGE(key) || positionOfKey(it.Key()) != pos {
			return nil, errors.Join(fmt.Errorf("event at %d missing", pos), it.Close())
		}
		e, err := decodeEvent(pos, it.Value(), &s.types)
		if err != nil {
			return nil, errors.Join(err, it.Close())
		}
		evs = append(evs, e)
	}
	return evs, it.Close()
}

// ReadAll returns up to max events (DefaultReadMax when max <= 0) with a
// position above after, in position order.
func (s *Store) ReadAll(ctx context.Context, after uint64, max int) ([]es.RecordedEvent, error) {
	done, err := s.use()
	if err != nil {
		return nil, err
	}
	defer done()
	if err := s.checkPosition(after); err != nil {
		return nil, err
	}
	evs, err := s.readAll(ctx, after, readMax(max))
	if err != nil {
		return nil, fmt.Errorf("pebblestore: read all after %d: %w", after, err)
	}
	return evs, nil
}

func (s *Store) readAll(ctx context.Context, after uint64, max int) ([]es.RecordedEvent, error) {
	durable := s.durable.Load()
	evs := []es.RecordedEvent{}
	if after >= durable {
		return evs, nil
	}
	it, err := s.db.NewIterWithContext(ctx, &pebble.IterOptions{LowerBound: eventKey(after + 1), UpperBound: eventKey(durable + 1)})
	if err != nil {
		return nil, err
	}
	for valid := it.First(); valid && len(evs) < max; valid = it.Next() {
		if len(evs)%256 == 255 && ctx.Err() != nil {
			return nil, errors.Join(ctx.Err(), it.Close())
		}
		e, err := decodeEvent(positionOfKey(it.Key()), it.Value(), &s.types)
		if err != nil {
			return nil, errors.Join(err, it.Close())
		}
		evs = append(evs, e)
	}
	return evs, it.Close()
}

// checkPosition refuses a position past the durable head: no event has it.
func (s *Store) checkPosition(pos uint64) error {
	if head := s.durable.Load(); pos > head {
		return fmt.Errorf("pebblestore: position %d is past the head %d: %w", pos, head, es.ErrInvalidPosition)
	}
	return nil
}

// Last returns the last durable event of the log, false when it is empty.
func (s *Store) Last(ctx context.Context) (es.RecordedEvent, bool, error) {
	done, err := s.use()
	if err != nil {
		return es.RecordedEvent{}, false, err
	}
	defer done()
	head := s.durable.Load()
	if head == 0 {
		return es.RecordedEvent{}, false, nil
	}
	evs, err := s.readPositions(ctx, []uint64{head})
	if err != nil || len(evs) == 0 {
		return es.RecordedEvent{}, false, err
	}
	return evs[0], true, nil
}

// Head returns the position of the last durable event in the log, 0 when it
// is empty.
func (s *Store) Head(context.Context) (uint64, error) {
	done, err := s.use()
	if err != nil {
		return 0, err
	}
	defer done()
	return s.durable.Load(), nil
}

func readMax(max int) int {
	if max <= 0 {
		return DefaultReadMax
	}
	return max
}
