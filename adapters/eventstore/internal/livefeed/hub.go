// Package livefeed serves $all subscriptions for the embedded event stores:
// pages read from the store, then the batches the store publishes as they
// become durable, falling back to reading when a subscriber lags. Positions
// are dense (each event's is one more than the one before), as in both
// embedded stores.
package livefeed

import (
	"sync"

	"github.com/eventchat/eventchat/domain/es"
)

// Hub fans durable batches out to the live subscriptions. Publishing never
// waits on a subscriber: a full buffer marks the subscriber as lagging.
type Hub struct {
	closedErr error // what Subscribe and Next return once the store closed

	mu     sync.Mutex
	subs   map[*subscription]struct{}
	closed bool
}

// NewHub returns a hub whose subscriptions fail with closedErr once it is
// closed.
func NewHub(closedErr error) *Hub {
	return &Hub{closedErr: closedErr, subs: make(map[*subscription]struct{})}
}

func (h *Hub) add(s *subscription) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || s.ended() {
		return false
	}
	h.subs[s] = struct{}{}
	return true
}

func (h *Hub) remove(s *subscription) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, s)
}

// Publish offers a durable batch, in position order, to every subscriber.
// Subscribers share it and must not modify it.
func (h *Hub) Publish(batch []es.RecordedEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		s.offer(batch)
	}
}

// CloseAll ends every subscription and refuses new ones.
func (h *Hub) CloseAll() {
	h.mu.Lock()
	subs := h.subs
	h.subs, h.closed = map[*subscription]struct{}{}, true
	h.mu.Unlock()
	for s := range subs {
		s.end()
	}
}
