package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/blobstore"
)

var _ = Describe("Node processes sharing the production profile", Label("fault"), Ordered, func() {
	var (
		bin     string
		profile productionProfile
		dataDir string
	)
	BeforeAll(func() {
		bin = buildServer(GinkgoT().TempDir())
		profile = startProductionProfile()
		dataDir = filepath.Join(profile.dir, "data")
	})
	// node launches a process named name on the profile, whose claims last
	// 2 s.
	node := func(name string) (*process, <-chan string) {
		return launch(bin, dataDir, "IM_EVENTSTORE="+profile.esdb, "IM_READSTORE="+profile.mongo, "IM_BUS="+profile.nats,
			"IM_NODE_NAME="+name, "IM_NODE_CLAIM_TTL=2s")
	}
	start := func(name string) *process { return listening(node(name)) }

	It("take different worker ids, and lose none of the messages their members send at once", func() {
		one, two := start("node-1"), start("node-2")
		Expect(workerID(one)).NotTo(Equal(workerID(two)))

		alice, bob := one.register("alice001"), two.register("bob00001")
		one.befriend(alice, bob)
		const senders, each = 4, 75 // per node
		var (
			mu    sync.Mutex
			acked []sendResult
			// workerOf is the worker id of the node that acknowledged each id.
			workerOf = map[string]int64{}
			wg       sync.WaitGroup
		)
		began := time.Now()
		for _, side := range []struct {
			s        *process
			worker   int64
			from, to member
		}{{one, workerID(one), alice, bob}, {two, workerID(two), bob, alice}} {
			for i := range senders {
				wg.Add(1)
				go func() {
					defer GinkgoRecover()
					defer wg.Done()
					for j := range each {
						r := side.s.send(side.from, side.to, fmt.Sprintf("%s-%d-%d", side.from.Account, i, j), "hi")
						mu.Lock()
						acked = append(acked, r)
						workerOf[r.ID] = side.worker
						mu.Unlock()
					}
				}()
			}
		}
		wg.Wait()
		GinkgoWriter.Printf("%d messages acknowledged in %s\n", len(acked), time.Since(began))

		want := map[string]bool{}
		var last uint64
		for _, r := range acked {
			want[r.ID] = true
			last = max(last, r.Position)
		}
		Expect(want).To(HaveLen(2*senders*each), "two acknowledged messages carry one id")
		for id, worker := range workerOf {
			n, err := strconv.ParseInt(id, 10, 64)
			Expect(err).NotTo(HaveOccurred())
			Expect(n>>12&1023).To(Equal(worker), "the node bits of %s", id)
		}
		for _, s := range []*process{one, two} {
			ids := historyIDs(s.testServer, alice, bob, last)
			Expect(ids).To(HaveLen(len(want)), "history on %s", s.base)
			got := map[string]bool{}
			for _, id := range ids {
				got[id] = true
			}
			Expect(got).To(Equal(want), "history on %s", s.base)
		}
		for _, p := range []*process{one, two} {
			Expect(p.log()).NotTo(ContainSubstring("a different message holds this id"))
			p.stop()
		}
	})

	It("hold a member's devices on both nodes together to a group's send rate: of twelve sends at once, five pass", func() {
		one, two := start("node-r1"), start("node-r2")
		alice, bob := one.register("rated001"), one.register("rated002")
		one.befriend(alice, bob)
		var created struct{ GroupID string }
		one.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Rated", "memberIds": []string{bob.ID}}, &created)
		one.written("PUT", "/v1/chat/groupInfo/modify", alice, map[string]any{"groupId": created.GroupID, "sendRate": "FivePerMinute"})
		devices := []struct {
			s   *process
			who member
		}{{one, bob}, {two, two.login(bob.Account)}}

		answers := atOnce(12, func(i int) answer {
			d := devices[i%2]
			return d.s.rawCall("POST", "/v1/message/send", d.who.Token, fmt.Sprintf(
				`{"uuid":"rated-%d","chatType":"Group","groupId":%q,"msgType":"Text","content":"burst %d"}`, i, created.GroupID, i))
		})
		Expect(statuses(answers)).To(Equal(map[int]int{http.StatusOK: 5, http.StatusTooManyRequests: 7}))
		for _, a := range answers {
			if a.status != http.StatusOK {
				Expect(a.body).To(ContainSubstring("you are sending messages too fast in this group"))
			}
		}
		one.stop()
		two.stop()
	})

	It("refuse a second live process with the name of another, and start one again after a kill -9", func() {
		first := start("node-x")

		began := time.Now()
		second, _ := node("node-x")
		Expect(second.exitCode()).To(Equal(1))
		GinkgoWriter.Printf("the second node-x refused in %s\n", time.Since(began))
		Expect(time.Since(began)).To(BeNumerically("<", 10*time.Second))
		Expect(second.log()).To(ContainSubstring(`IM_NODE_NAME: nodes: another live node has this name: \"node-x\" is held by node-x#`))

		first.kill()
		began = time.Now()
		// A node of another name joins at once, while the killed node's
		// worker claim still has at least four fifths of its 2 s to run.
		other := start("node-w")
		GinkgoWriter.Printf("another node joined %s after the kill\n", time.Since(began))
		Expect(workerID(other)).NotTo(Equal(workerID(first)), "the killed node's worker id is claimed until its claim ends")
		again := start("node-x")
		GinkgoWriter.Printf("restarted after the kill in %s\n", time.Since(began))
		Expect(workerID(again)).NotTo(Equal(workerID(other)))
		again.waitReady()
		again.stop()
		other.stop()
	})

	It("stop a node that paused past its claims' end once another instance took them", func() {
		paused := start("node-y")
		Expect(paused.cmd.Process.Signal(syscall.SIGSTOP)).To(Succeed())
		DeferCleanup(func() { _ = paused.cmd.Process.Signal(syscall.SIGCONT) })
		successor := start("node-y")

		Expect(paused.cmd.Process.Signal(syscall.SIGCONT)).To(Succeed())
		Expect(paused.exitCode()).To(Equal(1))
		Expect(paused.log()).To(MatchRegexp(`nodes: this node lost its claim node/node-y: node-y#[0-9a-f]+ holds it now`))
		successor.waitReady()
		// The projection lease names the instance: the successor takes it
		// once the paused one's ends or is freed, and the paused one could
		// not renew the successor's.
		Eventually(func() string { return successor.projectionStatus().Leader }, 10*time.Second).
			Should(Equal("node-y#" + instanceOf(successor)))
		successor.stop()
	})

	It("serve each other's uploads and presence from their own data directories, the uploader killed with kill -9", func() {
		dirOne, dirTwo := GinkgoT().TempDir(), GinkgoT().TempDir()
		env := func(name string) []string {
			return []string{"IM_EVENTSTORE=" + profile.esdb, "IM_READSTORE=" + profile.mongo, "IM_BUS=" + profile.nats,
				"IM_NODE_NAME=" + name, "IM_NODE_CLAIM_TTL=2s", "IM_PRESENCE_TTL=1s"}
		}
		// The nodes share nothing of their data directories: the signing
		// secret is in the read store.
		one := startProcess(bin, dirOne, env("node-1")...)
		two := startProcess(bin, dirTwo, env("node-2")...)

		alice, bob := two.register("alice003"), two.register("bob00003")
		friends := two.befriend(alice, bob)
		pic := pngOf(5, 4)
		status, up := one.upload(bob.Token, "", "file", "cat.png", pic)
		Expect(status).To(Equal(http.StatusOK))
		one.dial(bob)
		Eventually(func() bool { return two.friendOnline(alice, bob.ID, friends) }).WithTimeout(5 * time.Second).Should(BeTrue())

		one.kill()
		resp, body := two.fetch(up.Data.FilePath, alice.Token)
		Expect(resp.StatusCode).To(Equal(http.StatusOK), "the upload outlives the node it came through")
		Expect(body).To(Equal(pic))
		Eventually(func() bool { return two.friendOnline(alice, bob.ID, friends) }).WithTimeout(5*time.Second).
			Should(BeFalse(), "a killed node's members go offline once its announcements end")
		for _, dir := range []string{dirOne, dirTwo} {
			Expect(filepath.Join(dir, blobstore.Dir)).NotTo(BeAnExistingFile())
		}
		two.stop()
	})
})

