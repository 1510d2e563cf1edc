package httpapi

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
)

var _ = Describe("Rate limits", func() {
	ctx := context.Background()
	now := time.UnixMilli(1_800_000_000_000)

	Describe("the node's own counters", func() {
		It("count a key's events in the window its first event opened, from one again once it ended", func() {
			c := newLocalCounters(10)
			Expect(c.Add("a", now, time.Minute)).To(Equal(int64(1)))
			Expect(c.Add("a", now.Add(59*time.Second), time.Minute)).To(Equal(int64(2)))
			Expect(c.Counted("a", now.Add(59*time.Second))).To(Equal(int64(2)))
			Expect(c.Add("b", now, time.Minute)).To(Equal(int64(1)))
			Expect(c.Counted("a", now.Add(time.Minute))).To(BeZero())
			Expect(c.Add("a", now.Add(time.Minute), time.Minute)).To(Equal(int64(1)))
		})

		It("stay bounded under a flood of new keys", func() {
			c := newLocalCounters(100)
			for i := range 10_000 {
				c.Add(fmt.Sprint(i), now, time.Hour)
				Expect(c.size()).To(BeNumerically("<=", 100))
			}
		})

		It("drop ended windows first", func() {
			c := newLocalCounters(3)
			c.Add("a", now, time.Second)
			c.Add("b", now, time.Second)
			later := now.Add(2 * time.Second)
			c.Add("c", later, time.Second)
			c.Add("d", later, time.Second)
			Expect(c.size()).To(Equal(2))
			Expect(c.Counted("c", later)).To(Equal(int64(1)))
		})
	})

	Describe("counted in a shared store", func() {
		var shared *sqliteread.Counters
		BeforeEach(func() {
			var err error
			shared, err = sqliteread.OpenCounters(filepath.Join(GinkgoT().TempDir(), "read.db.counters"))
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(shared.Close)
		})

		It("refuse the 21st login of an address within a minute on whichever node counted the first 20", func() {
			one, two := newLimits(shared, zap.NewNop()), newLimits(shared, zap.NewNop())
			for i := range 20 {
				Expect([]*limits{one, two}[i%2].take(ctx, loginPerIP, "203.0.113.5")).To(BeTrue())
			}
			Expect(one.take(ctx, loginPerIP, "203.0.113.5")).To(BeFalse())
			Expect(two.take(ctx, loginPerIP, "203.0.113.5")).To(BeFalse())
			Expect(two.take(ctx, loginPerIP, "203.0.113.6")).To(BeTrue())
		})

		It("fall back to the node's own counts, said once in the log, while the store fails, and share them again once it answers", func() {
			core, logs := observer.New(zap.InfoLevel)
			l := newLimits(shared, zap.New(core))
			Expect(l.take(ctx, smsPerIP, "203.0.113.9")).To(BeTrue())
			Expect(shared.Close()).To(Succeed())

			for range 10 {
				Expect(l.take(ctx, smsPerIP, "203.0.113.9")).To(BeTrue())
			}
			Expect(l.take(ctx, smsPerIP, "203.0.113.9")).To(BeFalse())
			Expect(logs.FilterMessage("rate limits counted by this node alone until the shared counters answer").Len()).To(Equal(1))

			reopened, err := sqliteread.OpenCounters(filepath.Join(GinkgoT().TempDir(), "read.db.counters"))
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(reopened.Close)
			l.shared = reopened
			Expect(l.take(ctx, smsPerIP, "203.0.113.9")).To(BeTrue())
			Expect(logs.FilterMessage("rate limits counted by every node again").Len()).To(Equal(1))
		})
	})

	It("limits per address only for addresses other than loopback", func() {
		Expect(limitedAddress("203.0.113.5")).To(BeTrue())
		Expect(limitedAddress("127.0.0.1")).To(BeFalse())
		Expect(limitedAddress("::1")).To(BeFalse())
	})

	It("names counters by the limit and a digest of what they count", func() {
		Expect(counterKey("login", "203.0.113.5")).To(HavePrefix("login:"))
		Expect(counterKey("login", "203.0.113.5")).NotTo(ContainSubstring("203.0.113.5"))
		Expect(counterKey("login", "203.0.113.5")).NotTo(Equal(counterKey("login", "203.0.113.6")))
		Expect(counterKey("login", "203.0.113.5")).NotTo(Equal(counterKey("sms", "203.0.113.5")))
	})
})
