package readstoretest

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

func describeNotices(store func() projections.ReadStore) {
	Describe("notices", func() {
		notice := func(member, id, tab string, position uint64, read bool) projections.Notice {
			return projections.Notice{Tenant: tenantA, Member: member, ID: id, Kind: "Kind-" + tab, Tab: tab, Actor: "actor-" + id,
				ContentID: "content-" + id, Content: "text of " + id, Read: read, CreatedAt: int64(position) * 10, Position: position}
		}
		put := func(ns ...projections.Notice) {
			update(store(), func(tx projections.Tx) error { return tx.PutNotices(ctx, ns) })
		}
		listed := func(member, tab string, page, size int) ([]string, int) {
			GinkgoHelper()
			ns, total, err := store().Notices(ctx, member, tab, page, size)
			Expect(err).NotTo(HaveOccurred())
			out := []string{}
			for _, n := range ns {
				out = append(out, n.ID)
			}
			return out, total
		}
		BeforeEach(func() {
			put(notice("alice", "1", "friends", 1, false), notice("alice", "2", "groups", 2, true),
				notice("alice", "3", "friends", 3, false), notice("alice", "4", "system", 4, false),
				notice("bob", "1", "friends", 5, false))
		})

		It("pages a member's notices of a tab, or of all, newest first, and counts them", func() {
			ids, total := listed("alice", "", 1, 3)
			Expect(ids).To(Equal([]string{"4", "3", "2"}))
			Expect(total).To(Equal(4))
			ids, _ = listed("alice", "all", 2, 3)
			Expect(ids).To(Equal([]string{"1"}))
			ids, total = listed("alice", "friends", 1, 10)
			Expect(ids).To(Equal([]string{"3", "1"}))
			Expect(total).To(Equal(2))
			ids, total = listed("alice", "groups", 2, 10)
			Expect(ids).To(BeEmpty())
			Expect(total).To(Equal(1))
			ids, total = listed("carol", "", 1, 10)
			Expect(ids).To(BeEmpty())
			Expect(total).To(BeZero())
		})

		It("keeps every field and finds a member's notices by id in the order asked", func() {
			ns, err := store().NoticesByID(ctx, as("alice"), []string{"3", "9", "2"})
			Expect(err).NotTo(HaveOccurred())
			Expect(ns).To(Equal([]projections.Notice{notice("alice", "3", "friends", 3, false), notice("alice", "2", "groups", 2, true)}))
			ns, err = store().NoticesByID(ctx, as("carol"), []string{"1"})
			Expect(err).NotTo(HaveOccurred())
			Expect(ns).To(BeEmpty())
		})

		It("keeps the detail of a verification and of a join request, in every read", func() {
			verification := notice("alice", "7", "system", 7, false)
			verification.Detail = projections.NoticeDetail{Code: "123456", ValidMinutes: 10, System: "Windows"}
			join := notice("alice", "8", "groups", 8, true)
			join.Detail = projections.NoticeDetail{RequestID: "r1", Member: "carol", Status: "accepted"}
			put(verification, join)
			Expect(store().NoticesByID(ctx, as("alice"), []string{"7", "8"})).To(Equal([]projections.Notice{verification, join}))
			ns, _, err := store().Notices(ctx, "alice", "", 1, 2)
			Expect(err).NotTo(HaveOccurred())
			Expect(ns).To(Equal([]projections.Notice{join, verification}))
			update(store(), func(tx projections.Tx) error {
				got, err := tx.GetNotices(ctx, "alice", []string{"8"})
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(map[string]projections.Notice{"8": join}))
				unread, err := tx.UnreadNotices(ctx, "alice")
				Expect(err).NotTo(HaveOccurred())
				Expect(unread).To(ContainElement(verification))
				return nil
			})
		})

		It("counts a member's unread notices in all and by tab", func() {
			Expect(store().NoticeCounts(ctx, "alice")).To(Equal(projections.NoticeCounts{Total: 3, Friend: 2, System: 1}))
			Expect(store().NoticeCounts(ctx, "carol")).To(Equal(projections.NoticeCounts{}))
		})

		It("reads notices by id and a member's unread ones inside an update, its own writes included", func() {
			update(store(), func(tx projections.Tx) error {
				got, err := tx.GetNotices(ctx, "alice", []string{"1", "2", "9"})
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(map[string]projections.Notice{
					"1": notice("alice", "1", "friends", 1, false), "2": notice("alice", "2", "groups", 2, true)}))
				Expect(tx.PutNotices(ctx, []projections.Notice{notice("alice", "1", "friends", 1, true), notice("alice", "5", "groups", 6, false)})).To(Succeed())
				Expect(tx.DeleteNotices(ctx, "alice", []string{"4"})).To(Succeed())
				unread, err := tx.UnreadNotices(ctx, "alice")
				Expect(err).NotTo(HaveOccurred())
				Expect(unread).To(ConsistOf(notice("alice", "3", "friends", 3, false), notice("alice", "5", "groups", 6, false)))
				got, err = tx.GetNotices(ctx, "alice", []string{"1", "4"})
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(map[string]projections.Notice{"1": notice("alice", "1", "friends", 1, true)}))
				return nil
			})
			Expect(store().NoticeCounts(ctx, "alice")).To(Equal(projections.NoticeCounts{Total: 2, Friend: 1, Group: 1}))
			ids, _ := listed("alice", "", 1, 10)
			Expect(ids).To(Equal([]string{"5", "3", "2", "1"}))
		})

		It("deletes only the member's notices named", func() {
			update(store(), func(tx projections.Tx) error { return tx.DeleteNotices(ctx, "alice", []string{"1", "2", "9"}) })
			ids, _ := listed("alice", "", 1, 10)
			Expect(ids).To(Equal([]string{"4", "3"}))
			ids, _ = listed("bob", "", 1, 10)
			Expect(ids).To(Equal([]string{"1"}))
		})
	})
}
