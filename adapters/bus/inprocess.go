package bus

import (
	"context"
	"fmt"
	"sync"

	"github.com/eventchat/eventchat/projections"
)

// InProcess is the bus within one process. A publish puts each delta
// straight into every subscription's buffered channel, in order: no
// encoding and no goroutine stand between the publisher and the gateway,
// each of which a push would wait for behind whatever else runs. While a
// subscription's buffer is full, a publish waits for it until its ctx ends
// (Async, in front, holds the projections' batches meanwhile and tells a
// gap when it gives up); it never grows memory.
type InProcess struct {
	// mu is held shared while a publish hands deltas over, and exclusively
	// to add or drop a subscription: a channel is closed only once no
	// publish can reach it.
	mu        sync.RWMutex
	subs      map[*subscription]struct{}
	done      chan struct{}
	closeOnce sync.Once
}

type subscription struct {
	out  chan projections.Delta
	gone <-chan struct{} // the subscriber's ctx ended
}

// NewInProcess returns an in-process bus.
func NewInProcess() *InProcess {
	return &InProcess{subs: map[*subscription]struct{}{}, done: make(chan struct{})}
}

// Publish hands the deltas to every subscription. It returns ErrClosed
// after Close, and ctx's error when a subscription's buffer stayed full
// until ctx ended: that subscription and those after it may have missed
// some.
func (b *InProcess) Publish(ctx context.Context, deltas []projections.Delta) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.isClosed() {
		return ErrClosed
	}
	for s := range b.subs {
		if err := b.hand(ctx, s, deltas); err != nil {
			return err
		}
	}
	return nil
}

// hand puts deltas into s's channel, and stops early once s's subscriber
// left.
func (b *InProcess) hand(ctx context.Context, s *subscription, deltas []projections.Delta) error {
	for _, d := range deltas {
		select {
		case s.out <- d:
		case <-s.gone:
			return nil
		case <-b.done:
			return ErrClosed
		case <-ctx.Done():
			return fmt.Errorf("bus: publish: %w", ctx.Err())
		}
	}
	return nil
}

// Deltas delivers every delta published after the call, in order, until
// ctx ends or the bus closes; then the channel closes.
func (b *InProcess) Deltas(ctx context.Context) (<-chan projections.Delta, error) {
	s := &subscription{out: make(chan projections.Delta, deltaBuffer), gone: ctx.Done()}
	b.mu.Lock()
	if b.isClosed() {
		b.mu.Unlock()
		return nil, ErrClosed
	}
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	go func() {
		select {
		case <-ctx.Done():
		case <-b.done:
		}
		b.mu.Lock()
		delete(b.subs, s)
		b.mu.Unlock()
		close(s.out)
	}()
	return s.out, nil
}

// Close ends every Deltas channel; Publish and Deltas then return
// ErrClosed. Closing twice is harmless.
func (b *InProcess) Close() error {
	b.closeOnce.Do(func() { close(b.done) })
	return nil
}

func (b *InProcess) isClosed() bool {
	select {
	case <-b.done:
		return true
	default:
		return false
	}
}
