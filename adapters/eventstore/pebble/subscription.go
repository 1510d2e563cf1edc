package pebblestore

import (
	"context"

	"github.com/eventchat/eventchat/domain/es"
)

// SubscribeAll delivers every event with a position above after: pages read
// from the store, then the batches pushed as they become durable (see
// livefeed). The subscription ends with Close, with ctx or with the store.
// Delivered slices must not be modified.
func (s *Store) SubscribeAll(ctx context.Context, after uint64) (es.Subscription, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := s.checkPosition(after); err != nil {
		return nil, err
	}
	return s.hub.Subscribe(ctx, after, s.ReadAll)
}
