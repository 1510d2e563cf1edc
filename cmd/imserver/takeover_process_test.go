package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Two server processes on the production profile", Label("fault"), Ordered, func() {
	var bin string
	BeforeAll(func() {
		bin = buildServer(GinkgoT().TempDir())
	})

	DescribeTable("hand the projections over within 5 s while members chat through the other node, losing no acknowledged message",
		func(how string, end func(*process)) {
			profile := startProductionProfile()
			holder := profile.startNode(bin, "node-1", "this node runs the projections")
			other := profile.startNode(bin, "node-2", "another node runs the projections")

			alice, bob := other.register("alice001"), other.register("bob00001")
			other.befriend(alice, bob)
			chat := newTimedChat(other.testServer, alice, bob)
			Eventually(chat.pushes.pushedCount).WithTimeout(20*time.Second).Should(BeNumerically(">=", 50), "pushes before the stop")

			endAt := time.Now()
			ended := make(chan struct{})
			go func() {
				defer GinkgoRecover()
				defer close(ended)
				end(holder)
			}()
			Eventually(ended).WithTimeout(40 * time.Second).Should(BeClosed())
			Eventually(other.log).WithTimeout(10*time.Second).Should(ContainSubstring("this node runs the projections"), "node-2 took no lease")
			// Traffic goes on until pushes have flowed for 2 s after the stop.
			Eventually(func() time.Duration {
				at := chat.firstPushSentAfter(endAt)
				if at.IsZero() {
					return 0
				}
				return time.Since(at)
			}).WithTimeout(20*time.Second).WithPolling(50*time.Millisecond).Should(BeNumerically(">", 2*time.Second), "no push of a message sent after the stop")
			acked := chat.halt()
			// A holder killed between committing a batch and publishing it never
			// sends those pushes: the takeover resync, after which the client
			// reloads history, covers them (docs/admin.md). A graceful stop
			// publishes what it committed.
			covered := how == "kill -9"
			for deadline := time.Now().Add(10 * time.Second); len(chat.unpushed(covered)) > 0 && time.Now().Before(deadline); {
				time.Sleep(50 * time.Millisecond)
			}

			f := chat.figures(endAt)
			report := fmt.Sprintf("%s: lease taken %.2f s after it, pushes back %.2f s, history %.2f s; no push for %.2f s at most; "+
				"a message waited at most %.2f s for its push and %.2f s for history; %d messages acknowledged",
				how, other.loggedAt("this node runs the projections").Sub(endAt).Seconds(),
				f.pushesBack.Seconds(), f.historyBack.Seconds(), f.pushGap.Seconds(),
				f.pushDelay.Seconds(), f.historyDelay.Seconds(), len(acked))
			AddReportEntry("takeover", report)
			GinkgoWriter.Println(report)

			Expect(chat.unpushed(covered)).To(BeEmpty(), "acknowledged messages never pushed; the socket's end: %v", chat.pushes.socket.Err())
			Expect(chat.takeoverResyncs()).To(Equal(1), "the node taking over tells every socket to resync")
			history := map[string]int{}
			for _, m := range other.history(bob, alice.ID, acked[len(acked)-1].Position) {
				history[m.UUID]++
			}
			for _, a := range acked {
				Expect(history[a.UUID]).To(Equal(1), "acknowledged message %s in history", a.UUID)
			}
			Expect(f.pushesBack).To(BeNumerically("<=", 5*time.Second), report)
			Expect(f.historyBack).To(BeNumerically("<=", 5*time.Second), report)
			Expect(f.pushDelay).To(BeNumerically("<=", 5*time.Second), report)
			Expect(f.historyDelay).To(BeNumerically("<=", 5*time.Second), report)
		},
		Entry("after a kill -9 of the lease holder", "kill -9", (*process).kill),
		Entry("after a graceful stop of the lease holder", "SIGTERM", (*process).stop),
	)
})

// startNode starts bin as the node name of the profile, over the profile's
// data directory, and waits until it logs says.
func (p productionProfile) startNode(bin, name, says string) *process {
	GinkgoHelper()
	// The claims live in FerretDB, which a loaded machine slows to a
	// second per call: the default TTL keeps the worker-id hold renewed.
	n := startProcess(bin, filepath.Join(p.dir, "data"),
		"IM_EVENTSTORE="+p.esdb, "IM_READSTORE="+p.mongo, "IM_BUS="+p.nats, "IM_NODE_NAME="+name, "IM_NODE_CLAIM_TTL=5s")
	Eventually(n.log).WithTimeout(10*time.Second).Should(ContainSubstring(says), "%s did not say %q", name, says)
	return n
}

// loggedAt is when p first logged msg, zero if it did not.
func (p *process) loggedAt(msg string) time.Time {
	for _, line := range strings.Split(p.log(), "\n") {
		var l struct {
			Msg string
			TS  float64
		}
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == msg {
			return time.UnixMicro(int64(l.TS * 1e6))
		}
	}
	return time.Time{}
}

// timedChat is from sending to to on s without pause, over REST, while
// to's socket on s records when each message is pushed and a reader of
// to's history on s (with after=) records when each shows there.
type timedChat struct {
	// The loops end at halt; the socket records pushes until the spec ends.
	chatLoops
	pushes *pushLog

	// visible is when history first showed a message at each position.
	visible []visibleAt
}

type visibleAt struct {
	at       time.Time
	position uint64
}

