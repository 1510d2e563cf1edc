package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
	_ "modernc.org/sqlite" // to set the read store's version as an older build left it

	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Projections status and rebuild (operators)", func() {
	var (
		s      *testServer
		a, b   member
		dir    string
		events string
		reads  string
	)
	status := func() projections.Report {
		GinkgoHelper()
		return s.projectionStatus()
	}

	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		events, reads = filepath.Join(dir, "events"), filepath.Join(dir, "read.db")
		s = startServer(dir)
		a, b = s.register("rebuilda1"), s.register("rebuildb1")
		s.befriend(a, b)
	})

	It("shows every projector's checkpoint, the head, the lag and the last error", func() {
		last := s.send(a, b, "st-1", "hello").Position
		Eventually(func() uint64 { return status().Position }).Should(BeNumerically(">=", last))
		r := status()
		Expect(r.Head).To(BeNumerically(">=", last))
		Expect(r.HeadTime).NotTo(BeZero())
		Expect(r.Projector).To(HaveLen(len(projections.All()) + len(projections.Trailing())))
		for _, p := range r.Projector {
			Expect(p.Checkpoint).To(Equal(r.Head), p.Name)
			Expect(p.Behind).To(BeFalse(), p.Name)
			Expect(p.LagSeconds).To(BeZero(), p.Name)
			Expect(p.LastError).To(BeEmpty(), p.Name)
		}
		code, out, errOut := s.imctl("projections", "status")
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(MatchRegexp(`chats\.v4\s+%d\s+%d\s+no\s+0\.0\s+-`, r.Head, r.Head))

		// Operators only.
		status, _ := s.call("GET", "/v1/admin/projections/status", a.Token, nil)
		Expect(status).To(Equal(http.StatusUnauthorized))
	})

	It("rebuilds every read model into a shadow and swaps it in while members send, read and receive", func() {
		// A backlog to rebuild, appended with the server down.
		Expect(s.stop()).To(Succeed())
		appendBacklog(events, [][2]member{{a, b}}, 1500)
		s = startServer(dir)
		Eventually(func() uint64 { r := status(); return r.Head - r.Position }, 60*time.Second).Should(BeZero())

		socket := s.dial(b, wsclient.WithPushBuffer(100000))
		traffic := newLiveTraffic()
		traffic.send(s, a, b, "live") // a sends to b over REST
		traffic.read(s, b, a.ID, 0)   // b reads its sessions and history
		traffic.collect(socket, 3*time.Second)

		time.Sleep(200 * time.Millisecond)
		started := time.Now()
		code, out, errOut := s.imctl("--json", "projections", "rebuild", "all")
		took := time.Since(started)
		Expect(code).To(Equal(0), errOut)
		var p projections.Rebuild
		Expect(json.Unmarshal([]byte(out), &p)).To(Succeed())
		Expect(p.State).To(Equal(projections.RebuildDone))
		Expect(p.From).To(BeZero())
		Expect(p.SwappedAt).To(BeNumerically(">", 0))
		Expect(p.Position).To(Equal(p.SwappedAt))
		Expect(p.Head).To(Equal(p.SwappedAt), "the head follows the log as traffic grows it")
		Expect(p.SwapHeldMs).To(BeNumerically(">", 0))
		for _, who := range []member{a, s.auditor("x0001", "rebuild-aud")} {
			code, env := s.call("GET", "/v1/admin/projections/rebuild", who.Token, nil)
			Expect(code).To(BeElementOf(http.StatusUnauthorized, http.StatusForbidden), "a member's or an auditor's token")
			Expect(string(env.Data)).NotTo(ContainSubstring("swapHeldMs"))
		}
		Expect(p.Fraction).To(Equal(1.0))
		Expect(p.Done).To(BeNumerically(">", 0))
		GinkgoWriter.Printf("rebuilt %d events in %s (%.0f events/s by the server's count)\n", p.Done, took, p.Rate)
		time.Sleep(300 * time.Millisecond) // traffic after the swap too
		count := traffic.halt()
		Expect(socket.Dropped()).To(BeZero())
		GinkgoWriter.Printf("%d sends and %d reads ran during the rebuild\n", count, traffic.reads.Load())
		Eventually(traffic.unpushed, 10*time.Second).Should(BeEmpty(), "messages sent during the rebuild whose push never came")

		// The shadow is gone; the rebuilt store is served and equals a
		// fresh fold of the same log.
		Expect(reads + ".rebuild").NotTo(BeAnExistingFile())
		Eventually(func() uint64 { r := status(); return r.Head - r.Position }, 10*time.Second).Should(BeZero())
		Expect(s.stop()).To(Succeed())
		Expect(hashOfFile(reads)).To(Equal(rebuild(events, filepath.Join(GinkgoT().TempDir(), "fresh.db"))))
	})

	It("resumes a rebuild interrupted mid-way from the shadow it left", func() {
		Expect(s.stop()).To(Succeed())
		appendBacklog(events, [][2]member{{a, b}}, 2500) // more than one batch

		// The server's engine and rebuilder, on the same files.
		log, closeLog := openSealed(events)
		store, err := sqliteread.Open(reads)
		Expect(err).NotTo(HaveOccurred())
		defer store.Close()
		engine := projections.NewEngine(log, store, nil, catalog.Registry(), projections.All()...)
		_, err = engine.Trail(projections.Trailing()...)
		Expect(err).NotTo(HaveOccurred())
		ctx, stopEngine := context.WithCancel(context.Background())
		engineDone := make(chan error, 1)
		go func() { engineDone <- engine.Run(ctx) }()
		head, err := log.Head(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(engine.WaitFor(ctx, head)).To(BeTrue())

		finished := func(r *projections.Rebuilder) projections.Rebuild {
			GinkgoHelper()
			Eventually(func() string { return r.Progress().State }, 60*time.Second).
				Should(BeElementOf(projections.RebuildDone, projections.RebuildFailed, projections.RebuildCancelled))
			return r.Progress()
		}
		// The first run is cancelled by the operator once it has folded a batch.
		rebuilder := projections.NewRebuilder(engine, store)
		defer rebuilder.Close()
		rebuilder.Progressed = func(p projections.Rebuild) {
			if p.Done > 0 && p.State == projections.RebuildRunning {
				_, _ = rebuilder.CancelRun()
			}
		}
		_, err = rebuilder.Start("chats.v4")
		Expect(err).NotTo(HaveOccurred())
		p := finished(rebuilder)
		Expect(p.State).To(Equal(projections.RebuildCancelled))
		Expect(p.Error).To(BeEmpty())
		Expect(p.Done).To(BeNumerically(">", 0))
		Expect(p.Position).To(BeNumerically("<", head))
		Expect(store.ShadowPath()).To(BeAnExistingFile())
		_, err = rebuilder.CancelRun()
		Expect(err).To(MatchError(projections.ErrNoRebuild))

		// The next run resumes from the shadow the cancelled one kept.
		cancelledAt := p.Position
		rebuilder.Progressed = nil
		_, err = rebuilder.Start("all")
		Expect(err).NotTo(HaveOccurred())
		p = finished(rebuilder)
		Expect(p.State).To(Equal(projections.RebuildDone), p.Error)
		Expect(p.From).To(Equal(cancelledAt), "did not resume where the cancelled run stopped")
		Expect(store.ShadowPath()).NotTo(BeAnExistingFile())
		stopEngine()
		Expect(<-engineDone).To(Succeed())
		Expect(closeLog()).To(Succeed()) // one process at a time opens the log
		Expect(hashOf(store)).To(Equal(rebuild(events, filepath.Join(GinkgoT().TempDir(), "fresh.db"))))
	})

	It("starts afresh from a shadow it cannot open", func() {
		Expect(os.WriteFile(reads+".rebuild", []byte("not a database at all, not even close to one"), 0o600)).To(Succeed())
		code, out, errOut := s.imctl("projections", "rebuild", "all")
		Expect(code).To(Equal(0), errOut)
		Expect(errOut).To(ContainSubstring("100%"))
		_ = out
		// Each progress line drawn: the share of the log's time and the
		// events folded never go back nor past the whole, and the last is
		// all of it.
		lines := regexp.MustCompile(`(\d+)%  (\d+) events`).FindAllStringSubmatch(errOut, -1)
		Expect(lines).NotTo(BeEmpty())
		share, events := 0, 0
		for _, l := range lines {
			sh, _ := strconv.Atoi(l[1])
			ev, _ := strconv.Atoi(l[2])
			Expect(sh).To(And(BeNumerically(">=", share), BeNumerically("<=", 100)), l[0])
			Expect(ev).To(BeNumerically(">=", events), l[0])
			share, events = sh, ev
		}
		Expect(share).To(Equal(100))
		Expect(events).To(BeNumerically(">", 0))
		Expect(status().Position).To(BeNumerically(">", 0))
	})

	It("lets no member, auditor or other tenant's member start, read or cancel a rebuild, and answers two asked at once without a 5xx", func() {
		s.ok("POST", "/v1/admin/tenant/create", s.operator().Token, map[string]string{"code": "x0002", "name": "B"}, nil)
		foreigner := s.registerIn("x0002", "rebuildx1")
		stranger := s.register("rebuildz1") // same tenant, no friend of a or b
		attackers := []member{a, stranger, foreigner, s.auditor("x0001", "rebuild-aud"), s.auditor("x0002", "rebuild-aud2")}
		head := s.head()
		for _, who := range attackers {
			for _, c := range []struct{ method, body string }{
				{"POST", `{"name":"all"}`}, {"POST", `{"name":"chats.v4"}`}, {"GET", ""}, {"DELETE", ""},
			} {
				var body any
				if c.body != "" {
					body = c.body
				}
				code, env := s.call(c.method, "/v1/admin/projections/rebuild", who.Token, body)
				Expect(code).To(BeElementOf(http.StatusUnauthorized, http.StatusForbidden), "%s by %s", c.method, who.Account)
				Expect(string(env.Data)).NotTo(ContainSubstring("swapHeldMs"))
				Expect(string(env.Data)).NotTo(ContainSubstring("projectors"))
			}
		}
		op := s.operator()
		var idle projections.Rebuild
		s.ok("GET", "/v1/admin/projections/rebuild", op.Token, nil, &idle)
		Expect(idle.State).To(Equal(projections.RebuildIdle), "an attacker started a rebuild")
		Expect(s.head()).To(Equal(head), "an attacker's call appended an event")

		By("asking twice at once")
		counts := statuses(atOnce(2, func(int) answer {
			return s.rawCall("POST", "/v1/admin/projections/rebuild", op.Token, `{"name":"all"}`)
		}))
		// The second is refused while the first runs, or starts anew when
		// the first, over this small log, was already done.
		Expect(slices.Collect(maps.Keys(counts))).To(HaveEach(BeElementOf(http.StatusOK, http.StatusConflict)))
		Expect(counts).To(HaveKey(http.StatusOK))
		Eventually(func() string {
			var p projections.Rebuild
			s.ok("GET", "/v1/admin/projections/rebuild", op.Token, nil, &p)
			return p.State
		}, 60*time.Second).Should(Equal(projections.RebuildDone))
		var done projections.Rebuild
		s.ok("GET", "/v1/admin/projections/rebuild", op.Token, nil, &done)
		Expect(done.SwapHeldMs).To(BeNumerically(">", 0))
	})

	It("cancels only a running rebuild", func() {
		code, _, errOut := s.imctl("projections", "cancel")
		Expect(code).To(Equal(1))
		Expect(errOut).To(ContainSubstring("no rebuild is running"))
		status, _ := s.call("DELETE", "/v1/admin/projections/rebuild", a.Token, nil)
		Expect(status).To(Equal(http.StatusUnauthorized))
	})

	It("folds the whole log again into the read store it makes in place of one of an older schema", func() {
		last := s.send(a, b, "old-1", "kept by the log").Position
		Eventually(func() uint64 { return status().Position }).Should(BeNumerically(">=", last))
		Expect(s.stop()).To(Succeed())
		db, err := sql.Open("sqlite", reads)
		Expect(err).NotTo(HaveOccurred())
		_, err = db.Exec(`PRAGMA user_version = 5`)
		Expect(err).NotTo(HaveOccurred())
		Expect(db.Close()).To(Succeed())

		core, logs := observer.New(zap.InfoLevel)
		s = startLogged(dir, zap.New(core))
		Eventually(func() uint64 { return status().Position }).Should(BeNumerically(">=", last))
		replaced := logs.FilterMessage("read store of an older schema replaced; the projections fold the log from the start").All()
		Expect(replaced).To(HaveLen(1))
		Expect(replaced[0].ContextMap()).To(HaveKeyWithValue("oldSchemaVersion", int64(5)))
		var history []struct{ Content string }
		s.ok("GET", "/v1/message/messagePush/history/list/page?friendMemberId="+b.ID, a.Token, nil, &history)
		Expect(history).To(ContainElement(HaveField("Content", "kept by the log")))
		Expect(s.stop()).To(Succeed()) // one process at a time opens the log
		Expect(hashOfFile(reads)).To(Equal(rebuild(events, filepath.Join(GinkgoT().TempDir(), "fresh.db"))))
	})

	It("refuses an unknown projector", func() {
		code, _, errOut := s.imctl("projections", "rebuild", "nosuch.v1")
		Expect(code).To(Equal(1))
		Expect(errOut).To(ContainSubstring("no projector nosuch.v1"))
	})
})
