package bus

import (
	"context"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"
)

// NewGoChannel returns an in-process bus. A publish returns only once every
// subscriber took the message: without that, GoChannel hands messages over
// from concurrent goroutines and a chat's pushes could overtake each other.
// A stalled subscriber therefore holds up publishing once its buffer is full
// rather than growing memory.
func NewGoChannel() *Bus {
	gc := gochannel.NewGoChannel(gochannel.Config{BlockPublishUntilSubscriberAck: true}, watermill.NopLogger{})
	subscribe := func(ctx context.Context) (<-chan *message.Message, func(), error) {
		in, err := gc.Subscribe(ctx, Topic)
		return in, func() {}, err
	}
	return newBus(gc, subscribe, gc.Close, packDeltas)
}
