package sqlitestore

import (
	"errors"
	"fmt"

	"github.com/eventchat/eventchat/adapters/eventstore/internal/cache"
	"github.com/eventchat/eventchat/adapters/sqlitec"
	"github.com/eventchat/eventchat/domain/es"
)

// maxInsertRows is the row count of the largest multi-row INSERT; smaller
// powers of two cover the rest of a batch.
const maxInsertRows = 32

// writerPragmas tune the writer connection, which sqlitec runs with
// synchronous = FULL and its fsync deferred to the syncer. The page cache
// is small: SQLite scans all of it at every commit that split a page (a
// page renumbered through the lock-byte page number leaves its cache thinking
// it holds pages past the end of the file), and past a few hundred
// thousand events the random leaves of the id index miss any cache anyway.
// The writer never checkpoints on its own: the checkpointer does, beside
// it. The WAL file is cut back to journal_size_limit when it starts over.
const writerPragmas = "PRAGMA cache_size = -8192; PRAGMA temp_store = MEMORY; " +
	"PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = 67108864"

// writer owns the single read-write connection. Only the writer goroutine
// touches it.
type writer struct {
	conn *sqlitec.Conn
	st   writeStatements

	// head and streams mirror the file, so that requests are decided in Go
	// and one failing request does not fail the rest of its batch.
	head        uint64
	streams     cache.Revisions
	dataVersion int64
	stale       bool // reload head and forget streams before the next batch

	// known and metas are reused from batch to batch.
	known map[string]knownEvent
	metas []string // encoded metadata of the events decided, by index
}

type writeStatements struct {
	begin, commit, rollback *sqlitec.Stmt
	dataVersion, head       *sqlitec.Stmt
	streamRevision, knownID *sqlitec.Stmt
	checkpoint              *sqlitec.Stmt
	insert                  sqlitec.Batch
}

// knownEvent is where an event id already sits in the log.
type knownEvent struct {
	revision, position uint64
}

func openWriter(path string) (*writer, error) {
	conn, err := sqlitec.OpenWAL(path, sqlitec.DeferredSyncWAL)
	if err != nil {
		return nil, classifyOpenError(err)
	}
	w := &writer{
		conn: conn, streams: make(cache.Revisions), stale: true, dataVersion: -1,
		known: make(map[string]knownEvent),
	}
	if err := w.init(); err != nil {
		return nil, errors.Join(err, conn.Close())
	}
	return w, nil
}

func (w *writer) init() error {
	// page_size applies to a new, empty file only.
	if err := w.conn.Exec(fmt.Sprintf("PRAGMA busy_timeout = 5000; PRAGMA page_size = %d", pageSize)); err != nil {
		return classifyOpenError(err)
	}
	if err := prepareSchema(w.conn); err != nil {
		return err
	}
	var mode string
	if err := w.conn.QueryRow("PRAGMA journal_mode = WAL", func(s *sqlitec.Stmt) { mode = s.Text(0) }); err != nil {
		return fmt.Errorf("enable WAL: %w", err)
	}
	if mode != "wal" {
		return fmt.Errorf("enable WAL: journal mode is %q", mode)
	}
	if err := w.conn.Exec(writerPragmas); err != nil {
		return fmt.Errorf("tune connection: %w", err)
	}
	return w.prepare()
}

func (w *writer) prepare() error {
	st := &w.st
	err := w.conn.PrepareAll(map[**sqlitec.Stmt]string{
		&st.begin:          "BEGIN IMMEDIATE",
		&st.commit:         "COMMIT",
		&st.rollback:       "ROLLBACK",
		&st.dataVersion:    "PRAGMA data_version",
		&st.head:           "SELECT COALESCE(MAX(position), 0) FROM events",
		&st.streamRevision: "SELECT revision FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1",
		&st.knownID:        "SELECT revision, position FROM events WHERE id = ?",
		&st.checkpoint:     "PRAGMA wal_checkpoint(PASSIVE)",
	})
	if err == nil {
		// OR ROLLBACK: a refused row ends the transaction at once, so the
		// statement needs no journal of its own to undo its earlier rows.
		st.insert, err = w.conn.PrepareBatch(maxInsertRows, func(rows int) string {
			return "INSERT OR ROLLBACK INTO events (position, id, stream, revision, type, data, metadata) VALUES " +
				sqlitec.Tuples(rows, 7)
		})
	}
	if err != nil {
		return fmt.Errorf("prepare statements: %w", err)
	}
	return nil
}

func (w *writer) close() error { return w.conn.Close() }

// syncWithFile reloads the caches when asked to or when another connection
// has written to the file since the last batch.
func (w *writer) syncWithFile() error {
	version, err := w.queryInt(w.st.dataVersion)
	if err != nil {
		return fmt.Errorf("read data version: %w", err)
	}
	if !w.stale && version == w.dataVersion {
		return nil
	}
	head, err := w.queryInt(w.st.head)
	if err != nil {
		return fmt.Errorf("read head: %w", err)
	}
	w.head, w.dataVersion, w.stale = uint64(head), version, false
	clear(w.streams)
	return nil
}

// durableHead makes what the file holds durable, as a previous process may
// have left commits not yet synced, and returns its last position.
func (w *writer) durableHead() (uint64, error) {
	head, err := w.queryInt(w.st.head) // opens the WAL file
	if err != nil {
		return 0, fmt.Errorf("read head: %w", err)
	}
	if err := w.conn.SyncWAL(); err != nil {
		return 0, fmt.Errorf("sync: %w", err)
	}
	return uint64(head), nil
}

// queryInt runs a statement that returns one integer.
func (w *writer) queryInt(st *sqlitec.Stmt) (int64, error) {
	var v int64
	if st.Next() {
		v = st.Int(0)
	}
	return v, st.Done()
}

// insert writes the events decided, in chunks of prepared sizes.
func (w *writer) insert(recs []es.RecordedEvent) error {
	err := w.st.insert.Chunks(len(recs), func(st *sqlitec.Stmt, from, to int) error {
		for i := from; i < to; i++ {
			r := &recs[i]
			st.BindInt(int64(r.Position))
			bindEventID(st, r.ID)
			st.BindText(r.Stream)
			st.BindInt(int64(r.Revision))
			st.BindText(r.Type)
			st.BindBlob(r.Data)
			st.BindText(w.metas[i])
		}
		return st.Exec()
	})
	if err != nil {
		return fmt.Errorf("insert events: %w", err)
	}
	return nil
}

// finishCheckpoint copies to the database the last frames the checkpointer
// left behind, so that the next commit starts the WAL over. A checkpoint
// must only copy a synced WAL, and this connection defers its syncs: it
// syncs first. A failure only leaves the WAL growing a little longer.
func (w *writer) finishCheckpoint() {
	if w.conn.SyncWAL() == nil {
		_, _, _ = walCheckpoint(w.st.checkpoint)
	}
}
