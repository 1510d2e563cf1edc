package esdb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	client "github.com/EventStore/EventStore-Client-Go/v4/esdb"

	"github.com/eventchat/eventchat/domain/es"
)

// DefaultReadMax is the number of events a read returns when max is not
// positive.
const DefaultReadMax = 4096

// allPage is the number of $all events read per request when skipping
// events of other streams.
const allPage = 512

// ReadStream returns up to max events of stream from revision from, in the
// direction asked; a stream with no events gives an empty slice.
func (s *Store) ReadStream(ctx context.Context, stream string, dir es.Direction, from uint64, max int) ([]es.RecordedEvent, error) {
	if s.isClosed() {
		return nil, ErrClosed
	}
	opts := client.ReadStreamOptions{From: client.Revision(from)}
	switch dir {
	case es.Forwards:
		opts.Direction = client.Forwards
	case es.Backwards:
		opts.Direction = client.Backwards
		if from == es.End {
			opts.From = client.End{}
		}
	default:
		return nil, fmt.Errorf("esdb: read %s: unknown direction %d", stream, dir)
	}
	raw, err := s.readStream(ctx, stream, opts, readMax(max))
	if err != nil {
		return nil, fmt.Errorf("esdb: read %s: %w", stream, err)
	}
	return decodeAll(raw)
}

// readStream reads raw events of a stream; a missing stream reads empty.
func (s *Store) readStream(ctx context.Context, stream string, opts client.ReadStreamOptions, count int) ([]*client.RecordedEvent, error) {
	rs, err := s.db.ReadStream(ctx, stream, opts, uint64(count))
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	return drain(rs, func(*client.RecordedEvent) bool { return true }, count)
}

// drain collects the events rs yields that keep accepts, up to max.
func drain(rs *client.ReadStream, keep func(*client.RecordedEvent) bool, max int) ([]*client.RecordedEvent, error) {
	var out []*client.RecordedEvent
	for len(out) < max {
		ev, err := rs.Recv()
		switch {
		case errors.Is(err, io.EOF):
			return out, nil
		case isNotFound(err):
			return nil, nil
		case err != nil:
			return nil, err
		}
		if ev.Event != nil && keep(ev.Event) {
			out = append(out, ev.Event)
		}
	}
	return out, nil
}

// ReadAll returns up to max events of the application's streams after
// position after, in position order.
func (s *Store) ReadAll(ctx context.Context, after uint64, max int) ([]es.RecordedEvent, error) {
	if s.isClosed() {
		return nil, ErrClosed
	}
	max = readMax(max)
	var out []*client.RecordedEvent
	cursor := after
	for len(out) < max {
		rs, err := s.db.ReadAll(ctx, client.ReadAllOptions{Direction: client.Forwards, From: startOf(cursor)}, allPage)
		if err != nil {
			return nil, fmt.Errorf("esdb: read all after %d: %w", after, refusal(err))
		}
		seen := 0
		page, err := drain(rs, func(e *client.RecordedEvent) bool {
			if e.Position.Commit <= cursor {
				return false
			}
			seen++
			cursor = e.Position.Commit
			return isAppStream(e.StreamID)
		}, max-len(out))
		rs.Close()
		if err != nil {
			return nil, fmt.Errorf("esdb: read all after %d: %w", after, refusal(err))
		}
		out = append(out, page...)
		if seen < allPage-1 { // the page reached the end of the log
			break
		}
	}
	if len(out) == 0 && after > 0 {
		// A position past the last event was never given out.
		head, err := s.Head(ctx)
		if err != nil {
			return nil, err
		}
		if after > head {
			return nil, fmt.Errorf("esdb: read all after %d: %w", after, es.ErrInvalidPosition)
		}
	}
	return decodeAll(out)
}

// Head returns the position of the last event of the application's
// streams, 0 when there is none.
func (s *Store) Head(ctx context.Context) (uint64, error) {
	r, err := s.lastRecord(ctx)
	if err != nil || r == nil {
		return 0, err
	}
	return r.Position.Commit, nil
}

// Last returns the last event of the application's streams, false when
// there is none.
func (s *Store) Last(ctx context.Context) (es.RecordedEvent, bool, error) {
	r, err := s.lastRecord(ctx)
	if err != nil || r == nil {
		return es.RecordedEvent{}, false, err
	}
	e, err := decodeEvent(r)
	if err != nil {
		return es.RecordedEvent{}, false, fmt.Errorf("esdb: %w", err)
	}
	return e, true, nil
}

// lastRecord returns the last event of the application's streams as the
// server gives it, nil when there is none.
func (s *Store) lastRecord(ctx context.Context) (*client.RecordedEvent, error) {
	if s.isClosed() {
		return nil, ErrClosed
	}
	var from client.AllPosition = client.End{}
	cursor := uint64(math.MaxUint64)
	for {
		rs, err := s.db.ReadAll(ctx, client.ReadAllOptions{Direction: client.Backwards, From: from}, allPage)
		if err != nil {
			return nil, fmt.Errorf("esdb: read the last event: %w", err)
		}
		seen := 0
		found, err := drain(rs, func(e *client.RecordedEvent) bool {
			if e.Position.Commit >= cursor {
				return false
			}
			seen++
			cursor = e.Position.Commit
			from = e.Position
			return isAppStream(e.StreamID)
		}, 1)
		rs.Close()
		switch {
		case err != nil:
			return nil, fmt.Errorf("esdb: read the last event: %w", err)
		case len(found) > 0:
			return found[0], nil
		case seen == 0:
			return nil, nil
		}
	}
}

func decodeAll(raw []*client.RecordedEvent) ([]es.RecordedEvent, error) {
	out := make([]es.RecordedEvent, 0, len(raw))
	for _, r := range raw {
		e, err := decodeEvent(r)
		if err != nil {
			return nil, fmt.Errorf("esdb: %w", err)
		}
		out = append(out, e)
	}
	return out, nil
}

func readMax(max int) int {
	if max <= 0 {
		return DefaultReadMax
	}
	return max
}
