package wsclient

import "time"

// Option tunes Dial.
type Option func(*options)

type options struct {
	origin     string
	pushBuffer int
	heartbeat  time.Duration
}

// WithOrigin sends an Origin header, as a browser does.
func WithOrigin(origin string) Option { return func(o *options) { o.origin = origin } }

// WithPushBuffer sets how many pushed frames wait for Next before further
// ones are dropped (and counted by Dropped). Default 1024.
func WithPushBuffer(n int) Option { return func(o *options) { o.pushBuffer = n } }

// WithHeartbeat sends command 13 at this interval, as the web client does
// every 10 s. Default none.
func WithHeartbeat(every time.Duration) Option { return func(o *options) { o.heartbeat = every } }
