package pebblestore_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	pebblestore "github.com/eventchat/eventchat/adapters/eventstore/pebble"
	"github.com/eventchat/eventchat/domain/es"
)

func event(name string) es.EventData {
	return es.EventData{ID: name, Type: "Tested", Data: []byte(`{}`), Metadata: es.Metadata{Tenant: "t"}}
}

var _ = Describe("Pebble event store", func() {
	var (
		ctx context.Context
		dir string
	)
	BeforeEach(func() {
		ctx = context.Background()
		dir = filepath.Join(GinkgoT().TempDir(), "events")
	})

	It("shows readers and subscribers the log without gaps while appenders race, each append readable once acknowledged", func() {
		s, err := pebblestore.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		defer s.Close()

		const appenders, appends = 32, 100
		total := 0
		for a := range appenders {
			for i := range appends {
				total += 1 + (a+i)%3
			}
		}
		sub, err := s.SubscribeAll(ctx, 0)
		Expect(err).NotTo(HaveOccurred())
		defer sub.Close()
		delivered := make(chan []uint64, 1)
		go func() {
			defer GinkgoRecover()
			var got []uint64
			for len(got) < total {
				evs, err := sub.Next(ctx)
				Expect(err).NotTo(HaveOccurred())
				for _, e := range evs {
					got = append(got, e.Position)
				}
			}
			delivered <- got
		}()
		stop := make(chan struct{})
		readerDone := make(chan int)
		go func() {
			defer GinkgoRecover()
			pages := 0
			for {
				select {
				case <-stop:
					readerDone <- pages
					return
				default:
				}
				head, err := s.Head(ctx)
				Expect(err).NotTo(HaveOccurred())
				evs, err := s.ReadAll(ctx, 0, total)
				Expect(err).NotTo(HaveOccurred())
				Expect(uint64(len(evs))).To(BeNumerically(">=", head), "the head was readable")
				for i, e := range evs {
					Expect(e.Position).To(Equal(uint64(i+1)), "a reader saw a gap")
				}
				pages++
			}
		}()

		var wg sync.WaitGroup
		for a := range appenders {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				stream := "t.shared-log"
				if a%2 == 1 {
					stream = fmt.Sprintf("t.own-%d", a)
				}
				for i := range appends {
					var evs []es.EventData
					for j := range 1 + (a+i)%3 {
						evs = append(evs, event(fmt.Sprintf("e-%d-%d-%d", a, i, j)))
					}
					res, err := s.Append(ctx, stream, es.Any, evs)
					Expect(err).NotTo(HaveOccurred())
					read, err := s.ReadAll(ctx, res.Position-1, 1)
					Expect(err).NotTo(HaveOccurred())
					Expect(read).To(HaveLen(1))
					Expect(read[0].ID).To(Equal(evs[len(evs)-1].ID))
					Expect(read[0].Revision).To(Equal(res.NextRevision))
				}
			}()
		}
		wg.Wait()
		close(stop)
		Expect(<-readerDone).To(BeNumerically(">", 0))

		got := <-delivered
		Expect(got).To(HaveLen(total))
		for i, p := range got {
			Expect(p).To(Equal(uint64(i + 1)))
		}
		shared, err := s.ReadStream(ctx, "t.shared-log", es.Forwards, 0, total)
		Expect(err).NotTo(HaveOccurred())
		for i, e := range shared {
			Expect(e.Revision).To(Equal(uint64(i)))
			if i > 0 {
				Expect(e.Position).To(BeNumerically(">", shared[i-1].Position))
			}
		}
	})

	It("answers a retry of any event of a long log as a duplicate, after a restart too", func() {
		s, err := pebblestore.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		const n, page = 150_000, 5000
		id := func(i int) string { return fmt.Sprintf("id-%d", i) }
		for from := 0; from < n; from += page {
			evs := make([]es.RecordedEvent, page)
			for i := range evs {
				evs[i] = es.RecordedEvent{ID: id(from + i), Stream: fmt.Sprintf("t.s-%d", (from+i)%7), Revision: uint64((from + i) / 7),
					Position: uint64(from + i + 1), Type: "Imported", Data: []byte("{}"), Metadata: es.Metadata{Tenant: "t"}}
			}
			Expect(s.Import(evs)).To(Succeed())
		}
		retry := func(s *pebblestore.Store, fresh string) {
			for _, i := range []int{0, 65_535, 65_536, 131_071, 131_072, n - 1} {
				res, err := s.Append(ctx, fmt.Sprintf("t.s-%d", i%7), es.NoStream, []es.EventData{event(id(i))})
				Expect(err).NotTo(HaveOccurred())
				Expect(res).To(Equal(es.WriteResult{NextRevision: uint64(i / 7), Position: uint64(i + 1), Duplicate: true}))
			}
			res, err := s.Append(ctx, "t.s-0", es.Any, []es.EventData{event(fresh)})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Duplicate).To(BeFalse())
		}
		retry(s, "new-1")
		Expect(s.Close()).To(Succeed())
		s, err = pebblestore.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		defer s.Close()
		retry(s, "new-2")
	})

	It("refuses an import of an event id already stored, after a restart too, and imports none of it", func() {
		s, err := pebblestore.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		stored, err := s.Append(ctx, "t.s-1", es.NoStream, []es.EventData{event("stored")})
		Expect(err).NotTo(HaveOccurred())
		imported := func(id string, pos uint64) es.RecordedEvent {
			return es.RecordedEvent{ID: id, Stream: "t.s-2", Position: pos, Type: "Imported", Data: []byte("{}"), Metadata: es.Metadata{Tenant: "t"}}
		}
		again := []es.RecordedEvent{imported("new", stored.Position+1), imported("stored", stored.Position+2)}
		again[1].Revision = 1
		Expect(s.Import(again)).To(MatchError(ContainSubstring("id stored already stored")))
		Expect(s.Close()).To(Succeed())

		s, err = pebblestore.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		defer s.Close()
		Expect(s.Import(again)).To(MatchError(ContainSubstring("id stored already stored")))
		Expect(s.Head(ctx)).To(Equal(stored.Position))
		Expect(s.ReadStream(ctx, "t.s-2", es.Forwards, 0, 10)).To(BeEmpty())
	})

	It("queues a caller's appends in its order before they are durable, and answers each once durable", func() {
		s, err := pebblestore.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		const callers, appends, window = 8, 60, 16
		var wg sync.WaitGroup
		for c := range callers {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				stream := fmt.Sprintf("t.queued-%d", c%2)
				var waits []func() (es.WriteResult, error)
				var last uint64
				answer := func() {
					res, err := waits[0]()
					Expect(err).NotTo(HaveOccurred())
					Expect(res.Position).To(BeNumerically(">", last), "answered out of the caller's order")
					last = res.Position
					read, err := s.ReadAll(ctx, res.Position-1, 1)
					Expect(err).NotTo(HaveOccurred())
					Expect(read).To(HaveLen(1), "answered before readable")
					waits = waits[1:]
				}
				for i := range appends {
					wait, err := s.QueueAppend(ctx, stream, es.Any, []es.EventData{event(fmt.Sprintf("q-%d-%d", c, i))})
					Expect(err).NotTo(HaveOccurred())
					waits = append(waits, wait)
					if len(waits) == window {
						answer()
					}
				}
				for len(waits) > 0 {
					answer()
				}
			}()
		}
		wg.Wait()
		for st := range 2 {
			evs, err := s.ReadStream(ctx, fmt.Sprintf("t.queued-%d", st), es.Forwards, 0, callers*appends)
			Expect(err).NotTo(HaveOccurred())
			Expect(evs).To(HaveLen(callers / 2 * appends))
			next := map[string]int{}
			for i, e := range evs {
				Expect(e.Revision).To(Equal(uint64(i)))
				var c, n int
				_, err := fmt.Sscanf(e.ID, "q-%d-%d", &c, &n)
				Expect(err).NotTo(HaveOccurred())
				Expect(n).To(Equal(next[fmt.Sprint(c)]), "a caller's appends out of its order in the stream")
				next[fmt.Sprint(c)]++
			}
		}

		first, err := s.QueueAppend(ctx, "t.fresh-1", es.NoStream, []es.EventData{event("fresh-1")})
		Expect(err).NotTo(HaveOccurred())
		again, err := s.QueueAppend(ctx, "t.fresh-1", es.NoStream, []es.EventData{event("fresh-1")})
		Expect(err).NotTo(HaveOccurred(), "a retry of a queued append is its duplicate, even before it is durable")
		_, err = s.QueueAppend(ctx, "t.fresh-1", es.NoStream, []es.EventData{event("fresh-2")})
		Expect(err).To(MatchError(es.ErrConcurrency), "decided against the append queued before it")
		closed := make(chan error, 1)
		go func() { closed <- s.Close() }()
		Consistently(closed, 100*time.Millisecond).ShouldNot(Receive(), "closed with appends not answered")
		res, err := first()
		Expect(err).NotTo(HaveOccurred())
		dup, err := again()
		Expect(err).NotTo(HaveOccurred())
		Expect(dup).To(Equal(es.WriteResult{NextRevision: res.NextRevision, Position: res.Position, Duplicate: true}))
		Eventually(closed).Should(Receive(BeNil()))
	})

	It("refuses a Pebble directory that holds something else", func() {
		db, err := pebble.Open(dir, &pebble.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(db.Set([]byte("k"), []byte("v"), pebble.Sync)).To(Succeed())
		Expect(db.Close()).To(Succeed())

		_, err = pebblestore.Open(dir)
		Expect(err).To(MatchError(pebblestore.ErrNotEventStore))
	})

	It("fails calls after Close with ErrClosed", func() {
		s, err := pebblestore.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Close()).To(Succeed())
		_, err = s.Append(ctx, "t.x-1", es.Any, []es.EventData{event("a")})
		Expect(err).To(MatchError(pebblestore.ErrClosed))
		_, err = s.ReadAll(ctx, 0, 1)
		Expect(err).To(MatchError(pebblestore.ErrClosed))
	})
})
