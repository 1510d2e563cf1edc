package wsclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/gobwas/ws"

	"github.com/eventchat/eventchat/adapters/ws/internal/wire"
)

// maxFrame bounds a server frame the client accepts.
const maxFrame = 16 << 20

// inbound is a server frame once opened: a reply when ID is set.
type inbound struct {
	Cmd  int             `json:"cmd"`
	ID   string          `json:"id"`
	Code string          `json:"code"`
	Info string          `json:"info"`
	Data json.RawMessage `json:"data"`
}

func (c *Client) readLoop() {
	err := c.readFrames()
	if c.closed.Load() {
		err = ErrClosed
	}
	c.err = err
	close(c.done)
	close(c.pushes)
	_ = c.conn.Close()
}

func (c *Client) readFrames() error {
	var payload, opened []byte
	for {
		h, err := ws.ReadHeader(c.br)
		if err != nil {
			return fmt.Errorf("wsclient: read: %w", err)
		}
		if err := ws.CheckHeader(h, ws.StateClientSide); err != nil {
			return fmt.Errorf("wsclient: %w", err)
		}
		if !h.Fin {
			return errors.New("wsclient: fragmented frames are not supported")
		}
		if h.Length > maxFrame {
			return fmt.Errorf("wsclient: frame of %d bytes refused", h.Length)
		}
		if int64(cap(payload)) < h.Length {
			payload = make([]byte, h.Length)
		}
		payload = payload[:h.Length]
		if _, err := io.ReadFull(c.br, payload); err != nil {
			return fmt.Errorf("wsclient: read: %w", err)
		}
		switch h.OpCode {
		case ws.OpPing:
			_ = c.writeFrame(ws.OpPong, payload)
		case ws.OpClose:
			code, reason := ws.ParseCloseFrameData(payload)
			var echo []byte
			if !code.Empty() {
				echo = ws.NewCloseFrameBody(code, "")
			}
			_ = c.writeFrame(ws.OpClose, echo)
			return &CloseError{Code: int(code), Reason: reason}
		case ws.OpText:
			if cap(opened) < wire.OpenRoom(len(payload)) {
				opened = make([]byte, 0, wire.OpenRoom(len(payload)))
			}
			plain, err := wire.Open(opened, payload, c.aead)
			if err != nil {
				return fmt.Errorf("wsclient: server frame: %w", err)
			}
			if err := c.dispatch(plain); err != nil {
				return err
			}
		}
	}
}

// dispatch hands a reply to its waiting Request and a push to Next.
func (c *Client) dispatch(plain []byte) error {
	var in inbound
	if err := json.Unmarshal(plain, &in); err != nil {
		return fmt.Errorf("wsclient: server frame: %w", err)
	}
	if in.ID != "" {
		c.pmu.Lock()
		wait := c.pending[in.ID]
		c.pmu.Unlock()
		if wait != nil {
			select { // the channel holds one reply; a repeated id is ignored
			case wait <- Reply{Cmd: in.Cmd, ID: in.ID, Code: in.Code, Info: in.Info, Data: in.Data}:
			default:
			}
		}
		return nil
	}
	select {
	case c.pushes <- Frame{Cmd: in.Cmd, Code: in.Code, Info: in.Info, Data: in.Data}:
	default:
		c.dropped.Add(1)
	}
	return nil
}
