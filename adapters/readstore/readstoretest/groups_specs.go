package readstoretest

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

func describeGroups(store func() projections.ReadStore) {
	Describe("groups", func() {
		g1 := projections.Group{ID: "g1", Tenant: tenantA, Name: "Team", Notice: "hi", Owner: "o", AllowLeave: true,
			SendRate: "NoLimit", MemberCount: 3, CreatedAt: 10}
		member := func(groupID, id, role string, joined int64) projections.GroupMember {
			return projections.GroupMember{GroupID: groupID, Tenant: tenantA, Member: id, Role: role, JoinedAt: joined}
		}
		names := func(ms []projections.GroupMember) []string {
			out := []string{}
			for _, m := range ms {
				out = append(out, m.GroupID+"/"+m.Member+":"+m.Role)
			}
			return out
		}
		BeforeEach(func() {
			update(store(), func(tx projections.Tx) error {
				if err := tx.PutGroups(ctx, []projections.Group{g1, {ID: "g2", Tenant: tenantA, Name: "Two", Owner: "b"}}); err != nil {
					return err
				}
				return tx.PutGroupMembers(ctx, []projections.GroupMember{
					member("g1", "n2", "Normal", 12), member("g1", "a", "Admin", 11), member("g1", "o", "Owner", 10),
					member("g1", "n1", "Normal", 11), member("g2", "b", "Owner", 5), member("g2", "n1", "Normal", 6),
				})
			})
		})

		It("reads a group back, within a transaction and after", func() {
			g, ok, err := store().Group(ctx, as("o"), "g1")
			Expect(err).NotTo(HaveOccurred())
			Expect(ok).To(BeTrue())
			Expect(g).To(Equal(g1))
			_, ok, err = store().Group(ctx, viewerA, "nope")
			Expect(err).NotTo(HaveOccurred())
			Expect(ok).To(BeFalse())
			update(store(), func(tx projections.Tx) error {
				changed := g1
				changed.Name, changed.MuteAll, changed.MuteAllUntil, changed.Pinned = "Renamed", true, 1_800_000_000_000, []string{"m2", "m1"}
				Expect(tx.PutGroups(ctx, []projections.Group{changed})).To(Succeed())
				found, err := tx.GetGroups(ctx, []string{"g1", "g2", "nope"})
				Expect(err).NotTo(HaveOccurred())
				Expect(found).To(HaveLen(2))
				Expect(found["g1"].Name).To(Equal("Renamed"))
				Expect(found["g1"].Tenant).To(Equal(tenantA))
				return nil
			})
			g, _, _ = store().Group(ctx, as("o"), "g1")
			Expect(g.MuteAll).To(BeTrue())
			Expect(g.MuteAllUntil).To(Equal(int64(1_800_000_000_000)))
			Expect(g.Pinned).To(Equal([]string{"m2", "m1"}))
		})

		It("lists a group's members owner first, then admins, then by joining time", func() {
			ms, err := store().GroupMembers(ctx, projections.Viewer{Tenant: tenantA, Member: "o"}, "g1")
			Expect(err).NotTo(HaveOccurred())
			Expect(names(ms)).To(Equal([]string{"g1/o:Owner", "g1/a:Admin", "g1/n1:Normal", "g1/n2:Normal"}))
			ms, err = store().MemberGroups(ctx, "n1")
			Expect(err).NotTo(HaveOccurred())
			Expect(names(ms)).To(Equal([]string{"g2/n1:Normal", "g1/n1:Normal"}))
		})

		It("changes and deletes members, seeing the transaction's own writes", func() {
			update(store(), func(tx projections.Tx) error {
				promoted := member("g1", "n1", "Admin", 11)
				promoted.Nickname, promoted.MutedUntil = "Nick", 99
				Expect(tx.PutGroupMembers(ctx, []projections.GroupMember{promoted})).To(Succeed())
				Expect(tx.DeleteGroupMembers(ctx, "g1", []string{"n2", "a"})).To(Succeed())
				Expect(tx.PutGroupMembers(ctx, []projections.GroupMember{member("g1", "a", "Normal", 20)})).To(Succeed())
				all, err := tx.GetGroupMembers(ctx, "g1", nil)
				Expect(err).NotTo(HaveOccurred())
				Expect(all).To(HaveLen(3))
				Expect(all).NotTo(HaveKey("n2"))
				some, err := tx.GetGroupMembers(ctx, "g1", []string{"n1", "n2"})
				Expect(err).NotTo(HaveOccurred())
				Expect(some).To(HaveLen(1))
				Expect(some["n1"].Nickname).To(Equal("Nick"))
				return nil
			})
			ms, err := store().GroupMembers(ctx, projections.Viewer{Tenant: tenantA, Member: "o"}, "g1")
			Expect(err).NotTo(HaveOccurred())
			Expect(names(ms)).To(Equal([]string{"g1/o:Owner", "g1/n1:Admin", "g1/a:Normal"}))
			Expect(ms[1].MutedUntil).To(Equal(int64(99)))
		})
	})
}
