package readstoretest

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

// describeLease: another opens a second handle on the same store, as a
// second server node does.
func describeLease(store, another func() projections.ReadStore) {
	Describe("the projection lease", func() {
		// The times are the clock's: a store may refuse writes near the
		// end of its lease.
		var t0 time.Time
		BeforeEach(func() { t0 = time.Now() })
		at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
		take := func(s projections.ReadStore, owner string, now, until int) string {
			GinkgoHelper()
			holder, err := s.TakeLease(ctx, owner, at(now), at(until))
			Expect(err).NotTo(HaveOccurred())
			return holder
		}
		checkpoint := func(s projections.ReadStore, pos uint64) error {
			return s.Update(ctx, func(tx projections.Tx) error { return tx.SetCheckpoint(ctx, "chats.v1", pos) })
		}

		It("goes to the first owner and to nobody else until it ends", func() {
			second := another()

			Expect(take(store(), "node-a", 0, 10)).To(Equal("node-a"))
			Expect(take(second, "node-b", 1, 11)).To(Equal("node-a"))
			Expect(take(second, "node-b", 9, 19)).To(Equal("node-a"))
			Expect(take(second, "node-b", 10, 20)).To(Equal("node-b"))
			Expect(take(store(), "node-a", 11, 21)).To(Equal("node-b"))
		})

		It("lasts as long as its holder renews it", func() {
			second := another()
			Expect(take(store(), "node-a", 0, 10)).To(Equal("node-a"))

			Expect(take(store(), "node-a", 8, 18)).To(Equal("node-a"))

			Expect(take(second, "node-b", 12, 22)).To(Equal("node-a"))
			Expect(take(second, "node-b", 18, 28)).To(Equal("node-b"))
		})

		It("is freed by its holder only", func() {
			second := another()
			Expect(take(store(), "node-a", 0, 10)).To(Equal("node-a"))

			Expect(second.DropLease(ctx, "node-b")).To(Succeed())
			Expect(take(second, "node-b", 1, 11)).To(Equal("node-a"))

			Expect(store().DropLease(ctx, "node-a")).To(Succeed())
			Expect(take(second, "node-b", 1, 11)).To(Equal("node-b"))
		})

		It("refuses the Update of a handle whose lease another owner took, and writes nothing of it", func() {
			second := another()
			Expect(take(store(), "node-a", 0, 10)).To(Equal("node-a"))
			Expect(checkpoint(store(), 5)).To(Succeed())
			Expect(take(second, "node-b", 10, 20)).To(Equal("node-b"))

			Expect(checkpoint(store(), 6)).To(MatchError(projections.ErrLeaseLost))
			Expect(store().Checkpoints(ctx)).To(Equal(map[string]uint64{"chats.v1": 5}))

			Expect(checkpoint(second, 7)).To(Succeed())
			Expect(store().Checkpoints(ctx)).To(Equal(map[string]uint64{"chats.v1": 7}))
		})

		It("refuses the Update of a handle without the lease while another owner holds it", func() {
			second := another()
			Expect(checkpoint(second, 1)).To(Succeed())
			Expect(take(store(), "node-a", 0, 10)).To(Equal("node-a"))

			Expect(checkpoint(second, 2)).To(MatchError(projections.ErrLeaseLost))

			Expect(store().DropLease(ctx, "node-a")).To(Succeed())
			Expect(checkpoint(second, 3)).To(Succeed())
			Expect(store().Checkpoints(ctx)).To(Equal(map[string]uint64{"chats.v1": 3}))
		})
	})
}
