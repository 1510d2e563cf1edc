package wsclient_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/ws"
	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/projections"
)

var key = []byte("0123456789abcdef0123456789abcdef")

type auth struct{}

func (auth) Authenticate(_ context.Context, token string) (commands.Principal, []byte, error) {
	if token != "good" {
		return commands.Principal{}, nil, fault.New(fault.Unauthorized, fault.MsgLoginExpired)
	}
	return commands.Principal{Tenant: "x0001", MemberID: "m1", SessionID: "s1"}, key, nil
}

// gatedCommands holds every send until release is closed.
type gatedCommands struct{ release chan struct{} }

func (g gatedCommands) QueueSendMessage(_ context.Context, _ commands.Principal, req commands.SendMessage, _ func()) (func() (commands.SendResult, error), error) {
	return func() (commands.SendResult, error) {
		<-g.release
		return commands.SendResult{ID: "1", UUID: req.UUID}, nil
	}, nil
}

func (gatedCommands) OperateSession(context.Context, commands.Principal, commands.SessionOperation) (commands.Changed, error) {
	return commands.Changed{}, nil
}

func (gatedCommands) AckRead(context.Context, commands.Principal, commands.AckRead) (uint64, error) {
	return 0, nil
}

type feed chan projections.Delta

func (f feed) Deltas(context.Context) (<-chan projections.Delta, error) { return f, nil }

var _ = Describe("Client", func() {
	var (
		url     string
		deltas  feed
		release chan struct{}
	)

	BeforeEach(func() {
		deltas, release = make(feed), make(chan struct{})
		gw := ws.New(ws.Config{}, auth{}, gatedCommands{release}, zap.NewNop())
		srv := httptest.NewServer(gw)
		url = "ws://" + srv.Listener.Addr().String() + "/message-ws"
		ctx, cancel := context.WithCancel(context.Background())
		go func() { _ = gw.Run(ctx, deltas) }()
		DeferCleanup(func() {
			close(release)
			cancel()
			Expect(gw.Shutdown(context.Background())).To(Succeed())
			srv.Close()
		})
	})

	dial := func(opts ...wsclient.Option) *wsclient.Client {
		c, err := wsclient.Dial(context.Background(), url, "good", key, opts...)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(c.Close)
		return c
	}

	push := func(cmd int) {
		Eventually(deltas).Should(BeSent(projections.Delta{Tenant: "x0001", To: []string{"m1"}, Cmd: cmd, Data: json.RawMessage(`{}`)}))
	}

	It("refuses a key that is not 32 bytes without connecting", func() {
		_, err := wsclient.Dial(context.Background(), url, "good", key[:16])
		Expect(err).To(MatchError(ContainSubstring("32 bytes")))
	})

	It("reports a refused handshake with its HTTP status", func() {
		_, err := wsclient.Dial(context.Background(), url, "bad", key)
		Expect(err).To(Equal(&wsclient.HandshakeError{Status: http.StatusUnauthorized}))
	})

	It("gives up a request when its context ends and drops the late reply", func() {
		c := dial()
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := c.Request(ctx, projections.CmdMessage, commands.SendMessage{UUID: "u1"})
		Expect(err).To(MatchError(context.DeadlineExceeded))

		release <- struct{}{}
		push(projections.CmdOnline)
		f, err := c.Next(context.Background())
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Cmd).To(Equal(projections.CmdOnline))
	})

	It("hands out buffered pushes before the reason the connection ended", func() {
		c := dial()
		push(projections.CmdOnline)
		push(projections.CmdSessionEnd)
		Eventually(c.Done()).Should(BeClosed())

		for _, cmd := range []int{projections.CmdOnline, projections.CmdSessionEnd} {
			f, err := c.Next(context.Background())
			Expect(err).NotTo(HaveOccurred())
			Expect(f.Cmd).To(Equal(cmd))
		}
		_, err := c.Next(context.Background())
		Expect(err).To(Equal(&wsclient.CloseError{Code: 1000, Reason: "session end"}))
	})

	It("drops and counts pushes beyond its buffer", func() {
		c := dial(wsclient.WithPushBuffer(1))
		push(projections.CmdOnline)
		push(projections.CmdEdit)
		push(projections.CmdRecall)

		Eventually(c.Dropped).Should(Equal(uint64(2)))
		f, err := c.Next(context.Background())
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Cmd).To(Equal(projections.CmdOnline))
	})

	It("is closed for good after Close", func() {
		c := dial()
		Expect(c.Close()).To(Succeed())
		Expect(c.Err()).To(MatchError(wsclient.ErrClosed))
		Expect(c.Send(projections.CmdHeartbeat, nil)).To(MatchError(wsclient.ErrClosed))
		Expect(c.Close()).To(Succeed())
	})
})
