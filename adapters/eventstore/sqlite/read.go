package sqlitestore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/eventchat/eventchat/domain/es"
)

// DefaultReadMax is the number of events a read returns when asked for max <= 0.
const DefaultReadMax = 4096

const eventColumns = "position, id, stream, revision, type, data, metadata"

type readStatements struct {
	forwards, backwards, all, head *sql.Stmt
}

func prepareReads(ctx context.Context, db *sql.DB) (*readStatements, error) {
	var err error
	p := func(query string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = db.PrepareContext(ctx, query)
		return st
	}
	// Every read stops at the durable head, a bound parameter: past it are
	// commits whose fsync is under way.
	r := &readStatements{
		forwards: p("SELECT " + eventColumns + " FROM events " +
			"WHERE stream = ? AND revision >= ? AND position <= ? ORDER BY revision LIMIT ?"),
		backwards: p("SELECT " + eventColumns + " FROM events " +
			"WHERE stream = ? AND revision <= ? AND position <= ? ORDER BY revision DESC LIMIT ?"),
		all:  p("SELECT " + eventColumns + " FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?"),
		head: p("SELECT COALESCE(MAX(position), 0) FROM events WHERE position <= ?"),
	}
	if err != nil {
		_ = r.close()
		return nil, fmt.Errorf("prepare reads: %w", err)
	}
	return r, nil
}

func (r *readStatements) close() error {
	var errs []error
	for _, st := range []*sql.Stmt{r.forwards, r.backwards, r.all, r.head} {
		if st != nil {
			errs = append(errs, st.Close())
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
	st := s.reads.forwards
	switch dir {
	case es.Forwards:
	case es.Backwards:
		st = s.reads.backwards
	default:
		return nil, fmt.Errorf("sqlitestore: read %s: unknown direction %d", stream, dir)
	}
	if dir == es.Forwards && from > math.MaxInt64 {
		return []es.RecordedEvent{}, nil
	}
	evs, err := query(ctx, st, stream, clampInt64(from), s.durableBound(), readMax(max))
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
		return []es.RecordedEvent{}, nil
	}
	evs, err := query(ctx, s.reads.all, int64(after), s.durableBound(), readMax(max))
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: read all after %d: %w", after, err)
	}
	return evs, nil
}

// Head returns the position of the last event in the log, 0 when it is empty.
func (s *Store) Head(ctx context.Context) (uint64, error) {
	if s.isClosed() {
		return 0, ErrClosed
	}
	var head int64
	if err := s.reads.head.QueryRowContext(ctx, s.durableBound()).Scan(&head); err != nil {
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

func query(ctx context.Context, st *sql.Stmt, args ...any) ([]es.RecordedEvent, error) {
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	evs := []es.RecordedEvent{}
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, err
		}
		evs = append(evs, e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return evs, nil
}

func scanEvent(rows *sql.Rows) (es.RecordedEvent, error) {
	var (
		e             es.RecordedEvent
		position, rev int64
		id            any
		meta          sql.RawBytes
	)
	if err := rows.Scan(&position, &id, &e.Stream, &rev, &e.Type, &e.Data, &meta); err != nil {
		return es.RecordedEvent{}, err
	}
	var ok bool
	if e.ID, ok = eventIDFrom(id); !ok {
		return es.RecordedEvent{}, fmt.Errorf("event at %d: id stored as %T", position, id)
	}
	if err := json.Unmarshal(meta, &e.Metadata); err != nil {
		return es.RecordedEvent{}, fmt.Errorf("event at %d: decode metadata: %w", position, err)
	}
	if e.Data == nil {
		e.Data = []byte{}
	}
	e.Position, e.Revision = uint64(position), uint64(rev)
	return e, nil
}
