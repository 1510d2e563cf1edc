package ws

import "time"

// Config tunes the gateway; zero values take the defaults.
type Config struct {
	// AllowedOrigins lists the Origin values accepted besides the request's
	// own host; "*" accepts every origin. Requests without Origin are accepted.
	AllowedOrigins []string
	// MaxFrameBytes bounds a client message (all fragments together); larger
	// ones close the connection with 1009. Default 1 MiB.
	MaxFrameBytes int64
	// SendQueue bounds the frames waiting for one connection; a connection
	// that lets it fill gets a resync frame in place of what waited, and is
	// closed as a slow consumer when it fills again before that frame was
	// written. Default 256.
	SendQueue int
	// IdleTimeout closes a connection that sent nothing for so long. Default 30 s.
	IdleTimeout time.Duration
	// WriteTimeout bounds one write to a connection. Default 10 s.
	WriteTimeout time.Duration
	// CommandTimeout bounds one command sent over a connection. Default 15 s,
	// the client's own send timeout.
	CommandTimeout time.Duration
	// Friends, when set, makes the gateway push 33 (online status) to a
	// member's friends on this gateway when its first connection opens and
	// its last one closes.
	Friends Friends
	// Cluster, when set, shares presence with the other nodes: Online counts
	// their members too, and a member's first connection opening and last
	// one closing here are announced to them.
	Cluster ClusterPresence
}

func (c Config) withDefaults() Config {
	if c.MaxFrameBytes <= 0 {
		c.MaxFrameBytes = 1 << 20
	}
	if c.SendQueue <= 0 {
		c.SendQueue = 256
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = 30 * time.Second
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = 10 * time.Second
	}
	if c.CommandTimeout <= 0 {
		c.CommandTimeout = 15 * time.Second
	}
	return c
}

// closeGrace is how long a peer gets to take our close frame and answer it.
func (c Config) closeGrace() time.Duration {
	return min(c.WriteTimeout, 2*time.Second)
}
