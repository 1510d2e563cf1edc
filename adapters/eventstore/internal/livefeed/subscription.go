package livefeed

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/eventchat/eventchat/domain/es"
)

const (
	// catchUpPage is the page size of reads from the store.
	catchUpPage = 2048
	// liveBuffer is how many committed batches a subscriber may hold before
	// it is considered lagging and falls back to reading the store.
	liveBuffer = 256
	// maxLiveDelivery bounds the events one Next merges from live batches.
	maxLiveDelivery = 8192
)

// ReadAll reads up to max durable events with a position above after, in
// position order.
type ReadAll func(ctx context.Context, after uint64, max int) ([]es.RecordedEvent, error)

// Subscribe delivers every event with a position above after: pages read
// with read, then the batches published on h. A subscriber that falls behind
// the live stream reads again until it has caught up. The subscription ends
// with Close, with ctx or with the hub. Delivered slices must not be
// modified.
func (h *Hub) Subscribe(ctx context.Context, after uint64, read ReadAll) (es.Subscription, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sub := &subscription{
		hub:        h,
		read:       read,
		live:       make(chan []es.RecordedEvent, liveBuffer),
		done:       make(chan struct{}),
		last:       after,
		catchingUp: true,
	}
	// Registered before the first read, so that whatever commits after that
	// read arrives live: the switch-over has no gap.
	if !h.add(sub) {
		return nil, h.closedErr
	}
	stop := context.AfterFunc(ctx, func() { _ = sub.Close() })
	sub.watchMu.Lock()
	sub.stopWatch = stop
	sub.watchMu.Unlock()
	return sub, nil
}

type subscription struct {
	hub       *Hub
	read      ReadAll
	live      chan []es.RecordedEvent
	lagging   atomic.Bool // set by Publish when live was full
	done      chan struct{}
	endOnce   sync.Once
	watchMu   sync.Mutex
	stopWatch func() bool // stops watching the SubscribeAll context

	mu         sync.Mutex // serialises Next
	last       uint64     // position of the last event delivered
	catchingUp bool
}

func (sub *subscription) offer(batch []es.RecordedEvent) {
	select {
	case sub.live <- batch:
	default:
		sub.lagging.Store(true)
	}
}

// Next blocks until at least one event after the last delivered one is
// available and returns them in position order.
func (sub *subscription) Next(ctx context.Context) ([]es.RecordedEvent, error) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	for {
		if sub.ended() {
			return nil, sub.hub.closedErr
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if sub.catchingUp {
			page, err := sub.read(ctx, sub.last, catchUpPage)
			if err != nil {
				return nil, err
			}
			// A short page means the store holds nothing more durable: what commits
			// from now on is in the live buffer.
			sub.catchingUp = len(page) == catchUpPage
			if len(page) > 0 {
				sub.last = page[len(page)-1].Position
				return page, nil
			}
			continue
		}
		if sub.lagging.Swap(false) {
			sub.catchingUp = true
			continue
		}
		select {
		case batch := <-sub.live:
			if out := sub.takeLive(batch); len(out) > 0 {
				return out, nil
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-sub.done:
			return nil, sub.hub.closedErr
		}
	}
}

// takeLive returns the events of batch, and of the batches queued behind it,
// that follow the last one delivered. Events already read from the store are
// skipped; a gap (batches dropped while lagging) sends the subscriber back to
// the store.
func (sub *subscription) takeLive(batch []es.RecordedEvent) []es.RecordedEvent {
	var out []es.RecordedEvent
	for {
		for i := range batch {
			if batch[i].Position <= sub.last {
				continue
			}
			if batch[i].Position != sub.last+1 {
				sub.catchingUp = true
				return out
			}
			out = append(out, batch[i])
			sub.last++
		}
		if len(out) >= maxLiveDelivery {
			return out
		}
		select {
		case batch = <-sub.live:
		default:
			return out
		}
	}
}

// Close ends the subscription; Next then fails with the hub's closed error.
func (sub *subscription) Close() error {
	sub.end()
	sub.hub.remove(sub)
	sub.watchMu.Lock()
	defer sub.watchMu.Unlock()
	if sub.stopWatch != nil {
		sub.stopWatch()
	}
	return nil
}

func (sub *subscription) end() {
	sub.endOnce.Do(func() { close(sub.done) })
}

func (sub *subscription) ended() bool {
	select {
	case <-sub.done:
		return true
	default:
		return false
	}
}
