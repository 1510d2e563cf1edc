package group_test

import (
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/group"
)

var now = time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)

func expectFault(err error, kind fault.Kind, key string) {
	GinkgoHelper()
	f, ok := fault.As(err)
	Expect(ok).To(BeTrue(), "%v", err)
	Expect(f.Kind).To(Equal(kind))
	Expect(f.Key).To(Equal(key))
}

// fold applies events to a new group.
func fold(events ...es.Event) *group.Group {
	g := &group.Group{}
	for _, e := range events {
		g.Apply(e)
	}
	return g
}

// sample is a group of owner o, admin a and normal members n1, n2.
func sample() *group.Group {
	created, err := group.Create("g1", "o", "Team", "", "hello", []string{"a", "n1", "n2", "o", "a"}, now)
	Expect(err).NotTo(HaveOccurred())
	return fold(created, &group.MemberRoleChanged{Member: "a", Role: group.Admin, By: "o"})
}

// on applies to g the event a decision returns, which must be one.
func on(g *group.Group) func(es.Event, error) {
	return func(e es.Event, err error) {
		GinkgoHelper()
		Expect(err).NotTo(HaveOccurred())
		Expect(e).NotTo(BeNil())
		g.Apply(e)
	}
}

var _ = Describe("A group", func() {
	It("is created with its owner first and the invited members, each once", func() {
		g := sample()
		Expect(g.KnownTo("n1")).To(Succeed())
		Expect(g.Owner).To(Equal("o"))
		Expect(g.Members).To(HaveLen(4))
		Expect([]group.Role{g.RoleOf("o"), g.RoleOf("a"), g.RoleOf("n1"), g.RoleOf("x")}).To(Equal([]group.Role{group.Owner, group.Admin, group.Normal, ""}))
		Expect(g.AllowLeave).To(BeTrue())
		Expect(g.SendRate).To(Equal(group.NoLimit))
	})

	It("is unknown, as one never created, to whoever is not a member", func() {
		g := sample()
		expectFault(g.KnownTo("x"), fault.NotFound, fault.MsgGroupNotFound)
		expectFault((&group.Group{}).KnownTo("o"), fault.NotFound, fault.MsgGroupNotFound)
		on(g)(g.Remove("o", "n1", now))
		expectFault(g.KnownTo("n1"), fault.NotFound, fault.MsgGroupNotFound)
	})

	DescribeTable("refuses to be created",
		func(name string, members []string, key string) {
			_, err := group.Create("g", "o", name, "", "", members, now)
			expectFault(err, fault.Invalid, key)
		},
		Entry("without a name", "  ", []string{"a"}, fault.MsgGroupNameEmpty),
		Entry("with a name over 64", strings.Repeat("名", 65), []string{"a"}, fault.MsgGroupNameTooLong),
		Entry("without members", "Team", []string{}, fault.MsgGroupMembersEmpty),
		Entry("with only its owner", "Team", []string{"o"}, fault.MsgGroupMembersEmpty),
		Entry("with over 100 invited", "Team", func() []string {
			var ms []string
			for i := range 101 {
				ms = append(ms, string(rune('a'+i%26))+strings.Repeat("x", i))
			}
			return ms
		}(), fault.MsgInviteTooMany),
	)

	It("adds only new members and decides nothing when all are in", func() {
		g := sample()
		e, err := g.Invite("n1", []string{"n2", "p", "p", "q"}, now)
		Expect(err).NotTo(HaveOccurred())
		Expect(e.(*group.MembersAdded).Members).To(Equal([]string{"p", "q"}))
		e, err = g.Invite("n1", []string{"a"}, now)
		Expect(err).NotTo(HaveOccurred())
		Expect(e).To(BeNil())
		_, err = g.Invite("stranger", []string{"p"}, now)
		expectFault(err, fault.NotFound, fault.MsgGroupNotFound)
	})

	It("lets members act only on lower ranks", func() {
		g := sample()
		on(g)(g.Remove("a", "n1", now))
		Expect(g.Members).NotTo(HaveKey("n1"))
		_, err := g.Remove("a", "o", now)
		expectFault(err, fault.Forbidden, fault.MsgGroupRankTooLow)
		_, err = g.Remove("n2", "a", now)
		expectFault(err, fault.Forbidden, fault.MsgGroupRankTooLow)
		_, err = g.Remove("o", "ghost", now)
		expectFault(err, fault.NotFound, fault.MsgNotGroupMember)
		_, err = g.SetRole("a", "n2", group.Admin, now)
		Expect(err).NotTo(HaveOccurred(), "the policy, not the domain, keeps admins from appointing admins")
	})

	It("promotes and demotes, once", func() {
		g := sample()
		on(g)(g.SetRole("o", "n1", group.Admin, now))
		Expect(g.RoleOf("n1")).To(Equal(group.Admin))
		e, err := g.SetRole("o", "n1", group.Admin, now)
		Expect(err).NotTo(HaveOccurred())
		Expect(e).To(BeNil())
		on(g)(g.SetRole("o", "n1", group.Normal, now))
		Expect(g.RoleOf("n1")).To(Equal(group.Normal))
		_, err = g.SetRole("o", "n1", group.Owner, now)
		expectFault(err, fault.Invalid, fault.MsgGroupRoleInvalid)
	})

	It("transfers ownership: the old owner becomes an admin", func() {
		g := sample()
		_, err := g.Transfer("a", "n1", now)
		expectFault(err, fault.Forbidden, fault.MsgGroupRankTooLow)
		on(g)(g.Transfer("o", "n1", now))
		Expect([]group.Role{g.RoleOf("n1"), g.RoleOf("o")}).To(Equal([]group.Role{group.Owner, group.Admin}))
		Expect(g.Owner).To(Equal("n1"))
	})

	It("lets members leave, but not the owner, nor normal members when leaving is off", func() {
		g := sample()
		_, err := g.Leave("o", now)
		expectFault(err, fault.Conflict, fault.MsgOwnerCannotLeave)
		no := false
		on(g)(g.Modify("o", group.Settings{AllowLeave: &no}, now))
		_, err = g.Leave("n1", now)
		expectFault(err, fault.Forbidden, fault.MsgLeaveNotAllowed)
		on(g)(g.Leave("a", now))
		Expect(g.Members).NotTo(HaveKey("a"))
	})

	It("modifies only what changes", func() {
		g := sample()
		name, same := " Team B ", "hello"
		e, err := g.Modify("a", group.Settings{Name: &name, Notice: &same}, now)
		Expect(err).NotTo(HaveOccurred())
		m := e.(*group.Modified)
		Expect(*m.Name).To(Equal("Team B"))
		Expect(m.Notice).To(BeNil())
		g.Apply(e)
		e, err = g.Modify("a", group.Settings{Notice: &same}, now)
		Expect(err).NotTo(HaveOccurred())
		Expect(e).To(BeNil())
		empty := ""
		_, err = g.Modify("a", group.Settings{Name: &empty}, now)
		expectFault(err, fault.Invalid, fault.MsgGroupNameEmpty)
	})

	It("refuses every change once dissolved, and only the owner dissolves", func() {
		g := sample()
		_, err := g.Dissolve("a", now)
		expectFault(err, fault.Forbidden, fault.MsgGroupRankTooLow)
		on(g)(g.Dissolve("o", now))
		_, err = g.Invite("o", []string{"p"}, now)
		expectFault(err, fault.Conflict, fault.MsgGroupDissolved)
		expectFault(g.Speak("o", nil, now), fault.Conflict, fault.MsgGroupDissolved)
		_, err = (&group.Group{}).Leave("o", now)
		expectFault(err, fault.NotFound, fault.MsgGroupNotFound)
	})

	Describe("speaking", func() {
		expectMuted := func(err error, code string) {
			GinkgoHelper()
			f, ok := fault.As(err)
			Expect(ok).To(BeTrue(), "%v", err)
			Expect([]string{f.Code, f.Key}).To(Equal([]string{code, fault.MsgMuted}))
		}

		It("refuses normal members of a muted group with 30021, never the owner or admins", func() {
			g := sample()
			yes := true
			on(g)(g.Modify("o", group.Settings{MuteAll: &yes}, now))
			expectMuted(g.Speak("n1", nil, now), group.CodeGroupMuted)
			Expect(g.Speak("a", nil, now)).To(Succeed())
			Expect(g.Speak("o", nil, now)).To(Succeed())
		})

		It("ends a whole-group mute at its end time, and mutes again until lifted once it has ended", func() {
			g := sample()
			yes, no := true, false
			until := now.Add(10 * time.Minute).UnixMilli()
			on(g)(g.Modify("a", group.Settings{MuteAll: &yes, MuteAllUntil: &until}, now))
			Expect(g.MutedAll(now)).To(BeTrue())
			expectMuted(g.Speak("n1", nil, now.Add(9*time.Minute)), group.CodeGroupMuted)
			Expect(g.Speak("n1", nil, now.Add(10*time.Minute))).To(Succeed())

			later := now.Add(time.Hour)
			on(g)(g.Modify("a", group.Settings{MuteAll: &yes}, later))
			expectMuted(g.Speak("n1", nil, later.Add(24*time.Hour)), group.CodeGroupMuted)
			on(g)(g.Modify("a", group.Settings{MuteAll: &no}, later))
			Expect(g.Speak("n1", nil, later)).To(Succeed())
			past := now.UnixMilli()
			_, err := g.Modify("a", group.Settings{MuteAll: &yes, MuteAllUntil: &past}, later)
			expectFault(err, fault.Invalid, fault.MsgMuteUntilPast)
		})

		It("refuses a muted member with 30022 until the mute ends", func() {
			g := sample()
			on(g)(g.Mute("a", "n1", now.Add(10*time.Minute), now))
			expectMuted(g.Speak("n1", nil, now.Add(9*time.Minute)), group.CodeMemberMuted)
			Expect(g.Speak("n1", nil, now.Add(10*time.Minute))).To(Succeed())
			on(g)(g.Mute("a", "n2", now.Add(time.Hour), now))
			on(g)(g.Mute("a", "n2", time.Time{}, now))
			Expect(g.Speak("n2", nil, now)).To(Succeed())
			_, err := g.Mute("a", "o", now.Add(time.Hour), now)
			expectFault(err, fault.Forbidden, fault.MsgGroupRankTooLow)
			_, err = g.Mute("a", "n1", now.Add(-time.Second), now)
			expectFault(err, fault.Invalid, fault.MsgMuteUntilPast)
		})

		DescribeTable("limits each member to the group's send rate over the last minute",
			func(rate group.SendRate, sentInLastMinute int, allowed bool) {
				g := sample()
				if rate != g.SendRate {
					on(g)(g.Modify("o", group.Settings{SendRate: &rate}, now))
				}
				recent := []int64{now.Add(-2 * time.Minute).UnixMilli()} // outside the window
				for i := range sentInLastMinute {
					recent = append(recent, now.Add(-time.Duration(i+1)*500*time.Millisecond).UnixMilli())
				}
				err := g.Speak("n1", recent, now)
				if allowed {
					Expect(err).NotTo(HaveOccurred())
				} else {
					expectFault(err, fault.RateLimited, fault.MsgSendTooFast)
				}
			},
			Entry("no limit", group.NoLimit, 500, true),
			Entry("10/min: the 10th", group.TenPerMinute, 9, true),
			Entry("10/min: the 11th", group.TenPerMinute, 10, false),
			Entry("5/min: the 5th", group.FivePerMinute, 4, true),
			Entry("5/min: the 6th", group.FivePerMinute, 5, false),
			Entry("backend: under its limit", group.Backend, group.BackendPerMinute-1, true),
			Entry("backend: at its limit", group.Backend, group.BackendPerMinute, false),
		)

		It("accepts only the four send-rate options", func() {
			_, err := group.ParseSendRate("Fast")
			expectFault(err, fault.Invalid, fault.MsgSendRateInvalid)
			r, err := group.ParseSendRate("FivePerMinute")
			Expect(err).NotTo(HaveOccurred())
			Expect(r.PerMinute()).To(Equal(5))
		})
	})

	It("sets nicknames, trimmed and bounded", func() {
		g := sample()
		on(g)(g.SetNickname("n1", "  Nick ", now))
		Expect(g.Members["n1"].Nickname).To(Equal("Nick"))
		e, err := g.SetNickname("n1", "Nick", now)
		Expect(err).NotTo(HaveOccurred())
		Expect(e).To(BeNil())
		_, err = g.SetNickname("n1", strings.Repeat("x", 33), now)
		expectFault(err, fault.Invalid, fault.MsgNicknameTooLong)
	})

	Describe("pinned messages", func() {
		It("pins the latest first, once each, up to 10, and unpins only pinned ones", func() {
			g := sample()
			for i := range group.MaxPinned {
				on(g)(g.Pin("a", string(rune('a'+i)), now))
			}
			Expect(g.Pinned).To(HaveLen(group.MaxPinned))
			Expect(g.Pinned[0]).To(Equal("j"))
			e, err := g.Pin("o", "c", now)
			Expect(err).NotTo(HaveOccurred())
			Expect(e).To(BeNil())
			_, err = g.Pin("o", "k", now)
			expectFault(err, fault.Conflict, fault.MsgPinnedTooMany)

			on(g)(g.Unpin("o", "c", now))
			Expect(g.Pinned).NotTo(ContainElement("c"))
			_, err = g.Unpin("o", "c", now)
			expectFault(err, fault.NotFound, fault.MsgMessageNotPinned)
			on(g)(g.Pin("o", "k", now))
			Expect(g.Pinned[0]).To(Equal("k"))
		})

		It("is for members of a live group", func() {
			g := sample()
			_, err := g.Pin("x", "m1", now)
			expectFault(err, fault.NotFound, fault.MsgGroupNotFound)
			on(g)(g.Remove("o", "n1", now))
			_, err = g.Pin("n1", "m1", now)
			expectFault(err, fault.NotFound, fault.MsgGroupNotFound)
			on(g)(g.Dissolve("o", now))
			_, err = g.Pin("o", "m1", now)
			expectFault(err, fault.Conflict, fault.MsgGroupDissolved)
			_, err = g.Pin("x", "m1", now)
			expectFault(err, fault.NotFound, fault.MsgGroupNotFound) // not even that it was dissolved
		})
	})
})

