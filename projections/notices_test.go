package projections_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/domain/group"
	"github.com/eventchat/eventchat/domain/notice"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("The notices projector", func() {
	const (
		pair12 = "x0001.friendship-1_2"
		pair13 = "x0001.friendship-1_3"
		group9 = "x0001.group-9"
	)
	// The notice member got from the event at position (1-based) of l.
	id := func(l *log, position int, member string) string { return notice.ID(l.envs[position-1].ID, member) }
	listed := func(store projections.ReadStore, member, tab string) []string {
		GinkgoHelper()
		ns, _, err := store.Notices(ctx, member, tab, 1, 100)
		Expect(err).NotTo(HaveOccurred())
		out := []string{}
		for _, n := range ns {
			flag := "Unread"
			if n.Read {
				flag = "Read"
			}
			out = append(out, n.Kind+" from "+n.Actor+" about "+n.ContentID+" "+flag)
		}
		return out
	}
	sources := func() *log {
		return newLog().
			add(pair12, &friend.Requested{ApplyID: "a1", From: "1", To: "2", Content: "hi", At: 10}).
			add(pair13, &friend.Requested{ApplyID: "a2", From: "3", To: "1", At: 11}).
			add(pair12, &friend.RequestAccepted{ApplyID: "a1", By: "2", At: 12}).
			add(pair13, &friend.RequestRejected{ApplyID: "a2", By: "1", At: 13}).
			add(group9, &group.Created{GroupID: "9", Name: "team", Owner: "1", Members: []string{"2"}, At: 14}).
			add(group9, &group.MembersAdded{Members: []string{"3"}, By: "2", At: 15}).
			add(group9, &group.OwnershipTransferred{From: "1", To: "2", At: 16}).
			add(group9, &group.MemberLeft{Member: "3", At: 17})
	}

	It("gives each act's notice to the member it tells, Unread, and pushes that member's counts (44)", func() {
		store := openStore()
		l := sources()
		ds := fold(store, projections.Notices{}, l.envs, 1)
		Expect(listed(store, "1", "")).To(Equal([]string{
			"FriendAccepted from 2 about a1 Unread", "FriendRequest from 3 about a2 Unread"}))
		Expect(listed(store, "2", "")).To(Equal([]string{
			"GroupOwner from 1 about 9 Unread", "GroupInvite from 1 about 9 Unread", "FriendRequest from 1 about a1 Unread"}))
		Expect(listed(store, "3", "")).To(Equal([]string{
			"GroupInvite from 2 about 9 Unread", "FriendRefused from 1 about a2 Unread"}))
		Expect(listed(store, "2", "groups")).To(HaveLen(2))
		Expect(listed(store, "2", "friends")).To(HaveLen(1))
		Expect(listed(store, "2", "system")).To(BeEmpty())

		ns, _, err := store.Notices(ctx, "2", "", 1, 10)
		Expect(err).NotTo(HaveOccurred())
		Expect(ns[2]).To(Equal(projections.Notice{Tenant: "x0001", Member: "2", ID: id(l, 1, "2"), Kind: "FriendRequest", Tab: "friends",
			Actor: "1", ContentID: "a1", Content: "hi", CreatedAt: 10, Position: 1}))

		Expect(cmds(ds)).To(Equal([]int{44, 44, 44, 44, 44, 44, 44}))
		Expect(ds[0].To).To(Equal([]string{"2"}))
		Expect(string(encoded(ds[0]))).To(MatchJSON(`{"total":1,"friend":1,"system":0,"group":0,"position":1}`))
		Expect(ds[6].To).To(Equal([]string{"2"}))
		Expect(string(encoded(ds[6]))).To(MatchJSON(`{"total":3,"friend":1,"system":0,"group":2,"position":7}`))
		Expect(store.NoticeCounts(ctx, "2")).To(Equal(projections.NoticeCounts{Total: 3, Friend: 1, Group: 2}))
	})

	It("reads single notices, all up to a time, and deletes them, pushing the new counts", func() {
		store := openStore()
		l := sources()
		inbox2 := "x0001.inbox-2"
		l.add(inbox2, &notice.NoticesRead{Member: "2", IDs: []string{id(l, 1, "2"), "1234567890123456789"}, At: 20})
		l.add(inbox2, &notice.NoticesDeleted{Member: "2", IDs: []string{id(l, 7, "2")}, At: 21})
		l.add(pair12, &friend.Requested{ApplyID: "a3", From: "1", To: "2", At: 40})
		l.add(inbox2, &notice.NoticesRead{Member: "2", All: true, At: 30})
		whole, single := openStore(), store
		for _, s := range []projections.ReadStore{whole, single} {
			n := 0
			if s == single {
				n = 1
			}
			ds := fold(s, projections.Notices{}, l.envs, n)
			Expect(listed(s, "2", "")).To(Equal([]string{
				"FriendRequest from 1 about a3 Unread", "GroupInvite from 1 about 9 Read", "FriendRequest from 1 about a1 Read"}))
			Expect(s.NoticeCounts(ctx, "2")).To(Equal(projections.NoticeCounts{Total: 1, Friend: 1}))
			var last projections.Delta
			for _, d := range ds {
				if d.To[0] == "2" {
					last = d
				}
			}
			Expect(last.Cmd).To(Equal(44))
			Expect(string(encoded(last))).To(MatchJSON(`{"total":1,"friend":1,"system":0,"group":0,"position":12}`))
		}
		Expect(listed(store, "1", "")).To(HaveLen(2))
	})

	It("ends the same whether the log is folded whole or one event a batch, and folding it again changes nothing", func() {
		l := sources()
		l.add("x0001.inbox-1", &notice.NoticesRead{Member: "1", All: true, At: 100})
		whole, single := openStore(), openStore()
		fold(whole, projections.Notices{}, l.envs, 0)
		fold(single, projections.Notices{}, l.envs, 1)
		fold(single, projections.Notices{}, l.envs, 3)
		for _, m := range []string{"1", "2", "3"} {
			Expect(listed(single, m, "")).To(Equal(listed(whole, m, "")))
			want, err := whole.NoticeCounts(ctx, m)
			Expect(err).NotTo(HaveOccurred())
			Expect(single.NoticeCounts(ctx, m)).To(Equal(want))
		}
		Expect(whole.NoticeCounts(ctx, "1")).To(Equal(projections.NoticeCounts{}))
	})
})
