package main

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("A phase's tally", func() {
	It("finds the slot of its own uuids and of nothing else", func() {
		ph := newPhase('t', 3, 10, false)
		i, ok := ph.index(ph.uuid(2, 7))
		Expect(ok).To(BeTrue())
		Expect(i).To(Equal(27))
		for _, foreign := range []string{"l2x7", "t3x0", "t2x10", "t-1x2", "t2x", "tx2", "t2y7", "", "0b6f4f3e-9d1c"} {
			_, ok := ph.index(foreign)
			Expect(ok).To(BeFalse(), foreign)
		}
	})

	It("counts first deliveries, duplicates and acknowledged messages never delivered", func() {
		ph := newPhase('t', 2, 5, false)
		for _, i := range []int{0, 1, 7} {
			ph.acked[i].Store(true)
		}
		ph.delivered(ph.uuid(0, 0))
		ph.delivered(ph.uuid(0, 0))
		ph.delivered(ph.uuid(1, 2))
		ph.delivered(ph.uuid(1, 3)) // delivered though its reply never came
		Expect(ph.deliveredN.Load()).To(Equal(int64(3)))
		Expect(ph.duplicateN.Load()).To(Equal(int64(1)))
		Expect(ph.missing()).To(Equal(1)) // message 1 of pair 0
	})

	It("has receivers told to resync read their chats back: what they find is no longer missing, nor a delivery", func(ctx SpecContext) {
		ph := newPhase('t', 2, 5, true)
		for i := range 10 {
			ph.sentAt[i].Store(int64(time.Since(ph.base)))
			ph.acked[i].Store(true)
		}
		ph.delivered(ph.uuid(0, 0))
		ph.delivered(ph.uuid(1, 0))
		ph.toldToResync(1)
		var readBy []int
		reader := func(pair int, found ...string) func(context.Context, func(string)) error {
			return func(_ context.Context, visit func(string)) error {
				readBy = append(readBy, pair)
				for _, u := range found {
					visit(u)
				}
				return nil
			}
		}
		pairs := []pairConn{
			{readBack: reader(0, ph.uuid(0, 1))},
			{readBack: reader(1, ph.uuid(1, 0), ph.uuid(1, 1), ph.uuid(1, 2), "elsewhere")},
		}
		missing, err := ph.readBackResynced(ctx, pairs)
		Expect(err).NotTo(HaveOccurred())
		Expect(readBy).To(Equal([]int{1}), "only the receiver told to resync reads back")
		Expect(missing).To(Equal(4 + 2))
		Expect(ph.readBackN.Load()).To(Equal(int64(2)))
		Expect(ph.deliveredN.Load()).To(Equal(int64(2)))
		delivery, _ := ph.latencies()
		Expect(delivery).To(HaveLen(2), "a message read back has no delivery time")
	})

	It("measures latency from the recorded send to the first delivery", func() {
		ph := newPhase('l', 1, 2, true)
		for seq := range 2 {
			ph.sentAt[seq].Store(int64(time.Since(ph.base)))
			ph.acked[seq].Store(true)
		}
		time.Sleep(2 * time.Millisecond)
		ph.delivered(ph.uuid(0, 1))
		delivery, ack := ph.latencies()
		Expect(delivery).To(HaveLen(1))
		Expect(ack).To(HaveLen(1))
		Expect(delivery[0]).To(BeNumerically(">=", 2*time.Millisecond))
	})
})

var _ = Describe("Percentiles", func() {
	It("take the nearest rank", func() {
		var ds []time.Duration
		for i := 1; i <= 200; i++ {
			ds = append(ds, time.Duration(i)*time.Millisecond)
		}
		Expect(percentile(ds, 50)).To(Equal(100 * time.Millisecond))
		Expect(percentile(ds, 99)).To(Equal(198 * time.Millisecond))
		Expect(percentile(ds, 100)).To(Equal(200 * time.Millisecond))
		Expect(percentile(ds[:1], 99)).To(Equal(time.Millisecond))
		Expect(percentile(nil, 99)).To(BeZero())
	})
})
