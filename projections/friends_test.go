package projections_test

import (
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
			ms, err := store.MembersByID(ctx, []string{"7"})
			Expect(err).NotTo(HaveOccurred())
			Expect(ms["7"].Level).To(Equal(member.LevelSystem))
			Expect(ms["7"].Account).To(Equal("alice01"))
		}
	})
})
