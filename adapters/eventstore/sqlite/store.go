// Package sqlitestore is the embedded event store: one SQLite file in WAL
// mode. Appends are group-committed by a single writer goroutine (one fsync
// for many concurrent appends) through the SQLite C API (sqlitec); the
// fsync of a batch runs on a syncer goroutine while the writer commits the
// next batch. Reads use a separate read-only pool and see only durable
// events; live subscriptions are pushed right after each fsync.
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
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// ErrClosed is returned by calls on a closed store or subscription.
var ErrClosed = errors.New("sqlitestore: closed")

// readConns bounds the read-only pool; WAL readers do not block each other
// nor the writer.
const readConns = 4

// Store is the SQLite event store. It is safe for concurrent use.
type Store struct {
	w      *writer
	ckpt   *checkpointer
	readDB *sql.DB
	reads  *readStatements
	hub    *hub

	requests    chan *appendRequest
	inflight    atomic.Int64 // appends between queueing and returning
	gatherTimer *time.Timer  // the writer's
	committed   chan committedBatch
	syncing     atomic.Int64  // appends committed, waiting for their fsync
	durable     atomic.Uint64 // the last position known durable: reads stop there
	failed      failed
	closing     chan struct{} // closed by Close: the writer drains and stops
	stopped     chan struct{} // closed by the syncer once both have stopped

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
	w, err := openWriter(path)
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	readDB, err := sql.Open("sqlite", dsn(path, "busy_timeout(5000)", "query_only(1)"))
	if err != nil {
		_ = w.close()
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	readDB.SetMaxOpenConns(readConns)
	readDB.SetMaxIdleConns(readConns)
	reads, err := prepareReads(ctx, readDB)
	if err != nil {
		_ = readDB.Close()
		_ = w.close()
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	head, err := w.durableHead()
	if err != nil {
		_ = reads.close()
		_ = readDB.Close()
		_ = w.close()
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	ckpt, err := startCheckpointer(path)
	if err != nil {
		_ = reads.close()
		_ = readDB.Close()
		_ = w.close()
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	s := &Store{
		w:           w,
		ckpt:        ckpt,
		readDB:      readDB,
		reads:       reads,
		hub:         newHub(),
		requests:    make(chan *appendRequest, maxBatchRequests),
		gatherTimer: time.NewTimer(time.Hour),
		committed:   make(chan committedBatch, maxSyncing),
		closing:     make(chan struct{}),
		stopped:     make(chan struct{}),
	}
	s.gatherTimer.Stop()
	s.durable.Store(head)
	go s.runWriter(w)
	go s.runSyncer(w)
	return s, nil
}

// Close waits for the appends already queued to commit and be durable, ends
// every subscription and closes the file. Appends still waiting to be queued
// fail with ErrClosed.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		close(s.closing)
		<-s.stopped
		s.hub.closeAll()
		s.closeErr = errors.Join(s.ckpt.close(), s.reads.close(), s.readDB.Close(), s.w.close())
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
