package storetest

import (
	"errors"
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
)

func concurrencySpecs(x *fixture) {
	Describe("concurrent appends", func() {
		It("give 64 appenders with Any to one stream contiguous revisions and no duplicates", func() {
			const appenders, each = 64, 5
			sent := make([][]es.EventData, appenders)
			results := make([][]es.WriteResult, appenders)
			errs := make([]error, appenders)
			var wg sync.WaitGroup
			for a := range appenders {
				sent[a] = x.events(each, fmt.Sprint("g", a))
				wg.Add(1)
				go func() {
					defer wg.Done()
					for _, e := range sent[a] {
						res, err := x.s().Append(x.ctx, x.stream("busy"), es.Any, []es.EventData{e})
						if err != nil {
							errs[a] = err
							return
						}
						results[a] = append(results[a], res)
					}
				}()
			}
			wg.Wait()

			stored := x.readStream(x.stream("busy"), es.Forwards, 0, 1000)
			Expect(revisions(stored)).To(Equal(seq(0, appenders*each-1)))
			expectAscending(stored, 0)
			byID := make(map[string]es.RecordedEvent, len(stored))
			for _, rec := range stored {
				byID[rec.ID] = rec
			}
			Expect(byID).To(HaveLen(appenders * each))
			for a := range appenders {
				Expect(errs[a]).NotTo(HaveOccurred())
				for i, e := range sent[a] {
					rec, ok := byID[e.ID]
					Expect(ok).To(BeTrue())
					expectStored(rec, e)
					Expect(results[a][i]).To(Equal(es.WriteResult{NextRevision: rec.Revision, Position: rec.Position}))
				}
			}
		})

		It("let exactly one of many NoStream appends to one stream win", func() {
			const appenders = 16
			errs := make([]error, appenders)
			x.whileBusy(func() {
				var wg sync.WaitGroup
				for a := range appenders {
					e := x.event("create")
					wg.Add(1)
					go func() {
						defer wg.Done()
						_, errs[a] = x.s().Append(x.ctx, x.stream("once"), es.NoStream, []es.EventData{e})
					}()
				}
				wg.Wait()
			})
			wins := 0
			for _, err := range errs {
				if err == nil {
					wins++
				} else {
					Expect(errors.Is(err, es.ErrConcurrency)).To(BeTrue(), "got %v", err)
				}
			}
			Expect(wins).To(Equal(1))
			Expect(x.readStream(x.stream("once"), es.Forwards, 0, 10)).To(HaveLen(1))
		})

		It("do not fail because another append made at the same time is refused", func() {
			x.append(x.stream("held"), es.Any, x.events(2, "held")...)
			const appenders = 32
			errs := make([]error, appenders)
			x.whileBusy(func() {
				var wg sync.WaitGroup
				for a := range appenders {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if a%2 == 0 {
							_, errs[a] = x.s().Append(x.ctx, x.stream("held"), es.Exact(0), []es.EventData{x.event("stale")})
							return
						}
						_, errs[a] = x.s().Append(x.ctx, x.stream(fmt.Sprint("free", a)), es.NoStream, []es.EventData{x.event("free")})
					}()
				}
				wg.Wait()
			})
			for a, err := range errs {
				if a%2 == 0 {
					Expect(errors.Is(err, es.ErrConcurrency)).To(BeTrue(), "got %v", err)
				} else {
					Expect(err).NotTo(HaveOccurred())
					Expect(x.readStream(x.stream(fmt.Sprint("free", a)), es.Forwards, 0, 10)).To(HaveLen(1))
				}
			}
			Expect(x.readStream(x.stream("held"), es.Forwards, 0, 10)).To(HaveLen(2))
		})
	})
}
