// Package pebblestore is the embedded event store on Pebble, a log-structured
// key-value store. Appends queue behind a leader, which writes those queued
// in one Pebble batch synced to its write-ahead log; Pebble's commit
// pipeline gathers the syncs of the batches under way into one fsync.
// Positions and revisions are assigned under a mutex that also hands the
// batch to the pipeline, so that the WAL holds the batches in position
// order: a batch is durable only once every batch before it is, and after a
// crash the log has no gap. Reads and subscriptions see only durable events.
// The WAL files are filled with zeros ahead of the log (filledFS), so that
// its syncs overwrite.
//
// One process owns a store directory at a time (Pebble locks it).
package pebblestore

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/eventchat/eventchat/adapters/eventstore/internal/cache"
	"github.com/eventchat/eventchat/adapters/eventstore/internal/livefeed"
	"github.com/eventchat/eventchat/domain/es"
)

// ErrClosed is returned by calls on a closed store or subscription.
var ErrClosed = errors.New("pebblestore: closed")

// ErrNotEventStore is returned by Open for a Pebble directory that holds
// something else than an event log.
var ErrNotEventStore = errors.New("pebblestore: not an event store")

// The block cache and memtable sizes; Pebble's defaults (8 and 4 MiB) make
// an append read the id index from the files past a few hundred thousand
// events.
const (
	cacheSize    = 64 << 20
	memTableSize = 32 << 20
)

// While at least busyAppends appends are in flight, the WAL waits
// syncGather after a sync before it starts the next one. Without the wait,
// the appends a sync releases come back just after the next sync started
// with the few that waited for it, and every other sync is half empty
// (imbench appends, 64 appenders, seven runs each: a median of 38,200
// appends/s without the wait, 43,500 with it). Fewer appends in flight, at
// 1,000 messages a second about one, are synced as soon as they are
// written.
const (
	busyAppends = 8
	syncGather  = 200 * time.Microsecond
)

// recentIDs bounds s.recent: an append that looked its ids up before that
// many events were handed to Pebble looks them up again under seqMu.
const recentIDs = 1 << 16

// Store is the Pebble event store. It is safe for concurrent use.
type Store struct {
	db    *pebble.DB
	hub   *livefeed.Hub
	types cache.Types

	// closeMu is held shared by every call using db, and exclusively by
	// Close, which so waits for them.
	closeMu sync.RWMutex
	closed  bool

	// queueMu guards queue, the appends waiting to be written, in arrival
	// order; its head leads (see queued).
	queueMu sync.Mutex
	queue   []*queued

	// seqMu orders appends: it is held while appends are decided and their
	// batch handed to Pebble, so that positions follow the WAL's order.
	seqMu   sync.Mutex
	head    uint64 // last position handed to Pebble
	streams cache.Revisions
	// recent holds the ids of the last recentIDs events handed to Pebble,
	// recentRing them by position modulo recentIDs.
	recent     map[string]idEntry
	recentRing []string
	applied    atomic.Uint64 // head, read without seqMu
	ids        *idFilter     // every id in the log

	// pubMu guards pending, the batches handed to Pebble and not yet
	// published, in position order.
	pubMu   sync.Mutex
	pending []pendingBatch
	durable atomic.Uint64 // the last position known durable: reads stop there

	failed atomic.Pointer[error]

	// inFlight counts the appends between their start and their answer.
	inFlight atomic.Int32
}

type pendingBatch struct {
	last   uint64
	events []es.RecordedEvent
}

// Open opens the event store in the directory dir, creating it when it does
// not exist.
func Open(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("pebblestore: open: empty path")
	}
	s := &Store{
		hub: livefeed.NewHub(ErrClosed), streams: make(cache.Revisions),
		recent: make(map[string]idEntry), recentRing: make([]string, recentIDs),
	}
	db, err := pebble.Open(dir, options(s.syncWait))
	if err != nil {
		return nil, fmt.Errorf("pebblestore: open %s: %w", dir, err)
	}
	s.db = db
	if err := s.init(); err != nil {
		return nil, errors.Join(fmt.Errorf("pebblestore: open %s: %w", dir, err), db.Close())
	}
	return s, nil
}

