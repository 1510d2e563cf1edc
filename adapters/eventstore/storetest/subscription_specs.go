package storetest

import (
	"context"
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
)

type nextResult struct {
	events []es.RecordedEvent
	err    error
}

// nextInBackground calls Next once and reports on the returned channel.
func nextInBackground(ctx context.Context, sub es.Subscription) <-chan nextResult {
	ch := make(chan nextResult, 1)
	go func() {
		evs, err := sub.Next(ctx)
		ch <- nextResult{evs, err}
	}()
	return ch
}

// appendConcurrently runs writers goroutines, each appending perWriter
// single-event appends to a stream of its own, and returns what they sent.
func (x *fixture) appendConcurrently(writers, perWriter int) [][]es.EventData {
	GinkgoHelper()
	sent := make([][]es.EventData, writers)
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for w := range writers {
		sent[w] = x.events(perWriter, fmt.Sprint("w", w))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, e := range sent[w] {
				if _, err := x.s().Append(x.ctx, x.stream(fmt.Sprint("w", w)), es.Any, []es.EventData{e}); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		Expect(err).NotTo(HaveOccurred())
	}
	return sent
}

func (x *fixture) subscribe(after uint64) es.Subscription {
	GinkgoHelper()
	sub, err := x.s().SubscribeAll(x.ctx, after)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(sub.Close)
	return sub
}

// expectNextIsNew appends one event and checks that it is the next event of
// this spec that each subscription delivers: none holds a repeat or a stray.
func (x *fixture) expectNextIsNew(subs ...es.Subscription) {
	GinkgoHelper()
	e := x.event("sentinel")
	res := x.append(x.stream("sentinel"), es.Any, e)
	for _, sub := range subs {
		next := x.collect(sub, 0, 1)
		Expect(next[0].ID).To(Equal(e.ID))
		Expect(next[0].Position).To(Equal(res.Position))
	}
}

func subscriptionSpecs(x *fixture) {
	Describe("SubscribeAll", func() {
		It("delivers from position 0 what is stored, then what is appended", func() {
			x.append(x.stream("s"), es.Any, x.events(10, "stored")...)
			sub := x.subscribe(0)
			// Committed after subscribing but before the first Next: both
			// stored and live by the time Next runs, delivered once.
			for _, e := range x.events(5, "between") {
				x.append(x.stream("s"), es.Any, e)
			}
			got := x.collect(sub, 0, 15)
			Expect(ids(got)).To(Equal(ids(x.readAllMine(0, 100))))

			live := x.events(5, "live")
			x.append(x.stream("s"), es.Any, live...)
			got = x.collect(sub, got[14].Position, 5)
			Expect(ids(got)).To(Equal(sentIDs(live)))
			for i := range got {
				expectStored(got[i], live[i])
				Expect(got[i].Revision).To(Equal(uint64(15 + i)))
			}
			x.expectNextIsNew(sub)
		})

		It("delivers only the events after the position asked", func() {
			sent := x.events(10, "mid")
			for _, e := range sent {
				x.append(x.stream("m"), es.Any, e)
			}
			stored := x.readStream(x.stream("m"), es.Forwards, 0, 10)
			sub := x.subscribe(stored[3].Position)
			got := x.collect(sub, stored[3].Position, 6)
			Expect(ids(got)).To(Equal(sentIDs(sent[4:])))
			x.expectNextIsNew(sub)
		})

		It("switches from stored to live events with no gap and no repeat while appends go on", func() {
			const subscribers, total = 5, 220
			start := x.head()
			x.append(x.stream("before"), es.Any, x.events(20, "before")...)
			got := make([][]es.RecordedEvent, subscribers)
			subs := make([]es.Subscription, subscribers)
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				for i := range subscribers {
					sub, err := x.s().SubscribeAll(x.ctx, start)
					Expect(err).NotTo(HaveOccurred())
					subs[i] = sub
					wg.Add(1)
					go func() {
						defer GinkgoRecover()
						defer wg.Done()
						got[i] = x.collect(subs[i], start, total)
					}()
					time.Sleep(3 * time.Millisecond)
				}
			}()
			x.appendConcurrently(4, 50)
			wg.Wait()
			for _, sub := range subs {
				DeferCleanup(sub.Close)
			}

			want := ids(x.readAllMine(start, 1000))
			Expect(want).To(HaveLen(total))
			for i := range subscribers {
				Expect(ids(got[i])).To(Equal(want))
			}
			x.expectNextIsNew(subs...)
		})

		It("does not hold appends back for a subscriber that does not read, which still gets everything", func() {
			sub := x.subscribe(x.head())
			first := x.append(x.stream("first"), es.Any, x.event("first"))
			x.collect(sub, 0, 1) // the subscriber is now up to date
			x.appendConcurrently(4, 150)
			want := ids(x.readAllMine(first.Position, 1000))
			Expect(want).To(HaveLen(600))
			Expect(ids(x.collect(sub, first.Position, 600))).To(Equal(want))
			x.expectNextIsNew(sub)
		})

		It("blocks Next until an event commits", func() {
			sub := x.subscribe(x.head())
			next := nextInBackground(x.ctx, sub)
			Consistently(next, 50*time.Millisecond).ShouldNot(Receive())
			e := x.event("wake")
			x.append(x.stream("wake"), es.Any, e)
			var r nextResult
			Eventually(next, specLimit).Should(Receive(&r))
			Expect(r.err).NotTo(HaveOccurred())
			Expect(ids(x.mine(r.events))).To(Equal([]string{e.ID}))
		})

		It("fails Next after Close and wakes a Next blocked in it", func() {
			x.append(x.stream("c"), es.Any, x.event("c"))
			sub := x.subscribe(x.head())
			next := nextInBackground(x.ctx, sub)
			Expect(sub.Close()).To(Succeed())
			var r nextResult
			Eventually(next, specLimit).Should(Receive(&r))
			Expect(r.err).To(HaveOccurred())

			closed := x.subscribe(0)
			Expect(closed.Close()).To(Succeed())
			_, err := closed.Next(x.ctx)
			Expect(err).To(HaveOccurred())
		})

		It("ends when the context it was opened with is cancelled", func() {
			c, cancel := context.WithCancel(x.ctx)
			sub, err := x.s().SubscribeAll(c, x.head())
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(sub.Close)
			next := nextInBackground(x.ctx, sub)
			cancel()
			var r nextResult
			Eventually(next, specLimit).Should(Receive(&r))
			Expect(r.err).To(HaveOccurred())
			_, err = sub.Next(x.ctx)
			Expect(err).To(HaveOccurred())
		})

		It("returns the error of a cancelled Next context and stays usable", func() {
			sub := x.subscribe(x.head())
			c, cancel := context.WithCancel(x.ctx)
			next := nextInBackground(c, sub)
			cancel()
			var r nextResult
			Eventually(next, specLimit).Should(Receive(&r))
			Expect(r.err).To(HaveOccurred())

			e := x.event("after")
			x.append(x.stream("after"), es.Any, e)
			Expect(ids(x.collect(sub, 0, 1))).To(Equal([]string{e.ID}))
		})

		It("ends when the store closes", func() {
			sub := x.subscribe(x.head())
			next := nextInBackground(x.ctx, sub)
			x.close()
			var r nextResult
			Eventually(next, specLimit).Should(Receive(&r))
			Expect(r.err).To(HaveOccurred())
		})
	})
}
