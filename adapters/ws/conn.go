package ws

import (
	"bufio"
	"bytes"
	"crypto/cipher"
	"io"
	"net"
	"sync"
	"time"

	"github.com/gobwas/ws"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/commands"
)

// Close reasons, as logged and as sent in close frames.
const (
	reasonClient       = "closed by client"
	reasonLost         = "connection lost"
	reasonIdle         = "idle timeout"
	reasonTooBig       = "message too big"
	reasonProtocol     = "protocol error"
	reasonBinary       = "text frames only"
	reasonSlowConsumer = "slow consumer"
	reasonSessionEnd   = "session end"
	reasonShutdown     = "going away"
	reasonWriteFailed  = "write failed"
)

// conn is one authenticated socket. Its reader goroutine runs for the whole
// connection; its writer goroutine runs only while frames are queued. It is
// released (socket closed, unregistered) once the reader has ended and the
// writer has nothing left to do.
type conn struct {
	g         *Gateway
	principal commands.Principal
	aead      cipher.AEAD
	lang      string

	mu      sync.Mutex
	netConn net.Conn  // nil until attach
	src     io.Reader // netConn, behind bytes that arrived with the handshake if any
	queue   []outFrame
	writing bool // a writer goroutine runs
	closing bool // a close frame is queued or the socket is cut: nothing more is queued
	// resyncPending: a resync frame is queued or being written; pushes
	// dropped meanwhile are covered by it.
	resyncPending bool
	closeSent     bool
	readerDone    bool
	released      bool
	reason        string

	// queued bounds the commands taken by the reader and not yet answered;
	// unsettled counts those that took their place in the log and wait to
	// be durable (see handleApart).
	queued    chan struct{}
	unsettled sync.WaitGroup
}

// maxQueued bounds the commands one connection has in flight: a client
// that sends more waits for the first to be answered.
const maxQueued = 32

func newConn(g *Gateway, p commands.Principal, aead cipher.AEAD, lang string) *conn {
	return &conn{g: g, principal: p, aead: aead, lang: lang, queued: make(chan struct{}, maxQueued)}
}

// attach gives the connection its upgraded socket and writes what was queued
// meanwhile. The handshake's buffered reader is net/http's and is dropped
// here; only what a client sent ahead of our answer is kept.
func (c *conn) attach(netConn net.Conn, handshake *bufio.Reader) {
	src := io.Reader(netConn)
	if n := handshake.Buffered(); n > 0 {
		early, _ := handshake.Peek(n)
		src = io.MultiReader(bytes.NewReader(bytes.Clone(early)), netConn)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.netConn, c.src = netConn, src
	switch {
	case len(c.queue) > 0:
		c.startWriter()
	case c.closing: // aborted by a Shutdown that gave up meanwhile
		_ = netConn.Close()
	}
}

// upgradeFailed releases a connection whose handshake failed.
func (c *conn) upgradeFailed() {
	c.mu.Lock()
	c.closing, c.released, c.queue = true, true, nil
	c.mu.Unlock()
	c.g.unregister(c)
}

// closeWith queues a close frame behind the frames already queued; the
// connection is released once it is written and the reader has ended.
func (c *conn) closeWith(code ws.StatusCode, reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return
	}
	c.closing = true
	c.setReason(reason)
	c.queue = append(c.queue, closeFrame(code, reason))
	c.startWriter()
}

// abort cuts the socket; the reader and writer end on their next I/O.
func (c *conn) abort(reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.setReason(reason)
	c.closing = true
	c.queue = nil
	if c.netConn != nil {
		_ = c.netConn.Close()
	}
}

// readerExit records the reader's end, cutting the socket when told to.
func (c *conn) readerExit(reason string, cut bool) {
	c.mu.Lock()
	c.setReason(reason)
	c.readerDone = true
	if cut {
		c.closing = true
		c.queue = nil
		_ = c.netConn.Close()
	}
	release := c.releasable()
	c.mu.Unlock()
	if release {
		c.release()
	}
}

// writerExit records that the writer found the queue empty.
func (c *conn) writerExit() bool {
	c.writing = false
	c.queue = nil // an idle connection holds no queue array
	return c.releasable()
}

func (c *conn) releasable() bool {
	if c.readerDone && !c.writing && !c.released {
		c.released = true
		return true
	}
	return false
}

func (c *conn) release() {
	_ = c.netConn.Close()
	c.g.unregister(c)
	c.g.log.Info("ws connection closed",
		zap.String("tenant", c.principal.Tenant), zap.String("member", c.principal.MemberID), zap.String("reason", c.reason))
}

func (c *conn) setReason(reason string) {
	if c.reason == "" {
		c.reason = reason
	}
}

// armRead sets the deadline of the next frame: the idle timeout, or none
// later than the close grace once our close frame is out.
func (c *conn) armRead() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closeSent {
		_ = c.netConn.SetReadDeadline(time.Now().Add(c.g.cfg.IdleTimeout))
	}
}

func (c *conn) isClosing() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closing
}
