package ws

import (
	"slices"
	"time"

	"github.com/gobwas/ws"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/ws/internal/wire"
	"github.com/eventchat/eventchat/projections"
)

// outFrame is a frame waiting to be written. A text frame's body is the
// plaintext JSON, shared between connections and sealed by each writer under
// its own key; a control frame's body is its payload.
type outFrame struct {
	op   ws.OpCode
	body []byte
	// resync tells the client to reload what it shows.
	resync bool
}

// flushAt is the batch size after which the writer writes what it has.
const flushAt = 64 << 10

func textFrame(plain []byte) outFrame { return outFrame{op: ws.OpText, body: plain} }

func closeFrame(code ws.StatusCode, reason string) outFrame {
	return outFrame{op: ws.OpClose, body: ws.NewCloseFrameBody(code, reason)}
}

// slowConsumerResync is the frame that tells a slow consumer its pushes
// were dropped.
var slowConsumerResync = outFrame{op: ws.OpText, resync: true,
	body: pushJSON(projections.CmdResync, projections.ResyncData(projections.ResyncSlowConsumer))}

// push queues f without ever blocking. A connection whose queue is full is a
// slow consumer: its queue is dropped for a resync frame, so that the client
// reloads what it missed; when the queue fills again before the resync
// frame was written, the connection is closed.
func (c *conn) push(f outFrame) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return
	}
	if len(c.queue) >= c.g.cfg.SendQueue && !c.resyncPending {
		clear(c.queue)
		c.queue = append(c.queue[:0], slowConsumerResync)
		c.resyncPending = true
		c.g.log.Info("slow consumer told to resync", zap.String("member", c.principal.MemberID))
	}
	if f.resync && slices.ContainsFunc(c.queue, isResync) {
		return
	}
	if len(c.queue) >= c.g.cfg.SendQueue {
		c.closing = true
		c.setReason(reasonSlowConsumer)
		clear(c.queue)
		c.queue = append(c.queue[:0], closeFrame(ws.StatusPolicyViolation, reasonSlowConsumer))
		if c.netConn != nil {
			// Cut short the write it is stuck in: the close frame gets the grace only.
			_ = c.netConn.SetWriteDeadline(time.Now().Add(c.g.cfg.closeGrace()))
		}
		c.startWriter()
		return
	}
	c.queue = append(c.queue, f)
	c.resyncPending = c.resyncPending || f.resync
	c.startWriter()
}

func isResync(f outFrame) bool { return f.resync }

// startWriter starts the writer unless one runs or the socket is not
// attached yet. Call with c.mu held.
func (c *conn) startWriter() {
	if !c.writing && c.netConn != nil {
		c.writing = true
		c.g.goApart(c.writeLoop)
	}
}

// writeLoop drains the queue in batches, one write per batch, and ends when
// the queue is empty.
func (c *conn) writeLoop() {
	buf := getBuf(4 << 10)
	defer func() { putBuf(buf) }()
	var batch []outFrame
	for {
		c.mu.Lock()
		if len(c.queue) == 0 {
			release := c.writerExit()
			c.mu.Unlock()
			if release {
				c.release()
			}
			return
		}
		// Swap arrays: pushes fill the one just written while this one is.
		batch, c.queue = c.queue, batch[:0]
		c.mu.Unlock()

		var err error
		if buf, err = c.writeBatch(buf, batch); err != nil {
			c.abort(reasonWriteFailed)
		} else if slices.ContainsFunc(batch, isResync) {
			c.mu.Lock()
			c.resyncPending = slices.ContainsFunc(c.queue, isResync)
			c.mu.Unlock()
		}
		clear(batch)
	}
}

// writeBatch encodes the frames into buf, writing whenever flushAt bytes are
// ready, and stops after a close frame. It returns buf, grown if need be.
func (c *conn) writeBatch(buf *[]byte, batch []outFrame) (*[]byte, error) {
	for _, f := range batch {
		buf = reserve(buf, c.frameRoom(f))
		*buf = c.appendFrame(*buf, f)
		closes := f.op == ws.OpClose
		if len(*buf) >= flushAt || closes {
			err := c.write(*buf, closes)
			*buf = (*buf)[:0]
			if err != nil || closes {
				return buf, err
			}
		}
	}
	if len(*buf) == 0 {
		return buf, nil
	}
	err := c.write(*buf, false)
	*buf = (*buf)[:0]
	return buf, err
}

func (c *conn) frameRoom(f outFrame) int {
	if f.op != ws.OpText {
		return ws.MaxHeaderSize + len(f.body)
	}
	return ws.MaxHeaderSize + wire.SealRoom(c.aead, len(f.body))
}

func (c *conn) appendFrame(dst []byte, f outFrame) []byte {
	if f.op != ws.OpText {
		dst = wire.AppendHeader(dst, f.op, len(f.body), nil)
		return append(dst, f.body...)
	}
	dst = wire.AppendHeader(dst, ws.OpText, wire.SealedLen(c.aead, len(f.body)), nil)
	return wire.AppendSealed(dst, c.aead, f.body)
}

// write writes p under the write timeout, or under the close grace once the
// connection is closing. After the close frame the peer has the grace to
// answer before the reader gives up.
func (c *conn) write(p []byte, closes bool) error {
	c.mu.Lock()
	timeout := c.g.cfg.WriteTimeout
	if c.closing {
		timeout = c.g.cfg.closeGrace()
	}
	_ = c.netConn.SetWriteDeadline(time.Now().Add(timeout))
	c.mu.Unlock()

	if _, err := c.netConn.Write(p); err != nil {
		return err
	}
	if closes {
		c.mu.Lock()
		c.closeSent = true
		_ = c.netConn.SetReadDeadline(time.Now().Add(c.g.cfg.closeGrace()))
		c.mu.Unlock()
	}
	return nil
}
