package ws_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/ws"
	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/projections"
)

// benchGateway serves a gateway with n connected clients, members m0..m(n-1).
func benchGateway(b *testing.B, n int) (feed, []*wsclient.Client) {
	b.Helper()
	auth := &fakeAuth{logins: map[string]login{}}
	key := make([]byte, 32)
	for i := range n {
		m := "m" + strconv.Itoa(i)
		auth.logins[m] = login{commands.Principal{Tenant: "x0001", MemberID: m, SessionID: m}, key}
	}
	gw := ws.New(ws.Config{}, auth, &countingCommands{}, zap.NewNop())
	srv := httptest.NewServer(gw)
	deltas := make(feed, 64)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { _ = gw.Run(ctx, deltas) }()
	clients := make([]*wsclient.Client, n)
	for i := range clients {
		c, err := wsclient.Dial(ctx, "ws://"+srv.Listener.Addr().String()+"/message-ws", "m"+strconv.Itoa(i), key)
		if err != nil {
			b.Fatal(err)
		}
		clients[i] = c
	}
	b.Cleanup(func() {
		for _, c := range clients {
			_ = c.Close()
		}
		cancel()
		_ = gw.Shutdown(context.Background())
		srv.Close()
	})
	return deltas, clients
}

// countingCommands accepts everything at no cost, to measure the gateway alone.
type countingCommands struct{ n atomic.Uint64 }

func (c *countingCommands) QueueSendMessage(_ context.Context, _ commands.Principal, req commands.SendMessage, _ func()) (func() (commands.SendResult, error), error) {
	res := commands.SendResult{ID: "1", UUID: req.UUID, Position: c.n.Add(1)}
	return func() (commands.SendResult, error) { return res, nil }, nil
}

func (c *countingCommands) OperateSession(context.Context, commands.Principal, commands.SessionOperation) (commands.Changed, error) {
	return commands.Changed{}, nil
}

func (c *countingCommands) AckRead(context.Context, commands.Principal, commands.AckRead) (uint64, error) {
	return c.n.Add(1), nil
}

// BenchmarkSendRequest is sends with replies from 100 clients at once.
func BenchmarkSendRequest(b *testing.B) {
	_, clients := benchGateway(b, 100)
	var next atomic.Uint64
	msg := commands.SendMessage{UUID: "u", ChatType: "Friend", To: "m1", MsgType: "Text", Content: "hello there"}
	b.SetParallelism(50) // 100 goroutines on 2 cores
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		c := clients[next.Add(1)%uint64(len(clients))]
		for pb.Next() {
			r, err := c.Request(context.Background(), projections.CmdMessage, msg)
			if err != nil || !r.OK() {
				b.Errorf("send: %v %+v", err, r)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msg/s")
}

// BenchmarkFanout pushes each delta to 100 connections; one op is one delta
// received by all of them. At most window deltas are in flight, as the
// send queues are bounded.
func BenchmarkFanout(b *testing.B) {
	const window = 64
	deltas, clients := benchGateway(b, 100)
	to := make([]string, len(clients))
	for i := range to {
		to[i] = "m" + strconv.Itoa(i)
	}
	d := projections.Delta{Tenant: "x0001", To: to, Cmd: projections.CmdMessage,
		Data: json.RawMessage(`{"id":"1866000000000000001","chatType":"Group","from":"m1","msgType":"Text","content":"hello there, group"}`)}
	var pending [window]atomic.Int64 // receivers still to get delta i, at i%window
	var delivered [window]chan struct{}
	for i := range delivered {
		delivered[i] = make(chan struct{}, 1)
	}
	var wg sync.WaitGroup
	b.ResetTimer()
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range b.N {
				if _, err := c.Next(context.Background()); err != nil {
					b.Error(err)
					return
				}
				if pending[i%window].Add(-1) == 0 {
					delivered[i%window] <- struct{}{}
				}
			}
		}()
	}
	for i := range b.N {
		if i >= window {
			<-delivered[i%window]
		}
		pending[i%window].Store(int64(len(clients)))
		deltas <- d
	}
	wg.Wait()
	b.ReportMetric(float64(b.N*len(clients))/b.Elapsed().Seconds(), "frames/s")
}
