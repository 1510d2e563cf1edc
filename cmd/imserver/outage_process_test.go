package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Two server processes on the production profile through NATS outages", Label("fault"), func() {
	It("keep folding while NATS is down, and every member gets every push or a resync after which history holds the message", func() {
		bin := buildServer(GinkgoT().TempDir())
		profile := startProductionProfile()
		// A NATS of this spec's own, stopped and started again on its port
		// and store as an operator's restart does.
		jsDir := filepath.Join(GinkgoT().TempDir(), "js")
		ns := startOutageNATS(jsDir, -1)
		profile.nats = ns.ClientURL()
		natsPort := ns.Addr().(*net.TCPAddr).Port

		one := profile.startNode(bin, "node-1", "this node runs the projections")
		two := profile.startNode(bin, "node-2", "another node runs the projections")

		alice, bob := one.register("alice001"), two.register("bob00001")
		one.befriend(alice, bob)
		o := &outageChat{visible: map[string][]time.Time{}}
		sockets := []*outageSocket{o.watch(one, alice, bob.ID), o.watch(two, bob, alice.ID)}
		o.run(func() { o.send("outage-a", 50*time.Millisecond, restSender(one.base, alice, bob.ID)) })
		o.run(func() { o.send("outage-b", 50*time.Millisecond, restSender(two.base, bob, alice.ID)) })
		for i, s := range []*process{one, two} {
			o.run(func() { o.readHistory(i, s.testServer, bob, alice.ID) })
		}
		Eventually(sockets[0].pushedCount).WithTimeout(15*time.Second).Should(BeNumerically(">=", 20), "pushes before the outages")

		var outages []outage
		for _, down := range []time.Duration{5 * time.Second, 30 * time.Second} {
			ns.Shutdown()
			ns.WaitForShutdown()
			began := time.Now()
			time.Sleep(down / 2)
			status := one.projectionStatus()
			Expect(status.Publisher).NotTo(BeNil())
			GinkgoWriter.Printf("NATS down for %s: publisher %+v\n", time.Since(began).Round(time.Millisecond), *status.Publisher)
			Expect(status.Publisher.Dropped).To(BeNumerically(">", 0), "the holder drops what it cannot send")
			Expect(status.Publisher.LastError).NotTo(BeEmpty())
			time.Sleep(down - time.Since(began))
			ns = startOutageNATS(jsDir, natsPort)
			outages = append(outages, outage{down: began, up: time.Now()})
			// Traffic goes on until every socket was told to resync.
			Eventually(func() bool {
				return !slices.ContainsFunc(sockets, func(s *outageSocket) bool { return s.resyncAfter(began).IsZero() })
			}).WithTimeout(15*time.Second).Should(BeTrue(), "a socket got no resync after NATS came back")
			time.Sleep(3 * time.Second)
		}
		DeferCleanup(func() { ns.Shutdown() })
		acked := o.halt()
		last := slices.MaxFunc(acked, func(a, b ackedSend) int { return cmp.Compare(a.Position, b.Position) })
		Eventually(func() projections.PublishState { return *one.projectionStatus().Publisher }).WithTimeout(10*time.Second).
			Should(SatisfyAll(HaveField("Gap", false), HaveField("LastError", ""), HaveField("Buffered", 0)),
				"no stale error once publishing works again")
		code, out, errOut := one.imctl("projections", "status")
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(MatchRegexp(`\npublish: buffered: 0  dropped: [1-9][0-9]*  resyncs: [1-9][0-9]*\n`))

		// Every member got every push, or a resync after the message was
		// acknowledged whose history read held it.
		for _, s := range sockets {
			s.settle(acked)
			missed := 0
			for _, a := range acked {
				if s.pushed(a.UUID) {
					continue
				}
				missed++
				Expect(s.resyncCovering(a)).To(BeTrue(), "%s missed the push of %s (position %d) with no resync after it whose history held it", s.who, a.UUID, a.Position)
			}
			s.missed = missed
			Expect(s.socket.Err()).To(BeNil(), "%s's socket stayed open", s.who)
		}
		for i, s := range []*process{one, two} {
			got := map[string]bool{}
			for _, m := range s.history(bob, alice.ID, last.Position) {
				got[m.UUID] = true
			}
			for _, a := range acked {
				Expect(got[a.UUID]).To(BeTrue(), "history on node-%d holds %s", i+1, a.UUID)
			}
		}

		// The projections folded while NATS was down: what was acknowledged
		// then shows in history on both nodes before NATS came back.
		var report []string
		for node := range 2 {
			lag, n := o.historyLag(node, time.Time{}, outages[0].down)
			report = append(report, fmt.Sprintf("before the outages: history lag on node-%d at most %.2f s over %d messages", node+1, lag.Seconds(), n))
		}
		for _, out := range outages {
			for node := range 2 {
				lag, n := o.historyLag(node, out.down, out.up.Add(-2*time.Second))
				Expect(n).To(BeNumerically(">", 0))
				Expect(lag).To(BeNumerically("<", 5*time.Second), "history on node-%d during the outage", node+1)
				report = append(report, fmt.Sprintf("NATS down %.0f s: history lag on node-%d at most %.2f s over %d messages",
					out.up.Sub(out.down).Seconds(), node+1, lag.Seconds(), n))
			}
			for node := range 2 {
				// What a client sees without any outage, at the same size
				// of the chat.
				lag, n := o.historyLag(node, out.up.Add(time.Second), out.up.Add(2*time.Second))
				report = append(report, fmt.Sprintf("  after NATS came back: history lag on node-%d at most %.2f s over %d messages", node+1, lag.Seconds(), n))
			}
			for _, s := range sockets {
				report = append(report, fmt.Sprintf("  %s: resync %.2f s after NATS came back", s.who, s.resyncAfter(out.down).Sub(out.up).Seconds()))
			}
		}
		for _, s := range sockets {
			report = append(report, fmt.Sprintf("%s: %d of %d acknowledged messages pushed, %d covered by %d resyncs",
				s.who, len(acked)-s.missed, len(acked), s.missed, len(s.resyncsSeen())))
		}
		AddReportEntry("NATS outages", strings.Join(report, "\n"))
		for _, line := range report {
			GinkgoWriter.Println(line)
		}
	})
})

