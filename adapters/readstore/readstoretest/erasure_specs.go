package readstoretest

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

// describeErasureLookups covers what an erasure looks up: the groups whose
// notice a member wrote, its places in groups, the requests it sent, the
// notices telling of its acts, all its friends and all its items of a
// kind, stored or written earlier in the same transaction.
func describeErasureLookups(store func() projections.ReadStore) {
	Describe("an erased member's texts", func() {
		place := func(group, member, nickname string) projections.GroupMember {
			return projections.GroupMember{GroupID: group, Tenant: tenantA, Member: member, Role: "Normal", Nickname: nickname, JoinedAt: 1}
		}
		note := func(tenant, member, id, actor, content string) projections.Notice {
			return projections.Notice{Tenant: tenant, Member: member, ID: id, Kind: "FriendRequest", Tab: "friends",
				Actor: actor, ContentID: "c-" + id, Content: content, CreatedAt: 1, Position: 1}
		}
		friend := func(member, id, remark string) projections.Friend {
			return projections.Friend{Tenant: tenantA, Member: member, FriendID: id, ChatID: member + "_" + id, Remark: remark, Since: 1}
		}
		item := func(member, kind, id, doc string) projections.PersonalItem {
			return projections.PersonalItem{Tenant: tenantA, Member: member, Kind: kind, ID: id, At: 1, Doc: []byte(doc)}
		}
		noticed := func(tenant, id, by string) projections.Group {
			return projections.Group{ID: id, Tenant: tenant, Name: "G " + id, Notice: "notice of " + id, NoticeBy: by,
				Owner: "amy", SendRate: "NoLimit", MemberCount: 2, CreatedAt: 1}
		}
		BeforeEach(func() {
			update(store(), func(tx projections.Tx) error {
				return errors.Join(
					tx.PutGroups(ctx, []projections.Group{noticed(tenantA, "g1", "zed"), noticed(tenantA, "g2", "amy"),
						noticed(tenantB, "g3", "zed"), noticed(tenantA, "g5", "zed")}),
					tx.PutPersonalItems(ctx, []projections.PersonalItem{item("zed", "notes", "i1", `{"a":1}`), item("zed", "notes", "i2", `{"a":2}`),
						item("zed", "notes", "i3", `{"a":3}`), item("zed", "other", "i1", `{}`), item("amy", "notes", "i1", `{}`)}),
					tx.PutFriends(ctx, []projections.Friend{friend("zed", "amy", "Amy dear"), friend("zed", "bob", ""),
						friend("zed", "cid", "gone"), friend("amy", "zed", "Zed")}),
					tx.PutGroupMembers(ctx, []projections.GroupMember{place("g1", "zed", "zee"), place("g2", "zed", ""),
						place("g3", "zed", "gone"), place("g1", "amy", "ames")}),
					tx.PutApplies(ctx, []projections.Apply{apply(tenantA, "a1", "zed", "amy", 100), apply(tenantB, "a2", "zed", "bob", 100),
						apply(tenantA, "a3", "amy", "zed", 100)}),
					tx.PutNotices(ctx, []projections.Notice{note(tenantA, "amy", "n1", "zed", "hello"), note(tenantA, "bob", "n2", "zed", "hi"),
						note(tenantB, "amy", "n3", "zed", "other tenant"), note(tenantA, "zed", "n4", "amy", "to zed"),
						note(tenantA, "cid", "n5", "zed", "deleted")}),
				)
			})
		})

		It("finds them stored and overlaid by the transaction's own writes", func() {
			update(store(), func(tx projections.Tx) error {
				Expect(tx.PutGroups(ctx, []projections.Group{noticed(tenantA, "g4", "zed"), noticed(tenantA, "g5", "amy")})).To(Succeed())
				groups, err := tx.GroupsNoticedBy(ctx, tenantA, "zed")
				Expect(err).NotTo(HaveOccurred())
				Expect(groups).To(ConsistOf(noticed(tenantA, "g1", "zed"), noticed(tenantA, "g4", "zed")))
				stored, err := tx.GetGroups(ctx, []string{"g2"})
				Expect(err).NotTo(HaveOccurred())
				Expect(stored["g2"]).To(Equal(noticed(tenantA, "g2", "amy")), "the writer of the notice is kept")

				Expect(tx.DeleteGroupMembers(ctx, "g3", []string{"zed"})).To(Succeed())
				Expect(tx.PutGroupMembers(ctx, []projections.GroupMember{place("g4", "zed", "new"), place("g1", "zed", "zed again")})).To(Succeed())
				places, err := tx.GroupsOf(ctx, "zed")
				Expect(err).NotTo(HaveOccurred())
				Expect(places).To(ConsistOf(place("g1", "zed", "zed again"), place("g2", "zed", ""), place("g4", "zed", "new")))

				sent := apply(tenantA, "a4", "zed", "cid", 200)
				edited := apply(tenantA, "a1", "zed", "amy", 100)
				edited.Content = "changed"
				Expect(tx.PutApplies(ctx, []projections.Apply{sent, edited})).To(Succeed())
				applies, err := tx.AppliesFrom(ctx, tenantA, "zed")
				Expect(err).NotTo(HaveOccurred())
				Expect(applies).To(ConsistOf(edited, sent))

				Expect(tx.DeleteNotices(ctx, "cid", []string{"n5"})).To(Succeed())
				read := note(tenantA, "bob", "n2", "zed", "hi")
				read.Read = true
				Expect(tx.PutNotices(ctx, []projections.Notice{read, note(tenantA, "dan", "n6", "zed", "new one")})).To(Succeed())
				notices, err := tx.NoticesBy(ctx, tenantA, "zed")
				Expect(err).NotTo(HaveOccurred())
				Expect(notices).To(ConsistOf(note(tenantA, "amy", "n1", "zed", "hello"), read, note(tenantA, "dan", "n6", "zed", "new one")))

				Expect(tx.DeleteFriends(ctx, "zed", []string{"cid"})).To(Succeed())
				Expect(tx.PutFriends(ctx, []projections.Friend{friend("zed", "dan", "Dan"), friend("zed", "bob", "Bobby")})).To(Succeed())
				friends, err := tx.GetFriends(ctx, "zed", nil)
				Expect(err).NotTo(HaveOccurred())
				Expect(friends).To(Equal(map[string]projections.Friend{"amy": friend("zed", "amy", "Amy dear"),
					"bob": friend("zed", "bob", "Bobby"), "dan": friend("zed", "dan", "Dan")}))

				Expect(tx.DeletePersonalItems(ctx, "zed", "notes", []string{"i3"})).To(Succeed())
				Expect(tx.PutPersonalItems(ctx, []projections.PersonalItem{item("zed", "notes", "i2", `{"a":22}`), item("zed", "notes", "i4", `{"a":4}`)})).To(Succeed())
				items, err := tx.GetPersonalItems(ctx, "zed", "notes")
				Expect(err).NotTo(HaveOccurred())
				Expect(items).To(ConsistOf(item("zed", "notes", "i1", `{"a":1}`), item("zed", "notes", "i2", `{"a":22}`), item("zed", "notes", "i4", `{"a":4}`)))
				Expect(tx.DeletePersonalItems(ctx, "zed", "other", nil)).To(Succeed())
				items, err = tx.GetPersonalItems(ctx, "zed", "other")
				Expect(err).NotTo(HaveOccurred())
				Expect(items).To(BeEmpty())
				return nil
			})
			update(store(), func(tx projections.Tx) error {
				places, err := tx.GroupsOf(ctx, "nobody")
				Expect(err).NotTo(HaveOccurred())
				Expect(places).To(BeEmpty())
				applies, err := tx.AppliesFrom(ctx, tenantB, "zed")
				Expect(err).NotTo(HaveOccurred())
				Expect(applyIDs(applies)).To(Equal([]string{"a2"}))
				notices, err := tx.NoticesBy(ctx, tenantA, "zed")
				Expect(err).NotTo(HaveOccurred())
				Expect(notices).To(HaveLen(3), "the writes of the transaction before")
				friends, err := tx.GetFriends(ctx, "zed", nil)
				Expect(err).NotTo(HaveOccurred())
				Expect(friends).To(HaveLen(3))
				friends, err = tx.GetFriends(ctx, "nobody", nil)
				Expect(err).NotTo(HaveOccurred())
				Expect(friends).To(BeEmpty())
				items, err := tx.GetPersonalItems(ctx, "zed", "notes")
				Expect(err).NotTo(HaveOccurred())
				Expect(items).To(HaveLen(3))
				groups, err := tx.GroupsNoticedBy(ctx, tenantB, "zed")
				Expect(err).NotTo(HaveOccurred())
				Expect(groups).To(Equal([]projections.Group{noticed(tenantB, "g3", "zed")}))
				return nil
			})
		})
	})
}
