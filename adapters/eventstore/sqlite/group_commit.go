package sqlitestore

import (
	"runtime"
	"time"

	"github.com/eventchat/eventchat/domain/es"
)

// A batch holds at most this many requests or events, so that one huge burst
// does not hold every appender behind a single long transaction.
const (
	maxBatchRequests = 1024
	maxBatchEvents   = 8192
)

// gatherWait bounds how long the writer waits for the appends under way to
// join a batch: an append answered a moment ago is about to come back, and
// one transaction for many appends costs much less than many. Waiting
// longer makes larger batches but longer round trips, and with a fixed
// number of appenders, fewer appends per second.
const gatherWait = 50 * time.Microsecond

// runWriter is the writer goroutine: it takes every request queued so far,
// commits them in one transaction and hands the batch to the syncer, which
// makes it durable and answers it while the writer commits the next one. On
// Close it drains the queue first.
func (s *Store) runWriter(w *writer) {
	defer close(s.committed)
	for {
		select {
		case r := <-s.requests:
			s.commitBatch(w, s.gather(r))
			if s.ckpt.finish.Load() {
				w.finishCheckpoint()
				s.ckpt.finish.Store(false)
			}
		case <-s.closing:
			for {
				select {
				case r := <-s.requests:
					s.commitBatch(w, s.gather(r))
				default:
					return
				}
			}
		}
	}
}

// gather returns a batch of first and every request queued, within the
// bounds, waiting up to gatherWait for the appends under way that are not
// waiting for their fsync.
func (s *Store) gather(first *appendRequest) []*appendRequest {
	batch := []*appendRequest{first} // the syncer's once committed
	events := len(first.events)
	waiting := false
	for len(batch) < maxBatchRequests && events < maxBatchEvents {
		select {
		case r := <-s.requests:
			batch = append(batch, r)
			events += len(r.events)
			continue
		default:
		}
		if int64(len(batch)) >= s.inflight.Load()-s.syncing.Load() {
			return batch
		}
		if !waiting {
			waiting = true
			s.gatherTimer.Reset(gatherWait)
		}
		select {
		case r := <-s.requests:
			batch = append(batch, r)
			events += len(r.events)
		case <-s.gatherTimer.C:
			return batch
		}
	}
	return batch
}

// commitBatch commits batch and hands it to the syncer. A batch that fails
// commits nothing and is answered at once.
func (s *Store) commitBatch(w *writer, batch []*appendRequest) {
	err := s.failure()
	var replies []appendReply
	var events []es.RecordedEvent
	if err == nil {
		replies, events, err = w.commit(batch)
	}
	if err != nil {
		for _, r := range batch {
			r.reply <- appendReply{err: err}
		}
		return
	}
	s.syncing.Add(int64(len(batch)))
	s.committed <- committedBatch{requests: batch, replies: replies, events: events, head: w.head}
	// The syncer, woken by the send, waits for this goroutine's processor
	// until the writer blocks, which may be a whole batch later: yielding
	// starts the fsync now.
	runtime.Gosched()
}