func newTimedChat(s *testServer, from, to member) *timedChat {
	GinkgoHelper()
	t := &timedChat{pushes: collectPushes(s.dial(to, wsclient.WithHeartbeat(10*time.Second)), nil)}
	t.run(func() { t.send("takeover", 10*time.Millisecond, restSender(s.base, from, to.ID)) })
	t.run(func() { t.read(s, to, from.ID) })
	return t
}

// read asks for the newest page of history after the position of the last
// acknowledged message, as a client does after sending, and records the
// newest position it shows.
func (t *timedChat) read(s *testServer, m member, peer string) {
	client := &http.Client{Timeout: 10 * time.Second}
	for t.running() {
		t.mu.Lock()
		var after uint64
		if len(t.acked) > 0 {
			after = t.acked[len(t.acked)-1].Position
		}
		t.mu.Unlock()
		req, _ := http.NewRequest("GET", fmt.Sprintf("%s/v1/message/messagePush/history/list/page?friendMemberId=%s&after=%d", s.base, peer, after), nil)
		req.Header.Set("Authorization", "Bearer "+m.Token)
		resp, err := client.Do(req)
		if err != nil {
			t.fail(fmt.Errorf("history: %w", err))
			continue
		}
		var env envelope
		var page []message
		err = json.NewDecoder(resp.Body).Decode(&env)
		resp.Body.Close()
		if err == nil {
			err = json.Unmarshal(env.Data, &page)
		}
		if err != nil || env.Code != "200" {
			t.fail(fmt.Errorf("history: %v %s", err, env.Info))
			continue
		}
		at := time.Now()
		t.mu.Lock()
		for _, a := range t.acked {
			if slices.ContainsFunc(page, func(m message) bool { return m.UUID == a.UUID }) {
				if n := len(t.visible); n == 0 || t.visible[n-1].position < a.Position {
					t.visible = append(t.visible, visibleAt{at: at, position: a.Position})
				}
			}
		}
		t.mu.Unlock()
	}
}

// takeoverResyncs counts the resync pushes for a takeover the socket got.
func (t *timedChat) takeoverResyncs() int {
	want := string(projections.ResyncData(projections.ResyncTakeover))
	n := 0
	for _, r := range t.pushes.resyncsSeen() {
		if r.data == want {
			n++
		}
	}
	return n
}

// firstPushSentAfter is when the first message sent after at was pushed,
// zero if none was yet.
func (t *timedChat) firstPushSentAfter(at time.Time) time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	var first time.Time
	for _, a := range t.acked {
		if p, ok := t.pushes.pushedAt(a.UUID); ok && a.sentAt.After(at) && (first.IsZero() || p.Before(first)) {
			first = p
		}
	}
	return first
}

// unpushed are the acknowledged messages the socket got no push of; with
// covered, those acknowledged before a takeover resync came are not.
func (t *timedChat) unpushed(covered bool) []string {
	takeover := string(projections.ResyncData(projections.ResyncTakeover))
	resyncs := t.pushes.resyncsSeen()
	t.mu.Lock()
	defer t.mu.Unlock()
	var missing []string
	for _, a := range t.acked {
		if _, ok := t.pushes.pushedAt(a.UUID); ok {
			continue
		}
		if covered && slices.ContainsFunc(resyncs, func(r resyncSeen) bool { return r.data == takeover && r.at.After(a.ackedAt) }) {
			continue
		}
		missing = append(missing, a.UUID)
	}
	return missing
}

// takeoverFigures are measured from the end of the lease holder.
type takeoverFigures struct {
	// pushesBack and historyBack: until the first message sent after the
	// end was pushed, and shown by history.
	pushesBack, historyBack time.Duration
	// pushGap is the longest time without a push from a second before the
	// end on.
	pushGap time.Duration
	// pushDelay and historyDelay: the longest a message sent from a second
	// before the end on waited from its send to its push, and from its
	// acknowledgement to history.
	pushDelay, historyDelay time.Duration
}

func (t *timedChat) figures(end time.Time) takeoverFigures {
	t.mu.Lock()
	defer t.mu.Unlock()
	var f takeoverFigures
	from := end.Add(-time.Second)
	var pushes []time.Time
	for _, p := range t.pushes.pushTimes() {
		if p.After(from) {
			pushes = append(pushes, p)
		}
	}
	slices.SortFunc(pushes, func(a, b time.Time) int { return a.Compare(b) })
	prev := from
	for _, p := range pushes {
		f.pushGap = max(f.pushGap, p.Sub(prev))
		prev = p
	}
	for _, a := range t.acked {
		if a.sentAt.Before(from) {
			continue
		}
		p, pushed := t.pushes.pushedAt(a.UUID)
		if !pushed {
			continue
		}
		f.pushDelay = max(f.pushDelay, p.Sub(a.sentAt))
		i := slices.IndexFunc(t.visible, func(v visibleAt) bool { return v.position >= a.Position })
		if i < 0 {
			continue
		}
		f.historyDelay = max(f.historyDelay, t.visible[i].at.Sub(a.ackedAt))
		if a.sentAt.After(end) {
			if f.pushesBack == 0 || p.Sub(end) < f.pushesBack {
				f.pushesBack = p.Sub(end)
			}
			if f.historyBack == 0 || t.visible[i].at.Sub(end) < f.historyBack {
				f.historyBack = t.visible[i].at.Sub(end)
			}
		}
	}
	return f
}
