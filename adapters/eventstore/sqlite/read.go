package sqlitestore

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/eventchat/eventchat/adapters/eventstore/internal/cache"
	"github.com/eventchat/eventchat/adapters/sqlitec"
	"github.com/eventchat/eventchat/domain/es"
)

// DefaultReadMax is the number of events a read returns when asked for max <= 0.
const DefaultReadMax = 4096

const eventColumns = "position, id, stream, revision, type, data, metadata"

// readers is the pool of read-only connections, each with the read
// statements compiled, opened as they are first needed. WAL readers block
// neither each other nor the writer.
type readers struct {
	path   string
	free   chan *reader
	slots  chan struct{} // one per connection open or opening
	closed chan struct{}
	types  cache.Types
}

type reader struct {
	c                              *sqlitec.Conn
	forwards, backwards, all, head *sqlitec.Stmt
}

func newReaders(path string) *readers {
	return &readers{
		path: path, free: make(chan *reader, readConns), slots: make(chan struct{}, readConns),
		closed: make(chan struct{}),
	}
}

func openReader(path string) (*reader, error) {
	c, err := sqlitec.Open(path)
	if err != nil {
		return nil, err
	}
	if err := c.Exec("PRAGMA query_only = 1; PRAGMA busy_timeout = 5000"); err != nil {
		return nil, errors.Join(err, c.Close())
	}
	// Every read stops at the durable head, a bound parameter: past it are
	// commits whose fsync is under way.
	r := &reader{c: c}
	err = c.PrepareAll(map[**sqlitec.Stmt]string{
		&r.forwards: "SELECT " + eventColumns + " FROM events " +
			"WHERE stream = ? AND revision >= ? AND position <= ? ORDER BY revision LIMIT ?",
		&r.backwards: "SELECT " + eventColumns + " FROM events " +
			"WHERE stream = ? AND revision <= ? AND position <= ? ORDER BY revision DESC LIMIT ?",
		&r.all:  "SELECT " + eventColumns + " FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?",
		&r.head: "SELECT COALESCE(MAX(position), 0) FROM events WHERE position <= ?",
	})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("prepare reads: %w", err), c.Close())
	}
	return r, nil
}

// run lends fn a reader, waiting for a free one or opening another while
// fewer than readConns are open.
func (p *readers) run(ctx context.Context, fn func(r *reader) error) error {
	var r *reader
	select {
	case r = <-p.free:
	default:
		select {
		case <-p.closed:
			return ErrClosed
		case <-ctx.Done():
			return ctx.Err()
		case r = <-p.free:
		case p.slots <- struct{}{}:
			var err error
			if r, err = openReader(p.path); err != nil {
				<-p.slots
				return err
			}
		}
	}
	defer func() {
		r.c.ResetAll()
		p.free <- r
	}()
	select {
	case <-p.closed:
		return ErrClosed
	default:
	}
	return fn(r)
}

// close closes every connection, waiting for those lent out: each of
// the readConns slots is either taken here, never used, or is a connection
// that comes back to free.
func (p *readers) close() error {
	close(p.closed)
	var errs []error
	for range cap(p.slots) {
		select {
		case p.slots <- struct{}{}:
		case r := <-p.free:
			errs = append(errs, r.c.Close())
		}
	}
	return errors.Join(errs...)
}

