package storetest

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
)

func appendSpecs(x *fixture) {
	Describe("Append", func() {
		It("appends the events of one call contiguously and returns the last revision and position", func() {
			sent := x.events(3, "a")
			res := x.append(x.stream("a"), es.NoStream, sent...)

			stored := x.readStream(x.stream("a"), es.Forwards, 0, 10)
			Expect(stored).To(HaveLen(3))
			for i, rec := range stored {
				expectStored(rec, sent[i])
				Expect(rec.Stream).To(Equal(x.stream("a")))
				Expect(rec.Revision).To(Equal(uint64(i)))
			}
			expectAscending(stored, 0)
			Expect(res).To(Equal(es.WriteResult{NextRevision: 2, Position: stored[2].Position}))
		})

		It("gives later appends higher positions, across streams", func() {
			first := x.append(x.stream("a"), es.Any, x.event("1"))
			second := x.append(x.stream("b"), es.Any, x.event("2"))
			third := x.append(x.stream("a"), es.Any, x.event("3"))
			Expect(second.Position).To(BeNumerically(">", first.Position))
			Expect(third.Position).To(BeNumerically(">", second.Position))
			Expect(second.NextRevision).To(Equal(uint64(0)))
			Expect(third.NextRevision).To(Equal(uint64(1)))
		})

		It("keeps data and metadata as sent, empty data included", func() {
			e := x.event("meta")
			e.Data = []byte{}
			e.Metadata.Actor, e.Metadata.ClientUUID = "", ""
			x.append(x.stream("m"), es.Any, e)
			stored := x.readStream(x.stream("m"), es.Forwards, 0, 1)
			Expect(stored).To(HaveLen(1))
			Expect(stored[0].Data).To(BeEmpty())
			e.Data = stored[0].Data
			expectStored(stored[0], e)
		})

		It("keeps a stored type's version suffix, by which older event shapes are told apart", func() {
			e := x.event("v2")
			e.Type = "TestEvent@v2"
			x.append(x.stream("v"), es.Any, e)
			stored := x.readStream(x.stream("v"), es.Forwards, 0, 1)
			Expect(stored).To(HaveLen(1))
			expectStored(stored[0], e)
			all := x.readAllMine(0, 100)
			Expect(all).To(HaveLen(1))
			Expect(all[0].Type).To(Equal("TestEvent@v2"))
		})

		Describe("expected revision", func() {
			// existing is the number of events in the stream beforehand.
			DescribeTable("accepted",
				func(existing int, expected func() es.ExpectedRevision) {
					s := x.stream("exp")
					if existing > 0 {
						x.append(s, es.Any, x.events(existing, "before")...)
					}
					res := x.append(s, expected(), x.event("new"))
					Expect(res.NextRevision).To(Equal(uint64(existing)))
					Expect(res.Duplicate).To(BeFalse())
					Expect(x.readStream(s, es.Forwards, 0, 100)).To(HaveLen(existing + 1))
				},
				Entry("Any on a new stream", 0, func() es.ExpectedRevision { return es.Any }),
				Entry("Any on a stream with events", 2, func() es.ExpectedRevision { return es.Any }),
				Entry("NoStream on a new stream", 0, func() es.ExpectedRevision { return es.NoStream }),
				Entry("StreamExists on a stream with events", 1, func() es.ExpectedRevision { return es.StreamExists }),
				Entry("Exact(last revision)", 3, func() es.ExpectedRevision { return es.Exact(2) }),
				Entry("Exact(0) after one event", 1, func() es.ExpectedRevision { return es.Exact(0) }),
			)

			DescribeTable("refused with ErrConcurrency, appending nothing",
				func(existing int, expected func() es.ExpectedRevision) {
					s := x.stream("exp")
					if existing > 0 {
						x.append(s, es.Any, x.events(existing, "before")...)
					}
					head := x.head()
					_, err := x.s().Append(x.ctx, s, expected(), []es.EventData{x.event("new")})
					Expect(errors.Is(err, es.ErrConcurrency)).To(BeTrue(), "got %v", err)
					Expect(x.readStream(s, es.Forwards, 0, 100)).To(HaveLen(existing))
					Expect(x.head()).To(Equal(head))
				},
				Entry("NoStream on a stream with events", 1, func() es.ExpectedRevision { return es.NoStream }),
				Entry("StreamExists on a new stream", 0, func() es.ExpectedRevision { return es.StreamExists }),
				Entry("Exact(0) on a new stream", 0, func() es.ExpectedRevision { return es.Exact(0) }),
				Entry("Exact below the last revision", 3, func() es.ExpectedRevision { return es.Exact(1) }),
				Entry("Exact above the last revision", 3, func() es.ExpectedRevision { return es.Exact(3) }),
			)
		})
	})
}
