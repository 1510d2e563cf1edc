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
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/eventchat/eventchat/adapters/eventstore/internal/livefeed"
	"github.com/eventchat/eventchat/domain/es"
)

// ErrClosed is returned by calls on a closed store or subscription.
var ErrClosed = errors.New("sqlitestore: closed")

// readConns bounds the read-only pool; WAL readers do not block each other
// nor the writer.
const readConns = 4

// Store is the SQLite event store. It is safe for concurrent use.
type Store struct {
	w       *writer
	ckpt    *checkpointer
	readers *readers
	hub     *livefeed.Hub

	requests    chan *appendRequest
	inflight    atomic.Int64 // appends between queueing and returning
	gatherTimer *time.Timer  // the writer's
	committed   chan committedBatch
	syncing     atomic.Int64  // appends committed, waiting for their fsync
	durable     atomic.Uint64 // the last position known durable: reads stop there
	maxAppend   atomic.Int64  // bytes, es.MaxAppendSize unless lifted
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
	w, err := openWriter(path)
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	head, err := w.durableHead()
	if err != nil {
		_ = w.close()
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	ckpt, err := startCheckpointer(path)
	if err != nil {
		_ = w.close()
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	s := &Store{
		w:           w,
		ckpt:        ckpt,
		readers:     newReaders(path),
		hub:         livefeed.NewHub(ErrClosed),
		requests:    make(chan *appendRequest, maxBatchRequests),
		gatherTimer: time.NewTimer(time.Hour),
		committed:   make(chan committedBatch, maxSyncing),
		closing:     make(chan struct{}),
		stopped:     make(chan struct{}),
	}
	s.gatherTimer.Stop()
	s.durable.Store(head)
	s.maxAppend.Store(es.MaxAppendSize)
	go s.runWriter(w)
	go s.runSyncer(w)
	return s, nil
}

// LiftAppendLimit lets appends hold up to n bytes: for a store that keeps
// more with each event than its own callers sent, as the esdbtest double
// does, which holds appends to es.MaxAppendSize itself.
func (s *Store) LiftAppendLimit(n int) { s.maxAppend.Store(int64(n)) }

// Close waits for the appends already queued to commit and be durable, ends
// every subscription and closes the file. Appends still waiting to be queued
// fail with ErrClosed.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		close(s.closing)
		<-s.stopped
		s.hub.CloseAll()
		s.closeErr = errors.Join(s.ckpt.close(), s.readers.close(), s.w.close())
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
