package readstoretest

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/httpapi"
)

// CountersFactory opens the rate limits' counters kept with the read store
// in dir (a new directory per spec) and returns them with a function that
// closes them. Called again with the same dir, it opens another handle on
// the same counters, as a second server node would.
type CountersFactory func(dir string) (counters httpapi.Counters, closeCounters func())

// DescribeCounters declares the contract specs of the rate limits'
// counters. Call it at the top level of the adapter's test package.
// notAtomic, unless empty, says why the store cannot count the events of
// several handles at once exactly: the specs of concurrent counts are
// skipped with it.
func DescribeCounters(name string, factory CountersFactory, notAtomic string) bool {
	return Describe(name+" rate limit counters contract", func() {
		var dir string
		open := func() httpapi.Counters {
			c, closeCounters := factory(dir)
			DeferCleanup(closeCounters)
			return c
		}
		// The times are the clock's: a store may let ended windows expire
		// by its own.
		var t0 time.Time
		BeforeEach(func() {
			dir = GinkgoT().TempDir()
			t0 = time.Now()
		})
		at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
		add := func(c httpapi.Counters, key string, ms int, window time.Duration) int64 {
			GinkgoHelper()
			n, err := c.Add(ctx, key, at(ms), window)
			Expect(err).NotTo(HaveOccurred())
			return n
		}
		counted := func(c httpapi.Counters, key string, ms int) int64 {
			GinkgoHelper()
			n, err := c.Counted(ctx, key, at(ms))
			Expect(err).NotTo(HaveOccurred())
			return n
		}

		It("counts a key's events in the window its first event opened, and from one again once it ended", func() {
			c := open()
			Expect(counted(c, "login:a", 0)).To(BeZero())
			Expect(add(c, "login:a", 0, time.Minute)).To(Equal(int64(1)))
			Expect(add(c, "login:a", 1_000, time.Minute)).To(Equal(int64(2)))
			Expect(add(c, "login:a", 59_999, time.Minute)).To(Equal(int64(3)))
			Expect(counted(c, "login:a", 59_999)).To(Equal(int64(3)))

			Expect(counted(c, "login:a", 60_000)).To(BeZero())
			Expect(add(c, "login:a", 60_000, time.Minute)).To(Equal(int64(1)))
			Expect(add(c, "login:a", 119_999, time.Minute)).To(Equal(int64(2)))
			Expect(add(c, "login:a", 120_000, time.Minute)).To(Equal(int64(1)))
		})

		It("counts the events of two handles in turn together", func() {
			a, b := open(), open()
			for i := range 6 {
				Expect(add([]httpapi.Counters{a, b}[i%2], "login:turns", i, time.Minute)).To(Equal(int64(i + 1)))
			}
			Expect(counted(a, "login:turns", 10)).To(Equal(int64(6)))
			Expect(counted(b, "login:turns", 10)).To(Equal(int64(6)))
		})

		It("keeps keys apart, and a window as long as its first event asked", func() {
			c := open()
			add(c, "sms:a", 0, 10*time.Minute)
			add(c, "sms:a", 1, time.Second)
			Expect(add(c, "sms:b", 2, time.Second)).To(Equal(int64(1)))
			Expect(add(c, "sms:b", 3, time.Second)).To(Equal(int64(2)))

			Expect(counted(c, "sms:a", 5_000)).To(Equal(int64(2)))
			Expect(counted(c, "sms:b", 5_000)).To(BeZero())
			Expect(counted(c, "sms:c", 5_000)).To(BeZero())
		})

		It("opens no window when it only reads a count", func() {
			c := open()
			Expect(counted(c, "lookup:a", 0)).To(BeZero())
			Expect(add(c, "lookup:a", 10_000, time.Second)).To(Equal(int64(1)))
			Expect(counted(c, "lookup:a", 10_999)).To(Equal(int64(1)))
			Expect(counted(c, "lookup:a", 11_000)).To(BeZero())
		})

		concurrently := func() {
			if notAtomic != "" {
				Skip(notAtomic)
			}
		}

		It("counts the events of every handle once each, and each sees the count of all", func() {
			concurrently()
			handles := []httpapi.Counters{open(), open()}
			const events = 40
			seen := atOnce(events, func(i int) int64 { return add(handles[i%2], "login:shared", i, time.Minute) })
			want := make([]int64, events)
			for i := range want {
				want[i] = int64(i + 1)
			}
			Expect(seen).To(ConsistOf(want))
			for _, h := range handles {
				Expect(counted(h, "login:shared", events)).To(Equal(int64(events)))
			}
		})

		It("opens one window when several handles find the last one ended at once", func() {
			concurrently()
			handles := []httpapi.Counters{open(), open()}
			add(handles[0], "friend-request:x", 0, 200*time.Millisecond)
			seen := atOnce(10, func(i int) int64 { return add(handles[i%2], "friend-request:x", 500, 200*time.Millisecond) })
			Expect(seen).To(ConsistOf(int64(1), int64(2), int64(3), int64(4), int64(5), int64(6), int64(7), int64(8), int64(9), int64(10)))
		})
	})
}
