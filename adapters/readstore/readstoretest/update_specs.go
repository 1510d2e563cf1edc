package readstoretest

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

func describeUpdate(store func() projections.ReadStore) {
	Describe("Update and checkpoints", func() {
		It("starts with no checkpoints", func() {
			Expect(store().Checkpoints(ctx)).To(BeEmpty())
		})

		It("commits the writes and the checkpoints of a batch together", func() {
			update(store(), func(tx projections.Tx) error {
				Expect(tx.PutMembers(ctx, []projections.Member{member(tenantA, "m1", "alice", "")})).To(Succeed())
				Expect(tx.SetCheckpoint(ctx, "members.v1", 5)).To(Succeed())
				return tx.SetCheckpoint(ctx, "history.v1", 7)
			})

			Expect(store().Checkpoints(ctx)).To(Equal(map[string]uint64{"members.v1": 5, "history.v1": 7}))
			Expect(store().MembersByID(ctx, viewerA, []string{"m1"})).To(HaveKey("m1"))
		})

		It("replaces a projector's checkpoint", func() {
			for _, pos := range []uint64{5, 9, 1 << 40} {
				update(store(), func(tx projections.Tx) error { return tx.SetCheckpoint(ctx, "history.v1", pos) })
			}

			Expect(store().Checkpoints(ctx)).To(Equal(map[string]uint64{"history.v1": 1 << 40}))
		})

		It("rolls every write and checkpoint back when fn fails, and returns its error", func() {
			update(store(), func(tx projections.Tx) error { return tx.SetCheckpoint(ctx, "history.v1", 3) })
			boom := errors.New("boom")

			err := store().Update(ctx, func(tx projections.Tx) error {
				Expect(tx.SetCheckpoint(ctx, "history.v1", 10)).To(Succeed())
				Expect(tx.SetCheckpoint(ctx, "sessions.v1", 10)).To(Succeed())
				Expect(tx.PutMembers(ctx, []projections.Member{member(tenantA, "m1", "alice", "")})).To(Succeed())
				Expect(tx.InsertMessages(ctx, messages("c1", 1, 3))).To(Succeed())
				Expect(tx.PutSessions(ctx, []projections.Session{session("alice", "bob", 1)})).To(Succeed())
				Expect(tx.PutApplies(ctx, []projections.Apply{apply(tenantA, "a1", "alice", "bob", 1)})).To(Succeed())
				Expect(tx.PutFriends(ctx, []projections.Friend{{Tenant: tenantA, Member: "alice", FriendID: "bob"}})).To(Succeed())
				Expect(tx.PutAuthSessions(ctx, []projections.AuthSession{{ID: "s1", Tenant: tenantA, Member: "alice"}})).To(Succeed())
				return boom
			})

			Expect(err).To(MatchError(boom))
			Expect(store().Checkpoints(ctx)).To(Equal(map[string]uint64{"history.v1": 3}))
			Expect(store().MembersByID(ctx, viewerA, []string{"m1"})).To(BeEmpty())
			Expect(store().HistoryPage(ctx, as("alice"), "c1", nil, projections.Up, 20)).To(BeEmpty())
			Expect(store().Sessions(ctx, "alice")).To(BeEmpty())
			_, total, err := store().Applies(ctx, "alice", 1, 20)
			Expect(err).NotTo(HaveOccurred())
			Expect(total).To(BeZero())
			Expect(store().Friends(ctx, "alice")).To(BeEmpty())
			_, found, err := store().AuthSession(ctx, "s1")
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeFalse())
		})

		It("lets a batch read its own writes before it commits", func() {
			update(store(), func(tx projections.Tx) error {
				Expect(tx.InsertMessages(ctx, messages("c1", 1, 2))).To(Succeed())
				chatID, seq, found, err := tx.LookupMessage(ctx, "c1-m2")
				Expect(err).NotTo(HaveOccurred())
				Expect([]any{chatID, seq, found}).To(Equal([]any{"c1", uint64(2), true}))
				Expect(tx.CountUnread(ctx, "c1", "bob")).To(Equal(1))

				s := session("alice", "bob", 10)
				Expect(tx.PutSessions(ctx, []projections.Session{s})).To(Succeed())
				Expect(tx.GetSessions(ctx, []projections.SessionKey{s.Key()})).To(Equal(map[projections.SessionKey]projections.Session{s.Key(): s}))

				a := apply(tenantA, "a1", "alice", "bob", 1)
				Expect(tx.PutApplies(ctx, []projections.Apply{a})).To(Succeed())
				got, found, err := tx.GetApply(ctx, tenantA, "a1")
				Expect(err).NotTo(HaveOccurred())
				Expect(found).To(BeTrue())
				Expect(got).To(Equal(a))
				return nil
			})
		})
	})
}
