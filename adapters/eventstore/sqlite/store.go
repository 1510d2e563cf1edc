// Package sqlitestore is the embedded event store: one SQLite file in WAL
// mode. Appends are group-committed by a single writer goroutine (one fsync
// for many concurrent appends), reads use a separate read-only pool, and
// live subscriptions are pushed by the writer right after each commit.
//
// One process owns a store file at a time; another process appending to the
// same file is detected and tolerated, not supported.
package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// ErrClosed is returned by calls on a closed store or subscription.
var ErrClosed = errors.New("sqlitestore: closed")

// readConns bounds the read-only pool; WAL readers do not block each other
// nor the writer.
const readConns = 4

// Store is the SQLite event store. It is safe for concurrent use.
type Store struct {
	ckpt    *checkpointer
	writeDB *sql.DB
	readDB  *sql.DB
	reads   *readStatements
	hub     *hub

	requests chan *appendRequest
	closing  chan struct{} // closed by Close: the writer drains and stops
	stopped  chan struct{} // closed by the writer once it has stopped

	closeOnce sync.Once
	closeErr  error
}

// Open opens the event store in the file at path, creating it when the file
// does not exist or is an empty database. A file that is not one of our
// event stores is refused with ErrNotEventStore.
func Open(path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("sqlitestore: open: empty path")
	}
	ctx := context.Background()
	writeDB, err := sql.Open("sqlite", dsn(path, "busy_timeout(5000)", "synchronous(FULL)"))
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	writeDB.SetMaxOpenConns(1)
	w, err := openWriter(ctx, writeDB)
	if err != nil {
		_ = writeDB.Close()
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	readDB, err := sql.Open("sqlite", dsn(path, "busy_timeout(5000)", "query_only(1)"))
	if err != nil {
		_ = w.close()
		_ = writeDB.Close()
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	readDB.SetMaxOpenConns(readConns)
	readDB.SetMaxIdleConns(readConns)
	reads, err := prepareReads(ctx, readDB)
	if err != nil {
		_ = readDB.Close()
		_ = w.close()
		_ = writeDB.Close()
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	ckpt, err := startCheckpointer(path)
	if err != nil {
		_ = readDB.Close()
		_ = w.close()
		_ = writeDB.Close()
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	s := &Store{
		ckpt:     ckpt,
		writeDB:  writeDB,
		readDB:   readDB,
		reads:    reads,
		hub:      newHub(),
		requests: make(chan *appendRequest, maxBatchRequests),
		closing:  make(chan struct{}),
		stopped:  make(chan struct{}),
	}
	go s.runWriter(w)
	return s, nil
}

// Close waits for the appends already queued to commit, ends every
// subscription and closes the file. Appends still waiting to be queued fail
// with ErrClosed.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		close(s.closing)
		<-s.stopped
		s.hub.closeAll()
		s.closeErr = errors.Join(s.ckpt.close(), s.reads.close(), s.readDB.Close(), s.writeDB.Close())
	})
	return s.closeErr
}

func (s *Store) isClosed() bool {
	select {
	case <-s.closing:
		return true
	default:
		return false
	}
}

// dsn builds a SQLite URI for path with the given pragmas applied to every
// connection; characters meaningful in a URI are escaped.
func dsn(path string, pragmas ...string) string {
	escaped := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	var b strings.Builder
	b.WriteString("file:")
	b.WriteString(escaped)
	for i, p := range pragmas {
		if i == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString("_pragma=")
		b.WriteString(p)
	}
	return b.String()
}
