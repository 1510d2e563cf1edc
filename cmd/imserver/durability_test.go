package main

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

var _ = Describe("Durability of the server process", Ordered, ContinueOnFailure, func() {
	var bin string
	BeforeAll(func() {
		bin = buildServer(GinkgoT().TempDir())
	})

	// killAndRestart SIGKILLs p once n sends are acknowledged, telling the
	// senders through killed, waits for them to end and starts the server
	// again on dataDir.
	killAndRestart := func(p *process, dataDir string, acked *atomic.Int64, n int, killed *atomic.Bool, senders *sync.WaitGroup) *process {
		GinkgoHelper()
		Eventually(acked.Load).WithTimeout(30 * time.Second).WithPolling(time.Millisecond).Should(BeNumerically(">=", n))
		killed.Store(true)
		p.kill()
		senders.Wait()
		GinkgoWriter.Printf("%d sends acknowledged before SIGKILL\n", acked.Load())
		p = startProcess(bin, dataDir)
		p.waitReady()
		return p
	}

	// friends registers 2n members on p, two at a time (registering and
	// logging in hash passwords), and befriends them in n pairs.
	friends := func(p *process, n int) [][2]member {
		GinkgoHelper()
		pairs := make([][2]member, n)
		var wg sync.WaitGroup
		for side := range 2 {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				for i := range pairs {
					pairs[i][side] = p.register(fmt.Sprintf("dura%02d%c", i, 'a'+side))
				}
			}()
		}
		wg.Wait()
		for _, pair := range pairs {
			p.befriend(pair[0], pair[1])
		}
		return pairs
	}

	// backlogged is a data directory whose event log holds perPair
	// messages each way between n pairs of friends, appended with the
	// server down, and the paths of its log and read store.
	backlogged := func(n, perPair int) (dataDir, eventsPath, readPath string) {
		GinkgoHelper()
		dataDir = GinkgoT().TempDir()
		p := startProcess(bin, dataDir)
		pairs := friends(p, n)
		p.stop()
		eventsPath, readPath = filepath.Join(dataDir, "events"), filepath.Join(dataDir, "read.db")
		appendBacklog(eventsPath, pairs, perPair)
		return dataDir, eventsPath, readPath
	}

	It("keeps every acknowledged send exactly once across a SIGKILL in the middle of 16 clients sending", func() {
		dataDir := GinkgoT().TempDir()
		p := startProcess(bin, dataDir)
		pairs := friends(p, 8)

		// Client i sends to its friend: even clients over REST, odd ones
		// over the websocket. Each records what was acknowledged and the
		// one send the kill cut short. Every 10th send, a websocket client
		// also acknowledges reading up to the last message its friend's
		// REST client had acknowledged, so that unread counts go down too.
		type client struct {
			from, to member
			send     sender
			socket   *wsclient.Client
			last     atomic.Value // id of the last acknowledged send
			acked    map[string]sendResult
			cut      string
			cutBy    error
		}
		var clients []*client
		for _, pair := range pairs {
			for _, way := range [][2]member{{pair[0], pair[1]}, {pair[1], pair[0]}} {
				c := &client{from: way[0], to: way[1], acked: map[string]sendResult{}}
				if len(clients)%2 == 0 {
					c.send = restSender(p.base, c.from, c.to.ID)
				} else {
					c.send, c.socket = socketSender(p.base, c.from, c.to.ID)
				}
				clients = append(clients, c)
			}
		}
		var acked atomic.Int64
		var killed atomic.Bool
		var wg sync.WaitGroup
		for i, c := range clients {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				for n := 0; ; n++ {
					uuid := fmt.Sprintf("c%02d-%06d", i, n)
					r, err := c.send(uuid, "message "+uuid)
					if err == nil && c.socket != nil && n%10 == 9 {
						if read, ok := clients[i-1].last.Load().(string); ok {
							err = c.socket.Send(27, map[string]any{"chatType": "Friend", "from": c.from.ID, "to": c.to.ID, "messageId": read, "unreadCount": 0})
						}
					}
					if err != nil {
						c.cut = uuid
						if !killed.Load() {
							c.cutBy = err
						}
						return
					}
					c.acked[uuid] = r
					c.last.Store(r.ID)
					acked.Add(1)
				}
			}()
		}
		p = killAndRestart(p, dataDir, &acked, 400+rand.IntN(800), &killed, &wg)

		var last uint64
		for _, c := range clients {
			Expect(c.cutBy).NotTo(HaveOccurred(), "client %s failed before the kill", c.from.Account)
			for uuid, r := range c.acked {
				again := p.send(c.from, c.to, uuid, "message "+uuid)
				Expect(again.ID).To(Equal(r.ID), "re-sent %s", uuid)
				Expect(again.UUID).To(Equal(uuid))
				Expect(again.ServerReceiveTime).To(Equal(r.ServerReceiveTime))
				Expect(again.Position).To(Equal(r.Position))
				last = max(last, r.Position)
			}
			// The send cut short may or may not have been stored; sent
			// again, it is stored once either way.
			last = max(last, p.send(c.from, c.to, c.cut, "message "+c.cut).Position)
		}

		read := 0
		for _, pair := range pairs {
			a, b := pair[0], pair[1]
			chat := p.history(a, b.ID, last)
			Expect(p.history(b, a.ID, last)).To(Equal(chat))
			ids, uuids := map[string]int{}, map[string]int{}
			unread := map[string]int{}
			for _, m := range chat {
				ids[m.ID]++
				uuids[m.From+"/"+m.UUID]++
				if m.MsgStatus == "Unread" {
					unread[m.To]++
				} else {
					read++
				}
			}
			for id, n := range ids {
				Expect(n).To(Equal(1), "message %s is in history %d times", id, n)
			}
			for uuid, n := range uuids {
				Expect(n).To(Equal(1), "uuid %s is in history %d times", uuid, n)
			}
			for _, c := range clients {
				if c.from.ID != a.ID && c.from.ID != b.ID {
					continue
				}
				for uuid, r := range c.acked {
					Expect(ids).To(HaveKey(r.ID), "acknowledged send %s (%s) is lost", uuid, r.ID)
					Expect(uuids).To(HaveKey(c.from.ID + "/" + uuid))
				}
				Expect(uuids).To(HaveKey(c.from.ID+"/"+c.cut), "the re-sent %s is missing", c.cut)
			}
			Expect(p.unreadCounts(a, last)[b.ID]).To(Equal(unread[a.ID]), "unread count of %s", a.Account)
			Expect(p.unreadCounts(b, last)[a.ID]).To(Equal(unread[b.ID]), "unread count of %s", b.Account)
		}
		GinkgoWriter.Printf("%d messages read\n", read)
		Expect(read).To(BeNumerically(">", 0), "no read acknowledgement took effect")
		p.stop()
	})

	It("keeps every acknowledged send exactly once across a SIGKILL while each socket has 16 sends in flight", func() {
		dataDir := GinkgoT().TempDir()
		p := startProcess(bin, dataDir)
		pairs := friends(p, 2)
		const window = 16
		type client struct {
			from, to member
			send     sender
			mu       sync.Mutex
			acked    map[string]sendResult
			cut      []string // sends the kill cut short
			cutBy    error
		}
		var clients []*client
		for _, pair := range pairs {
			for _, way := range [][2]member{{pair[0], pair[1]}, {pair[1], pair[0]}} {
				c := &client{from: way[0], to: way[1], acked: map[string]sendResult{}}
				c.send, _ = socketSender(p.base, c.from, c.to.ID)
				clients = append(clients, c)
			}
		}
		var acked atomic.Int64
		var killed atomic.Bool
		var wg sync.WaitGroup
		for i, c := range clients {
			for g := range window {
				wg.Add(1)
				go func() {
					defer GinkgoRecover()
					defer wg.Done()
					for n := 0; ; n++ {
						uuid := fmt.Sprintf("w%d-%02d-%05d", i, g, n)
						r, err := c.send(uuid, "message "+uuid)
						c.mu.Lock()
						if err != nil {
							c.cut = append(c.cut, uuid)
							if !killed.Load() && c.cutBy == nil {
								c.cutBy = err
							}
							c.mu.Unlock()
							return
						}
						c.acked[uuid] = r
						c.mu.Unlock()
						acked.Add(1)
					}
				}()
			}
		}
		p = killAndRestart(p, dataDir, &acked, 300+rand.IntN(600), &killed, &wg)
		var last uint64
		for _, c := range clients {
			Expect(c.cutBy).NotTo(HaveOccurred(), "client %s failed before the kill", c.from.Account)
			Expect(c.cut).To(HaveLen(window))
			for uuid, r := range c.acked {
				again := p.send(c.from, c.to, uuid, "message "+uuid)
				Expect([]any{again.ID, again.ServerReceiveTime, again.Position}).To(Equal([]any{r.ID, r.ServerReceiveTime, r.Position}), "re-sent %s", uuid)
				last = max(last, r.Position)
			}
			for _, uuid := range c.cut {
				last = max(last, p.send(c.from, c.to, uuid, "message "+uuid).Position)
			}
		}
		for _, pair := range pairs {
			chat := p.history(pair[0], pair[1].ID, last)
			uuids := map[string]int{}
			for _, m := range chat {
				uuids[m.From+"/"+m.UUID]++
			}
			for uuid, n := range uuids {
				Expect(n).To(Equal(1), "uuid %s is in history %d times", uuid, n)
			}
			for _, c := range clients {
				if c.from.ID != pair[0].ID && c.from.ID != pair[1].ID {
					continue
				}
				for uuid := range c.acked {
					Expect(uuids).To(HaveKey(c.from.ID+"/"+uuid), "acknowledged send %s is lost", uuid)
				}
				for _, uuid := range c.cut {
					Expect(uuids).To(HaveKey(c.from.ID+"/"+uuid), "the re-sent %s is missing", uuid)
				}
			}
		}
		p.stop()
	})

	It("resumes an operator's rebuild after the server is SIGKILLed in the middle of it", func() {
		dataDir, eventsPath, readPath := backlogged(2, 3000)
		var p *process

		progress := func(p *process) projections.Rebuild {
			var r projections.Rebuild
			p.ok("GET", "/v1/admin/projections/rebuild", p.operator().Token, nil, &r)
			return r
		}
		var killedAt uint64
		for attempt := 0; attempt < 3 && killedAt == 0; attempt++ {
			p = startProcess(bin, dataDir)
			p.waitReady()
			p.ok("POST", "/v1/admin/projections/rebuild", p.operator().Token, map[string]string{"name": "all"}, nil)
			for {
				r := progress(p)
				if r.State == projections.RebuildRunning && r.Position > r.From && r.Position < r.Head {
					p.kill()
					killedAt = r.Position
					break
				}
				if r.State == projections.RebuildDone || r.State == projections.RebuildFailed {
					p.stop()
					break
				}
			}
		}
		Expect(killedAt).NotTo(BeZero(), "never caught the rebuild half-way: enlarge the backlog")
		Expect(readPath + ".rebuild").To(BeAnExistingFile())

		p = startProcess(bin, dataDir)
		p.waitReady()
		p.ok("POST", "/v1/admin/projections/rebuild", p.operator().Token, map[string]string{"name": "all"}, nil)
		Eventually(func() string { return progress(p).State }, 60*time.Second).Should(Equal(projections.RebuildDone))
		r := progress(p)
		GinkgoWriter.Printf("killed at %d, resumed from %d, done at %d\n", killedAt, r.From, r.Position)
		Expect(r.From).To(BeNumerically(">=", killedAt), "the rebuild did not resume from its shadow")
		Expect(readPath + ".rebuild").NotTo(BeAnExistingFile())
		p.stop()
		Expect(hashOfFile(readPath)).To(Equal(rebuild(eventsPath, filepath.Join(GinkgoT().TempDir(), "fresh.db"))))
	})

	It("finishes a rebuild's swap that a SIGKILL cut short, when the server starts again", func() {
		dataDir, eventsPath, readPath := backlogged(2, 1500)
		var p *process

		// The swap is marked from the shadow's close until its files are
		// renamed in: the kill lands while the mark is there.
		marked := func() bool {
			_, err := os.Stat(readPath + ".swapping")
			return err == nil
		}
		cut, attempt := false, 0
		for ; attempt < 5 && !cut; attempt++ {
			p = startProcess(bin, dataDir)
			p.waitReady()
			op := p.operator().Token
			p.ok("POST", "/v1/admin/projections/rebuild", op, map[string]string{"name": "all"}, nil)
			for i, deadline := 0, time.Now().Add(time.Minute); !marked() && time.Now().Before(deadline); i++ {
				if i%100 == 99 {
					var r projections.Rebuild
					if p.ok("GET", "/v1/admin/projections/rebuild", op, nil, &r); r.State == projections.RebuildDone {
						break
					}
				}
				time.Sleep(200 * time.Microsecond)
			}
			p.kill()
			cut = marked()
		}
		Expect(cut).To(BeTrue(), "never caught a swap under way")
		_, shadowLeft := os.Stat(readPath + ".rebuild")
		GinkgoWriter.Printf("SIGKILLed inside the swap at attempt %d, the shadow's file renamed: %t\n", attempt, shadowLeft != nil)

		p = startProcess(bin, dataDir)
		p.waitReady()
		Eventually(func() (int64, error) { return searchBehind(readPath) }).WithTimeout(40 * time.Second).Should(BeZero())
		p.stop()
		for _, gone := range []string{".swapping", ".rebuild", ".rebuild.search"} {
			Expect(readPath + gone).NotTo(BeAnExistingFile())
		}
		Expect(hashOfFile(readPath)).To(Equal(rebuild(eventsPath, filepath.Join(GinkgoT().TempDir(), "fresh.db"))))
	})

	It("folds a backlog killed mid-batch into read models equal to a fresh rebuild", func() {
		dataDir, eventsPath, readPath := backlogged(3, 2000)
		var p *process
		// Without its read store the server folds the whole log again.
		for _, suffix := range []string{"", "-wal", "-shm"} {
			Expect(os.RemoveAll(readPath + suffix)).To(Succeed())
		}

		// Each restart resumes from the checkpoints the last one committed
		// and is killed once it has committed a batch more, while /readyz
		// still says it is behind: a kill between or inside later batches.
		var killedAt []uint64
		for len(killedAt) < 3 {
			p = startProcess(bin, dataDir)
			from := uint64(0)
			if n := len(killedAt); n > 0 {
				from = killedAt[n-1]
			}
			at, ok := p.killPast(from)
			if !ok {
				p.stop()
				break
			}
			killedAt = append(killedAt, at)
		}
		GinkgoWriter.Printf("SIGKILLed while the projections were at %v\n", killedAt)
		Expect(killedAt).NotTo(BeEmpty(), "never caught the projections behind: enlarge the backlog")

		p = startProcess(bin, dataDir)
		p.waitReady()
		// The search index folds behind the models readiness waits for.
		Eventually(func() (int64, error) { return searchBehind(readPath) }).WithTimeout(40 * time.Second).Should(BeZero())
		p.stop()

		served := hashOfFile(readPath)
		fresh := rebuild(eventsPath, filepath.Join(GinkgoT().TempDir(), "rebuilt.db"))
		empty := hashOfFile(filepath.Join(GinkgoT().TempDir(), "empty.db"))
		Expect(fresh).To(HaveLen(14))
		quiet := map[string]bool{"groupApplies": true, "clearFloors": true, "mentions": true, "groups": true, "groupMembers": true, "personal": true} // not in the traffic
		for model, sum := range fresh {
			if !quiet[model] {
				Expect(sum).NotTo(Equal(empty[model]), "the log left read model %s empty", model)
			}
			Expect(served).To(HaveKeyWithValue(model, sum), "read model %s differs from a rebuild", model)
		}
	})

	// The read store is never synced while it is open, so that the event
	// log's fsync is alone on the disk: after the machine stops, its files
	// may be torn. A stop is emulated by a SIGKILL, the process's mark of
	// the open store rewritten as an earlier boot's, and the database
	// spoiled behind its header.
	It("discards a read store left open when the machine stopped and serves the history folded again from the log", func() {
		dataDir := GinkgoT().TempDir()
		readPath := filepath.Join(dataDir, "read.db")
		p := startProcess(bin, dataDir)
		pair := friends(p, 1)[0]
		a, b := pair[0], pair[1]
		var sent []string
		for i := range 30 {
			from, to := a, b
			if i%2 == 1 {
				from, to = b, a
			}
			content := fmt.Sprint("before the stop ", i)
			p.send(from, to, fmt.Sprintf("stop-%02d", i), content)
			sent = append(sent, content)
		}
		contents := func() []string {
			var history []string
			for _, m := range p.history(a, b.ID, 0) {
				history = append(history, m.Content)
			}
			return history
		}

		By("killing the process: the store it left open is kept")
		p.kill()
		p = startProcess(bin, dataDir)
		p.waitReady()
		Expect(p.log()).NotTo(ContainSubstring("discarded"))
		Expect(contents()).To(Equal(sent))

		By("killing it again and emulating the machine's stop")
		p.kill()
		markers, err := filepath.Glob(readPath + ".open-*")
		Expect(err).NotTo(HaveOccurred())
		Expect(markers).To(HaveLen(1))
		Expect(os.WriteFile(markers[0], []byte("an-earlier-boot 1\n"), 0o600)).To(Succeed())
		corruptAfterHeader(readPath)

		p = startProcess(bin, dataDir)
		p.waitReady()
		Expect(p.log()).To(ContainSubstring("read store was open when the machine stopped"))
		Expect(contents()).To(Equal(sent))
		after := p.send(b, a, "stop-after", "after the stop")
		Expect(p.history(b, a.ID, after.Position)).To(HaveLen(len(sent) + 1))
		p.stop()
		Expect(filepath.Glob(readPath+".open-*")).To(BeEmpty(), "a clean stop leaves no mark")
	})

	Describe("on a corrupt or foreign data directory", func() {
		DescribeTable("exits non-zero naming the file and leaves it as it was",
			func(file string, spoil func(path string)) {
				dataDir := GinkgoT().TempDir()
				path := filepath.Join(dataDir, file)
				spoil(path)
				before, err := os.ReadFile(path)
				Expect(err).NotTo(HaveOccurred())

				p, _ := launch(bin, dataDir)
				Expect(p.exitCode()).NotTo(BeZero())
				log := p.log()
				Expect(log).NotTo(ContainSubstring("imserver listening"))
				Expect(log).To(ContainSubstring(path))
				after, err := os.ReadFile(path)
				Expect(err).NotTo(HaveOccurred())
				Expect(after).To(Equal(before), "%s was changed", file)
				GinkgoWriter.Println(strings.TrimSpace(log))
			},
			Entry("events.db of random bytes", "events.db", garbage),
			Entry("events.db with a SQLite header over garbage", "events.db", corruptAfterHeader),
			Entry("events.db of another application", "events.db", foreign),
			Entry("events.db cut short", "events.db", cutShort),
			Entry("events, the Pebble store's directory, a file of random bytes", "events", garbage),
			Entry("read.db of random bytes", "read.db", garbage),
			Entry("read.db with a SQLite header over garbage", "read.db", corruptAfterHeader),
			Entry("read.db of another application", "read.db", foreign),
		)

		// With the event log gone and read.db kept, serving the stale read
		// store would leave everything appended from then on unprojected,
		// its checkpoints lying past the new log's head.
		It("refuses a read store that has folded more than the event log holds", func() {
			dataDir := GinkgoT().TempDir()
			p := startProcess(bin, dataDir)
			friends(p, 1)
			p.stop()
			Expect(os.RemoveAll(filepath.Join(dataDir, "events"))).To(Succeed())

			p, _ = launch(bin, dataDir)
			Expect(p.exitCode()).NotTo(BeZero())
			Expect(p.log()).NotTo(ContainSubstring("imserver listening"))
			Expect(p.log()).To(ContainSubstring(filepath.Join(dataDir, "read.db")))
		})
	})
})

// searchBehind is how far the search index of the read store at path is
// behind the chats projection, in positions.
func searchBehind(path string) (int64, error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // the search file is attached to the one connection
	if _, err := db.Exec(`ATTACH DATABASE ? AS search`, path+".search"); err != nil {
		return 0, err
	}
	var behind int64
	err = db.QueryRow(`SELECT (SELECT position FROM checkpoints WHERE projector = ?)
		- coalesce((SELECT position FROM search_checkpoints WHERE projector = ?), 0)`,
		projections.Chats{}.Name(), projections.SearchIndex{}.Name()).Scan(&behind)
	return behind, err
}
