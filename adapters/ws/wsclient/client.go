// Package wsclient is a Go client of the /message-ws gateway, for component
// tests and load generation: it seals frames under the login's key, matches
// replies to requests by id and hands pushed frames out through a bounded
// buffer.
package wsclient

import (
	"bufio"
	"context"
	"crypto/cipher"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobwas/ws"

	"github.com/eventchat/eventchat/adapters/ws/internal/wire"
)

// Frame is a frame the server pushed, or an error frame answering a request
// that carried no id (then Code and Info are set).
type Frame struct {
	Cmd  int             `json:"cmd"`
	Code string          `json:"code,omitempty"`
	Info string          `json:"info,omitempty"`
	Data json.RawMessage `json:"data"`
}

// Reply answers a Request.
type Reply struct {
	Cmd  int             `json:"cmd"`
	ID   string          `json:"id"`
	Code string          `json:"code"`
	Info string          `json:"info"`
	Data json.RawMessage `json:"data"`
}

// OK reports whether the server accepted the request.
func (r Reply) OK() bool { return r.Code == "200" }

// HandshakeError is a refused upgrade: the server answered Status instead of 101.
type HandshakeError struct{ Status int }

func (e *HandshakeError) Error() string {
	return fmt.Sprintf("wsclient: handshake refused with HTTP %d", e.Status)
}

// CloseError tells how the server closed the connection.
type CloseError struct {
	Code   int
	Reason string
}

func (e *CloseError) Error() string {
	return fmt.Sprintf("wsclient: closed by server: %d %s", e.Code, e.Reason)
}

// ErrClosed is returned after Close.
var ErrClosed = errors.New("wsclient: closed")

// Client is one socket. Its methods are safe for concurrent use.
type Client struct {
	conn net.Conn
	br   *bufio.Reader
	aead cipher.AEAD

	wmu  sync.Mutex // one frame written at a time
	wbuf []byte

	lastID  atomic.Uint64
	pmu     sync.Mutex
	pending map[string]chan Reply

	pushes  chan Frame // closed when the reader ends
	dropped atomic.Uint64

	done   chan struct{} // closed when the reader ends, after err is set
	err    error
	closed atomic.Bool
}

// Dial connects to rawURL (ws://host:port/message-ws) with token and the
// login's 32-byte frame key.
func Dial(ctx context.Context, rawURL, token string, key []byte, opts ...Option) (*Client, error) {
	o := options{pushBuffer: 1024}
	for _, opt := range opts {
		opt(&o)
	}
	aead, err := wire.NewAEAD(key)
	if err != nil {
		return nil, fmt.Errorf("wsclient: %w", err)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("wsclient: url: %w", err)
	}
	q := u.Query()
	q.Set("token", token)
	u.RawQuery = q.Encode()

	var d ws.Dialer
	if o.origin != "" {
		d.Header = ws.HandshakeHeaderHTTP(http.Header{"Origin": {o.origin}})
	}
	conn, br, _, err := d.Dial(ctx, u.String())
	if err != nil {
		var status ws.StatusError
		if errors.As(err, &status) {
			return nil, &HandshakeError{Status: int(status)}
		}
		return nil, fmt.Errorf("wsclient: dial: %w", err)
	}
	if br == nil {
		br = bufio.NewReader(conn)
	}
	c := &Client{
		conn:    conn,
		br:      br,
		aead:    aead,
		pending: make(map[string]chan Reply),
		pushes:  make(chan Frame, o.pushBuffer),
		done:    make(chan struct{}),
	}
	go c.readLoop()
	if o.heartbeat > 0 {
		go c.beat(o.heartbeat)
	}
	return c, nil
}

// Next returns the next pushed frame. Once the connection has ended and the
// buffered frames are taken, it returns why it ended.
func (c *Client) Next(ctx context.Context) (Frame, error) {
	select {
	case f, ok := <-c.pushes:
		if !ok {
			return Frame{}, c.err
		}
		return f, nil
	case <-ctx.Done():
		return Frame{}, ctx.Err()
	}
}

// Done is closed when the connection has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err tells why the connection ended (a *CloseError when the server closed
// it); nil while it is open.
func (c *Client) Err() error {
	select {
	case <-c.done:
		return c.err
	default:
		return nil
	}
}

// Dropped counts pushed frames dropped because the push buffer was full.
func (c *Client) Dropped() uint64 { return c.dropped.Load() }

// Close sends a normal close frame, waits briefly for the server's answer
// and closes the socket.
func (c *Client) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	_ = c.writeFrame(ws.OpClose, ws.NewCloseFrameBody(ws.StatusNormalClosure, ""))
	select {
	case <-c.done: // the reader has closed the socket
		return nil
	case <-time.After(time.Second):
		return c.conn.Close()
	}
}

func (c *Client) beat(every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
			if c.Send(13, nil) != nil {
				return
			}
		}
	}
}
