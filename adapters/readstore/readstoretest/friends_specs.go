package readstoretest

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

func describeFriendsAndAuthSessions(store func() projections.ReadStore) {
	Describe("friends", func() {
		friend := func(member, friendID string, since int64) projections.Friend {
			return projections.Friend{Tenant: tenantA, Member: member, FriendID: friendID,
				ChatID: "chat-" + member + "-" + friendID, Remark: "my " + friendID, Since: since}
		}

		It("lists a member's friends", func() {
			update(store(), func(tx projections.Tx) error {
				return tx.PutFriends(ctx, []projections.Friend{
					friend("alice", "bob", 10), friend("bob", "alice", 10), friend("alice", "carol", 20),
				})
			})

			Expect(store().Friends(ctx, "alice")).To(ConsistOf(friend("alice", "bob", 10), friend("alice", "carol", 20)))
			Expect(store().Friends(ctx, "bob")).To(ConsistOf(friend("bob", "alice", 10)))
			Expect(store().Friends(ctx, "nobody")).To(BeEmpty())
		})

		It("replaces a stored friend whole", func() {
			update(store(), func(tx projections.Tx) error {
				return tx.PutFriends(ctx, []projections.Friend{friend("alice", "bob", 10)})
			})
			renamed := friend("alice", "bob", 10)
			renamed.Remark = ""
			update(store(), func(tx projections.Tx) error { return tx.PutFriends(ctx, []projections.Friend{renamed}) })

			Expect(store().Friends(ctx, "alice")).To(Equal([]projections.Friend{renamed}))
		})

		It("keeps whether the member blocked the friend", func() {
			blocked := friend("alice", "bob", 10)
			blocked.Blocked = true
			update(store(), func(tx projections.Tx) error { return tx.PutFriends(ctx, []projections.Friend{blocked}) })

			Expect(store().Friends(ctx, "alice")).To(Equal([]projections.Friend{blocked}))
		})

		It("gets friends by id inside a batch, seeing the batch's own puts and deletes", func() {
			update(store(), func(tx projections.Tx) error {
				return tx.PutFriends(ctx, []projections.Friend{friend("alice", "bob", 10), friend("alice", "carol", 20)})
			})
			update(store(), func(tx projections.Tx) error {
				got, err := tx.GetFriends(ctx, "alice", []string{"bob", "carol", "dave"})
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(map[string]projections.Friend{
					"bob": friend("alice", "bob", 10), "carol": friend("alice", "carol", 20)}))

				Expect(tx.DeleteFriends(ctx, "alice", []string{"bob"})).To(Succeed())
				Expect(tx.PutFriends(ctx, []projections.Friend{friend("alice", "dave", 30)})).To(Succeed())
				got, err = tx.GetFriends(ctx, "alice", []string{"bob", "dave"})
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(map[string]projections.Friend{"dave": friend("alice", "dave", 30)}))
				return nil
			})

			Expect(store().Friends(ctx, "alice")).To(Equal([]projections.Friend{friend("alice", "carol", 20), friend("alice", "dave", 30)}))
		})

		It("deletes a friend and adds them back in one batch", func() {
			update(store(), func(tx projections.Tx) error {
				return tx.PutFriends(ctx, []projections.Friend{friend("alice", "bob", 10), friend("bob", "alice", 10)})
			})
			update(store(), func(tx projections.Tx) error {
				Expect(tx.DeleteFriends(ctx, "alice", []string{"bob"})).To(Succeed())
				Expect(tx.DeleteFriends(ctx, "bob", []string{"alice"})).To(Succeed())
				return tx.PutFriends(ctx, []projections.Friend{friend("alice", "bob", 40)})
			})

			Expect(store().Friends(ctx, "alice")).To(Equal([]projections.Friend{friend("alice", "bob", 40)}))
			Expect(store().Friends(ctx, "bob")).To(BeEmpty())
		})
	})

	Describe("auth sessions", func() {
		started := projections.AuthSession{ID: "s1", Tenant: tenantA, Member: "alice", Active: true, StartedAt: 100}

		It("finds a stored login session", func() {
			update(store(), func(tx projections.Tx) error {
				return tx.PutAuthSessions(ctx, []projections.AuthSession{started})
			})

			got, found, err := store().AuthSession(ctx, "s1")
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeTrue())
			Expect(got).To(Equal(started))
			_, found, err = store().AuthSession(ctx, "unknown")
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeFalse())
		})

		It("replaces a stored login session whole", func() {
			ended := started
			ended.Active, ended.EndedAt = false, 200
			for _, s := range []projections.AuthSession{started, ended} {
				update(store(), func(tx projections.Tx) error { return tx.PutAuthSessions(ctx, []projections.AuthSession{s}) })
			}

			got, found, err := store().AuthSession(ctx, "s1")
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeTrue())
			Expect(got).To(Equal(ended))
		})
	})
}