// instanceOf is the instance id the process logged with its claims.
func instanceOf(p *process) string {
	GinkgoHelper()
	for _, line := range strings.Split(p.log(), "\n") {
		var l struct{ Msg, Instance string }
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "node claims taken" {
			return l.Instance
		}
	}
	Fail("no instance in the log")
	return ""
}

// workerID is the worker id the process logged it claimed.
func workerID(p *process) int64 {
	GinkgoHelper()
	for _, line := range strings.Split(p.log(), "\n") {
		var l struct {
			Msg      string
			WorkerID *int64 `json:"workerId"`
		}
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "node claims taken" && l.WorkerID != nil {
			return *l.WorkerID
		}
	}
	Fail("no worker id logged:\n" + p.log())
	return -1
}

// historyIDs pages m's history with peer, once the read models have
// reached position after, and returns the ids newest first.
func historyIDs(s *testServer, m, peer member, after uint64) []string {
	GinkgoHelper()
	var ids []string
	path := fmt.Sprintf("/v1/message/messagePush/history/list/page?friendMemberId=%s&pageSize=200&after=%d", peer.ID, after)
	for {
		var page []message
		s.ok("GET", path, m.Token, nil, &page)
		for i := len(page) - 1; i >= 0; i-- {
			ids = append(ids, page[i].ID)
		}
		if len(page) < 200 {
			return ids
		}
		path = fmt.Sprintf("/v1/message/messagePush/history/list/page?friendMemberId=%s&pageSize=200&queryType=Up&messageId=%s", peer.ID, page[0].ID)
	}
}
