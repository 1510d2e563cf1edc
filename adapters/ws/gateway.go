// Package ws is the real-time gateway: it upgrades /message-ws with
// gobwas/ws, runs the client commands sent over the socket and pushes the
// projected deltas to the connections of the members they concern.
//
// Each connection has one reader goroutine and, only while frames wait, one
// writer goroutine draining its bounded queue; an idle connection holds no
// buffers. Fragmented client messages are accepted within MaxFrameBytes in
// total; binary messages are refused with 1003.
package ws

import (
	"context"
	"sync"

	"github.com/gobwas/ws"
	"go.uber.org/zap"
)

// Gateway serves the websocket endpoint and fans deltas out to it.
type Gateway struct {
	cfg  Config
	auth Authenticator
	cmds Commands
	log  *zap.Logger

	ctx    context.Context // parent of command contexts; cancelled when Shutdown gives up
	cancel context.CancelFunc
	jobs   chan func() // taken by idle workers

	mu       sync.RWMutex
	members  map[memberKey][]*conn
	count    int
	shutdown bool
	open     sync.WaitGroup // one per registered connection until it is released
	presence chan memberKey // members whose presence changed, to tell their friends
}

type memberKey struct{ tenant, member string }

// New returns a gateway; mount it on GET /message-ws and start Run.
func New(cfg Config, auth Authenticator, cmds Commands, log *zap.Logger) *Gateway {
	ctx, cancel := context.WithCancel(context.Background())
	g := &Gateway{
		cfg:      cfg.withDefaults(),
		auth:     auth,
		cmds:     cmds,
		log:      log,
		ctx:      ctx,
		cancel:   cancel,
		jobs:     make(chan func()),
		members:  make(map[memberKey][]*conn),
		presence: make(chan memberKey, presenceQueue),
	}
	if g.cfg.Friends != nil {
		go g.tellPresence()
	}
	for range workers {
		go g.work()
	}
	return g
}

// workers is how many long-lived goroutines run socket commands and
// writers.
const workers = 64

// work runs commands and socket writers until the gateway is shut down. A
// worker's stack grows once to what JSON, AES and the commands need and then
// stays grown, where a goroutine per command or per burst of frames grew it
// anew every time.
func (g *Gateway) work() {
	for {
		select {
		case job := <-g.jobs:
			job()
		case <-g.ctx.Done():
			return
		}
	}
}

// goApart runs job on an idle worker, or on a new goroutine when none is
// idle.
func (g *Gateway) goApart(job func()) {
	select {
	case g.jobs <- job:
	default:
		go job()
	}
}

// Connections returns the number of open connections.
func (g *Gateway) Connections() int {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.count
}

// Shutdown sends every connection a going-away close frame and waits until
// each has flushed it and closed. When ctx ends first, the remaining
// connections are cut and ctx's error is returned.
func (g *Gateway) Shutdown(ctx context.Context) error {
	g.mu.Lock()
	g.shutdown = true
	var all []*conn
	for _, cs := range g.members {
		all = append(all, cs...)
	}
	g.mu.Unlock()

	for _, c := range all {
		c.closeWith(ws.StatusGoingAway, reasonShutdown)
	}
	done := make(chan struct{})
	go func() {
		g.open.Wait()
		close(done)
	}()
	select {
	case <-done:
		g.cancel()
		return nil
	case <-ctx.Done():
		g.cancel()
		for _, c := range all {
			c.abort(reasonShutdown)
		}
		return ctx.Err()
	}
}

// register adds c to the registry; it refuses once Shutdown has begun.
func (g *Gateway) register(c *conn) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.shutdown {
		return false
	}
	k := memberKey{c.principal.Tenant, c.principal.MemberID}
	g.members[k] = append(g.members[k], c)
	if len(g.members[k]) == 1 {
		g.localPresenceChanged(k, true)
	}
	g.count++
	g.open.Add(1)
	return true
}

func (g *Gateway) unregister(c *conn) {
	g.mu.Lock()
	defer g.mu.Unlock()
	k := memberKey{c.principal.Tenant, c.principal.MemberID}
	cs := g.members[k]
	for i, other := range cs {
		if other == c {
			cs[i] = cs[len(cs)-1]
			cs[len(cs)-1] = nil
			cs = cs[:len(cs)-1]
			break
		}
	}
	if len(cs) == 0 {
		delete(g.members, k)
		g.localPresenceChanged(k, false)
	} else {
		g.members[k] = cs
	}
	g.count--
	g.open.Done()
}
