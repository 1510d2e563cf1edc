package readstoretest

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

func describeApplies(store func() projections.ReadStore) {
	Describe("applies", func() {
		putApplies := func(as ...projections.Apply) {
			GinkgoHelper()
			update(store(), func(tx projections.Tx) error { return tx.PutApplies(ctx, as) })
		}
		getApply := func(tenant, id string) (projections.Apply, bool) {
			GinkgoHelper()
			var a projections.Apply
			var found bool
			update(store(), func(tx projections.Tx) error {
				var err error
				a, found, err = tx.GetApply(ctx, tenant, id)
				return err
			})
			return a, found
		}

		It("leaves out of a member's list and total the requests that member deleted, keeping them for the other", func() {
			sentHidden, bothHidden := apply(tenantA, "a1", "alice", "bob", 100), apply(tenantA, "a2", "carol", "alice", 200)
			sentHidden.HiddenFrom, bothHidden.HiddenTo = true, true
			putApplies(sentHidden, bothHidden, apply(tenantA, "a3", "bob", "alice", 300))
			bothHidden.HiddenFrom = true
			putApplies(bothHidden)

			got, total, err := store().Applies(ctx, "alice", 1, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(total).To(Equal(1))
			Expect(got).To(Equal([]projections.Apply{apply(tenantA, "a3", "bob", "alice", 300)}))
			got, total, err = store().Applies(ctx, "bob", 1, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(total).To(Equal(2))
			Expect(got[1]).To(Equal(sentHidden))
			_, total, err = store().Applies(ctx, "carol", 1, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(total).To(BeZero())
			stored, found := getApply(tenantA, "a2")
			Expect(found).To(BeTrue())
			Expect(stored).To(Equal(bothHidden))
		})

		It("lists the requests a member sent and received, newest first, with the total", func() {
			putApplies(
				apply(tenantA, "a1", "alice", "bob", 100),
				apply(tenantA, "a2", "carol", "alice", 300),
				apply(tenantA, "a3", "bob", "carol", 200),
				apply(tenantA, "a4", "alice", "dave", 300),
			)

			got, total, err := store().Applies(ctx, "alice", 1, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(total).To(Equal(3))
			Expect(applyIDs(got)).To(Equal([]string{"a4", "a2", "a1"}))
			Expect(got[2]).To(Equal(apply(tenantA, "a1", "alice", "bob", 100)))
		})

		It("pages from page 1", func() {
			var as []projections.Apply
			for i := range 25 {
				as = append(as, apply(tenantA, fmt.Sprintf("a%02d", i), "alice", fmt.Sprintf("friend-%02d", i), int64(i)))
			}
			putApplies(as...)

			pageIDs := func(page, size int) ([]string, int) {
				GinkgoHelper()
				got, total, err := store().Applies(ctx, "alice", page, size)
				Expect(err).NotTo(HaveOccurred())
				return applyIDs(got), total
			}
			ids, total := pageIDs(1, 10)
			Expect(ids).To(Equal([]string{"a24", "a23", "a22", "a21", "a20", "a19", "a18", "a17", "a16", "a15"}))
			Expect(total).To(Equal(25))
			ids, total = pageIDs(3, 10)
			Expect(ids).To(Equal([]string{"a04", "a03", "a02", "a01", "a00"}))
			Expect(total).To(Equal(25))
			ids, total = pageIDs(4, 10)
			Expect(ids).To(BeEmpty())
			Expect(total).To(Equal(25))
			ids, _ = pageIDs(0, 2)
			Expect(ids).To(Equal([]string{"a24", "a23"}))
		})

		It("has nothing for a member without requests", func() {
			got, total, err := store().Applies(ctx, "nobody", 1, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(BeEmpty())
			Expect(total).To(BeZero())
		})

		It("replaces a stored request whole", func() {
			putApplies(apply(tenantA, "a1", "alice", "bob", 100))
			accepted := apply(tenantA, "a1", "alice", "bob", 100)
			accepted.Status, accepted.ReadFlag, accepted.UpdatedAt, accepted.Remark = "Accepted", "Read", 500, ""
			putApplies(accepted)

			got, found := getApply(tenantA, "a1")
			Expect(found).To(BeTrue())
			Expect(got).To(Equal(accepted))
			list, total, err := store().Applies(ctx, "bob", 1, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(total).To(Equal(1))
			Expect(list).To(Equal([]projections.Apply{accepted}))
		})

		It("finds a request and its pair only within its tenant", func() {
			putApplies(apply(tenantA, "a1", "alice", "bob", 100))

			_, found := getApply(tenantB, "a1")
			Expect(found).To(BeFalse())
			_, found = getApply(tenantA, "unknown")
			Expect(found).To(BeFalse())

			pair, found, err := store().PairOfApply(ctx, tenantA, "a1")
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeTrue())
			Expect(pair).To(Equal("pair-alice-bob"))
			_, found, err = store().PairOfApply(ctx, tenantB, "a1")
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeFalse())
			_, found, err = store().PairOfApply(ctx, tenantA, "unknown")
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeFalse())
		})
	})
}
