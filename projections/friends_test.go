package projections_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("The friends projector", func() {
	It("lists requests and, once accepted, friends on both sides", func() {
		store := openStore()
		l := newLog().
			add("x0001.friendship-1_2", &friend.Requested{ApplyID: "a1", From: "1", To: "2", Content: "hi", At: 10}).
			add("x0001.friendship-1_3", &friend.Requested{ApplyID: "a2", From: "1", To: "3", At: 11}).
			add("x0001.friendship-1_2", &friend.RequestAccepted{ApplyID: "a1", By: "2", At: 20}).
			add("x0001.friendship-1_3", &friend.RequestRejected{ApplyID: "a2", By: "3", At: 21})
		ds := fold(store, projections.Friends{}, l.envs[:1], 0)
		ds = append(ds, fold(store, projections.Friends{}, l.envs[1:], 0)...)
		Expect(cmds(ds)).To(Equal([]int{26, 26, 26, 24, 24, 26}))

		applies, total, err := store.Applies(ctx, "1", 1, 99)
		Expect(err).NotTo(HaveOccurred())
		Expect(total).To(Equal(2))
		Expect(applies[0].ID).To(Equal("a2"))
		Expect(applies[0].Status).To(Equal(friend.StatusRejected))
		Expect(applies[1].Status).To(Equal(friend.StatusAccepted))
		pair, ok, err := store.PairOfApply(ctx, "x0001", "a1")
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		Expect(pair).To(Equal("1_2"))

		for _, side := range [][2]string{{"1", "2"}, {"2", "1"}} {
			fs, err := store.Friends(ctx, side[0])
			Expect(err).NotTo(HaveOccurred())
			Expect(fs).To(HaveLen(1))
			Expect(fs[0].FriendID).To(Equal(side[1]))
		}
		fs, _ := store.Friends(ctx, "3")
		Expect(fs).To(BeEmpty())
	})

	// The same changes land alike whether each event is a batch of its own
	// or all are one batch.
	for _, batch := range []int{1, 0} {
		It(fmt.Sprintf("keeps each side's remark and block, and drops both rows on deletion (batches of %d)", batch), func() {
			store := openStore()
			l := newLog().
				add("x0001.friendship-1_2", &friend.Requested{ApplyID: "a1", From: "1", To: "2", At: 10}).
				add("x0001.friendship-1_2", &friend.RequestAccepted{ApplyID: "a1", By: "2", At: 20}).
				add("x0001.friendship-1_2", &friend.Remarked{By: "1", Remark: "Bobby", At: 30}).
				add("x0001.friendship-1_2", &friend.Blocked{By: "2", At: 31})
			ds := fold(store, projections.Friends{}, l.envs, batch)
			Expect(cmds(ds)).To(Equal([]int{26, 26, 24, 24, 48, 48}))
			Expect(ds[4].To).To(Equal([]string{"1"}), "a remark is news to its author's devices only")
			Expect(ds[5].To).To(Equal([]string{"2"}))
			Expect(store.Friends(ctx, "1")).To(Equal([]projections.Friend{
				{Tenant: "x0001", Member: "1", FriendID: "2", ChatID: "1_2", Remark: "Bobby", Since: 20}}))
			Expect(store.Friends(ctx, "2")).To(Equal([]projections.Friend{
				{Tenant: "x0001", Member: "2", FriendID: "1", ChatID: "1_2", Since: 20, Blocked: true}}))

			l = l.add("x0001.friendship-1_2", &friend.Unblocked{By: "2", At: 40}).
				add("x0001.friendship-1_2", &friend.Removed{By: "1", At: 50}).
				add("x0001.friendship-1_2", &friend.Remarked{By: "1", Remark: "late", At: 51})
			ds = fold(store, projections.Friends{}, l.envs[4:], batch)
			Expect(cmds(ds)).To(Equal([]int{48, 25, 25}), "nothing to remark once deleted")
			Expect(ds[1].To).To(Equal([]string{"1"}))
			Expect(ds[2].To).To(Equal([]string{"2"}))
			Expect(store.Friends(ctx, "1")).To(BeEmpty())
			Expect(store.Friends(ctx, "2")).To(BeEmpty())
		})
	}
})

