package esdb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	client "github.com/EventStore/EventStore-Client-Go/v4/esdb"
	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/eventstore/esdb"
	"github.com/eventchat/eventchat/adapters/eventstore/esdb/esdbtest"
	"github.com/eventchat/eventchat/domain/es"
)

var _ = Describe("EventStoreDB adapter specifics (on the double)", func() {
	var (
		ctx    context.Context
		path   string
		server *esdbtest.Server
		store  *esdb.Store
		stream string
	)

	event := func(label string) es.EventData {
		return es.EventData{
			ID:       uuid.NewString(),
			Type:     "TestEvent",
			Data:     []byte(fmt.Sprintf(`{"label":%q}`, label)),
			Metadata: es.Metadata{Tenant: "t1", Time: time.Now().UTC()},
		}
	}
	events := func(n int, label string) []es.EventData {
		out := make([]es.EventData, n)
		for i := range out {
			out[i] = event(fmt.Sprint(label, i))
		}
		return out
	}
	// appendBehindTheAdapter appends as a crashed adapter would have left
	// it: the events are in, their id records are not.
	appendBehindTheAdapter := func(evs []es.EventData) {
		db := officialClient(server)
		defer db.Close()
		raw := make([]client.EventData, len(evs))
		for i, e := range evs {
			meta, err := json.Marshal(e.Metadata)
			Expect(err).NotTo(HaveOccurred())
			raw[i] = client.EventData{EventID: uuid.MustParse(e.ID), EventType: e.Type, ContentType: client.ContentTypeJson, Data: e.Data, Metadata: meta}
		}
		_, err := db.AppendToStream(ctx, stream, client.AppendToStreamOptions{ExpectedRevision: client.Any{}}, raw...)
		Expect(err).NotTo(HaveOccurred())
	}
	open := func() {
		var err error
		store, err = esdb.Open(ctx, server.ConnectionString())
		Expect(err).NotTo(HaveOccurred())
	}

	BeforeEach(func() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.Background(), 30*time.Second)
		DeferCleanup(cancel)
		path = filepath.Join(GinkgoT().TempDir(), "esdb.db")
		var err error
		server, err = esdbtest.Start(path)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { _ = server.Close() })
		open()
		DeferCleanup(func() { _ = store.Close() })
		stream = es.Stream("t1", es.CategoryChat, "1_2")
	})

	Describe("idempotency after an append whose id records were lost", func() {
		It("answers a retry as a duplicate of the stored events", func() {
			sent := events(2, "lost")
			appendBehindTheAdapter(sent)
			stored, err := store.ReadStream(ctx, stream, es.Forwards, 0, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(stored).To(HaveLen(2))

			again, err := store.Append(ctx, stream, es.NoStream, sent)
			Expect(err).NotTo(HaveOccurred())
			Expect(again).To(Equal(es.WriteResult{NextRevision: 1, Position: stored[1].Position, Duplicate: true}))

			_, err = store.Append(ctx, stream, es.Any, []es.EventData{sent[0], event("new")})
			Expect(err).To(MatchError(es.ErrPartialDuplicate))
		})

		It("records a long unrecorded tail, back to the last recorded event", func() {
			first, err := store.Append(ctx, stream, es.NoStream, events(1, "first"))
			Expect(err).NotTo(HaveOccurred())
			lost := events(300, "lost")
			appendBehindTheAdapter(lost)

			next, err := store.Append(ctx, stream, es.Exact(300), events(1, "next"))
			Expect(err).NotTo(HaveOccurred())
			Expect(next.NextRevision).To(Equal(uint64(301)))

			stored, err := store.ReadStream(ctx, stream, es.Forwards, 0, 400)
			Expect(err).NotTo(HaveOccurred())
			Expect(stored).To(HaveLen(302))
			for _, i := range []int{0, 150, 299} {
				again, err := store.Append(ctx, stream, es.Any, lost[i:i+1])
				Expect(err).NotTo(HaveOccurred())
				Expect(again).To(Equal(es.WriteResult{NextRevision: uint64(i + 1), Position: stored[i+1].Position, Duplicate: true}))
			}
			Expect(first.Duplicate).To(BeFalse())
		})
	})

	Describe("the adapter's own streams", func() {
		It("stay out of ReadAll, Head and subscriptions", func() {
			sent := events(3, "seen")
			res, err := store.Append(ctx, stream, es.NoStream, sent)
			Expect(err).NotTo(HaveOccurred())
			Expect(store.Head(ctx)).To(Equal(res.Position))

			all, err := store.ReadAll(ctx, 0, 0)
			Expect(err).NotTo(HaveOccurred())
			Expect(all).To(HaveLen(3))

			sub, err := store.SubscribeAll(ctx, 0)
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(sub.Close)
			var got []es.RecordedEvent
			for len(got) < 3 {
				evs, err := sub.Next(ctx)
				Expect(err).NotTo(HaveOccurred())
				got = append(got, evs...)
			}
			Expect(got).To(HaveLen(3))
			for i, e := range got {
				Expect(e.ID).To(Equal(sent[i].ID))
			}
		})

		It("cannot be written through the adapter", func() {
			_, err := store.Append(ctx, "_esdb.id-"+uuid.NewString(), es.Any, events(1, "x"))
			Expect(err).To(HaveOccurred())
			Expect(err).NotTo(MatchError(es.ErrConcurrency))
		})

		It("refuse event ids that are not UUIDs", func() {
			e := event("bad")
			e.ID = "not-a-uuid"
			_, err := store.Append(ctx, stream, es.Any, []es.EventData{e})
			Expect(err).To(HaveOccurred())
			Expect(store.ReadStream(ctx, stream, es.Forwards, 0, 10)).To(BeEmpty())
		})
	})

	Describe("a subscription", func() {
		It("reconnects after the server restarts and resumes after the last delivered event", func() {
			sub, err := store.SubscribeAll(ctx, 0)
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(sub.Close)
			before := event("before")
			_, err = store.Append(ctx, stream, es.Any, []es.EventData{before})
			Expect(err).NotTo(HaveOccurred())
			got, err := sub.Next(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(HaveLen(1))

			addr := server.Addr()
			Expect(server.Close()).To(Succeed())
			server, err = esdbtest.StartAt(path, addr)
			Expect(err).NotTo(HaveOccurred())

			after := event("after")
			Eventually(func() error {
				_, err := store.Append(ctx, stream, es.Any, []es.EventData{after})
				return err
			}).WithTimeout(10 * time.Second).Should(Succeed())
			got, err = sub.Next(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(HaveLen(1))
			Expect(got[0].ID).To(Equal(after.ID))
		})
	})

	It("fails to open on a malformed connection string", func() {
		_, err := esdb.Open(ctx, "http://nowhere")
		Expect(err).To(HaveOccurred())
		Expect(strings.HasPrefix(err.Error(), "esdb: open")).To(BeTrue())
	})
})