var _ = Describe("Join requests", func() {
	ids := func() func() (string, error) {
		n := 0
		return func() (string, error) { n++; return fmt.Sprintf("r%d", n), nil }
	}

	It("are one per invited member neither in the group nor already waiting, each put to the owner and the admins", func() {
		g := sample()
		e, err := g.RequestJoin("n1", []string{"x", "n2", "y", "x"}, ids(), now)
		Expect(err).NotTo(HaveOccurred())
		Expect(e).To(Equal(&group.JoinRequested{Requests: []group.JoinRequest{
			{ID: "r1", Member: "x", Managers: []string{"a", "o"}}, {ID: "r2", Member: "y", Managers: []string{"a", "o"}}}, By: "n1", At: now.UnixMilli()}))
		g.Apply(e)
		Expect(g.RequestJoin("n2", []string{"x"}, ids(), now)).To(BeNil())
		_, err = g.RequestJoin("stranger", []string{"z"}, ids(), now)
		expectFault(err, fault.NotFound, fault.MsgGroupNotFound)
	})

	It("are answered once, naming the managers asked: an acceptance lets the member in, a refusal does not", func() {
		g := sample()
		on(g)(g.RequestJoin("n1", []string{"x", "y"}, ids(), now))
		events, err := g.AnswerJoin("a", "r1", true, now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(Equal([]es.Event{
			&group.JoinAnswered{RequestID: "r1", Member: "x", Accepted: true, By: "a", Asked: []string{"a", "o"}, At: now.UnixMilli()},
			&group.MembersAdded{Members: []string{"x"}, By: "a", At: now.UnixMilli()},
		}))
		for _, e := range events {
			g.Apply(e)
		}
		Expect(g.RoleOf("x")).To(Equal(group.Normal))
		_, err = g.AnswerJoin("o", "r1", false, now)
		expectFault(err, fault.Conflict, fault.MsgAlreadyProcessed)

		events, err = g.AnswerJoin("o", "r2", false, now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(HaveLen(1))
		g.Apply(events[0])
		Expect(g.RoleOf("y")).To(BeEmpty())
		Expect(g.Requests).To(BeEmpty())
	})

	It("accepted for one who joined meanwhile only closes the request", func() {
		g := sample()
		on(g)(g.RequestJoin("n1", []string{"x"}, ids(), now))
		on(g)(g.Invite("a", []string{"x"}, now))
		events, err := g.AnswerJoin("o", "r1", true, now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(HaveLen(1))
	})
})
