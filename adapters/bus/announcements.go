package bus

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"go.uber.org/zap"
)

// DefaultAnnouncements is the NATS subject of the nodes' announcements.
const DefaultAnnouncements = "IM_PRESENCE"

// announcementBuffer is how many announcements wait for a slow reader;
// past it they are dropped, as the next full announcement repeats them.
const announcementBuffer = 1024

// Announcements carries short-lived announcements between the nodes over
// core NATS: every node receives every announcement sent while it listens,
// in the order each node sent them, and none is kept for a node that
// was away.
type Announcements struct {
	nc      *nats.Conn
	subject string
}

// NewAnnouncements connects to NATS at url for announcements on subject.
func NewAnnouncements(url, subject string, log *zap.Logger) (*Announcements, error) {
	nc, err := nats.Connect(url,
		nats.Name("eventchat-announcements"),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				log.Warn("nats disconnected", zap.Error(err))
			}
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("bus: connect nats: %w", err)
	}
	return &Announcements{nc: nc, subject: subject}, nil
}

// Announce sends payload to every node listening.
func (a *Announcements) Announce(_ context.Context, payload []byte) error {
	if err := a.nc.Publish(a.subject, payload); err != nil {
		return fmt.Errorf("bus: announce: %w", err)
	}
	return nil
}

// Announcements delivers the announcements sent from now until ctx ends.
// The channel is never closed: the library may still run the handler
// after the subscription ends.
func (a *Announcements) Announcements(ctx context.Context) (<-chan []byte, error) {
	out := make(chan []byte, announcementBuffer)
	sub, err := a.nc.Subscribe(a.subject, func(m *nats.Msg) {
		select {
		case out <- m.Data:
		default:
		}
	})
	if err != nil {
		return nil, fmt.Errorf("bus: listen to %s: %w", a.subject, err)
	}
	if err := a.nc.Flush(); err != nil {
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("bus: listen to %s: %w", a.subject, err)
	}
	context.AfterFunc(ctx, func() { _ = sub.Unsubscribe() })
	return out, nil
}

// Close drops the connection.
func (a *Announcements) Close() { a.nc.Close() }
