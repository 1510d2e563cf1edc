package sqlitestore

// A batch holds at most this many requests or events, so that one huge burst
// does not hold every appender behind a single long transaction.
const (
	maxBatchRequests = 1024
	maxBatchEvents   = 8192
)

// runWriter is the writer goroutine: it takes every request queued so far,
// commits them in one transaction (one fsync), answers them and pushes the
// committed events to the subscribers. On Close it drains the queue first.
func (s *Store) runWriter(w *writer) {
	defer close(s.stopped)
	defer func() { _ = w.close() }()
	batch := make([]*appendRequest, 0, maxBatchRequests)
	for {
		select {
		case r := <-s.requests:
			batch = s.commitBatch(w, s.gather(append(batch[:0], r)))
		case <-s.closing:
			for {
				select {
				case r := <-s.requests:
					batch = s.commitBatch(w, s.gather(append(batch[:0], r)))
				default:
					return
				}
			}
		}
	}
}

// gather adds to batch every request already queued, within the bounds.
func (s *Store) gather(batch []*appendRequest) []*appendRequest {
	events := len(batch[0].events)
	for len(batch) < maxBatchRequests && events < maxBatchEvents {
		select {
		case r := <-s.requests:
			batch = append(batch, r)
			events += len(r.events)
		default:
			return batch
		}
	}
	return batch
}

func (s *Store) commitBatch(w *writer, batch []*appendRequest) []*appendRequest {
	replies, committed := w.commit(batch)
	if len(committed) > 0 {
		s.hub.publish(committed)
	}
	for i, r := range batch {
		r.reply <- replies[i]
		batch[i] = nil
	}
	return batch
}
