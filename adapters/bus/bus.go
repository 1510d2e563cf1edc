// Package bus carries projected deltas from the projectors to the real-time
// gateways: over Go channels inside one process, over NATS JetStream (with
// watermill) between processes.
package bus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/eventchat/eventchat/projections"
)

// Topic carries every delta.
const Topic = "deltas"

// ErrClosed is returned by Publish and Deltas once Close was called.
var ErrClosed = errors.New("bus: closed")

// deltaBuffer is how many deltas wait for a slow reader before the bus
// stops taking batches for it.
const deltaBuffer = 4096

// source subscribes to the published batches: one message per batch, in
// publish order, until ctx ends. Its channel may stay open after that;
// stop releases the subscription.
type source func(ctx context.Context) (batches <-chan *message.Message, stop func(), err error)

// Bus publishes and delivers deltas over watermill. One message carries the
// deltas of one projected batch, so a batch costs one hand-over and the
// deltas of a batch can never be interleaved with another batch's.
type Bus struct {
	pub       message.Publisher
	subscribe source
	shutdown  func() error
	// gaps, when set, tells when the subscriptions may have missed batches.
	gaps *interruptions

	mu     sync.Mutex
	closed bool
	done   chan struct{}
}

func newBus(pub message.Publisher, subscribe source, shutdown func() error) *Bus {
	return &Bus{pub: pub, subscribe: subscribe, shutdown: shutdown, done: make(chan struct{})}
}

// Publish sends the deltas of one batch. It returns ErrClosed after Close.
func (b *Bus) Publish(ctx context.Context, deltas []projections.Delta) error {
	if b.isClosed() {
		return ErrClosed
	}
	payload, err := json.Marshal(deltas)
	if err != nil {
		return fmt.Errorf("bus: encode deltas: %w", err)
	}
	m := message.NewMessage(watermill.NewUUID(), payload)
	m.SetContext(ctx)
	if err := b.pub.Publish(Topic, m); err != nil {
		return fmt.Errorf("bus: publish: %w", err)
	}
	return nil
}

// Deltas delivers every delta published after the call, in order, until
// ctx ends or the bus closes; then the channel closes. When the
// subscription may have missed batches (its connection was lost), it
// delivers a resync delta (projections.ResyncDelta) once it is back.
func (b *Bus) Deltas(ctx context.Context) (<-chan projections.Delta, error) {
	if b.isClosed() {
		return nil, ErrClosed
	}
	ctx, cancel := context.WithCancel(ctx)
	in, stop, err := b.subscribe(ctx)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("bus: subscribe: %w", err)
	}
	out := make(chan projections.Delta, deltaBuffer)
	gap, unwatch := b.gaps.watch()
	go func() {
		defer close(out)
		defer stop()
		defer cancel()
		defer unwatch()
		for {
			var m *message.Message
			var ok bool
			select {
			case m, ok = <-in:
			case <-gap:
				select {
				case out <- projections.ResyncDelta(projections.ResyncBus):
				case <-ctx.Done():
					return
				case <-b.done:
					return
				}
				continue
			case <-ctx.Done():
				return
			case <-b.done:
				return
			}
			if !ok {
				return
			}
			var ds []projections.Delta
			err := json.Unmarshal(m.Payload, &ds)
			m.Ack()
			if err != nil {
				continue
			}
			for _, d := range ds {
				select {
				case out <- d:
				case <-ctx.Done():
					return
				case <-b.done:
					return
				}
			}
		}
	}()
	return out, nil
}

// Close stops the bus and ends every Deltas channel. Closing twice is
// harmless.
func (b *Bus) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	close(b.done)
	return b.shutdown()
}

// interruptions tells the subscriptions of a bus that its connection was
// lost and is back.
type interruptions struct {
	mu       sync.Mutex
	watchers map[chan struct{}]struct{}
}

// watch returns a channel that receives after each interruption (several
// in a row may be told once) and the function that stops it. A nil
// interruptions never tells.
func (i *interruptions) watch() (<-chan struct{}, func()) {
	if i == nil {
		return nil, func() {}
	}
	ch := make(chan struct{}, 1)
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.watchers == nil {
		i.watchers = map[chan struct{}]struct{}{}
	}
	i.watchers[ch] = struct{}{}
	return ch, func() {
		i.mu.Lock()
		defer i.mu.Unlock()
		delete(i.watchers, ch)
	}
}

func (i *interruptions) happened() {
	i.mu.Lock()
	defer i.mu.Unlock()
	for ch := range i.watchers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

func (b *Bus) isClosed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closed
}
