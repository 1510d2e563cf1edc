package esdb

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	client "github.com/EventStore/EventStore-Client-Go/v4/esdb"

	"github.com/eventchat/eventchat/domain/es"
)

const (
	// subscriptionBuffer is the number of received events a subscription
	// holds for Next; past it, the server is held back by gRPC flow control.
	subscriptionBuffer = 1024
	// maxDelivery bounds the events one Next returns.
	maxDelivery = 1024
	minBackoff  = 50 * time.Millisecond
	maxBackoff  = 5 * time.Second
)

// SubscribeAll delivers the events of the application's streams after
// position after (refused with es.ErrInvalidPosition when the log never gave
// it out): the stored ones, then the live ones. A dropped
// connection is reopened with back-off from the last delivered position.
// The subscription ends with Close, with the store, or when ctx ends.
func (s *Store) SubscribeAll(ctx context.Context, after uint64) (es.Subscription, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if after > 0 {
		// The server refuses a position inside a record, not one past the
		// last: a subscription from there would wait for the log to grow.
		head, err := s.Head(ctx)
		if err != nil {
			return nil, err
		}
		if after > head {
			return nil, fmt.Errorf("esdb: subscribe after %d: %w", after, es.ErrInvalidPosition)
		}
	}
	runCtx, cancel := context.WithCancel(ctx)
	sub := &subscription{
		store:   s,
		events:  make(chan es.RecordedEvent, subscriptionBuffer),
		done:    make(chan struct{}),
		stopped: make(chan struct{}),
		cancel:  cancel,
	}
	if !s.addSub(sub) {
		cancel()
		return nil, ErrClosed
	}
	context.AfterFunc(runCtx, sub.end)
	go sub.run(runCtx, after)
	return sub, nil
}

type subscription struct {
	store   *Store
	events  chan es.RecordedEvent
	done    chan struct{}
	stopped chan struct{} // closed when run returns
	cancel  context.CancelFunc

	endOnce sync.Once
	mu      sync.Mutex
	err     error // why the subscription ended, if not closed
	nextMu  sync.Mutex
}

// run receives events into sub.events until the subscription ends.
func (sub *subscription) run(ctx context.Context, last uint64) {
	defer close(sub.stopped)
	// Kept in the store's set until here, so that Store.Close waits for it.
	defer sub.store.removeSub(sub)
	backoff := minBackoff
	opts := client.SubscribeToAllOptions{
		Filter: &client.SubscriptionFilter{Type: client.StreamFilterType, Regex: appStreamRegex},
	}
	for ctx.Err() == nil {
		opts.From = startOf(last)
		// An error opening the subscription is met like a drop, by trying
		// again, unless the position is refused.
		h, err := sub.store.db.SubscribeToAll(ctx, opts)
		if errors.Is(refusal(err), es.ErrInvalidPosition) {
			sub.fail(fmt.Errorf("esdb: subscribe after %d: %w", last, refusal(err)))
			return
		}
		if err == nil {
			var received bool
			last, received, err = sub.receive(ctx, h, last)
			_ = h.Close()
			if err != nil {
				sub.fail(err)
				return
			}
			if received {
				backoff = minBackoff
			}
		}
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
		}
		backoff = min(2*backoff, maxBackoff)
	}
}

// receive hands events over until h drops, returning the position of the
// last one delivered. Only an event it cannot decode is an error: a drop is
// met by subscribing again.
func (sub *subscription) receive(ctx context.Context, h *client.Subscription, last uint64) (uint64, bool, error) {
	received := false
	for {
		ev := h.Recv()
		if ev.SubscriptionDropped != nil {
			if err := refusal(ev.SubscriptionDropped.Error); errors.Is(err, es.ErrInvalidPosition) {
				return last, received, fmt.Errorf("esdb: subscription after %d: %w", last, err)
			}
			return last, received, nil
		}
		if ev.EventAppeared == nil || ev.EventAppeared.Event == nil {
			continue
		}
		raw := ev.EventAppeared.Event
		if raw.Position.Commit <= last || !isAppStream(raw.StreamID) {
			continue
		}
		rec, err := decodeEvent(raw)
		if err != nil {
			return last, received, fmt.Errorf("esdb: subscription: %w", err)
		}
		select {
		case sub.events <- rec:
			last, received = rec.Position, true
		case <-ctx.Done():
			return last, received, nil
		}
	}
}

// Next returns the next events, waiting for one if need be.
func (sub *subscription) Next(ctx context.Context) ([]es.RecordedEvent, error) {
	sub.nextMu.Lock()
	defer sub.nextMu.Unlock()
	if err := sub.ended(); err != nil {
		return nil, err
	}
	select {
	case e := <-sub.events:
		out := []es.RecordedEvent{e}
		for len(out) < maxDelivery {
			select {
			case e := <-sub.events:
				out = append(out, e)
			default:
				return out, nil
			}
		}
		return out, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-sub.done:
		return nil, sub.ended()
	}
}

func (sub *subscription) Close() error {
	sub.end()
	return nil
}

func (sub *subscription) end() {
	sub.endOnce.Do(func() {
		sub.cancel()
		close(sub.done)
	})
}

func (sub *subscription) fail(err error) {
	sub.mu.Lock()
	sub.err = err
	sub.mu.Unlock()
	sub.end()
}

// ended returns nil while the subscription runs, else why it ended.
func (sub *subscription) ended() error {
	select {
	case <-sub.done:
	default:
		return nil
	}
	sub.mu.Lock()
	defer sub.mu.Unlock()
	if sub.err != nil {
		return sub.err
	}
	return ErrClosed
}
