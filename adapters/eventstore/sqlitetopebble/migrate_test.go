package sqlitetopebble_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	pebblestore "github.com/eventchat/eventchat/adapters/eventstore/pebble"
	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	"github.com/eventchat/eventchat/adapters/eventstore/sqlitetopebble"
	"github.com/eventchat/eventchat/domain/es"
)

var streams = []string{"acme.member-alice", "acme.member-bob", "acme.chat-c1", "beta.tenant-beta"}

// writeSQLiteLog writes a log through the SQLite store: several streams,
// full metadata, a retried append and a partly repeated one.
func writeSQLiteLog(ctx context.Context, path string, n int) {
	GinkgoHelper()
	s, err := sqlitestore.Open(path)
	Expect(err).NotTo(HaveOccurred())
	defer func() { Expect(s.Close()).To(Succeed()) }()
	at := time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.FixedZone("CET", 3600))
	for i := range n {
		stream := streams[i%len(streams)]
		evs := []es.EventData{{
			ID: uuid.NewString(), Type: fmt.Sprintf("Type%d", i%3), Data: []byte(fmt.Sprintf(`{"n":%d}`, i)),
			Metadata: es.Metadata{Tenant: "acme", Actor: "m1", CorrelationID: uuid.NewString(), CausationID: "c",
				ClientUUID: "client-" + fmt.Sprint(i), Time: at.Add(time.Duration(i) * time.Millisecond)},
		}}
		if i%5 == 0 {
			evs = append(evs, es.EventData{ID: fmt.Sprintf("not-a-uuid-%d", i), Type: "Plain", Data: []byte{},
				Metadata: es.Metadata{Tenant: "acme"}})
		}
		res, err := s.Append(ctx, stream, es.Any, evs)
		Expect(err).NotTo(HaveOccurred())
		if i%7 == 0 {
			again, err := s.Append(ctx, stream, es.Any, evs)
			Expect(err).NotTo(HaveOccurred())
			Expect(again).To(Equal(es.WriteResult{NextRevision: res.NextRevision, Position: res.Position, Duplicate: true}))
			_, err = s.Append(ctx, stream, es.Any, []es.EventData{evs[0], {ID: uuid.NewString(), Type: "New"}})
			Expect(err).To(MatchError(es.ErrPartialDuplicate))
		}
	}
}

func readAll(ctx context.Context, log interface {
	ReadAll(context.Context, uint64, int) ([]es.RecordedEvent, error)
}) []es.RecordedEvent {
	GinkgoHelper()
	evs, err := log.ReadAll(ctx, 0, 100000)
	Expect(err).NotTo(HaveOccurred())
	return evs
}

