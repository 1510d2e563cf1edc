package projections_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/projections"
)

// unrenewable is a read store whose lease cannot be renewed once broken
// is set, as when a node loses its connection to the store, or whose lease
// calls never answer once hung is set.
type unrenewable struct {
	projections.ReadStore
	broken, hung atomic.Bool
}

func (u *unrenewable) TakeLease(ctx context.Context, owner string, now, until time.Time) (string, error) {
	if u.hung.Load() {
		<-ctx.Done()
		return "", ctx.Err()
	}
	if u.broken.Load() {
		return "", errors.New("connection lost")
	}
	return u.ReadStore.TakeLease(ctx, owner, now, until)
}

// gated is a read store whose next update waits, once armed, until
// released, as a commit under way when its node is told to stop.
type gated struct {
	projections.ReadStore
	armed            atomic.Bool
	entered, release chan struct{}
}

func (g *gated) Update(ctx context.Context, fn func(tx projections.Tx) error) error {
	if g.armed.CompareAndSwap(true, false) {
		close(g.entered)
		<-g.release
	}
	return g.ReadStore.Update(ctx, fn)
}

// seesFree is a read store whose next lease call, once armed, finds the
// lease free and takes nothing: a take that met the holder's lease, then
// read it back after the holder freed it.
type seesFree struct {
	projections.ReadStore
	armed atomic.Bool
}

func (s *seesFree) TakeLease(ctx context.Context, owner string, now, until time.Time) (string, error) {
	if s.armed.CompareAndSwap(true, false) {
		return "", nil
	}
	return s.ReadStore.TakeLease(ctx, owner, now, until)
}

// dropping is a read store that arms another node's seesFree as it frees
// the lease.
type dropping struct {
	projections.ReadStore
	other *seesFree
}

func (d *dropping) DropLease(ctx context.Context, owner string) error {
	d.other.armed.Store(true)
	return d.ReadStore.DropLease(ctx, owner)
}

