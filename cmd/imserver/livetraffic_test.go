package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/projections"
)

// liveTraffic is members chatting while something else runs (a rebuild):
// senders over REST, readers of sessions and history over REST, sockets
// collecting the pushed messages, each until halted, counting what fails.
type liveTraffic struct {
	stop                      chan struct{}
	wg                        sync.WaitGroup
	sent                      sync.Map // uuid -> true
	sendErrs, readErrs, reads atomic.Int64
	resyncs                   atomic.Int64 // resync pushes (60) to a collecting socket
	lastErr                   atomic.Value

	mu       sync.Mutex
	received map[string]bool // uuids pushed to a collecting socket
}

func newLiveTraffic() *liveTraffic {
	return &liveTraffic{stop: make(chan struct{}), received: map[string]bool{}}
}

func (t *liveTraffic) running() bool {
	select {
	case <-t.stop:
		return false
	default:
		return true
	}
}

func (t *liveTraffic) fail(count *atomic.Int64, err error) {
	count.Add(1)
	t.lastErr.Store(err.Error())
}

// send has from send messages to to on s until halted, their uuids
// starting with prefix.
func (t *liveTraffic) send(s *testServer, from, to member, prefix string) {
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		send := restSender(s.base, from, to.ID)
		for i := 0; t.running(); i++ {
			uuid := fmt.Sprintf("%s-%d", prefix, i)
			if _, err := send(uuid, "live "+uuid); err != nil {
				t.fail(&t.sendErrs, err)
				continue
			}
			t.sent.Store(uuid, true)
		}
	}()
}

// read has m read its sessions and its history with peer on s, in turn,
// until halted. An answer that is not a 200 envelope fails, and a history
// page of fewer than minHistory messages.
func (t *liveTraffic) read(s *testServer, m member, peer string, minHistory int) {
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		c := &http.Client{Timeout: 10 * time.Second}
		paths := []string{"/v1/message/sessionInfo/list", "/v1/message/messagePush/history/list/page?pageSize=20&friendMemberId=" + peer}
		for i := 0; t.running(); i++ {
			path := paths[i%2]
			req, _ := http.NewRequest("GET", s.base+path, nil)
			req.Header.Set("Authorization", "Bearer "+m.Token)
			resp, err := c.Do(req)
			if err == nil {
				var env envelope
				err = json.NewDecoder(resp.Body).Decode(&env)
				resp.Body.Close()
				var page []json.RawMessage
				short := i%2 == 1 && minHistory > 0 && (json.Unmarshal(env.Data, &page) != nil || len(page) < minHistory)
				if err == nil && (resp.StatusCode != http.StatusOK || env.Code != "200" || short) {
					err = fmt.Errorf("%s on %s: %d %s %s", path, s.base, resp.StatusCode, env.Info, env.Data)
				}
			}
			t.reads.Add(1)
			if err != nil {
				t.fail(&t.readErrs, err)
			}
		}
	}()
}

// collect records the messages pushed to c until it is quiet for quiet.
func (t *liveTraffic) collect(c *wsclient.Client, quiet time.Duration) {
	go func() {
		for {
			ctx, cancel := context.WithTimeout(context.Background(), quiet)
			f, err := c.Next(ctx)
			cancel()
			if err != nil {
				return
			}
			if f.Cmd == projections.CmdResync {
				t.resyncs.Add(1)
			}
			var m message
			if f.Cmd == 11 && json.Unmarshal(f.Data, &m) == nil {
				t.mu.Lock()
				t.received[m.UUID] = true
				t.mu.Unlock()
			}
		}
	}()
}

// halt stops the senders and readers, expects none of their calls to
// have failed and some of each to have run, and returns how many messages
// were sent.
func (t *liveTraffic) halt() (sent int) {
	GinkgoHelper()
	close(t.stop)
	t.wg.Wait()
	Expect(t.sendErrs.Load()).To(BeZero(), "send errors, last: %v", t.lastErr.Load())
	Expect(t.readErrs.Load()).To(BeZero(), "read errors, last: %v", t.lastErr.Load())
	Expect(t.reads.Load()).To(BeNumerically(">", 0))
	t.sent.Range(func(any, any) bool { sent++; return true })
	Expect(sent).To(BeNumerically(">", 0))
	return sent
}

// unpushed are the messages sent whose push no collecting socket received.
func (t *liveTraffic) unpushed() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var missing []string
	t.sent.Range(func(k, _ any) bool {
		if !t.received[k.(string)] {
			missing = append(missing, k.(string))
		}
		return true
	})
	return missing
}
