package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/projections"
)

// chatLoops are the sends and reads a spec keeps going while it ends a
// node or a store, until halt: it records the acknowledged sends and what
// failed. Its mu guards what the loops of the chat embedding it record.
type chatLoops struct {
	stopped atomic.Bool
	wg      sync.WaitGroup

	mu    sync.Mutex
	acked []ackedSend
	errs  []error
}

type ackedSend struct {
	sendResult
	sentAt, ackedAt time.Time
}

func (c *chatLoops) run(f func()) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		f()
	}()
}

func (c *chatLoops) running() bool { return !c.stopped.Load() }

func (c *chatLoops) fail(err error) {
	c.mu.Lock()
	c.errs = append(c.errs, err)
	c.mu.Unlock()
}

// send sends the messages prefix-00000, prefix-00001… pause apart until
// halt.
func (c *chatLoops) send(prefix string, pause time.Duration, send sender) {
	for i := 0; c.running(); i++ {
		uuid := fmt.Sprintf("%s-%05d", prefix, i)
		sentAt := time.Now()
		r, err := send(uuid, "message "+uuid)
		if err != nil {
			c.fail(fmt.Errorf("send %s: %w", uuid, err))
		} else {
			c.mu.Lock()
			c.acked = append(c.acked, ackedSend{sendResult: r, sentAt: sentAt, ackedAt: time.Now()})
			c.mu.Unlock()
		}
		time.Sleep(pause)
	}
}

// halt stops the loops, expects nothing to have failed and returns the
// acknowledged sends in order.
func (c *chatLoops) halt() []ackedSend {
	GinkgoHelper()
	c.stopped.Store(true)
	c.wg.Wait()
	Expect(c.errs).To(BeEmpty())
	Expect(c.acked).NotTo(BeEmpty())
	return c.acked
}

// pushLog records what a socket gets until it closes: when each message was
// first pushed, and the resyncs.
type pushLog struct {
	socket *wsclient.Client

	mu      sync.Mutex
	pushed  map[string]time.Time
	resyncs []resyncSeen
}

type resyncSeen struct {
	at   time.Time
	data string
	// held is the newest position history held right after, when the
	// socket's reader reloads it.
	held uint64
}

// collectPushes records what c gets; on each resync it asks reload, if
// set, for the newest position history holds, as the web client reloads it.
func collectPushes(c *wsclient.Client, reload func() uint64) *pushLog {
	l := &pushLog{socket: c, pushed: map[string]time.Time{}}
	go func() {
		for {
			f, err := c.Next(context.Background())
			if err != nil {
				return
			}
			switch f.Cmd {
			case projections.CmdMessage:
				var m struct{ UUID string }
				if json.Unmarshal(f.Data, &m) == nil {
					l.mu.Lock()
					if _, ok := l.pushed[m.UUID]; !ok {
						l.pushed[m.UUID] = time.Now()
					}
					l.mu.Unlock()
				}
			case projections.CmdResync:
				seen := resyncSeen{at: time.Now(), data: string(f.Data)}
				if reload != nil {
					seen.held = reload()
				}
				l.mu.Lock()
				l.resyncs = append(l.resyncs, seen)
				l.mu.Unlock()
			}
		}
	}()
	return l
}

func (l *pushLog) pushedCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.pushed)
}

// pushedAt is when the message uuid was first pushed.
func (l *pushLog) pushedAt(uuid string) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	at, ok := l.pushed[uuid]
	return at, ok
}

// pushTimes are when the pushes came, in no order.
func (l *pushLog) pushTimes() []time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	var at []time.Time
	for _, p := range l.pushed {
		at = append(at, p)
	}
	return at
}

// resyncsSeen are the resyncs so far.
func (l *pushLog) resyncsSeen() []resyncSeen {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.resyncs)
}
