package sqlitestore

import (
	"fmt"
	"sync"

	"github.com/eventchat/eventchat/domain/es"
)

// maxSyncing bounds the batches committed and waiting for their fsync: past
// it, the writer waits for the syncer.
const maxSyncing = 16

// committedBatch is a batch the writer has committed, waiting for the fsync
// that makes it durable.
type committedBatch struct {
	requests []*appendRequest
	replies  []appendReply
	events   []es.RecordedEvent
	head     uint64 // the last position of the log once committed
}

// runSyncer makes the committed batches durable, in order, with one fsync of
// the WAL for all the batches committed since the last one. Only then does
// it raise the durable head, which bounds every read, push the events to the
// subscribers and answer the appends: what is read, pushed or acknowledged
// is durable. It stops once the writer has stopped and every batch is
// answered.
//
// SQLite publishes a commit to the other connections before it is durable
// (see sqlitec.DeferredSyncWAL); the reads of this store do not look past
// the durable head, and nothing else reads the file.
func (s *Store) runSyncer(w *writer) {
	defer close(s.stopped)
	var group []committedBatch
	for b := range s.committed {
		group = append(group[:0], b)
	more:
		for {
			select {
			case b, ok := <-s.committed:
				if !ok {
					break more
				}
				group = append(group, b)
			default:
				break more
			}
		}
		err := s.failure()
		if err == nil {
			if err = w.conn.SyncWAL(); err != nil {
				s.fail(fmt.Errorf("sqlitestore: append: make durable: %w", err))
				err = s.failure()
			}
		}
		for _, b := range group {
			s.settle(b, err)
		}
	}
}

// settle answers a batch once its fsync is done, or failed with err.
func (s *Store) settle(b committedBatch, err error) {
	if err == nil {
		s.durable.Store(b.head)
		if len(b.events) > 0 {
			s.hub.Publish(b.events)
		}
	}
	for i, r := range b.requests {
		reply := b.replies[i]
		if err != nil {
			reply = appendReply{err: err}
		}
		r.reply <- reply
	}
	s.syncing.Add(-int64(len(b.requests)))
}

// failed holds the fsync failure that ends appending: what that fsync
// should have made durable may or may not be on disk, and later batches
// were decided on it.
type failed struct {
	mu  sync.Mutex
	err error
}

func (s *Store) fail(err error) {
	s.failed.mu.Lock()
	defer s.failed.mu.Unlock()
	if s.failed.err == nil {
		s.failed.err = err
	}
}

func (s *Store) failure() error {
	s.failed.mu.Lock()
	defer s.failed.mu.Unlock()
	return s.failed.err
}
