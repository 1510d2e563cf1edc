package wsclient

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/gobwas/ws"

	"github.com/eventchat/eventchat/adapters/ws/internal/wire"
)

const writeTimeout = 10 * time.Second

// request is a client frame before sealing.
type request struct {
	Cmd  int    `json:"cmd"`
	ID   string `json:"id,omitempty"`
	Data any    `json:"data,omitempty"`
}

// Send sends cmd with data without waiting; the server answers only failures.
func (c *Client) Send(cmd int, data any) error {
	return c.send(request{Cmd: cmd, Data: data})
}

// Request sends cmd with data under a fresh id and waits for the reply.
func (c *Client) Request(ctx context.Context, cmd int, data any) (Reply, error) {
	id := strconv.FormatUint(c.lastID.Add(1), 10)
	wait := make(chan Reply, 1)
	c.pmu.Lock()
	c.pending[id] = wait
	c.pmu.Unlock()
	defer func() {
		c.pmu.Lock()
		delete(c.pending, id)
		c.pmu.Unlock()
	}()

	if err := c.send(request{Cmd: cmd, ID: id, Data: data}); err != nil {
		return Reply{}, err
	}
	select {
	case r := <-wait:
		return r, nil
	case <-ctx.Done():
		return Reply{}, ctx.Err()
	case <-c.done:
		return Reply{}, c.err
	}
}

// SendRaw sends text as it is in a text frame, unsealed: for testing the
// server with frames it cannot open.
func (c *Client) SendRaw(text string) error {
	return c.writeFrame(ws.OpText, []byte(text))
}

func (c *Client) send(r request) error {
	plain, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("wsclient: encode cmd %d: %w", r.Cmd, err)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	mask := ws.NewMask()
	buf := wire.AppendHeader(c.wbuf[:0], ws.OpText, wire.SealedLen(c.aead, len(plain)), &mask)
	head := len(buf)
	buf = wire.AppendSealed(buf, c.aead, plain)
	ws.Cipher(buf[head:], mask, 0)
	c.wbuf = buf
	return c.write(buf)
}

// writeFrame writes one masked frame holding payload as it is.
func (c *Client) writeFrame(op ws.OpCode, payload []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	mask := ws.NewMask()
	buf := wire.AppendHeader(c.wbuf[:0], op, len(payload), &mask)
	head := len(buf)
	buf = append(buf, payload...)
	ws.Cipher(buf[head:], mask, 0)
	c.wbuf = buf
	return c.write(buf)
}

// write sends one frame; call with wmu held.
func (c *Client) write(frame []byte) error {
	select {
	case <-c.done:
		return c.err
	default:
	}
	_ = c.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	if _, err := c.conn.Write(frame); err != nil {
		return fmt.Errorf("wsclient: write: %w", err)
	}
	return nil
}
