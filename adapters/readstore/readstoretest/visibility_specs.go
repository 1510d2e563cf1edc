package readstoretest

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

// describeVisibility holds every query that takes ids to what its viewer
// may see: alice and bob of tenantA chat one to one and in group g1, gone
// was an admin of g1 until removed; a stranger of tenantA and mallory of
// tenantB are in neither.
func describeVisibility(store func() projections.ReadStore) {
	Describe("what a viewer sees", func() {
		var (
			alice    = as("alice")
			bob      = as("bob")
			stranger = as("stranger")
			gone     = as("gone")
			mallory  = projections.Viewer{Tenant: tenantB, Member: "mallory"}
		)
		outsiders := map[string]projections.Viewer{
			"a stranger of the same tenant": stranger, "another tenant's member": mallory, "a removed group member": gone,
		}
		groupMessage := func(seq uint64, from string) projections.Message {
			m := message("g1", seq, from, "")
			m.ChatType, m.GroupID = "Group", "g1"
			return m
		}
		pair, inGroup := messages("ab", 1, 3), []projections.Message{groupMessage(1, "alice"), groupMessage(2, "gone")}
		ids := func(ms []projections.Message) []string {
			out := make([]string, len(ms))
			for i, m := range ms {
				out[i] = m.ID
			}
			return out
		}
		all := append(ids(pair), ids(inGroup)...)
		groupMember := func(id, role string) projections.GroupMember {
			return projections.GroupMember{GroupID: "g1", Tenant: tenantA, Member: id, Role: role}
		}

		BeforeEach(func() {
			update(store(), func(tx projections.Tx) error {
				return tx.PutMembers(ctx, []projections.Member{
					member(tenantA, "alice", "alice", "13800000001"), member(tenantA, "bob", "bob", "13800000002"),
					member(tenantA, "stranger", "stranger", "13800000003"), member(tenantB, "mallory", "mallory", "13800000004"),
				})
			})
			update(store(), func(tx projections.Tx) error {
				if err := tx.PutGroups(ctx, []projections.Group{{ID: "g1", Tenant: tenantA, Name: "Team", HeadURL: "https://img.example/g1",
					Notice: "members only", Owner: "alice", MemberCount: 2, Pinned: []string{"g1-m1"}}}); err != nil {
					return err
				}
				if err := tx.PutGroupMembers(ctx, []projections.GroupMember{
					groupMember("alice", "Owner"), groupMember("bob", "Normal"), groupMember("gone", "Admin"),
				}); err != nil {
					return err
				}
				if err := tx.InsertMessages(ctx, append(append([]projections.Message{}, pair...), inGroup...)); err != nil {
					return err
				}
				if err := tx.PutGroupApplies(ctx, []projections.GroupApply{{ID: "r1", Tenant: tenantA, GroupID: "g1", Member: "carol",
					By: "bob", Status: "pending", CreatedAt: 1}}); err != nil {
					return err
				}
				if err := tx.PutPersonalItems(ctx, []projections.PersonalItem{{Tenant: tenantA, Member: "alice", Kind: "favourite",
					ID: "f1", At: 1, Doc: []byte(`{"content":"mine"}`)}}); err != nil {
					return err
				}
				return tx.PutNotices(ctx, []projections.Notice{{Tenant: tenantA, Member: "alice", ID: "n1", Kind: "FriendRequest",
					Tab: "friends", CreatedAt: 1, Position: 1}})
			})
			update(store(), func(tx projections.Tx) error { return tx.DeleteGroupMembers(ctx, "g1", []string{"gone"}) })
		})

		// eachOutsider runs check for every outsider.
		eachOutsider := func(check func(who string, v projections.Viewer)) {
			GinkgoHelper()
			for who, v := range outsiders {
				check(who, v)
			}
		}

		It("VisibleMessages: the parties see their chat, the members their group's; outsiders nothing", func() {
			got, err := store().VisibleMessages(ctx, alice, all)
			Expect(err).NotTo(HaveOccurred())
			Expect(ids(got)).To(Equal(all))
			got, err = store().VisibleMessages(ctx, bob, all)
			Expect(err).NotTo(HaveOccurred())
			Expect(ids(got)).To(Equal(all))
			eachOutsider(func(who string, v projections.Viewer) {
				got, err := store().VisibleMessages(ctx, v, all)
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(BeEmpty(), who)
			})
		})

		It("HistoryPage: a chat's page only for whom reads the chat; outsiders nothing", func() {
			for _, chat := range []string{"ab", "g1"} {
				page, err := store().HistoryPage(ctx, alice, chat, nil, projections.Up, 20)
				Expect(err).NotTo(HaveOccurred())
				Expect(page).NotTo(BeEmpty(), chat)
				eachOutsider(func(who string, v projections.Viewer) {
					for _, anchor := range []*uint64{nil, ptr(0), ptr(2)} {
						page, err := store().HistoryPage(ctx, v, chat, anchor, projections.Down, 20)
						Expect(err).NotTo(HaveOccurred())
						Expect(page).To(BeEmpty(), who+" in "+chat)
					}
				})
			}
		})

		It("MessageSeq: finds a message of a chat the viewer reads; for outsiders it is unknown", func() {
			for _, id := range []string{pair[1].ID, inGroup[1].ID} {
				chatID, seq, found, err := store().MessageSeq(ctx, bob, id)
				Expect(err).NotTo(HaveOccurred())
				Expect(found).To(BeTrue(), id)
				Expect(chatID).NotTo(BeEmpty())
				Expect(seq).To(Equal(uint64(2)))
				eachOutsider(func(who string, v projections.Viewer) {
					chatID, seq, found, err := store().MessageSeq(ctx, v, id)
					Expect(err).NotTo(HaveOccurred())
					Expect([]any{chatID, seq, found}).To(Equal([]any{"", uint64(0), false}), who+": "+id)
				})
			}
		})

		It("GroupMembers: the roster only for the group's current members; outsiders nothing", func() {
			ms, err := store().GroupMembers(ctx, bob, "g1")
			Expect(err).NotTo(HaveOccurred())
			Expect(ms).To(HaveLen(2))
			eachOutsider(func(who string, v projections.Viewer) {
				ms, err := store().GroupMembers(ctx, v, "g1")
				Expect(err).NotTo(HaveOccurred())
				Expect(ms).To(BeEmpty(), who)
			})
		})

		It("GroupApplies: a group's join requests only for its current owner and admins", func() {
			got, total, err := store().GroupApplies(ctx, alice, 1, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(total).To(Equal(1))
			Expect(got).To(HaveLen(1))
			for who, v := range map[string]projections.Viewer{"a Normal member": bob, "a stranger of the same tenant": stranger,
				"another tenant's member": mallory, "a removed admin": gone} {
				got, total, err := store().GroupApplies(ctx, v, 1, 10)
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(BeEmpty(), who)
				Expect(total).To(BeZero(), who)
			}
		})

		It("PersonalItemsByID: a member's items only for itself", func() {
			items, err := store().PersonalItemsByID(ctx, alice, "favourite", []string{"f1"})
			Expect(err).NotTo(HaveOccurred())
			Expect(items).To(HaveLen(1))
			eachOutsider(func(who string, v projections.Viewer) {
				items, err := store().PersonalItemsByID(ctx, v, "favourite", []string{"f1"})
				Expect(err).NotTo(HaveOccurred())
				Expect(items).To(BeEmpty(), who)
			})
			items, err = store().PersonalItemsByID(ctx, projections.Viewer{Tenant: tenantB, Member: "alice"}, "favourite", []string{"f1"})
			Expect(err).NotTo(HaveOccurred())
			Expect(items).To(BeEmpty(), "the member's id in another tenant")
		})

		It("NoticesByID: a member's notices only for itself", func() {
			ns, err := store().NoticesByID(ctx, alice, []string{"n1"})
			Expect(err).NotTo(HaveOccurred())
			Expect(ns).To(HaveLen(1))
			eachOutsider(func(who string, v projections.Viewer) {
				ns, err := store().NoticesByID(ctx, v, []string{"n1"})
				Expect(err).NotTo(HaveOccurred())
				Expect(ns).To(BeEmpty(), who)
			})
			ns, err = store().NoticesByID(ctx, projections.Viewer{Tenant: tenantB, Member: "alice"}, []string{"n1"})
			Expect(err).NotTo(HaveOccurred())
			Expect(ns).To(BeEmpty(), "the member's id in another tenant")
		})

		It("MembersByID: a member's public card for its tenant only", func() {
			for _, v := range []projections.Viewer{alice, stranger, gone} {
				got, err := store().MembersByID(ctx, v, []string{"alice", "bob", "mallory"})
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(HaveLen(2), v.Member)
				Expect(got).NotTo(HaveKey("mallory"))
			}
			got, err := store().MembersByID(ctx, mallory, []string{"alice", "bob", "stranger"})
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(BeEmpty())
		})

		It("Group: the whole group for its current members, its card for the rest of its tenant, nothing for others", func() {
			g, found, err := store().Group(ctx, bob, "g1")
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeTrue())
			Expect([]any{g.Notice, g.Pinned, g.MemberCount}).To(Equal([]any{"members only", []string{"g1-m1"}, 2}))
			for _, v := range []projections.Viewer{stranger, gone} {
				g, found, err := store().Group(ctx, v, "g1")
				Expect(err).NotTo(HaveOccurred())
				Expect(found).To(BeTrue(), v.Member)
				Expect(g).To(Equal(projections.Group{ID: "g1", Tenant: tenantA, Name: "Team", HeadURL: "https://img.example/g1"}), v.Member)
			}
			g, found, err = store().Group(ctx, mallory, "g1")
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeFalse())
			Expect(g).To(Equal(projections.Group{}))
		})
	})
}
