// Package bus carries projected deltas from the projectors to the real-time
// gateways over watermill: GoChannel inside one process.
package bus

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"

	"github.com/eventchat/eventchat/projections"
)

// Topic carries every delta.
const Topic = "deltas"

// Bus publishes and delivers deltas. One watermill message carries the
// deltas of one projected batch, so a batch costs one hand-over, and a
// publish returns only once every subscriber took the message: without
// that, GoChannel hands messages over from concurrent goroutines and a
// chat's pushes could overtake each other.
type Bus struct {
	pub message.Publisher
	sub message.Subscriber
}

// NewGoChannel returns an in-process bus.
func NewGoChannel() *Bus {
	gc := gochannel.NewGoChannel(gochannel.Config{BlockPublishUntilSubscriberAck: true}, watermill.NopLogger{})
	return &Bus{pub: gc, sub: gc}
}

// Publish sends the deltas of one batch.
func (b *Bus) Publish(ctx context.Context, deltas []projections.Delta) error {
	payload, err := json.Marshal(deltas)
	if err != nil {
		return fmt.Errorf("bus: encode deltas: %w", err)
	}
	m := message.NewMessage(watermill.NewUUID(), payload)
	m.SetContext(ctx)
	return b.pub.Publish(Topic, m)
}

// Deltas delivers every delta published after the call, in order, until
// ctx ends.
func (b *Bus) Deltas(ctx context.Context) (<-chan projections.Delta, error) {
	in, err := b.sub.Subscribe(ctx, Topic)
	if err != nil {
		return nil, fmt.Errorf("bus: subscribe: %w", err)
	}
	out := make(chan projections.Delta, 4096)
	go func() {
		defer close(out)
		for m := range in {
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
				}
			}
		}
	}()
	return out, nil
}

// Close stops the bus.
func (b *Bus) Close() error { return b.pub.Close() }