type outage struct{ down, up time.Time }

func startOutageNATS(dir string, port int) *natsserver.Server {
	GinkgoHelper()
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: port, JetStream: true, StoreDir: dir, NoSigs: true, NoLog: true})
	Expect(err).NotTo(HaveOccurred())
	ns.Start()
	Expect(ns.ReadyForConnections(5 * time.Second)).To(BeTrue())
	return ns
}

// outageChat is two members sending to each other through two nodes, their
// sockets recording pushes and resyncs, and a reader of history on each
// node recording when each message first shows there.
type outageChat struct {
	chatLoops
	visible map[string][]time.Time // by uuid, per node
}

// readHistory reads the newest page of m's history with peer on s, as the
// client does, without waiting for any position, and records when each
// message first shows on node i: when the read that showed it answered.
func (o *outageChat) readHistory(i int, s *testServer, m member, peer string) {
	client := &http.Client{Timeout: 10 * time.Second}
	for o.running() {
		page, err := newestHistory(client, s, m, peer)
		if err != nil {
			o.fail(err)
			continue
		}
		at := time.Now()
		o.mu.Lock()
		for _, msg := range page {
			seen := o.visible[msg.UUID]
			if seen == nil {
				seen = make([]time.Time, 2)
				o.visible[msg.UUID] = seen
			}
			if seen[i].IsZero() {
				seen[i] = at
			}
		}
		o.mu.Unlock()
		time.Sleep(50 * time.Millisecond)
	}
}

// historyLag is the longest a message acknowledged between from and to
// waited to show in history on node i (to - its acknowledgement when it
// never showed before to), and how many there were.
func (o *outageChat) historyLag(i int, from, to time.Time) (time.Duration, int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var lag time.Duration
	n := 0
	for _, a := range o.acked {
		if a.ackedAt.Before(from) || a.ackedAt.After(to) {
			continue
		}
		n++
		seen := o.visible[a.UUID]
		if seen == nil || seen[i].IsZero() || seen[i].After(to) {
			lag = max(lag, to.Sub(a.ackedAt))
			continue
		}
		lag = max(lag, seen[i].Sub(a.ackedAt))
	}
	return lag, n
}

type historyMessage struct {
	UUID     string `json:"uuid"`
	Position uint64 `json:"position"`
}

func newestHistory(client *http.Client, s *testServer, m member, peer string) ([]historyMessage, error) {
	req, err := http.NewRequest("GET", fmt.Sprintf("%s/v1/message/messagePush/history/list/page?friendMemberId=%s&pageSize=50", s.base, peer), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+m.Token)
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer resp.Body.Close()
	var env envelope
	var page []historyMessage
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	if env.Code != "200" {
		return nil, fmt.Errorf("history: %s %s", env.Code, env.Info)
	}
	if err := json.Unmarshal(env.Data, &page); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	return page, nil
}

// outageSocket is a member's socket recording the pushes of messages and
// the resyncs it gets; on a resync it reloads history, as the web client
// does, and records the newest position it held.
type outageSocket struct {
	*pushLog
	who    string
	missed int
}

func (o *outageChat) watch(s *process, m member, peer string) *outageSocket {
	GinkgoHelper()
	who := m.Account + " on " + s.base
	client := &http.Client{Timeout: 10 * time.Second}
	reload := func() uint64 {
		page, err := newestHistory(client, s.testServer, m, peer)
		if err != nil {
			o.fail(fmt.Errorf("%s: reload after a resync: %w", who, err))
		}
		var held uint64
		for _, msg := range page {
			held = max(held, msg.Position)
		}
		return held
	}
	socket := s.dial(m, wsclient.WithHeartbeat(5*time.Second), wsclient.WithPushBuffer(1<<14))
	return &outageSocket{pushLog: collectPushes(socket, reload), who: who}
}

func (w *outageSocket) pushed(uuid string) bool {
	_, ok := w.pushedAt(uuid)
	return ok
}

// resyncAfter is when the first resync after t came, zero if none did.
func (w *outageSocket) resyncAfter(t time.Time) time.Time {
	for _, r := range w.resyncsSeen() {
		if r.at.After(t) {
			return r.at
		}
	}
	return time.Time{}
}

// resyncCovering reports whether a resync came whose reload of history held
// a.
func (w *outageSocket) resyncCovering(a ackedSend) bool {
	return slices.ContainsFunc(w.resyncsSeen(), func(r resyncSeen) bool { return r.held >= a.Position })
}

// settle waits until every acknowledged message was pushed or covered by a
// resync, for 10 s at most.
func (w *outageSocket) settle(acked []ackedSend) {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if !slices.ContainsFunc(acked, func(a ackedSend) bool { return !w.pushed(a.UUID) && !w.resyncCovering(a) }) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}