// syncWait is how long the WAL waits after a sync before the next one.
func (s *Store) syncWait() time.Duration {
	if s.inFlight.Load() >= busyAppends {
		return syncGather
	}
	return 0
}

func options(syncWait func() time.Duration) *pebble.Options {
	// Appends look every event id up, nearly always to find it absent: the
	// filters and index blocks of the tables must stay in memory.
	o := &pebble.Options{Logger: quietLogger{}, CacheSize: cacheSize, MemTableSize: memTableSize}
	o.Levels[0].FilterPolicy = bloom.FilterPolicy(10)
	o.WALMinSyncInterval = syncWait
	o.FS = filledFS{vfs.Default}
	o.EnsureDefaults()
	return o
}

// init marks a new store, refuses a foreign one, makes what a previous
// process left in the WAL durable and finds the head.
func (s *Store) init() error {
	v, closer, err := s.db.Get(markerKey)
	switch {
	case errors.Is(err, pebble.ErrNotFound):
		empty, err := s.isEmpty()
		if err != nil {
			return err
		}
		if !empty {
			return fmt.Errorf("%w: no event log marker", ErrNotEventStore)
		}
		if err := s.db.Set(markerKey, []byte(markerValue), pebble.Sync); err != nil {
			return err
		}
	case err != nil:
		return err
	default:
		ok := string(v) == markerValue
		_ = closer.Close()
		if !ok {
			return fmt.Errorf("%w: unknown event log format", ErrNotEventStore)
		}
	}
	// A WAL replayed at open may not have been synced by the process that
	// wrote it: flushing makes it durable before anyone reads it.
	if err := s.db.Flush(); err != nil {
		return err
	}
	head, err := s.lastPosition()
	if err != nil {
		return err
	}
	if s.ids, err = loadIDFilter(s.db, head); err != nil {
		return err
	}
	s.head = head
	s.applied.Store(head)
	s.durable.Store(head)
	return nil
}

func (s *Store) isEmpty() (bool, error) {
	it, err := s.db.NewIter(nil)
	if err != nil {
		return false, err
	}
	empty := !it.First()
	return empty, it.Close()
}

func (s *Store) lastPosition() (uint64, error) {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte{prefixEvent}, UpperBound: []byte{prefixEvent + 1}})
	if err != nil {
		return 0, err
	}
	var head uint64
	if it.Last() {
		head = positionOfKey(it.Key())
	}
	return head, it.Close()
}

// Close waits for the appends under way to be durable, ends every
// subscription and closes the store.
func (s *Store) Close() error {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.hub.CloseAll()
	return s.db.Close()
}

// use takes the store for a call; done must be called once it returns.
func (s *Store) use() (done func(), err error) {
	s.closeMu.RLock()
	if s.closed {
		s.closeMu.RUnlock()
		return nil, ErrClosed
	}
	return s.closeMu.RUnlock, nil
}

// fail stops every further append: the log past the durable head is in
// doubt.
func (s *Store) fail(err error) error {
	err = fmt.Errorf("pebblestore: append: %w", err)
	s.failed.CompareAndSwap(nil, &err)
	return err
}

func (s *Store) failure() error {
	if p := s.failed.Load(); p != nil {
		return *p
	}
	return nil
}

// advance makes everything handed to Pebble up to position upTo, the last
// of a batch, visible to readers and publishes it.
func (s *Store) advance(upTo uint64) {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	if upTo <= s.durable.Load() {
		return
	}
	s.durable.Store(upTo)
	n := 0
	for n < len(s.pending) && s.pending[n].last <= upTo {
		s.hub.Publish(s.pending[n].events)
		n++
	}
	s.pending = append(s.pending[:0], s.pending[n:]...)
}

// quietLogger keeps Pebble's informational lines out of the server's log.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any) {}
func (quietLogger) Errorf(format string, args ...any) {
	pebble.DefaultLogger.Errorf(format, args...)
}
func (quietLogger) Fatalf(format string, args ...any) {
	pebble.DefaultLogger.Fatalf(format, args...)
}