var _ = Describe("Engines of several nodes on one read store", func() {
	const ttl = 600 * time.Millisecond
	var (
		log  *sqlitestore.Store
		path string
	)
	BeforeEach(func() {
		var err error
		log, err = sqlitestore.Open(filepath.Join(GinkgoT().TempDir(), "events.db"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(log.Close)
		path = filepath.Join(GinkgoT().TempDir(), "read.db")
	})
	// handle opens another handle on the shared read store, as a node does.
	handle := func() *sqliteread.Store {
		s, err := sqliteread.Open(path)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		return s
	}
	node := func(owner string, store projections.ReadStore, pub projections.Publisher) *projections.Engine {
		e := engine(log, store, pub)
		e.Elect(projections.Election{Owner: owner, TTL: ttl})
		return e
	}
	waitFor := func(e *projections.Engine, pos uint64) {
		GinkgoHelper()
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		Expect(e.WaitFor(c, pos)).To(BeTrue())
	}
	send := func(from, to int) (last uint64) {
		for i := from; i < to; i++ {
			last = appendEvent(log, chatStream, sent(fmt.Sprint("m", i), "1", "2", "x"))
		}
		return last
	}

	It("let one of them fold and publish while the others follow its checkpoints, and hand over when it stops, telling every socket to resync", func() {
		pubA, pubB := &recorder{}, &recorder{}
		a := node("node-a", handle(), pubA)
		stopA := run(a)
		Eventually(func() string { return a.Status().Leader }).Should(Equal("node-a"))
		storeB := handle()
		b := node("node-b", storeB, pubB)
		stopB := run(b)
		defer stopB()

		last := send(0, 20)
		waitFor(a, last)
		waitFor(b, last)
		Expect(b.Status().Leader).To(Equal("node-a"))
		Eventually(pubA.count).Should(Equal(20))
		Consistently(pubB.count, 100*time.Millisecond).Should(BeZero())

		stopA()
		Eventually(func() string { return b.Status().Leader }, 2*ttl).Should(Equal("node-b"))
		last = send(20, 30)
		waitFor(b, last)
		Eventually(pubB.count).Should(Equal(11))
		Expect(pubB.published()[0]).To(Equal(projections.ResyncDelta(projections.ResyncTakeover)),
			"what node-a folded but had not published when it stopped is covered by a resync")
		Expect(pubA.count()).To(Equal(20))
		Expect(pubA.published()).NotTo(ContainElement(HaveField("Cmd", projections.CmdResync)), "the first holder took the lease from no one")
		Expect(unread(storeB, "2")).To(Equal(30))
	})

	It("tell every socket to resync when a node takes the lease it saw free after another held it", func() {
		storeB := &seesFree{ReadStore: handle()}
		pubA, pubB := &recorder{}, &recorder{}
		a := node("node-a", &dropping{ReadStore: handle(), other: storeB}, pubA)
		stopA := run(a)
		Eventually(func() string { return a.Status().Leader }).Should(Equal("node-a"))
		b := node("node-b", storeB, pubB)
		stopB := run(b)
		defer stopB()
		Eventually(func() string { return b.Status().Leader }).Should(Equal("node-a"))

		stopA()
		Eventually(storeB.armed.Load).Should(BeFalse(), "node-b saw the lease free")
		Eventually(func() string { return b.Status().Leader }, 2*ttl).Should(Equal("node-b"))
		last := send(0, 3)
		waitFor(b, last)
		Eventually(pubB.count).Should(Equal(4))
		Expect(pubB.published()[0]).To(Equal(projections.ResyncDelta(projections.ResyncTakeover)))
	})

	It("let a leader told to stop in the middle of a batch commit and publish it before it frees the lease", func() {
		storeA := &gated{ReadStore: handle(), entered: make(chan struct{}), release: make(chan struct{})}
		pubA := &recorder{}
		a := node("node-a", storeA, pubA)
		runA, stopA := context.WithCancel(ctx)
		defer stopA()
		ranA := make(chan error, 1)
		go func() { ranA <- a.Run(runA) }()
		Eventually(func() string { return a.Status().Leader }).Should(Equal("node-a"))

		storeA.armed.Store(true)
		send(0, 5)
		Eventually(storeA.entered).Should(BeClosed())
		stopA()
		close(storeA.release)
		Eventually(ranA).Should(Receive(BeNil()))
		Expect(pubA.count()).To(BeNumerically(">=", 1), "the batch in hand was committed and its deltas went out")
		Expect(unread(storeA, "2")).To(Equal(pubA.count()), "every message folded was published")
	})

	It("stop a leader that cannot renew its lease before it ends, and let another take over", func() {
		storeA := &unrenewable{ReadStore: handle()}
		a := node("node-a", storeA, nil)
		runA, stopA := context.WithCancel(ctx)
		defer stopA()
		ranA := make(chan error, 1)
		go func() { ranA <- a.Run(runA) }()
		waitFor(a, send(0, 5))
		storeB := handle()
		b := node("node-b", storeB, nil)
		stopB := run(b)
		defer stopB()

		storeA.broken.Store(true)
		Eventually(func() string { return b.Status().Leader }, 3*ttl).Should(Equal("node-b"))
		Expect(a.Status().LastErr).To(MatchError(ContainSubstring("renew the lease: connection lost")))
		// Its next try to take the lease fails as well; the server restarts it.
		Eventually(ranA).Should(Receive(MatchError(ContainSubstring("take the lease: connection lost"))))
		last := send(5, 15)
		waitFor(b, last)
		Expect(unread(storeB, "2")).To(Equal(15))
		Expect(a.Status().Position).To(BeNumerically("<", last))
	})

	It("stop a leader whose lease renewals never answer when its lease stops being written under, and let another take over", func() {
		storeA := &unrenewable{ReadStore: handle()}
		a := node("node-a", storeA, nil)
		stopA := run(a)
		defer stopA()
		waitFor(a, send(0, 5))
		b := node("node-b", handle(), nil)
		stopB := run(b)
		defer stopB()

		storeA.hung.Store(true)
		Eventually(func() string { return b.Status().Leader }, 3*ttl).Should(Equal("node-b"))
		Expect(a.Status().LastErr).To(MatchError(ContainSubstring("renew the lease: context deadline exceeded")))
		last := send(5, 15)
		waitFor(b, last)
		Expect(a.Status().Position).To(BeNumerically("<", last))
	})
})
