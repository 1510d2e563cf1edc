package ws

import (
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/gobwas/ws"

	"github.com/eventchat/eventchat/adapters/ws/internal/wire"
)

// readLoop is the connection's only reader. Each complete message takes
// its place in the log before the next is read, so one connection's
// commands run in order.
func (c *conn) readLoop() {
	reason, cut := c.readMessages()
	c.unsettled.Wait()
	c.readerExit(reason, cut)
}

// readMessages reads until the connection ends and tells why, and whether the
// socket must be cut rather than left to the writer to close.
func (c *conn) readMessages() (reason string, cut bool) {
	var msg *[]byte // the message being assembled; nil between messages
	defer func() {
		if msg != nil {
			putBuf(msg)
		}
	}()
	state := ws.StateServerSide
	for {
		c.armRead()
		h, err := ws.ReadHeader(c.src)
		if err != nil {
			return c.readFailed(err)
		}
		if err := ws.CheckHeader(h, state); err != nil {
			return c.refuse(ws.StatusProtocolError, reasonProtocol)
		}
		if h.OpCode.IsControl() {
			closed, err := c.control(h)
			if err != nil {
				return c.readFailed(err)
			}
			if closed {
				return reasonClient, false
			}
			continue
		}
		if h.OpCode == ws.OpBinary {
			return c.refuse(ws.StatusUnsupportedData, reasonBinary)
		}
		// The declared length is checked before anything is allocated for it.
		var had int64
		if msg != nil {
			had = int64(len(*msg))
		}
		if had+h.Length > c.g.cfg.MaxFrameBytes {
			return c.refuse(ws.StatusMessageTooBig, reasonTooBig)
		}
		n := int(h.Length)
		room := n
		if h.Fin {
			room += wire.OpenRoom(int(had) + n) // the plaintext is opened behind the message
		}
		msg = reserve(msg, room)
		start := len(*msg)
		*msg = (*msg)[:start+n]
		if _, err := io.ReadFull(c.src, (*msg)[start:]); err != nil {
			return c.readFailed(err)
		}
		ws.Cipher((*msg)[start:], h.Mask, 0)
		if !h.Fin {
			state = state.Set(ws.StateFragmented)
			continue
		}
		state = state.Clear(ws.StateFragmented)
		if !c.isClosing() {
			c.handleApart(*msg)
		}
		putBuf(msg)
		msg = nil
	}
}

// handleApart runs handle on another goroutine: an idle worker, or a new
// goroutine when none is idle. The reader lives as long as the connection;
// this way its stack stays the small one of a parked read instead of
// keeping what JSON, AES and commands grew. It waits until the command
// has taken its place in the log, not until it is durable: a send waits
// for its sync beside the sends read after it, and is answered then.
func (c *conn) handleApart(text []byte) {
	c.queued <- struct{}{}
	taken := make(chan struct{})
	c.g.goApart(func() {
		defer func() { <-c.queued }()
		settle := c.handle(text)
		if settle == nil {
			close(taken)
			return
		}
		c.unsettled.Add(1)
		close(taken)
		settle()
		c.unsettled.Done()
	})
	<-taken
}

// control answers a ping and a close; it reports whether the peer closed.
func (c *conn) control(h ws.Header) (closed bool, err error) {
	var buf [ws.MaxControlFramePayloadSize]byte
	payload := buf[:h.Length]
	if _, err := io.ReadFull(c.src, payload); err != nil {
		return false, err
	}
	ws.Cipher(payload, h.Mask, 0)
	switch h.OpCode {
	case ws.OpPing:
		c.push(outFrame{op: ws.OpPong, body: bytes.Clone(payload)})
	case ws.OpClose:
		code, reason := ws.ParseCloseFrameData(payload)
		switch {
		case len(payload) == 1 || (!code.Empty() && ws.CheckCloseFrameData(code, reason) != nil):
			code = ws.StatusProtocolError
		case code.Empty():
			code = ws.StatusNormalClosure
		}
		c.closeWith(code, reasonClient)
		return true, nil
	}
	return false, nil
}

// refuse closes the connection for a frame it will not read.
func (c *conn) refuse(code ws.StatusCode, reason string) (string, bool) {
	c.closeWith(code, reason)
	return reason, false
}

func (c *conn) readFailed(err error) (string, bool) {
	switch {
	case errors.Is(err, ws.ErrHeaderLengthMSB), errors.Is(err, ws.ErrHeaderLengthUnexpected):
		return c.refuse(ws.StatusProtocolError, reasonProtocol)
	case errors.Is(err, os.ErrDeadlineExceeded) && !c.isClosing():
		return c.refuse(ws.StatusNormalClosure, reasonIdle)
	}
	// The peer is gone, or let the close grace pass.
	return reasonLost, true
}