// ReadStream returns up to max events of stream (DefaultReadMax when
// max <= 0): Forwards from revision from upwards, Backwards from revision
// from downwards (es.End: from the last event). A stream with no events
// yields an empty slice.
func (s *Store) ReadStream(ctx context.Context, stream string, dir es.Direction, from uint64, max int) ([]es.RecordedEvent, error) {
	if s.isClosed() {
		return nil, ErrClosed
	}
	switch dir {
	case es.Forwards, es.Backwards:
	default:
		return nil, fmt.Errorf("sqlitestore: read %s: unknown direction %d", stream, dir)
	}
	if dir == es.Forwards && from > math.MaxInt64 {
		return []es.RecordedEvent{}, nil
	}
	var evs []es.RecordedEvent
	err := s.readers.run(ctx, func(r *reader) error {
		st := r.forwards
		if dir == es.Backwards {
			st = r.backwards
		}
		st.BindText(stream)
		st.BindInt(clampInt64(from))
		st.BindInt(s.durableBound())
		st.BindInt(int64(readMax(max)))
		var err error
		evs, err = s.readers.query(ctx, st)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: read %s: %w", stream, err)
	}
	return evs, nil
}

// ReadAll returns up to max events (DefaultReadMax when max <= 0) with a
// position above after, in position order.
func (s *Store) ReadAll(ctx context.Context, after uint64, max int) ([]es.RecordedEvent, error) {
	if s.isClosed() {
		return nil, ErrClosed
	}
	if after >= math.MaxInt64 {
		return nil, fmt.Errorf("sqlitestore: read all after %d: %w", after, es.ErrInvalidPosition)
	}
	var evs []es.RecordedEvent
	err := s.readers.run(ctx, func(r *reader) error {
		r.all.BindInt(int64(after))
		r.all.BindInt(s.durableBound())
		r.all.BindInt(int64(readMax(max)))
		var err error
		evs, err = s.readers.query(ctx, r.all)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: read all after %d: %w", after, err)
	}
	if len(evs) == 0 && after > 0 {
		if err := s.checkPosition(ctx, after); err != nil {
			return nil, err
		}
	}
	return evs, nil
}

// checkPosition refuses a position past the head: no event has it.
func (s *Store) checkPosition(ctx context.Context, pos uint64) error {
	head, err := s.Head(ctx)
	if err != nil {
		return err
	}
	if pos > head {
		return fmt.Errorf("sqlitestore: position %d is past the head %d: %w", pos, head, es.ErrInvalidPosition)
	}
	return nil
}

// Last returns the last event of the log, false when it is empty.
func (s *Store) Last(ctx context.Context) (es.RecordedEvent, bool, error) {
	head, err := s.Head(ctx)
	if err != nil || head == 0 {
		return es.RecordedEvent{}, false, err
	}
	evs, err := s.ReadAll(ctx, head-1, 1)
	if err != nil || len(evs) == 0 {
		return es.RecordedEvent{}, false, err
	}
	return evs[0], true, nil
}

// Head returns the position of the last event in the log, 0 when it is empty.
func (s *Store) Head(ctx context.Context) (uint64, error) {
	if s.isClosed() {
		return 0, ErrClosed
	}
	var head int64
	err := s.readers.run(ctx, func(r *reader) error {
		r.head.BindInt(s.durableBound())
		if r.head.Next() {
			head = r.head.Int(0)
		}
		return r.head.Done()
	})
	if err != nil {
		return 0, fmt.Errorf("sqlitestore: read head: %w", err)
	}
	return uint64(head), nil
}

// durableBound is the durable head as a query bound.
func (s *Store) durableBound() int64 { return clampInt64(s.durable.Load()) }

func readMax(max int) int {
	if max <= 0 {
		return DefaultReadMax
	}
	return max
}

func clampInt64(v uint64) int64 {
	if v > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(v)
}

// query runs st, whose parameters are bound, and returns its events.
func (p *readers) query(ctx context.Context, st *sqlitec.Stmt) ([]es.RecordedEvent, error) {
	evs := []es.RecordedEvent{}
	for st.Next() {
		if len(evs)%256 == 255 && ctx.Err() != nil {
			return nil, errors.Join(st.Done(), ctx.Err())
		}
		e, err := p.scanEvent(st)
		if err != nil {
			return nil, errors.Join(err, st.Done())
		}
		evs = append(evs, e)
	}
	if err := st.Done(); err != nil {
		return nil, err
	}
	return evs, nil
}

func (p *readers) scanEvent(st *sqlitec.Stmt) (es.RecordedEvent, error) {
	position := st.Int(0)
	e := es.RecordedEvent{Position: uint64(position), Revision: uint64(st.Int(3))}
	switch t := st.ColumnType(1); {
	case t == sqlitec.Text:
		e.ID = st.Text(1)
	case t == sqlitec.Blob && len(st.Bytes(1)) == 16:
		e.ID = uuidString(st.Bytes(1))
	default:
		return es.RecordedEvent{}, fmt.Errorf("event at %d: id stored with storage class %d", position, t)
	}
	e.Stream = st.Text(2)
	e.Type = p.types.Intern(st.Bytes(4))
	if e.Data = st.Blob(5); e.Data == nil {
		e.Data = []byte{}
	}
	if err := decodeMetadata(st.Bytes(6), &e.Metadata); err != nil {
		return es.RecordedEvent{}, fmt.Errorf("event at %d: decode metadata: %w", position, err)
	}
	return e, nil
}
