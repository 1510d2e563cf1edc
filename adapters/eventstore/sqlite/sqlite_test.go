package sqlitestore_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/projections"
)

var (
	_ commands.EventStore  = (*sqlitestore.Store)(nil)
	_ projections.EventLog = (*sqlitestore.Store)(nil)
)

func newEvent() es.EventData {
	return es.EventData{ID: uuid.NewString(), Type: "Tested", Data: []byte(`{}`), Metadata: es.Metadata{Tenant: "x1"}}
}

func newEvents(n int) []es.EventData {
	out := make([]es.EventData, n)
	for i := range out {
		out[i] = newEvent()
	}
	return out
}

func positions(evs []es.RecordedEvent) []uint64 {
	out := make([]uint64, len(evs))
	for i, e := range evs {
		out[i] = e.Position
	}
	return out
}

func oneTo(n uint64) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(i) + 1
	}
	return out
}

var _ = Describe("SQLite event store only", func() {
	var (
		path  string
		store *sqlitestore.Store
		ctx   context.Context
	)
	BeforeEach(func() {
		ctx = context.Background()
		path = filepath.Join(GinkgoT().TempDir(), "events.db")
		var err error
		store, err = sqlitestore.Open(path)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { _ = store.Close() })
	})

	It("numbers positions 1, 2, 3... with no gap, also across refused appends", func() {
		Expect(store.Head(ctx)).To(Equal(uint64(0)))
		_, err := store.Append(ctx, "x1.chat-a", es.Any, newEvents(3))
		Expect(err).NotTo(HaveOccurred())
		_, err = store.Append(ctx, "x1.chat-a", es.NoStream, newEvents(1))
		Expect(err).To(MatchError(es.ErrConcurrency))
		_, err = store.Append(ctx, "x1.chat-b", es.Any, newEvents(2))
		Expect(err).NotTo(HaveOccurred())

		all, err := store.ReadAll(ctx, 0, 100)
		Expect(err).NotTo(HaveOccurred())
		Expect(positions(all)).To(Equal(oneTo(5)))
		Expect(store.Head(ctx)).To(Equal(uint64(5)))
	})

	It("reads DefaultReadMax events when asked for max <= 0", func() {
		_, err := store.Append(ctx, "x1.chat-big", es.Any, newEvents(sqlitestore.DefaultReadMax+5))
		Expect(err).NotTo(HaveOccurred())
		evs, err := store.ReadStream(ctx, "x1.chat-big", es.Forwards, 0, 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(evs).To(HaveLen(sqlitestore.DefaultReadMax))
		evs, err = store.ReadAll(ctx, 0, -1)
		Expect(err).NotTo(HaveOccurred())
		Expect(evs).To(HaveLen(sqlitestore.DefaultReadMax))
	})

	It("delivers a committed append to a live subscriber in one batch", func() {
		sub, err := store.SubscribeAll(ctx, 0)
		Expect(err).NotTo(HaveOccurred())
		defer sub.Close()
		sent := newEvents(100)
		_, err = store.Append(ctx, "x1.chat-batch", es.Any, sent)
		Expect(err).NotTo(HaveOccurred())
		evs, err := sub.Next(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(positions(evs)).To(Equal(oneTo(100)))
	})

	It("lets a subscriber that fell far behind the live stream catch up from the file", func() {
		sub, err := store.SubscribeAll(ctx, 0)
		Expect(err).NotTo(HaveOccurred())
		defer sub.Close()
		_, err = store.Append(ctx, "x1.chat-lag", es.Any, newEvents(1))
		Expect(err).NotTo(HaveOccurred())
		got, err := sub.Next(ctx) // the subscriber is now live
		Expect(err).NotTo(HaveOccurred())
		const appends = 601 // far more commits than a subscriber buffers
		for range appends - 1 {
			_, err := store.Append(ctx, "x1.chat-lag", es.Any, newEvents(1))
			Expect(err).NotTo(HaveOccurred())
		}
		c, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		for len(got) < appends {
			evs, err := sub.Next(c)
			Expect(err).NotTo(HaveOccurred())
			got = append(got, evs...)
		}
		Expect(positions(got)).To(Equal(oneTo(appends)))
	})

	It("commits every append queued before Close and refuses those after", func() {
		const appenders = 32
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			acked []string
		)
		for range appenders {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				for {
					e := newEvent()
					_, err := store.Append(ctx, "x1.chat-close", es.Any, []es.EventData{e})
					if errors.Is(err, sqlitestore.ErrClosed) {
						return
					}
					Expect(err).NotTo(HaveOccurred())
					mu.Lock()
					acked = append(acked, e.ID)
					mu.Unlock()
				}
			}()
		}
		Eventually(func() uint64 { h, _ := store.Head(ctx); return h }).Should(BeNumerically(">", 200))
		Expect(store.Close()).To(Succeed())
		wg.Wait()

		reopened, err := sqlitestore.Open(path)
		Expect(err).NotTo(HaveOccurred())
		defer reopened.Close()
		stored, err := reopened.ReadStream(ctx, "x1.chat-close", es.Forwards, 0, 1_000_000)
		Expect(err).NotTo(HaveOccurred())
		storedIDs := make([]string, len(stored))
		for i, e := range stored {
			storedIDs[i] = e.ID
		}
		Expect(storedIDs).To(ConsistOf(acked))
	})

	It("refuses every call once closed", func() {
		Expect(store.Close()).To(Succeed())
		_, err := store.Append(ctx, "x1.chat-a", es.Any, newEvents(1))
		Expect(err).To(MatchError(sqlitestore.ErrClosed))
		_, err = store.ReadStream(ctx, "x1.chat-a", es.Forwards, 0, 1)
		Expect(err).To(MatchError(sqlitestore.ErrClosed))
		_, err = store.ReadAll(ctx, 0, 1)
		Expect(err).To(MatchError(sqlitestore.ErrClosed))
		_, err = store.Head(ctx)
		Expect(err).To(MatchError(sqlitestore.ErrClosed))
		_, err = store.SubscribeAll(ctx, 0)
		Expect(err).To(MatchError(sqlitestore.ErrClosed))
		Expect(store.Close()).To(Succeed())
	})

	It("keeps revisions and positions right when a second store appends to the same file", func() {
		other, err := sqlitestore.Open(path)
		Expect(err).NotTo(HaveOccurred())
		defer other.Close()
		for i := range 10 {
			s := store
			if i%2 == 1 {
				s = other
			}
			res, err := s.Append(ctx, "x1.chat-shared", es.Any, newEvents(2))
			Expect(err).NotTo(HaveOccurred())
			Expect(res.NextRevision).To(Equal(uint64(2*i + 1)))
			Expect(res.Position).To(Equal(uint64(2*i + 2)))
		}
	})

	It("stores stream names and ids of any characters verbatim", func() {
		stream := fmt.Sprintf("x1.chat-%s", "id with 'quotes', \"json\" ? # % and ünïcode")
		e := newEvent()
		e.ID = `id "with" \ json`
		_, err := store.Append(ctx, stream, es.Any, []es.EventData{e})
		Expect(err).NotTo(HaveOccurred())
		res, err := store.Append(ctx, stream, es.Any, []es.EventData{e})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Duplicate).To(BeTrue())
		evs, err := store.ReadStream(ctx, stream, es.Backwards, es.End, 10)
		Expect(err).NotTo(HaveOccurred())
		Expect(evs).To(HaveLen(1))
		Expect(evs[0].ID).To(Equal(e.ID))
	})
})
