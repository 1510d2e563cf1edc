package ws_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	gobwas "github.com/gobwas/ws"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/eventchat/eventchat/adapters/ws"
	"github.com/eventchat/eventchat/adapters/ws/internal/wire"
	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/projections"
)

type login struct {
	principal commands.Principal
	key       []byte
}

type fakeAuth struct {
	mu     sync.Mutex
	logins map[string]login
}

func (a *fakeAuth) Authenticate(_ context.Context, token string) (commands.Principal, []byte, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	l, ok := a.logins[token]
	if !ok {
		return commands.Principal{}, nil, fault.New(fault.Unauthorized, fault.MsgLoginExpired)
	}
	return l.principal, l.key, nil
}

type sent struct {
	principal commands.Principal
	req       commands.SendMessage
}

type acked struct {
	principal commands.Principal
	req       commands.AckRead
}

type fakeCommands struct {
	mu      sync.Mutex
	sends   []sent
	acks    []acked
	ops     []commands.SessionOperation
	sendErr error
	// hold, when set, keeps every send from being durable until it closes.
	hold chan struct{}
}

// QueueSendMessage records a send; one to the group "rated" first waits for
// the connection's earlier sends, as a group with a send rate does.
func (f *fakeCommands) QueueSendMessage(_ context.Context, p commands.Principal, req commands.SendMessage, earlier func()) (func() (commands.SendResult, error), error) {
	if req.GroupID == "rated" {
		earlier()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sendErr != nil {
		return nil, f.sendErr
	}
	f.sends = append(f.sends, sent{p, req})
	res := commands.SendResult{ID: fmt.Sprint(1000 + len(f.sends)), UUID: req.UUID, ServerReceiveTime: 1700000000000, Position: uint64(len(f.sends))}
	hold := f.hold
	return func() (commands.SendResult, error) {
		if hold != nil {
			<-hold
		}
		return res, nil
	}, nil
}

// holdSends keeps the sends queued from now on from being durable until
// the returned channel closes.
func (f *fakeCommands) holdSends() chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hold = make(chan struct{})
	return f.hold
}

func (f *fakeCommands) AckRead(_ context.Context, p commands.Principal, req commands.AckRead) (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.acks = append(f.acks, acked{p, req})
	return 42, nil
}

func (f *fakeCommands) OperateSession(_ context.Context, _ commands.Principal, req commands.SessionOperation) (commands.Changed, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if req.OperationType == "Sideways" {
		return commands.Changed{}, fault.New(fault.Invalid, fault.MsgOperationInvalid)
	}
	f.ops = append(f.ops, req)
	return commands.Changed{Position: 77}, nil
}

func (f *fakeCommands) operated() []commands.SessionOperation {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]commands.SessionOperation(nil), f.ops...)
}

func (f *fakeCommands) failSends(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sendErr = err
}

func (f *fakeCommands) sent() []sent {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]sent(nil), f.sends...)
}

func (f *fakeCommands) acked() []acked {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]acked(nil), f.acks...)
}

type feed chan projections.Delta

func (f feed) Deltas(context.Context) (<-chan projections.Delta, error) { return f, nil }

// harness is a gateway behind a real HTTP server on 127.0.0.1, fed by fakes.
type harness struct {
	gw   *ws.Gateway
	srv  *httptest.Server
	url  string
	auth *fakeAuth
	cmds *fakeCommands
	feed feed
	logs *observer.ObservedLogs
}

func startGateway(cfg ws.Config) *harness {
	core, logs := observer.New(zap.InfoLevel)
	h := &harness{
		auth: &fakeAuth{logins: map[string]login{}},
		cmds: &fakeCommands{},
		feed: make(feed),
		logs: logs,
	}
	h.gw = ws.New(cfg, h.auth, h.cmds, zap.New(core))
	mux := http.NewServeMux()
	mux.Handle("GET /message-ws", h.gw)
	h.srv = httptest.NewServer(mux)
	h.url = "ws://" + h.srv.Listener.Addr().String() + "/message-ws"
	DeferCleanup(h.srv.Close)

	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- h.gw.Run(ctx, h.feed) }()
	DeferCleanup(func() {
		cancel()
		Eventually(ran).Should(Receive(BeNil()))
		stop, done := context.WithTimeout(context.Background(), 5*time.Second)
		defer done()
		Expect(h.gw.Shutdown(stop)).To(Succeed())
	})
	return h
}