var _ = Describe("Migrating a SQLite event log to Pebble", func() {
	var (
		ctx           context.Context
		dir, src, dst string
		progress      []sqlitetopebble.Progress
	)
	BeforeEach(func() {
		ctx = context.Background()
		dir = GinkgoT().TempDir()
		src, dst = filepath.Join(dir, "events.db"), filepath.Join(dir, "events")
		progress = nil
	})
	report := func(p sqlitetopebble.Progress) { progress = append(progress, p) }

	It("copies every event with its id, stream, revision, position, time and metadata, under the same hash", func() {
		writeSQLiteLog(ctx, src, 300)
		res, err := sqlitetopebble.Migrate(ctx, src, dst, 100, report)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Events).To(Equal(uint64(360)))
		Expect(progress).To(HaveLen(3))
		Expect(progress[0]).To(Equal(sqlitetopebble.Progress{Total: 360}))
		Expect(progress[len(progress)-1]).To(Equal(sqlitetopebble.Progress{Copied: 360, Total: 360}))

		old, err := sqlitestore.Open(src)
		Expect(err).NotTo(HaveOccurred())
		defer old.Close()
		moved, err := pebblestore.Open(dst)
		Expect(err).NotTo(HaveOccurred())
		defer moved.Close()

		oldHash, err := sqlitetopebble.HashLog(ctx, old)
		Expect(err).NotTo(HaveOccurred())
		newHash, err := sqlitetopebble.HashLog(ctx, moved)
		Expect(err).NotTo(HaveOccurred())
		Expect(newHash.Sum()).To(Equal(oldHash.Sum()))
		Expect(newHash.Sum()).To(Equal(res.Hash))
		Expect(readAll(ctx, moved)).To(Equal(readAll(ctx, old)))
		for _, stream := range streams {
			for _, dir := range []es.Direction{es.Forwards, es.Backwards} {
				from := uint64(0)
				if dir == es.Backwards {
					from = es.End
				}
				want, err := old.ReadStream(ctx, stream, dir, from, 1000)
				Expect(err).NotTo(HaveOccurred())
				got, err := moved.ReadStream(ctx, stream, dir, from, 1000)
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(want))
			}
		}
		oldHead, _ := old.Head(ctx)
		Expect(moved.Head(ctx)).To(Equal(oldHead))

		By("going on from the old log: revisions follow, old ids stay duplicates")
		last, err := old.ReadStream(ctx, streams[0], es.Backwards, es.End, 1)
		Expect(err).NotTo(HaveOccurred())
		next, err := moved.Append(ctx, streams[0], es.Exact(last[0].Revision), []es.EventData{{ID: uuid.NewString(), Type: "After"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(next).To(Equal(es.WriteResult{NextRevision: last[0].Revision + 1, Position: oldHead + 1}))
		first := readAll(ctx, old)[0]
		again, err := moved.Append(ctx, first.Stream, es.NoStream, []es.EventData{{ID: first.ID, Type: first.Type}})
		Expect(err).NotTo(HaveOccurred())
		Expect(again).To(Equal(es.WriteResult{NextRevision: first.Revision, Position: first.Position, Duplicate: true}))
	})

	It("starts over from a copy an earlier migration left half-way, and leaves the source as it was", func() {
		writeSQLiteLog(ctx, src, 50)
		half, err := pebblestore.Open(dst + ".migrating")
		Expect(err).NotTo(HaveOccurred())
		old, err := sqlitestore.Open(src)
		Expect(err).NotTo(HaveOccurred())
		evs := readAll(ctx, old)
		Expect(half.Import(evs[:20])).To(Succeed())
		Expect(half.Close()).To(Succeed())
		before, err := sqlitetopebble.HashLog(ctx, old)
		Expect(err).NotTo(HaveOccurred())
		Expect(old.Close()).To(Succeed())

		res, err := sqlitetopebble.Migrate(ctx, src, dst, 1000, report)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Events).To(Equal(uint64(len(evs))))
		Expect(res.Hash).To(Equal(before.Sum()))
		Expect(dst + ".migrating").NotTo(BeAnExistingFile())

		old, err = sqlitestore.Open(src)
		Expect(err).NotTo(HaveOccurred())
		defer old.Close()
		after, err := sqlitetopebble.HashLog(ctx, old)
		Expect(err).NotTo(HaveOccurred())
		Expect(after.Sum()).To(Equal(before.Sum()))
	})

	It("refuses to overwrite a Pebble store, and a source that is no event log", func() {
		writeSQLiteLog(ctx, src, 3)
		Expect(os.Mkdir(dst, 0o700)).To(Succeed())
		_, err := sqlitetopebble.Migrate(ctx, src, dst, 1000, report)
		Expect(err).To(MatchError(ContainSubstring("exists already")))

		garbage := filepath.Join(dir, "garbage.db")
		Expect(os.WriteFile(garbage, []byte("not a database at all, not even close to one"), 0o600)).To(Succeed())
		_, err = sqlitetopebble.Migrate(ctx, garbage, filepath.Join(dir, "other"), 1000, report)
		Expect(err).To(MatchError(sqlitestore.ErrNotEventStore))
		Expect(filepath.Join(dir, "other")).NotTo(BeAnExistingFile())
	})

	It("hashes every field: events differing in one field hash apart", func() {
		base := es.RecordedEvent{ID: "a", Stream: "t.x-1", Revision: 0, Position: 1, Type: "T", Data: []byte("{}"),
			Metadata: es.Metadata{Tenant: "t", Actor: "a", CorrelationID: "c", CausationID: "k", ClientUUID: "u", Time: time.Unix(1, 5)}}
		sum := func(e es.RecordedEvent) string {
			h := sqlitetopebble.NewHash()
			h.Add(&e)
			return h.Sum()
		}
		variants := []func(*es.RecordedEvent){
			func(e *es.RecordedEvent) { e.ID = "b" }, func(e *es.RecordedEvent) { e.Stream = "t.x-2" },
			func(e *es.RecordedEvent) { e.Revision = 1 }, func(e *es.RecordedEvent) { e.Position = 2 },
			func(e *es.RecordedEvent) { e.Type = "U" }, func(e *es.RecordedEvent) { e.Data = []byte("[]") },
			func(e *es.RecordedEvent) { e.Metadata.Tenant = "u" }, func(e *es.RecordedEvent) { e.Metadata.Actor = "b" },
			func(e *es.RecordedEvent) { e.Metadata.CorrelationID = "d" }, func(e *es.RecordedEvent) { e.Metadata.CausationID = "l" },
			func(e *es.RecordedEvent) { e.Metadata.ClientUUID = "v" }, func(e *es.RecordedEvent) { e.Metadata.Time = time.Unix(1, 6) },
		}
		seen := map[string]bool{sum(base): true}
		for _, change := range variants {
			e := base
			change(&e)
			s := sum(e)
			Expect(seen).NotTo(HaveKey(s))
			seen[s] = true
		}
	})
})
