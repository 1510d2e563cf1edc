package bus

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/zap"
)

// DefaultStream is the JetStream stream, and its only subject, that carries
// the deltas.
const DefaultStream = "IM_DELTAS"

const (
	// The stream keeps what a node that reconnects or falls behind may still
	// need; older deltas are dropped, and such a node's clients resync from
	// history as after any missed push.
	streamMaxAge   = 2 * time.Minute
	streamMaxBytes = 256 << 20
	// pullBatches and batchBuffer bound what a stalled node holds: the
	// client pulls no more than pullBatches ahead, the bus queues batchBuffer
	// batches, and the rest waits in the stream on the server.
	pullBatches  = 64
	batchBuffer  = 16
	setupTimeout = 10 * time.Second
)

// NATSOption adjusts NewNATS.
type NATSOption func(*natsConfig)

type natsConfig struct{ stream string }

// WithStream names the JetStream stream (and subject) instead of
// DefaultStream, so that separate deployments or test runs sharing a NATS
// server do not see each other's deltas.
func WithStream(name string) NATSOption { return func(c *natsConfig) { c.stream = name } }

// NewNATS returns a bus over NATS JetStream at url. Each batch is one
// message on the stream. Every Deltas call gets its own ordered consumer
// starting at the next message, so every gateway node receives every batch
// (fan-out), in stream order; after a reconnect or a missed heartbeat the
// consumer resumes after the last batch it delivered.
func NewNATS(url string, log *zap.Logger, opts ...NATSOption) (*Bus, error) {
	if log == nil {
		log = zap.NewNop()
	}
	cfg := natsConfig{stream: DefaultStream}
	for _, o := range opts {
		o(&cfg)
	}
	gaps := &interruptions{}
	nc, err := nats.Connect(url,
		nats.Name("eventchat-bus"),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond),
		// A delta published while the connection is down is refused,
		// never kept for the reconnect: the caller has counted it as
		// dropped and sends a resync, which must come after it.
		nats.ReconnectBufSize(-1),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				log.Warn("nats disconnected", zap.Error(err))
			}
		}),
		nats.ReconnectHandler(func(c *nats.Conn) {
			log.Info("nats reconnected", zap.String("server", c.ConnectedUrlRedacted()))
			gaps.happened()
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("bus: connect nats: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("bus: jetstream: %w", err)
	}
	streamCfg := jetstream.StreamConfig{
		Name:      cfg.stream,
		Subjects:  []string{cfg.stream},
		Storage:   jetstream.FileStorage,
		Retention: jetstream.LimitsPolicy,
		Discard:   jetstream.DiscardOld,
		MaxAge:    streamMaxAge,
		MaxBytes:  streamMaxBytes,
	}
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	if _, err := js.CreateOrUpdateStream(ctx, streamCfg); err != nil {
		nc.Close()
		return nil, fmt.Errorf("bus: create stream %s: %w", cfg.stream, err)
	}
	pub := jsPublisher{nc: nc, js: js, subject: cfg.stream}
	subscribe := func(ctx context.Context) (<-chan *message.Message, func(), error) {
		return consumeOrdered(ctx, js, cfg.stream, log)
	}
	b := newBus(pub, subscribe, pub.Close)
	b.gaps = gaps
	return b, nil
}

// errDisconnected refuses a publish while the connection is down.
var errDisconnected = errors.New("nats: not connected")

// jsPublisher publishes to the stream under the message's context, where
// watermill's JetStream publisher waits for the library's own timeout. It
// refuses at once while the connection is down (the connection keeps no
// reconnect buffer either, for a drop between the check and the send).
type jsPublisher struct {
	nc      *nats.Conn
	js      jetstream.JetStream
	subject string
}

func (p jsPublisher) Publish(_ string, ms ...*message.Message) error {
	for _, m := range ms {
		if !p.nc.IsConnected() {
			return errDisconnected
		}
		if _, err := p.js.Publish(m.Context(), p.subject, m.Payload); err != nil {
			return err
		}
	}
	return nil
}

func (p jsPublisher) Close() error {
	p.nc.Close()
	return nil
}

// consumeOrdered delivers the stream's new messages through an ordered
// consumer. The channel is never closed: the library may still run the
// handler after Stop, and a send on a closed channel would panic.
func consumeOrdered(ctx context.Context, js jetstream.JetStream, stream string, log *zap.Logger) (<-chan *message.Message, func(), error) {
	consumer, err := js.OrderedConsumer(ctx, stream, jetstream.OrderedConsumerConfig{
		DeliverPolicy: jetstream.DeliverNewPolicy,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("ordered consumer on %s: %w", stream, err)
	}
	batches := make(chan *message.Message, batchBuffer)
	cc, err := consumer.Consume(func(m jetstream.Msg) {
		select {
		case batches <- message.NewMessage(watermill.NewUUID(), m.Data()):
		case <-ctx.Done():
		}
	},
		jetstream.PullMaxMessages(pullBatches),
		jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
			log.Debug("nats consume", zap.Error(err))
		}),
	)
	if err != nil {
		return nil, nil, fmt.Errorf("consume %s: %w", stream, err)
	}
	return batches, cc.Stop, nil
}