// login registers a token for member in tenant x0001 and returns it with its key.
func (h *harness) login(member, session string) (string, []byte) {
	return h.loginIn("x0001", member, session)
}

func (h *harness) loginIn(tenant, member, session string) (string, []byte) {
	key := make([]byte, wire.KeySize)
	_, _ = rand.Read(key)
	token := "t-" + tenant + "-" + member + "-" + session
	h.auth.mu.Lock()
	h.auth.logins[token] = login{commands.Principal{Tenant: tenant, MemberID: member, SessionID: session}, key}
	h.auth.mu.Unlock()
	return token, key
}

// connect logs member in and dials.
func (h *harness) connect(member string, opts ...wsclient.Option) *wsclient.Client {
	token, key := h.login(member, "s-"+member)
	return h.dial(token, key, opts...)
}

func (h *harness) dial(token string, key []byte, opts ...wsclient.Option) *wsclient.Client {
	c, err := wsclient.Dial(context.Background(), h.url, token, key, opts...)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(c.Close)
	return c
}

func (h *harness) push(d projections.Delta) {
	Eventually(h.feed).Should(BeSent(d))
}

// closeReasons lists the logged close reasons of member's connections.
func (h *harness) closeReasons(member string) []string {
	var reasons []string
	for _, e := range h.logs.FilterMessage("ws connection closed").FilterField(zap.String("member", member)).All() {
		reasons = append(reasons, e.ContextMap()["reason"].(string))
	}
	return reasons
}

// upgradeRequest is a websocket handshake sent with plain net/http, to read refusals.
func (h *harness) upgradeRequest(query string, header http.Header) *http.Response {
	req, err := http.NewRequest(http.MethodGet, h.srv.URL+"/message-ws?"+query, nil)
	Expect(err).NotTo(HaveOccurred())
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "websocket")
	req.Header.Set("Sec-WebSocket-Version", "13")
	req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(resp.Body.Close)
	return resp
}

func envelopeOf(resp *http.Response) map[string]any {
	var body map[string]any
	Expect(json.NewDecoder(resp.Body).Decode(&body)).To(Succeed())
	return body
}

func ctxWithin(d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	DeferCleanup(cancel)
	return ctx
}

func next(c *wsclient.Client) wsclient.Frame {
	f, err := c.Next(ctxWithin(5 * time.Second))
	Expect(err).NotTo(HaveOccurred())
	return f
}

func request(c *wsclient.Client, cmd int, data any) wsclient.Reply {
	r, err := c.Request(ctxWithin(5*time.Second), cmd, data)
	Expect(err).NotTo(HaveOccurred())
	return r
}

// closedWith waits until c ends and returns the server's close frame.
func closedWith(c *wsclient.Client) *wsclient.CloseError {
	Eventually(c.Done(), 5*time.Second).Should(BeClosed())
	var ce *wsclient.CloseError
	Expect(c.Err()).To(BeAssignableToTypeOf(ce))
	return c.Err().(*wsclient.CloseError)
}

// rawConn is a socket driven frame by frame, for what wsclient will not send.
type rawConn struct {
	net.Conn
	r io.Reader
}

func (h *harness) rawDial(token string, dialer gobwas.Dialer) rawConn {
	conn, br, _, err := dialer.Dial(context.Background(), h.url+"?token="+token)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(conn.Close)
	rc := rawConn{Conn: conn, r: conn}
	if br != nil {
		rc.r = io.MultiReader(br, conn)
	}
	return rc
}

func (rc rawConn) writeFrame(op gobwas.OpCode, fin bool, payload []byte) {
	f := gobwas.MaskFrame(gobwas.NewFrame(op, fin, payload))
	Expect(gobwas.WriteFrame(rc.Conn, f)).To(Succeed())
}

func (rc rawConn) readFrame() gobwas.Frame {
	Expect(rc.SetReadDeadline(time.Now().Add(5 * time.Second))).To(Succeed())
	f, err := gobwas.ReadFrame(rc.r)
	Expect(err).NotTo(HaveOccurred())
	return f
}

func closeCode(f gobwas.Frame) (gobwas.StatusCode, string) {
	Expect(f.Header.OpCode).To(Equal(gobwas.OpClose))
	return gobwas.ParseCloseFrameData(f.Payload)
}

func jsonString(n int) json.RawMessage {
	return json.RawMessage(`"` + strings.Repeat("x", n) + `"`)
}
