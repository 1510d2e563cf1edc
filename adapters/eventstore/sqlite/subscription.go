package sqlitestore

import (
	"context"

	"github.com/eventchat/eventchat/domain/es"
)

// SubscribeAll delivers every event with a position above after: pages read
// from the file, then the batches the writer pushes as they commit (see
// livefeed). The subscription ends with Close, with ctx or with the store.
// Delivered slices must not be modified.
func (s *Store) SubscribeAll(ctx context.Context, after uint64) (es.Subscription, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if after > 0 {
		if err := s.checkPosition(ctx, after); err != nil {
			return nil, err
		}
	}
	return s.hub.Subscribe(ctx, after, s.ReadAll)
}
