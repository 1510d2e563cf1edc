package storetest

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
)

func readSpecs(x *fixture) {
	Describe("ReadStream", func() {
		var sent []es.EventData
		BeforeEach(func() {
			sent = x.events(5, "r")
			x.append(x.stream("r"), es.NoStream, sent[:2]...)
			x.append(x.stream("other"), es.NoStream, x.event("noise"))
			x.append(x.stream("r"), es.Exact(1), sent[2:]...)
		})

		DescribeTable("returns up to max events from a revision, in the direction asked",
			func(dir es.Direction, from uint64, max int, want []uint64) {
				stored := x.readStream(x.stream("r"), dir, from, max)
				Expect(revisions(stored)).To(Equal(want))
				for _, rec := range stored {
					expectStored(rec, sent[rec.Revision])
				}
			},
			Entry("forwards from 0", es.Forwards, uint64(0), 10, []uint64{0, 1, 2, 3, 4}),
			Entry("forwards from 2, max 2", es.Forwards, uint64(2), 2, []uint64{2, 3}),
			Entry("forwards from the last", es.Forwards, uint64(4), 10, []uint64{4}),
			Entry("backwards from the end, max 2", es.Backwards, es.End, 2, []uint64{4, 3}),
			Entry("backwards from 2", es.Backwards, uint64(2), 10, []uint64{2, 1, 0}),
			Entry("backwards from past the end", es.Backwards, uint64(9), 10, []uint64{4, 3, 2, 1, 0}),
		)

		It("returns nothing past the end going forwards", func() {
			Expect(x.readStream(x.stream("r"), es.Forwards, 5, 10)).To(BeEmpty())
		})

		It("returns an empty slice and no error for a stream with no events", func() {
			Expect(x.readStream(x.stream("missing"), es.Forwards, 0, 10)).To(BeEmpty())
			Expect(x.readStream(x.stream("missing"), es.Backwards, es.End, 10)).To(BeEmpty())
		})

		It("keeps streams apart", func() {
			other := x.readStream(x.stream("other"), es.Forwards, 0, 10)
			Expect(other).To(HaveLen(1))
			Expect(other[0].Revision).To(Equal(uint64(0)))
		})
	})

	Describe("ReadAll and Head", func() {
		It("pages through the log in position order", func() {
			start := x.head()
			var sent []es.EventData
			for i := range 25 {
				e := x.event("all")
				sent = append(sent, e)
				x.append(x.stream([]string{"a", "b", "c"}[i%3]), es.Any, e)
			}
			all := x.readAllMine(start, 10)
			Expect(ids(all)).To(Equal(sentIDs(sent)))
			for i, rec := range all {
				expectStored(rec, sent[i])
				Expect(rec.Revision).To(Equal(uint64(i / 3)))
			}

			evs, err := x.s().ReadAll(x.ctx, all[9].Position, 5)
			Expect(err).NotTo(HaveOccurred())
			Expect(ids(evs)).To(Equal(sentIDs(sent[10:15])))
		})

		It("returns nothing after the head", func() {
			res := x.append(x.stream("h"), es.Any, x.events(3, "h")...)
			Expect(x.head()).To(Equal(res.Position))
			evs, err := x.s().ReadAll(x.ctx, res.Position, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(evs).To(BeEmpty())
		})

		It("moves the head with each append", func() {
			before := x.head()
			first := x.append(x.stream("h"), es.Any, x.event("1"))
			Expect(first.Position).To(BeNumerically(">", before))
			Expect(x.head()).To(Equal(first.Position))
			second := x.append(x.stream("h"), es.Any, x.event("2"))
			Expect(x.head()).To(Equal(second.Position))
		})
	})
}
