package storetest

import (
	"errors"
	"math"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
)

func idempotencySpecs(x *fixture) {
	Describe("idempotency by event id", func() {
		It("answers a retried append as a duplicate of the first, appending nothing", func() {
			sent := x.events(2, "retry")
			first := x.append(x.stream("r"), es.Any, sent...)
			head := x.head()

			again := x.append(x.stream("r"), es.Any, sent...)
			Expect(again).To(Equal(es.WriteResult{NextRevision: first.NextRevision, Position: first.Position, Duplicate: true}))
			Expect(x.readStream(x.stream("r"), es.Forwards, 0, 10)).To(HaveLen(2))
			Expect(x.head()).To(Equal(head))
		})

		It("checks duplicates before the expected revision: a retried NoStream create succeeds", func() {
			e := x.event("create")
			first := x.append(x.stream("c"), es.NoStream, e)
			again := x.append(x.stream("c"), es.NoStream, e)
			Expect(again.Duplicate).To(BeTrue())
			Expect(again.Position).To(Equal(first.Position))
			Expect(again.NextRevision).To(Equal(uint64(0)))
		})

		It("reports the first result even after the stream has moved on", func() {
			e := x.event("old")
			first := x.append(x.stream("c"), es.Any, e)
			x.append(x.stream("c"), es.Any, x.events(3, "later")...)
			again := x.append(x.stream("c"), es.Exact(0), e)
			Expect(again).To(Equal(es.WriteResult{NextRevision: first.NextRevision, Position: first.Position, Duplicate: true}))
			Expect(x.readStream(x.stream("c"), es.Forwards, 0, 10)).To(HaveLen(4))
		})

		It("answers a retried append at a revision no stream reaches as a duplicate, and refuses a new one there", func() {
			unreached := es.Exact(math.MaxInt64)
			e := x.event("asked")
			first := x.append(x.stream("u"), es.Any, e)
			again := x.append(x.stream("u"), unreached, e)
			Expect(again).To(Equal(es.WriteResult{NextRevision: first.NextRevision, Position: first.Position, Duplicate: true}))
			head := x.head()

			for _, stream := range []string{x.stream("u"), x.stream("none yet")} {
				_, err := x.s().Append(x.ctx, stream, unreached, []es.EventData{x.event("new")})
				Expect(errors.Is(err, es.ErrConcurrency)).To(BeTrue(), "got %v", err)
			}
			Expect(x.readStream(x.stream("u"), es.Forwards, 0, 10)).To(HaveLen(1))
			Expect(x.readStream(x.stream("none yet"), es.Forwards, 0, 10)).To(BeEmpty())
			Expect(x.head()).To(Equal(head))
		})

		It("refuses an append repeating only some ids with ErrPartialDuplicate, appending nothing", func() {
			sent := x.events(2, "p")
			x.append(x.stream("p"), es.Any, sent...)
			head := x.head()

			_, err := x.s().Append(x.ctx, x.stream("p"), es.Any, []es.EventData{sent[1], x.event("new")})
			Expect(errors.Is(err, es.ErrPartialDuplicate)).To(BeTrue(), "got %v", err)
			Expect(x.readStream(x.stream("p"), es.Forwards, 0, 10)).To(HaveLen(2))
			Expect(x.head()).To(Equal(head))
		})

		It("stores an id repeated inside one append once, at its first place", func() {
			a, b := x.event("a"), x.event("b")
			res := x.append(x.stream("d"), es.NoStream, a, b, a)
			stored := x.readStream(x.stream("d"), es.Forwards, 0, 10)
			Expect(ids(stored)).To(Equal([]string{a.ID, b.ID}))
			Expect(res.NextRevision).To(Equal(uint64(1)))
			Expect(res.Position).To(Equal(stored[1].Position))
		})

		It("makes concurrent appends of the same events one append and duplicates of it", func() {
			const callers = 16
			sent := x.events(2, "same")
			results := make([]es.WriteResult, callers)
			errs := make([]error, callers)
			x.whileBusy(func() {
				var wg sync.WaitGroup
				for i := range callers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						results[i], errs[i] = x.s().Append(x.ctx, x.stream("same"), es.NoStream, sent)
					}()
				}
				wg.Wait()
			})

			stored := x.readStream(x.stream("same"), es.Forwards, 0, 10)
			Expect(ids(stored)).To(Equal(sentIDs(sent)))
			firsts := 0
			for i := range callers {
				Expect(errs[i]).NotTo(HaveOccurred())
				Expect(results[i].Position).To(Equal(stored[1].Position))
				Expect(results[i].NextRevision).To(Equal(uint64(1)))
				if !results[i].Duplicate {
					firsts++
				}
			}
			Expect(firsts).To(Equal(1))
		})
	})
}
