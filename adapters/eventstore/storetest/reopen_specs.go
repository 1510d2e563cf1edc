package storetest

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
)

func reopenSpecs(x *fixture) {
	Describe("after a restart", func() {
		It("keeps every appended event, then goes on from where it was", func() {
			start := x.head()
			sent := x.events(3, "keep")
			first := x.append(x.stream("k"), es.NoStream, sent...)
			x.reopen()

			stored := x.readStream(x.stream("k"), es.Forwards, 0, 10)
			Expect(ids(stored)).To(Equal(sentIDs(sent)))
			for i := range stored {
				expectStored(stored[i], sent[i])
			}
			Expect(x.head()).To(Equal(first.Position))
			Expect(ids(x.readAllMine(start, 10))).To(Equal(sentIDs(sent)))

			next := x.append(x.stream("k"), es.Exact(2), x.event("next"))
			Expect(next.NextRevision).To(Equal(uint64(3)))
			Expect(next.Position).To(BeNumerically(">", first.Position))
		})

		It("still answers a retried append as a duplicate", func() {
			sent := x.events(2, "retry")
			first := x.append(x.stream("r"), es.NoStream, sent...)
			x.reopen()
			again := x.append(x.stream("r"), es.NoStream, sent...)
			Expect(again).To(Equal(es.WriteResult{NextRevision: first.NextRevision, Position: first.Position, Duplicate: true}))

			_, err := x.s().Append(x.ctx, x.stream("r"), es.Any, []es.EventData{sent[0], x.event("new")})
			Expect(err).To(MatchError(es.ErrPartialDuplicate))
		})
	})
}