var _ = Describe("The members and auth projectors", func() {
	It("keep the directory and the login sessions, pushing 31 to an ended session", func() {
		store := openStore()
		l := newLog().
			add("x0001.member-7", &member.Registered{MemberID: "7", Phone: "13800000000", Account: "alice01", Name: "alice01", Level: "Normal", At: 5}).
			add("x0001.member-7", &member.SessionStarted{SessionID: "s1", At: 6}).
			add("x0001.member-7", &member.SessionEnded{SessionID: "s1", Reason: member.EndLogout, At: 7})
		fold(store, projections.Members{}, l.envs, 0)
		ds := fold(store, projections.Auth{}, l.envs, 0)
		Expect(cmds(ds)).To(Equal([]int{31}))
		Expect(ds[0].Session).To(Equal("s1"))
		Expect(ds[0].To).To(Equal([]string{"7"}))

		m, found, err := store.FindMember(ctx, "x0001", "13800000000")
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeTrue())
		Expect(m.ID).To(Equal("7"))
		_, found, _ = store.FindMember(ctx, "x0002", "alice01")
		Expect(found).To(BeFalse())
		s, found, err := store.AuthSession(ctx, "s1")
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeTrue())
		Expect(s.Active).To(BeFalse())
		Expect(s.Member).To(Equal("7"))
	})
})

var _ = Describe("Deleted friend requests", func() {
	It("leave the list of the member who deleted them only, telling that member's devices (26)", func() {
		store := openStore()
		l := newLog().
			add("x0001.friendship-1_2", &friend.Requested{ApplyID: "a1", From: "1", To: "2", At: 10}).
			add("x0001.friendship-1_3", &friend.Requested{ApplyID: "a2", From: "3", To: "1", At: 11}).
			add("x0001.friendship-1_2", &friend.RequestDeleted{ApplyID: "a1", By: "2", At: 12}).
			add("x0001.friendship-1_3", &friend.RequestDeleted{ApplyID: "a2", By: "1", At: 13})
		ds := fold(store, projections.Friends{}, l.envs, 0)
		Expect(cmds(ds)).To(Equal([]int{26, 26, 26, 26}))
		Expect(ds[2].To).To(Equal([]string{"2"}))

		ids := func(member string) []string {
			as, total, err := store.Applies(ctx, member, 1, 99)
			Expect(err).NotTo(HaveOccurred())
			Expect(as).To(HaveLen(total))
			out := []string{}
			for _, a := range as {
				out = append(out, a.ID)
			}
			return out
		}
		Expect(ids("1")).To(Equal([]string{"a1"}))
		Expect(ids("2")).To(BeEmpty())
		Expect(ids("3")).To(Equal([]string{"a2"}))
	})
})

var _ = Describe("The members projector and level changes", func() {
	It("changes a member's level, in the batch of its registration or a later one, pushing 46", func() {
		l := newLog().
			add("x0001.member-7", &member.Registered{MemberID: "7", Account: "alice01", Name: "alice01", Level: "Normal", At: 5}).
			add("x0001.member-7", &member.LevelChanged{Level: member.LevelAdmin, At: 6}).
			add("x0001.member-7", &member.Banned{At: 7}).
			add("x0001.member-7", &member.LevelChanged{Level: member.LevelSystem, At: 8})
		for _, batch := range []int{0, 1} {
			store := openStore()
			ds := fold(store, projections.Members{}, l.envs, batch)
			Expect(cmds(ds)).To(Equal([]int{46, 46}))
			Expect(ds[1].To).To(Equal([]string{"7"}))
			ms, err := store.MembersByID(ctx, as("7"), []string{"7"})
			Expect(err).NotTo(HaveOccurred())
			Expect(ms["7"].Level).To(Equal(member.LevelSystem))
			Expect(ms["7"].Account).To(Equal("alice01"))
		}
	})
})
