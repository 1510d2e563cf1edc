package projections_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/projections"
)

type recorder struct {
	mu     sync.Mutex
	deltas []projections.Delta
}

func (r *recorder) Publish(_ context.Context, ds []projections.Delta) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.deltas = append(r.deltas, ds...)
	return nil
}

func (r *recorder) published() []projections.Delta {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.deltas)
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.deltas)
}

func appendEvent(log *sqlitestore.Store, stream string, e es.Event) uint64 {
	data, err := json.Marshal(e)
	Expect(err).NotTo(HaveOccurred())
	res, err := log.Append(ctx, stream, es.Any, []es.EventData{{ID: uuid.NewString(), Type: e.EventType(), Data: data, Metadata: es.Metadata{Tenant: "x0001"}}})
	Expect(err).NotTo(HaveOccurred())
	return res.Position
}

// run starts an engine and returns a stop function.
func run(e *projections.Engine) func() {
	c, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- e.Run(c) }()
	return func() {
		cancel()
		Expect(<-done).To(Succeed())
	}
}

// countingLog counts the events its subscriptions deliver.
type countingLog struct {
	*sqlitestore.Store
	read atomic.Uint64
}

func (l *countingLog) SubscribeAll(ctx context.Context, after uint64) (es.Subscription, error) {
	sub, err := l.Store.SubscribeAll(ctx, after)
	if err != nil {
		return nil, err
	}
	return countingSubscription{sub, &l.read}, nil
}

type countingSubscription struct {
	es.Subscription
	read *atomic.Uint64
}

func (s countingSubscription) Next(ctx context.Context) ([]es.RecordedEvent, error) {
	recs, err := s.Subscription.Next(ctx)
	s.read.Add(uint64(len(recs)))
	return recs, err
}

// renamed is a projector under another version's name.
type renamed struct {
	projections.Projector
	name string
}

func (r renamed) Name() string { return r.name }

func engine(log projections.EventLog, store projections.ReadStore, pub projections.Publisher) *projections.Engine {
	return projections.NewEngine(log, store, pub, catalog.Registry(),
		projections.Members{}, projections.Auth{}, projections.Friends{}, projections.Chats{})
}

