package readstoretest

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

func describeGroupApplies(store func() projections.ReadStore) {
	Describe("group join requests", func() {
		request := func(id, groupID string, at int64) projections.GroupApply {
			return projections.GroupApply{ID: id, Tenant: tenantA, GroupID: groupID, Member: "m-" + id, By: "inviter",
				Status: "pending", CreatedAt: at, UpdatedAt: at}
		}
		put := func(as ...projections.GroupApply) {
			GinkgoHelper()
			update(store(), func(tx projections.Tx) error { return tx.PutGroupApplies(ctx, as) })
		}
		// boss owns g1 and administers g2; in g3 it is a Normal member.
		boss := projections.Viewer{Tenant: tenantA, Member: "boss"}
		BeforeEach(func() {
			update(store(), func(tx projections.Tx) error {
				return tx.PutGroupMembers(ctx, []projections.GroupMember{
					{GroupID: "g1", Tenant: tenantA, Member: "boss", Role: "Owner"},
					{GroupID: "g2", Tenant: tenantA, Member: "boss", Role: "Admin"},
					{GroupID: "g3", Tenant: tenantA, Member: "boss", Role: "Normal"},
				})
			})
		})

		It("pages the requests of the groups the viewer manages, newest first, with the total", func() {
			put(request("r1", "g1", 100), request("r2", "g2", 300), request("r3", "g3", 200), request("r4", "g1", 400))

			got, total, err := store().GroupApplies(ctx, boss, 1, 2)
			Expect(err).NotTo(HaveOccurred())
			Expect(total).To(Equal(3))
			Expect(got).To(Equal([]projections.GroupApply{request("r4", "g1", 400), request("r2", "g2", 300)}))
			got, _, err = store().GroupApplies(ctx, boss, 2, 2)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal([]projections.GroupApply{request("r1", "g1", 100)}))
			got, total, err = store().GroupApplies(ctx, projections.Viewer{Tenant: tenantA, Member: "nobody"}, 1, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(BeEmpty())
			Expect(total).To(BeZero())
		})

		It("finds a request's group by tenant, and a request inside a batch that put it", func() {
			put(request("r1", "g1", 100))
			groupID, found, err := store().GroupOfApply(ctx, tenantA, "r1")
			Expect(err).NotTo(HaveOccurred())
			Expect([]any{groupID, found}).To(Equal([]any{"g1", true}))
			_, found, err = store().GroupOfApply(ctx, tenantB, "r1")
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeFalse())

			answered := request("r1", "g1", 100)
			answered.Status, answered.UpdatedAt = "accepted", 150
			update(store(), func(tx projections.Tx) error {
				got, found, err := tx.GetGroupApply(ctx, tenantA, "r1")
				Expect(err).NotTo(HaveOccurred())
				Expect(found).To(BeTrue())
				Expect(got).To(Equal(request("r1", "g1", 100)))
				Expect(tx.PutGroupApplies(ctx, []projections.GroupApply{answered})).To(Succeed())
				got, found, err = tx.GetGroupApply(ctx, tenantA, "r1")
				Expect(err).NotTo(HaveOccurred())
				Expect(found).To(BeTrue())
				Expect(got).To(Equal(answered))
				_, found, err = tx.GetGroupApply(ctx, tenantB, "r1")
				Expect(err).NotTo(HaveOccurred())
				Expect(found).To(BeFalse())
				return nil
			})
			got, _, err := store().GroupApplies(ctx, boss, 1, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal([]projections.GroupApply{answered}))
		})
	})
}
