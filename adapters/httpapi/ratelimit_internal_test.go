package httpapi

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Rate limiters", func() {
	var now time.Time
	newTestLimiter := func(l limit, max int) *limiter {
		now = time.UnixMilli(1_800_000_000_000)
		lim := newLimiter(l)
		lim.max, lim.now = max, func() time.Time { return now }
		return lim
	}

	It("allows n events of a key per window, then refuses until the window ends", func() {
		lim := newTestLimiter(limit{n: 2, window: time.Minute}, 10)
		Expect(lim.take("a")).To(BeTrue())
		Expect(lim.take("a")).To(BeTrue())
		Expect(lim.take("a")).To(BeFalse())
		Expect(lim.full("a")).To(BeTrue())
		Expect(lim.take("b")).To(BeTrue())
		now = now.Add(time.Minute)
		Expect(lim.full("a")).To(BeFalse())
		Expect(lim.take("a")).To(BeTrue())
	})

	It("stays bounded under a flood of new keys", func() {
		lim := newTestLimiter(limit{n: 1, window: time.Hour}, 100)
		for i := range 10_000 {
			lim.take(fmt.Sprint(i))
			Expect(lim.size()).To(BeNumerically("<=", 100))
		}
	})

	It("drops ended windows first", func() {
		lim := newTestLimiter(limit{n: 1, window: time.Second}, 3)
		lim.take("a")
		lim.take("b")
		now = now.Add(2 * time.Second)
		lim.take("c")
		lim.take("d")
		Expect(lim.size()).To(Equal(2))
		Expect(lim.full("c")).To(BeTrue())
	})

	It("limits per address only for addresses other than loopback", func() {
		Expect(limitedAddress("203.0.113.5")).To(BeTrue())
		Expect(limitedAddress("127.0.0.1")).To(BeFalse())
		Expect(limitedAddress("::1")).To(BeFalse())
	})
})
