package commands

import "sync"

// followedCache caches state folded from streams for the commands that
// read it on every message. An entry is evicted as soon as an event of its
// stream commits (seen on the live log, from any node, or appended here),
// and a loaded value is kept only if nothing was evicted while it loaded,
// so a hit is never older than the last event the log has delivered. The
// cache is used only while the log is followed.
type followedCache[V any] struct {
	mu        sync.Mutex
	following bool
	evictions uint64
	max       int // entries; past it, the cache starts afresh (0: no bound)
	values    map[string]V
}

// get returns a cached value and the eviction count to pass to put.
func (c *followedCache[V]) get(key string) (V, bool, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.values[key]
	return v, ok && c.following, c.evictions
}

// put keeps v unless an eviction happened since the get that returned since.
func (c *followedCache[V]) put(key string, v V, since uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.following || c.evictions != since {
		return
	}
	if c.values == nil || (c.max > 0 && len(c.values) >= c.max) {
		c.values = map[string]V{}
	}
	c.values[key] = v
}

func (c *followedCache[V]) evict(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.evictions++
	delete(c.values, key)
}

func (c *followedCache[V]) follow(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.following = on
	c.evictions++
	c.values = nil
}
