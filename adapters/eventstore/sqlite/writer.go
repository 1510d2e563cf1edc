package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/eventchat/eventchat/domain/es"
)

// insertSizes are the row counts of the prepared multi-row INSERTs, largest
// first; a batch is written with as few statements as these allow.
var insertSizes = []int{32, 8, 1}

// maxCachedStreams bounds the stream-revision cache; past it, arbitrary
// entries are dropped and reloaded from the file when next needed.
const maxCachedStreams = 1 << 16

// idsPerLookup bounds the ids looked up by one query.
const idsPerLookup = 512

// writer owns the single read-write connection. Only the writer goroutine
// touches it.
type writer struct {
	conn  *sql.Conn
	stmts writeStatements

	// head and streams mirror the file, so that requests are decided in Go
	// and one failing request does not fail the rest of its batch.
	head        uint64
	streams     map[string]uint64 // last revision of streams known to exist
	dataVersion int64
	stale       bool // reload head and forget streams before the next batch
}

type writeStatements struct {
	begin, commit, rollback *sql.Stmt
	dataVersion, head       *sql.Stmt
	streamRevision          *sql.Stmt
	knownIDs                *sql.Stmt
	insert                  map[int]*sql.Stmt // by row count
}

// storedRow is an event decided for this batch.
type storedRow struct {
	rec      es.RecordedEvent
	metaJSON string
}

// knownEvent is where an event id already sits in the log.
type knownEvent struct {
	revision, position uint64
}

func openWriter(ctx context.Context, db *sql.DB) (*writer, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, classifyOpenError(err)
	}
	w := &writer{conn: conn, streams: make(map[string]uint64), stale: true, dataVersion: -1}
	if err := w.init(ctx); err != nil {
		_ = w.close()
		return nil, err
	}
	return w, nil
}

func (w *writer) init(ctx context.Context) error {
	if err := prepareSchema(ctx, w.conn); err != nil {
		return err
	}
	var mode string
	if err := w.conn.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode); err != nil {
		return fmt.Errorf("enable WAL: %w", err)
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("enable WAL: journal mode is %q", mode)
	}
	// A large page cache keeps the id and stream indexes in memory. The
	// writer never checkpoints: the checkpointer does, beside it. The WAL
	// file is cut back after a checkpoint.
	if _, err := w.conn.ExecContext(ctx, "PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY; "+
		"PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = 67108864"); err != nil {
		return fmt.Errorf("tune connection: %w", err)
	}
	return w.prepare(ctx)
}

func (w *writer) prepare(ctx context.Context) error {
	var err error
	p := func(query string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = w.conn.PrepareContext(ctx, query)
		return st
	}
	w.stmts = writeStatements{
		begin:          p("BEGIN IMMEDIATE"),
		commit:         p("COMMIT"),
		rollback:       p("ROLLBACK"),
		dataVersion:    p("PRAGMA data_version"),
		head:           p("SELECT COALESCE(MAX(position), 0) FROM events"),
		streamRevision: p("SELECT revision FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1"),
		knownIDs:       p("SELECT id, revision, position FROM events WHERE id IN (SELECT value FROM json_each(?))"),
		insert:         make(map[int]*sql.Stmt, len(insertSizes)),
	}
	for _, n := range insertSizes {
		w.stmts.insert[n] = p("INSERT OR ROLLBACK INTO events (position, id, stream, revision, type, data, metadata) VALUES " +
			strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?, ?), ", n), ", "))
	}
	if err != nil {
		return fmt.Errorf("prepare statements: %w", err)
	}
	return nil
}

func (w *writer) close() error {
	var errs []error
	for _, st := range w.stmts.all() {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	errs = append(errs, w.conn.Close())
	return errors.Join(errs...)
}

func (s writeStatements) all() []*sql.Stmt {
	out := []*sql.Stmt{s.begin, s.commit, s.rollback, s.dataVersion, s.head, s.streamRevision, s.knownIDs}
	for _, st := range s.insert {
		out = append(out, st)
	}
	return out
}

// syncWithFile reloads the caches when asked to or when another connection
// has written to the file since the last batch.
func (w *writer) syncWithFile(ctx context.Context) error {
	var version int64
	if err := w.stmts.dataVersion.QueryRowContext(ctx).Scan(&version); err != nil {
		return fmt.Errorf("read data version: %w", err)
	}
	if !w.stale && version == w.dataVersion {
		return nil
	}
	var head int64
	if err := w.stmts.head.QueryRowContext(ctx).Scan(&head); err != nil {
		return fmt.Errorf("read head: %w", err)
	}
	w.head, w.dataVersion, w.stale = uint64(head), version, false
	clear(w.streams)
	return nil
}

func (w *writer) insert(ctx context.Context, rows []storedRow) error {
	for len(rows) > 0 {
		n := insertSizes[len(insertSizes)-1]
		for _, size := range insertSizes {
			if size <= len(rows) {
				n = size
				break
			}
		}
		args := make([]any, 0, 7*n)
		for _, r := range rows[:n] {
			args = append(args, int64(r.rec.Position), r.rec.ID, r.rec.Stream, int64(r.rec.Revision),
				r.rec.Type, r.rec.Data, r.metaJSON)
		}
		if _, err := w.stmts.insert[n].ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("insert events: %w", err)
		}
		rows = rows[n:]
	}
	return nil
}

// trimStreams keeps the stream cache bounded.
func (w *writer) trimStreams() {
	if len(w.streams) <= maxCachedStreams {
		return
	}
	for s := range w.streams {
		delete(w.streams, s)
		if len(w.streams) <= maxCachedStreams/2 {
			return
		}
	}
}