var _ = Describe("The engine", func() {
	var log *sqlitestore.Store
	BeforeEach(func() {
		var err error
		log, err = sqlitestore.Open(filepath.Join(GinkgoT().TempDir(), "events.db"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(log.Close)
	})

	waitFor := func(e *projections.Engine, pos uint64) {
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		Expect(e.WaitFor(c, pos)).To(BeTrue())
	}

	// running returns once e folded an event appended after Run read the
	// log's head: only events after it are published.
	running := func(e *projections.Engine) {
		waitFor(e, appendEvent(log, "x0001.member-7", &member.SessionStarted{SessionID: "s0"}))
	}

	// filled is a store the engine folded n messages from 1 to 2 into.
	filled := func(n int) *sqliteread.Store {
		store := openStore()
		for i := range n {
			appendEvent(log, chatStream, sent(fmt.Sprint("m", i), "1", "2", "x"))
		}
		e := engine(log, store, nil)
		stop := run(e)
		waitFor(e, uint64(n))
		stop()
		return store
	}

	It("folds live appends, publishes their deltas after commit and lets reads wait for a position", func() {
		store, pub := openStore(), &recorder{}
		e := engine(log, store, pub)
		stop := run(e)
		defer stop()
		running(e)
		pos := appendEvent(log, chatStream, sent("m1", "1", "2", "hi"))
		waitFor(e, pos)
		Expect(statuses(store, "2")).To(Equal([]string{"m1:Unread"}))
		Eventually(pub.count).WithTimeout(10 * time.Second).Should(Equal(1))

		c, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		Expect(e.WaitFor(c, pos+1)).To(BeFalse())
	})

	It("stops at a second message carrying a stored id, reporting it as its last error", func() {
		store := openStore()
		appendEvent(log, chatStream, sent("m1", "1", "2", "first"))
		appendEvent(log, "x0001.chat-1_3", sent("m1", "1", "3", "second, from another node"))
		e := engine(log, store, nil)
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()

		Expect(e.Run(c)).To(MatchError(projections.ErrIDTaken))
		r, err := e.Report(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.LastError).To(ContainSubstring("message m1 (chat 1_3, seq 0) is stored already as chat 1_2, seq 0"))
		Expect(statuses(store, "2")).To(BeEmpty(), "the batch holding both is not written")
	})

	It("never folds an event twice across restarts, and a rebuild from the log equals the live models", func() {
		store := filled(50)
		for i := 50; i < 60; i++ {
			appendEvent(log, chatStream, sent(fmt.Sprint("m", i), "1", "2", "x"))
		}
		last := appendEvent(log, chatStream, ack("2", "1", "m30"))
		e := engine(log, store, nil)
		stop := run(e)
		waitFor(e, last)
		stop()
		Expect(unread(store, "2")).To(Equal(29))

		rebuilt := openStore()
		e = engine(log, rebuilt, nil)
		stop = run(e)
		waitFor(e, last)
		stop()
		for _, m := range []string{"1", "2"} {
			Expect(statuses(rebuilt, m)).To(Equal(statuses(store, m)))
			Expect(unread(rebuilt, m)).To(Equal(unread(store, m)))
		}
	})

	It("holds a new projector version back from a store older versions filled, until a rebuild swaps one in", func() {
		store := filled(10)
		Expect(unread(store, "2")).To(Equal(10))

		// The same read models under a new version of the chats projector.
		e := projections.NewEngine(log, store, nil, catalog.Registry(),
			projections.Members{}, projections.Auth{}, projections.Friends{}, renamed{projections.Chats{}, "chats.next"})
		rebuilder := projections.NewRebuilder(e, store)
		DeferCleanup(rebuilder.Close)
		held := make(chan []string, 1)
		e.OnHeld = func(names []string) { held <- names }
		stop := run(e)
		defer stop()
		Eventually(held).Should(Receive(Equal([]string{"chats.next"})))
		pos := appendEvent(log, chatStream, sent("m10", "1", "2", "x"))
		waitFor(e, pos)
		Expect(unread(store, "2")).To(Equal(10), "the history is not folded again over the old rows, nor m10 by the held version")
		chatsNext := func() projections.ProjectorStatus {
			r, err := e.Report(ctx)
			Expect(err).NotTo(HaveOccurred())
			for _, p := range r.Projector {
				if p.Name == "chats.next" {
					return p
				}
			}
			Fail("no chats.next in the report")
			return projections.ProjectorStatus{}
		}
		Expect(chatsNext().Checkpoint).To(BeZero())
		Expect(chatsNext().LastError).To(Equal(projections.ErrNewVersion.Error()))

		_, err := rebuilder.Start("all")
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() string { return rebuilder.Progress().State }, 10*time.Second).Should(Equal(projections.RebuildDone))
		Expect(unread(store, "2")).To(Equal(11))
		pos = appendEvent(log, chatStream, sent("m11", "1", "2", "x"))
		waitFor(e, pos)
		Eventually(func() int { return unread(store, "2") }).Should(Equal(12), "the new version folds live after the swap")
		Expect(chatsNext().Checkpoint).To(Equal(pos))
		Expect(chatsNext().LastError).To(BeEmpty())
	})

	It("folds the search projection behind the others with a checkpoint of its own, and a rebuild folds it too", func() {
		store, pub := openStore(), &recorder{}
		e := engine(log, store, pub)
		search, err := e.Trail(projections.SearchIndex{})
		Expect(err).NotTo(HaveOccurred())
		stop := run(e)
		defer stop()
		running(e)
		pos := appendEvent(log, chatStream, sent("m1", "1", "2", "Tối nay ĂN CƠM nhé"))
		waitFor(e, pos)
		waitFor(search, pos)
		Eventually(pub.count).WithTimeout(10 * time.Second).Should(Equal(1))
		checkpoints, err := store.Checkpoints(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(checkpoints).To(HaveKeyWithValue("search.v1", pos))
		Expect(checkpoints).To(HaveKeyWithValue(projections.Chats{}.Name(), pos))
		indexed, err := store.Hash(ctx)
		Expect(err).NotTo(HaveOccurred())
		empty, err := openStore().Hash(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(indexed["search"]).NotTo(Equal(empty["search"]))
		r, err := e.Report(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Projector).To(ContainElement(HaveField("Name", "search.v1")))

		rebuilder := projections.NewRebuilder(e, store)
		DeferCleanup(rebuilder.Close)
		_, err = rebuilder.Start("search.v1")
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() string { return rebuilder.Progress().State }, 10*time.Second).Should(Equal(projections.RebuildDone))
		Expect(rebuilder.Progress().Projectors).To(ContainElement("search.v1"))
		Expect(store.Hash(ctx)).To(HaveKeyWithValue("search", indexed["search"]), "the rebuilt store holds the index")
		recalled := appendEvent(log, chatStream, &chat.MessageRecalled{MessageID: "m1", By: "1", At: 2000})
		waitFor(search, recalled)
		Expect(store.Hash(ctx)).To(HaveKeyWithValue("search", empty["search"]), "a recalled message leaves the index")
	})

	// messagesWithRecalls appends n messages, every seventh recalled, and
	// returns the last position.
	messagesWithRecalls := func(n int) (last uint64) {
		for i := range n {
			last = appendEvent(log, chatStream, sent(fmt.Sprint("m", i), "1", "2", fmt.Sprintf("tin nhắn số %d", i)))
			if i%7 == 0 {
				last = appendEvent(log, chatStream, &chat.MessageRecalled{MessageID: fmt.Sprint("m", i), By: "1", At: 2000})
			}
		}
		return last
	}

	// searching runs an engine over log into store, the search index
	// trailing it, until the spec ends; it appends what fill does, waits
	// until both have folded it and returns the engine, the last position
	// and the store's hashes.
	searching := func(log projections.EventLog, store *sqliteread.Store, fill func() uint64) (*projections.Engine, uint64, map[string]string) {
		e := engine(log, store, nil)
		search, err := e.Trail(projections.SearchIndex{})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(run(e))
		last := fill()
		waitFor(e, last)
		waitFor(search, last)
		hashes, err := store.Hash(ctx)
		Expect(err).NotTo(HaveOccurred())
		return e, last, hashes
	}
	// rebuiltAll rebuilds every read model of e's store and returns its
	// progress once the shadow is swapped in.
	rebuiltAll := func(e *projections.Engine, store *sqliteread.Store) projections.Rebuild {
		rebuilder := projections.NewRebuilder(e, store)
		DeferCleanup(rebuilder.Close)
		_, err := rebuilder.Start("all")
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() string { return rebuilder.Progress().State }, 20*time.Second).Should(Equal(projections.RebuildDone))
		return rebuilder.Progress()
	}

	It("rebuilds the search index beside the others, on its own writer, never ahead of the messages it indexes", func() {
		store := openStore()
		e, _, live := searching(log, store, func() uint64 { return messagesWithRecalls(6000) })
		empty, err := openStore().Hash(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(live["search"]).NotTo(Equal(empty["search"]))

		Expect(rebuiltAll(e, store).Done).To(BeNumerically(">=", 6000))
		Expect(store.Hash(ctx)).To(Equal(live))
	})

	It("rebuilds the search index from the batches the others folded, reading the log once", func() {
		counted := &countingLog{Store: log}
		store := openStore()
		e, last, live := searching(counted, store, func() uint64 { return messagesWithRecalls(3000) })

		counted.read.Store(0)
		rebuiltAll(e, store)
		Expect(store.Hash(ctx)).To(Equal(live))
		Expect(counted.read.Load()).To(BeNumerically("<", last*3/2), "%d events, read once, not once for each writer", last)
	})

	It("folds a trailing projector left behind from the log up to where the others start, then from their batches", func() {
		last := messagesWithRecalls(3000)
		together := openStore()
		e := engine(log, together, nil)
		_, err := e.Trail(projections.SearchIndex{})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.FoldTo(ctx, last, nil)).To(Succeed())

		behind := openStore()
		Expect(engine(log, behind, nil).FoldTo(ctx, last/2, nil)).To(Succeed())
		e = engine(log, behind, nil)
		_, err = e.Trail(projections.SearchIndex{})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.FoldTo(ctx, last, nil)).To(Succeed())
		checkpoints, err := behind.Checkpoints(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(checkpoints).To(HaveKeyWithValue("search.v1", last))
		want, err := together.Hash(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(behind.Hash(ctx)).To(Equal(want))
	})

	It("reports a rebuild under traffic with its head following the log's: never folded beyond the head, never complete at its start", func() {
		store := filled(500)
		e := engine(log, store, nil)
		stop := run(e)
		defer stop()
		rebuilder := projections.NewRebuilder(e, store)
		DeferCleanup(rebuilder.Close)
		var mu sync.Mutex
		var reports []projections.Rebuild
		rebuilder.Progressed = func(p projections.Rebuild) {
			mu.Lock()
			defer mu.Unlock()
			reports = append(reports, p)
		}
		traffic, quiet := make(chan struct{}), make(chan struct{})
		go func() {
			defer GinkgoRecover()
			defer close(quiet)
			for i := 0; ; i++ {
				select {
				case <-traffic:
					return
				default:
					appendEvent(log, chatStream, sent(fmt.Sprint("t", i), "1", "2", "x"))
				}
			}
		}()
		stopTraffic := sync.OnceFunc(func() {
			close(traffic)
			<-quiet
		})
		DeferCleanup(stopTraffic)

		first, err := rebuilder.Start("all")
		Expect(err).NotTo(HaveOccurred())
		Expect(first.Head).To(BeNumerically(">", 0), "the head at the start")
		Expect(first.Done).To(BeZero())
		Expect(first.Fraction).To(BeNumerically("<", 1))
		Eventually(func() string { return rebuilder.Progress().State }, 20*time.Second).Should(Equal(projections.RebuildDone))
		stopTraffic()
		head, err := log.Head(ctx)
		Expect(err).NotTo(HaveOccurred())
		waitFor(e, head) // the engine stops between batches

		mu.Lock()
		defer mu.Unlock()
		Expect(reports).NotTo(BeEmpty())
		Expect(reports[0].Position).To(BeNumerically("<", reports[0].Head), "the first report is not complete")
		for _, p := range append(reports, rebuilder.Progress()) {
			Expect(p.Position).To(BeNumerically("<=", p.Head), "%s at %d of %d", p.State, p.Position, p.Head)
			Expect(p.Fraction).To(BeNumerically("<=", 1))
		}
		last := rebuilder.Progress()
		Expect(last.Position).To(Equal(last.Head))
		Expect(last.SwappedAt).To(Equal(last.Head))
		Expect(last.Fraction).To(Equal(1.0))
		Expect(last.Done).To(BeNumerically(">=", 500), "every event folded is counted")
		Expect(last.Head).To(BeNumerically(">", first.Head), "the head grew during the rebuild")
	})

	It("publishes only what was appended after it started", func() {
		store, pub := openStore(), &recorder{}
		old := appendEvent(log, chatStream, sent("m1", "1", "2", "before the start"))
		e := engine(log, store, pub)
		stop := run(e)
		defer stop()
		waitFor(e, old)
		Expect(statuses(store, "2")).To(Equal([]string{"m1:Unread"}))
		Consistently(pub.count, 100*time.Millisecond).Should(BeZero())
		waitFor(e, appendEvent(log, chatStream, sent("m2", "1", "2", "after")))
		Eventually(pub.count).WithTimeout(10 * time.Second).Should(Equal(1))
		pub.mu.Lock()
		defer pub.mu.Unlock()
		Expect(string(pub.deltas[0].Data)).To(ContainSubstring(`"content":"after"`))
	})

	It("passes over an event it cannot read and goes on", func() {
		store := openStore()
		_, err := log.Append(ctx, "x0001.chat-1_2", es.Any, []es.EventData{{ID: uuid.NewString(), Type: "FromTheFuture", Data: []byte(`{}`)}})
		Expect(err).NotTo(HaveOccurred())
		pos := appendEvent(log, chatStream, sent("m1", "1", "2", "hi"))
		e := engine(log, store, nil)
		stop := run(e)
		defer stop()
		waitFor(e, pos)
		Expect(e.Status().Skipped).To(Equal(uint64(1)))
		Expect(statuses(store, "2")).To(Equal([]string{"m1:Unread"}))
	})
})
