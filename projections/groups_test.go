package projections_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/group"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("The groups projector", func() {
	const stream = "x0001.group-g1"
	name, rate := "Renamed", group.FivePerMinute
	l := newLog().
		add(stream, &group.Created{GroupID: "g1", Name: "Team", Owner: "o", Members: []string{"a", "b"}, At: 1}).
		add(stream, &group.MembersAdded{Members: []string{"c", "d"}, By: "a", At: 2}).
		add(stream, &group.MemberRoleChanged{Member: "a", Role: group.Admin, By: "o", At: 3}).
		add(stream, &group.MemberRemoved{Member: "b", By: "a", At: 4}).
		add(stream, &group.MemberLeft{Member: "d", At: 5}).
		add(stream, &group.MemberMuted{Member: "c", Muted: true, Until: 99, By: "a", At: 6}).
		add(stream, &group.NicknameSet{Member: "c", Nickname: "Cee", At: 7}).
		add(stream, &group.Modified{Name: &name, SendRate: &rate, By: "a", At: 8}).
		add(stream, &group.OwnershipTransferred{From: "o", To: "c", At: 9})
	members := func(store projections.ReadStore) []string {
		ms, err := store.GroupMembers(ctx, projections.Auditor("x0001"), "g1")
		Expect(err).NotTo(HaveOccurred())
		var out []string
		for _, m := range ms {
			out = append(out, m.Member+":"+m.Role+":"+m.Nickname)
		}
		return out
	}

	It("folds a group's life into the group and its members, whatever the batch boundaries", func() {
		whole, single := openStore(), openStore()
		ds := fold(whole, projections.Groups{}, l.envs, 0)
		fold(single, projections.Groups{}, l.envs, 1)
		Expect(members(whole)).To(Equal([]string{"c:Owner:Cee", "a:Admin:", "o:Admin:"}))
		Expect(members(single)).To(Equal(members(whole)))
		g, ok, err := whole.Group(ctx, as("a"), "g1")
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		Expect([]any{g.Name, g.SendRate, g.Owner, g.MemberCount}).To(Equal([]any{"Renamed", "FivePerMinute", "c", 3}))
		gs, _, _ := single.Group(ctx, as("a"), "g1")
		Expect(gs).To(Equal(g))

		Expect(cmds(ds)[:3]).To(Equal([]int{22, 22, 23}))
		Expect(ds[0].To).To(ConsistOf("o", "a", "b"))
		Expect(ds[1].To).To(ConsistOf("c", "d"))
		Expect(ds[2].To).To(ConsistOf("o", "a", "b", "c", "d"))
		var left []string
		for _, d := range ds {
			if d.Cmd == 21 {
				left = append(left, d.To...)
			}
		}
		Expect(left).To(Equal([]string{"b", "d"}))
	})

	It("tells every member of a dissolved group, and keeps it marked dissolved", func() {
		store := openStore()
		ds := fold(store, projections.Groups{}, newLog().
			add(stream, &group.Created{GroupID: "g1", Name: "Team", Owner: "o", Members: []string{"a"}, At: 1}).
			add(stream, &group.Dissolved{By: "o", At: 2}).envs, 0)
		Expect(ds[len(ds)-1].Cmd).To(Equal(21))
		Expect(ds[len(ds)-1].To).To(ConsistOf("o", "a"))
		g, _, _ := store.Group(ctx, as("a"), "g1")
		Expect(g.Dissolved).To(BeTrue())
	})

	It("keeps the pinned messages, the latest first, and tells every member with 50 and 39", func() {
		store := openStore()
		ds := fold(store, projections.Groups{}, newLog().
			add(stream, &group.Created{GroupID: "g1", Name: "Team", Owner: "o", Members: []string{"a"}, At: 1}).
			add(stream, &group.MessagePinned{MessageID: "m1", By: "o", At: 2}).
			add(stream, &group.MessagePinned{MessageID: "m2", By: "o", At: 3}).
			add(stream, &group.MessageUnpinned{MessageID: "m1", By: "o", At: 4}).envs, 1)
		g, _, _ := store.Group(ctx, as("a"), "g1")
		Expect(g.Pinned).To(Equal([]string{"m2"}))
		Expect(cmds(ds)[1:]).To(Equal([]int{50, 39, 50, 39, 50, 39}))
		Expect(ds[len(ds)-1].To).To(ConsistOf("o", "a"))
		Expect(string(encoded(ds[len(ds)-2]))).To(ContainSubstring(`"operationType":"DelTop"`))
		Expect(string(encoded(ds[len(ds)-1]))).To(ContainSubstring(`"pinnedMessageIds":["m2"]`))
	})
})
