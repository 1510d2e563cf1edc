package readstoretest

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

func describeMembers(store func() projections.ReadStore) {
	Describe("members", func() {
		alice := member(tenantA, "m1", "alice", "13800000001")
		bob := member(tenantA, "m2", "bob", "13800000002")
		otherAlice := member(tenantB, "m3", "alice", "13800000003")

		BeforeEach(func() {
			update(store(), func(tx projections.Tx) error {
				return tx.PutMembers(ctx, []projections.Member{alice, bob, otherAlice})
			})
		})

		It("returns the members asked for by id, leaving out unknown ids and other tenants' members", func() {
			Expect(store().MembersByID(ctx, viewerA, []string{"m1", "m3", "nobody"})).To(Equal(map[string]projections.Member{
				"m1": alice,
			}))
			Expect(store().MembersByID(ctx, projections.Viewer{Tenant: tenantB, Member: "m3"}, []string{"m1", "m3"})).To(Equal(map[string]projections.Member{
				"m3": otherAlice,
			}))
			Expect(store().MembersByID(ctx, viewerA, nil)).To(BeEmpty())
		})

		It("returns many members at once", func() {
			var many []projections.Member
			var wanted []string
			for i := range 37 {
				many = append(many, member(tenantA, fmt.Sprintf("bulk-%02d", i), fmt.Sprintf("acc-%02d", i), ""))
				wanted = append(wanted, fmt.Sprintf("bulk-%02d", i))
			}
			update(store(), func(tx projections.Tx) error { return tx.PutMembers(ctx, many) })

			got, err := store().MembersByID(ctx, viewerA, wanted)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(HaveLen(37))
			Expect(got["bulk-36"]).To(Equal(many[36]))
		})

		It("gets members within a transaction, those it put included", func() {
			carol := member(tenantA, "m4", "carol", "")
			update(store(), func(tx projections.Tx) error {
				if err := tx.PutMembers(ctx, []projections.Member{carol}); err != nil {
					return err
				}
				got, err := tx.GetMembers(ctx, []string{"m1", "m4", "nobody"})
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(map[string]projections.Member{"m1": alice, "m4": carol}))
				return nil
			})
		})

		It("replaces a stored member whole", func() {
			renamed := alice
			renamed.Name, renamed.Phone, renamed.HeadURL = "Alice B.", "", ""
			update(store(), func(tx projections.Tx) error { return tx.PutMembers(ctx, []projections.Member{renamed}) })

			Expect(store().MembersByID(ctx, viewerA, []string{"m1"})).To(Equal(map[string]projections.Member{"m1": renamed}))
			_, found, err := store().FindMember(ctx, tenantA, "13800000001")
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeFalse())
		})

		DescribeTable("FindMember within a tenant by exact account or phone",
			func(tenant, keyword string, want *projections.Member) {
				got, found, err := store().FindMember(ctx, tenant, keyword)
				Expect(err).NotTo(HaveOccurred())
				if want == nil {
					Expect(found).To(BeFalse())
					return
				}
				Expect(found).To(BeTrue())
				Expect(got).To(Equal(*want))
			},
			Entry("by account", tenantA, "bob", &bob),
			Entry("by phone", tenantA, "13800000002", &bob),
			Entry("the same account in another tenant", tenantB, "alice", &otherAlice),
			Entry("not another tenant's phone", tenantA, "13800000003", nil),
			Entry("not a prefix", tenantA, "ali", nil),
			Entry("not the name", tenantA, "name of m1", nil),
			Entry("nobody for an empty keyword", tenantA, "", nil),
			Entry("nobody in an unknown tenant", "x9999", "alice", nil),
		)

		It("prefers an account match over a phone match", func() {
			phoneLike := member(tenantA, "m4", "13800000002", "")
			update(store(), func(tx projections.Tx) error { return tx.PutMembers(ctx, []projections.Member{phoneLike}) })

			got, found, err := store().FindMember(ctx, tenantA, "13800000002")
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeTrue())
			Expect(got.ID).To(Equal("m4"))
		})

		It("keeps a member's gender, last login address and referrer", func() {
			changed := alice
			changed.Gender, changed.LastIP, changed.Referrer = "female", "203.0.113.7", "m2"
			update(store(), func(tx projections.Tx) error { return tx.PutMembers(ctx, []projections.Member{changed}) })
			Expect(store().MembersByID(ctx, viewerA, []string{"m1"})).To(Equal(map[string]projections.Member{"m1": changed}))
		})

		It("reads members in a transaction, the transaction's own puts over the stored", func() {
			renamed := bob
			renamed.Name = "Bob B."
			update(store(), func(tx projections.Tx) error {
				got, err := tx.GetMembers(ctx, []string{"m1", "m2", "nobody"})
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(map[string]projections.Member{"m1": alice, "m2": bob}))
				if err := tx.PutMembers(ctx, []projections.Member{renamed}); err != nil {
					return err
				}
				got, err = tx.GetMembers(ctx, []string{"m2"})
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(map[string]projections.Member{"m2": renamed}))
				got, err = tx.GetMembers(ctx, nil)
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(BeEmpty())
				return nil
			})
			Expect(store().MembersByID(ctx, viewerA, []string{"m2"})).To(Equal(map[string]projections.Member{"m2": renamed}))
		})
	})
}
