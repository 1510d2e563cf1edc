package pebblestore

import (
	"sync"

	"github.com/eventchat/eventchat/domain/es"
)

// hub fans durable batches out to the live subscriptions. An appender never
// waits on a subscriber: a full buffer marks the subscriber as lagging.
type hub struct {
	mu     sync.Mutex
	subs   map[*subscription]struct{}
	closed bool
}

func newHub() *hub { return &hub{subs: make(map[*subscription]struct{})} }

func (h *hub) add(s *subscription) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || s.ended() {
		return false
	}
	h.subs[s] = struct{}{}
	return true
}

func (h *hub) remove(s *subscription) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, s)
}

// publish offers a committed batch, in position order, to every subscriber.
// Subscribers share it and must not modify it.
func (h *hub) publish(batch []es.RecordedEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		s.offer(batch)
	}
}

func (h *hub) closeAll() {
	h.mu.Lock()
	subs := h.subs
	h.subs, h.closed = map[*subscription]struct{}{}, true
	h.mu.Unlock()
	for s := range subs {
		s.end()
	}
}
