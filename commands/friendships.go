package commands

import (
	"context"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/friend"
)

// cachedFriendship keeps a pair's state between commands; every use reads
// the stream's tail after the cached revision, so other nodes' appends are
// seen and the cache is never stale when a decision is made.
type cachedFriendship struct {
	state friend.Friendship
	st    streamState
}

// friendship returns the current state of a pair and its revision.
func (a *App) friendship(ctx context.Context, tenant, pairID string) (friend.Friendship, streamState, error) {
	stream := es.Stream(tenant, es.CategoryFriendship, pairID)
	a.mu.Lock()
	c, ok := a.friendships[stream]
	var cached cachedFriendship
	if ok {
		cached = *c
		cached.state = c.state.Clone()
	}
	a.mu.Unlock()

	from := uint64(0)
	if cached.st.exists {
		from = cached.st.revision + 1
	}
	st, err := a.load(ctx, stream, from, cached.state.Apply)
	if err != nil {
		return friend.Friendship{}, streamState{}, err
	}
	if st.exists {
		cached.st = st
	}
	a.mu.Lock()
	if cur, ok := a.friendships[stream]; !ok || !cur.st.exists || cur.st.revision < cached.st.revision {
		keep := cached
		keep.state = cached.state.Clone()
		a.friendships[stream] = &keep
	}
	a.mu.Unlock()
	return cached.state, cached.st, nil
}
