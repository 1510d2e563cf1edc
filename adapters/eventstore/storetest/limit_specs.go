package storetest

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
)

// limitSpecs hold the store to what EventStoreDB refuses, so that code that
// passes on one store does not fail on another.
func limitSpecs(x *fixture) {
	sized := func(label string, bytes int) es.EventData {
		e := x.event(label)
		e.Data = []byte(fmt.Sprintf(`{"label":%q,"pad":%q}`, label, strings.Repeat("p", bytes)))
		return e
	}

	Describe("the append size limit", func() {
		It("refuses an append over es.MaxAppendSize and stores none of it", func() {
			big := []es.EventData{sized("a", es.MaxAppendSize/2), sized("b", es.MaxAppendSize/2)}
			_, err := x.s().Append(x.ctx, x.stream("big"), es.Any, big)
			Expect(err).To(MatchError(es.ErrAppendTooLarge))
			Expect(x.readStream(x.stream("big"), es.Forwards, 0, 10)).To(BeEmpty())
		})

		It("takes an append just under it", func() {
			e := sized("under", es.MaxAppendSize-4096)
			x.append(x.stream("under"), es.NoStream, e)
			Expect(x.readStream(x.stream("under"), es.Forwards, 0, 10)).To(HaveLen(1))
		})
	})

	Describe("positions", func() {
		var stored []es.RecordedEvent
		BeforeEach(func() {
			start := x.head()
			var last uint64
			for i := range 6 {
				res := x.append(x.stream([]string{"p", "q"}[i%2]), es.Any, x.event("pos"))
				Expect(res.Position).To(BeNumerically(">", last), "an append's position grows")
				last = res.Position
			}
			stored = x.readAllMine(start, 4)
			Expect(stored).To(HaveLen(6))
			expectAscending(stored, start)
			Expect(stored[5].Position).To(Equal(last))
		})

		It("gives the last event of the log", func() {
			e, ok, err := x.s().Last(x.ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(ok).To(BeTrue())
			Expect(e.ID).To(Equal(stored[5].ID))
			Expect(e.Position).To(Equal(stored[5].Position))
			Expect(e.Metadata.Time).To(BeTemporally("~", stored[5].Metadata.Time))
		})

		It("reads on from every position it gave out", func() {
			for i, e := range stored {
				evs, err := x.s().ReadAll(x.ctx, e.Position, 1)
				Expect(err).NotTo(HaveOccurred())
				if i < len(stored)-1 {
					Expect(ids(evs)).To(Equal([]string{stored[i+1].ID}))
				} else {
					Expect(evs).To(BeEmpty())
				}
			}
		})

		It("refuses to read or subscribe after a position past the head", func() {
			past := stored[5].Position + 1<<40
			_, err := x.s().ReadAll(x.ctx, past, 10)
			Expect(err).To(MatchError(es.ErrInvalidPosition))
			expectSubscriptionRefused(x, past)
		})

		It("refuses to read or subscribe between two positions it gave out, when there is room between them", func() {
			for i := 1; i < len(stored); i++ {
				if stored[i].Position-stored[i-1].Position < 2 {
					continue
				}
				between := stored[i-1].Position + 1
				_, err := x.s().ReadAll(x.ctx, between, 10)
				Expect(err).To(MatchError(es.ErrInvalidPosition))
				expectSubscriptionRefused(x, between)
				return
			}
			Skip("this store's positions have no gaps")
		})
	})
}

// expectSubscriptionRefused expects a subscription after pos to fail with
// es.ErrInvalidPosition, when it is opened or at its first Next.
func expectSubscriptionRefused(x *fixture, pos uint64) {
	GinkgoHelper()
	sub, err := x.s().SubscribeAll(x.ctx, pos)
	if err == nil {
		defer sub.Close()
		_, err = sub.Next(x.ctx)
	}
	Expect(err).To(MatchError(es.ErrInvalidPosition))
}
