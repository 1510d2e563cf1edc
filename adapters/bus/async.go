package bus

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/eventchat/eventchat/projections"
)

// Sink is what Async hands the deltas to: a Bus.
type Sink interface {
	Publish(ctx context.Context, deltas []projections.Delta) error
}

// AsyncConfig tunes NewAsync; zero values take the defaults.
type AsyncConfig struct {
	// Buffer bounds the deltas waiting to be sent. Default 65,536.
	Buffer int
	// Timeout bounds one send. Default 2 s.
	Timeout time.Duration
	// Retry is the wait between two tries of a resync. Default 250 ms.
	Retry time.Duration
}

func (c AsyncConfig) withDefaults() AsyncConfig {
	if c.Buffer <= 0 {
		c.Buffer = 1 << 16
	}
	if c.Timeout <= 0 {
		c.Timeout = 2 * time.Second
	}
	if c.Retry <= 0 {
		c.Retry = 250 * time.Millisecond
	}
	return c
}

// errOverflow is the last error after the buffer overflowed.
var errOverflow = errors.New("bus: the buffer of deltas to send was full")

// Async hands deltas to a sink on its own goroutine, in the order they were
// given, so that the projections never wait on the bus. What cannot be sent
// (the buffer is full, or a send fails) is dropped, and the gap is told:
// once a send works again, a resync delta (projections.ResyncDelta) goes
// out before anything newer, and every socket of every node reloads.
type Async struct {
	sink Sink
	cfg  AsyncConfig

	mu       sync.Mutex
	queue    [][]projections.Delta
	buffered int
	state    projections.PublishState
	// gaps counts the drops; covered is the count the last resync sent
	// covers. A drop while a resync is on its way needs another.
	gaps, covered uint64
	closed        bool
	// idle, when a Drain waits, is closed once the sender finds the queue
	// empty.
	idle    chan struct{}
	ready   chan struct{} // a batch was queued, or Close or Drain was called
	stopped chan struct{} // the sender ended
}

// NewAsync starts handing deltas to sink; Close stops it.
func NewAsync(sink Sink, cfg AsyncConfig) *Async {
	a := &Async{sink: sink, cfg: cfg.withDefaults(), ready: make(chan struct{}, 1), stopped: make(chan struct{})}
	go a.send()
	return a
}

// Publish queues deltas without waiting. It drops them when the buffer is
// full, and returns ErrClosed after Close.
func (a *Async) Publish(_ context.Context, deltas []projections.Delta) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return ErrClosed
	}
	if len(deltas) == 0 {
		return nil
	}
	if a.buffered+len(deltas) > a.cfg.Buffer {
		a.dropped(len(deltas), errOverflow)
		return nil
	}
	a.queue = append(a.queue, deltas)
	a.buffered += len(deltas)
	a.wake()
	return nil
}

// PublishState reports the buffer, what was dropped and the last failure.
func (a *Async) PublishState() projections.PublishState {
	a.mu.Lock()
	defer a.mu.Unlock()
	st := a.state
	st.Buffered = a.buffered
	st.Gap = a.gaps > a.covered
	return st
}

// Close sends what is buffered, for one send timeout at most, and stops.
func (a *Async) Close() error {
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		<-a.stopped
		return nil
	}
	a.closed = true
	a.wake()
	a.mu.Unlock()
	select {
	case <-a.stopped:
	case <-time.After(a.cfg.Timeout):
	}
	return nil
}

// Drain waits until what was queued before it has been sent (or dropped),
// or until ctx ends: the projections drain before they free their lease,
// so that the node taking over does not start before this one's last
// pushes went out.
func (a *Async) Drain(ctx context.Context) {
	a.mu.Lock()
	if a.idle == nil {
		a.idle = make(chan struct{})
	}
	idle := a.idle
	a.wake()
	a.mu.Unlock()
	select {
	case <-idle:
	case <-ctx.Done():
	case <-a.stopped:
	}
}

// wake tells the sender there is work. Call with a.mu held.
func (a *Async) wake() {
	select {
	case a.ready <- struct{}{}:
	default:
	}
}

// send hands the queued batches to the sink one by one until Close.
func (a *Async) send() {
	defer close(a.stopped)
	for {
		a.mu.Lock()
		if a.gaps > a.covered {
			// Everything queued was folded before the resync goes out:
			// the resync covers it.
			a.dropQueued()
			a.drained()
			closed, covers := a.closed, a.gaps
			a.mu.Unlock()
			if closed {
				return
			}
			err := a.sendOne([]projections.Delta{projections.ResyncDelta(projections.ResyncBus)})
			a.mu.Lock()
			if err == nil {
				a.covered = covers
				a.state.LastError = ""
				a.state.Resyncs++
			} else {
				a.state.LastError = err.Error()
			}
			a.mu.Unlock()
			if err != nil {
				a.pause()
			}
			continue
		}
		if len(a.queue) == 0 {
			a.drained()
			closed := a.closed
			a.mu.Unlock()
			if closed {
				return
			}
			<-a.ready
			continue
		}
		batch := a.queue[0]
		a.queue[0] = nil
		a.queue = a.queue[1:]
		a.buffered -= len(batch)
		a.mu.Unlock()

		err := a.sendOne(batch)
		a.mu.Lock()
		if err != nil {
			a.dropped(len(batch), err)
		} else if a.gaps == a.covered {
			a.state.LastError = ""
		}
		a.mu.Unlock()
	}
}

// drained tells the Drain calls waiting that the queue is empty and
// nothing of it is being sent. Call with a.mu held.
func (a *Async) drained() {
	if a.idle != nil {
		close(a.idle)
		a.idle = nil
	}
}

// dropped records n deltas dropped for err. Call with a.mu held.
func (a *Async) dropped(n int, err error) {
	a.state.Dropped += uint64(n)
	a.state.LastError = err.Error()
	a.gaps++
}

// dropQueued drops every queued batch; a resync is on its way. Call with
// a.mu held.
func (a *Async) dropQueued() {
	a.state.Dropped += uint64(a.buffered)
	clear(a.queue)
	a.queue, a.buffered = a.queue[:0], 0
}

func (a *Async) sendOne(batch []projections.Delta) error {
	ctx, cancel := context.WithTimeout(context.Background(), a.cfg.Timeout)
	defer cancel()
	if err := a.sink.Publish(ctx, batch); err != nil {
		return fmt.Errorf("bus: send %d deltas: %w", len(batch), err)
	}
	return nil
}

// pause waits before the next try of a resync, or until Close.
func (a *Async) pause() {
	t := time.NewTimer(a.cfg.Retry)
	defer t.Stop()
	select {
	case <-t.C:
	case <-a.ready:
		// A new batch or Close: the batch is dropped by the next try
		// anyway, and Close ends the sender.
		a.mu.Lock()
		closed := a.closed
		a.mu.Unlock()
		if !closed {
			<-t.C
		}
	}
}
