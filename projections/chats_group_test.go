package projections_test

import (
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/group"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("The chats projector in a group chat", func() {
	const (
		groups = "x0001.group-g1"
		chats  = "x0001.chat-g1"
	)
	groupSent := func(id, from, content string) *chat.MessageSent {
		return &chat.MessageSent{MessageID: id, UUID: "u-" + id, ChatType: "Group", From: from, GroupID: "g1", MsgType: "Text", Content: content, At: 10}
	}
	groupAck := func(reader, id string) *chat.ReadAcknowledged {
		return &chat.ReadAcknowledged{Reader: reader, Peer: "g1", ChatType: "Group", MessageID: id, At: 11}
	}
	session := func(store projections.ReadStore, member string) (projections.Session, bool) {
		ss, err := store.Sessions(ctx, member)
		Expect(err).NotTo(HaveOccurred())
		for _, s := range ss {
			if s.Peer == "g1" {
				return s, true
			}
		}
		return projections.Session{}, false
	}
	history := func(store projections.ReadStore, member string) []string {
		page, err := store.HistoryPage(ctx, as(member), "g1", nil, projections.Up, 50)
		Expect(err).NotTo(HaveOccurred())
		var out []string
		for _, m := range page {
			if m.MsgType == "Event" {
				out = append(out, m.OperationType)
			} else {
				out = append(out, m.Content)
			}
		}
		return out
	}
	// foldChats folds the chats projector, then the groups projector, whose
	// memberships decide who reads the group's chat.
	foldChats := func(store projections.ReadStore, envs []projections.Envelope, n int) []projections.Delta {
		GinkgoHelper()
		ds := fold(store, projections.Chats{}, envs, n)
		fold(store, projections.Groups{}, envs, 0)
		return ds
	}
	created := func() *log {
		return newLog().add(groups, &group.Created{GroupID: "g1", Name: "Team", Owner: "o", Members: []string{"a", "b"}, At: 1})
	}

	It("fans a message out to every member's conversation and connections, unread for all but the sender, who has read up to it", func() {
		l := created().
			add(chats, groupSent("m1", "a", "hello")).
			add(chats, groupSent("m2", "b", "hi"))
		for _, n := range []int{0, 1} {
			store := openStore()
			ds := foldChats(store, l.envs, n)
			msgs := 0
			for _, d := range ds {
				if d.Cmd == projections.CmdMessage {
					Expect(d.To).To(Equal([]string{"a", "b", "o"}))
					msgs++
				}
			}
			Expect(msgs).To(Equal(3)) // the creation's line and two messages
			for member, want := range map[string]int{"o": 2, "a": 1, "b": 0} {
				s, ok := session(store, member)
				Expect(ok).To(BeTrue(), member)
				Expect([]any{s.ChatType, s.UnreadCount, s.LastMessageContent}).To(Equal([]any{"Group", want, "hi"}), member)
			}
			Expect(history(store, "o")).To(Equal([]string{projections.OpCreate, "hello", "hi"}))
		}
	})

	It("recounts a reader's unread messages as those after the one read, event lines never counted", func() {
		store := openStore()
		ds := foldChats(store, created().
			add(chats, groupSent("m1", "a", "one")).
			add(chats, groupSent("m2", "a", "two")).
			add(groups, &group.MemberRoleChanged{Member: "a", Role: group.Admin, By: "o", At: 12}).
			add(chats, groupSent("m3", "a", "three")).
			add(chats, groupAck("o", "m2")).envs, 0)
		s, _ := session(store, "o")
		Expect(s.UnreadCount).To(Equal(1))
		Expect(s.LastMessageContent).To(Equal("three"))
		Expect(ds[len(ds)-2].Cmd).To(Equal(projections.CmdSessionChanged))
		Expect(ds[len(ds)-2].To).To(Equal([]string{"o"}))
		b, _ := session(store, "b")
		Expect(b.UnreadCount).To(Equal(3))
	})

	It("keeps how far each member has read the chat: up to what it acknowledged or sent, never back; a new member from its joining on", func() {
		// Positions 1, 2, ...: a group chat's sequence is the position times 8.
		l := created(). // 8
				add(chats, groupSent("m1", "a", "one")).                                               // 16: a reads it
				add(chats, groupSent("m2", "o", "two")).                                               // 24: o reads to it
				add(chats, groupAck("b", "m2")).                                                       // b reads to 24
				add(chats, groupAck("b", "m1")).                                                       // never back
				add(groups, &group.MemberRoleChanged{Member: "a", Role: group.Admin, By: "o", At: 6}). // 48, a line
				add(chats, groupAck("b", fmt.Sprintf("%019d", 48))).                                   // nothing unread, still read
				add(groups, &group.MembersAdded{Members: []string{"c"}, By: "o", At: 8}).              // 64: c joins
				add(chats, groupAck("a", "m2")).                                                       // a reads to 24
				add(chats, groupSent("m3", "c", "three"))                                              // 80: c reads to it
		for _, n := range []int{0, 1, 3} {
			store := openStore()
			foldChats(store, l.envs, n)
			reads, err := store.GroupReads(ctx, as("c"), "g1")
			Expect(err).NotTo(HaveOccurred())
			Expect(reads).To(Equal([]projections.GroupRead{
				{Tenant: "x0001", GroupID: "g1", Member: "a", JoinSeq: 8, ReadSeq: 24},
				{Tenant: "x0001", GroupID: "g1", Member: "b", JoinSeq: 8, ReadSeq: 48},
				{Tenant: "x0001", GroupID: "g1", Member: "c", JoinSeq: 64, ReadSeq: 80},
				{Tenant: "x0001", GroupID: "g1", Member: "o", JoinSeq: 8, ReadSeq: 24},
			}), "batches of %d", n)
			b, _ := session(store, "b")
			Expect(b.UnreadCount).To(Equal(1), "m3 alone")
		}
	})

	// readAcks are the read acknowledgements (28) among ds of reader's reads,
	// each as its message id followed by whom it goes to.
	readAcks := func(ds []projections.Delta, reader string) [][]string {
		GinkgoHelper()
		var acks [][]string
		for _, d := range ds {
			if d.Cmd != projections.CmdReadAck {
				continue
			}
			var ack struct{ ChatType, From, To, MessageID string }
			raw, err := json.Marshal(d.Payload)
			Expect(err).NotTo(HaveOccurred())
			Expect(json.Unmarshal(raw, &ack)).To(Succeed())
			if ack.From == reader {
				Expect([]string{ack.ChatType, ack.To}).To(Equal([]string{"Group", "g1"}))
				acks = append(acks, append([]string{ack.MessageID}, d.To...))
			}
		}
		return acks
	}

	It("reads the chat for a member who sends there: its unread count goes to zero, and the senders it newly read are told (28)", func() {
		l := created().
			add(chats, groupSent("m1", "a", "one")).
			add(chats, groupSent("m2", "o", "two")).
			add(chats, groupSent("m3", "b", "three")).
			add(chats, groupSent("m4", "b", "four"))
		for _, n := range []int{0, 1} {
			store := openStore()
			ds := foldChats(store, l.envs, n)
			b, _ := session(store, "b")
			Expect(b.UnreadCount).To(BeZero(), "batches of %d", n)
			o, _ := session(store, "o")
			Expect(o.UnreadCount).To(Equal(2), "m3 and m4, batches of %d", n)
			Expect(readAcks(ds, "b")).To(Equal([][]string{
				{"m3", "a", "o"}, {"m3", "b"}, // m1 and m2 newly read; b's own connections
			}), "nothing more to read at m4, batches of %d", n)
		}
	})

	It("tells the senders, still members, of the messages a member newly read that it read them (28), once", func() {
		l := created().
			add(chats, groupSent("m1", "a", "one")).
			add(chats, groupSent("m2", "o", "two")).
			add(chats, groupSent("m3", "a", "three")).
			add(groups, &group.MemberLeft{Member: "a", At: 5}).
			add(chats, groupSent("m4", "o", "four")).
			add(chats, groupAck("b", "m2")).
			add(chats, groupAck("b", "m1")).
			add(chats, groupAck("b", "m4"))
		for _, n := range []int{0, 1} {
			store := openStore()
			Expect(readAcks(foldChats(store, l.envs, n), "b")).To(Equal([][]string{
				{"m2", "o"}, {"m2", "b"}, // a has left; b's own connections as before
				{"m4", "o"}, {"m4", "b"}, // m1 was read already, m3 is a's
			}), "batches of %d", n)
		}
	})

	It("starts a member who left and came back over, from its new joining", func() {
		store := openStore()
		foldChats(store, created(). // 8
						add(chats, groupSent("m1", "o", "one")).                                          // 16
						add(chats, groupAck("b", "m1")).                                                  // b reads to 16
						add(groups, &group.MemberLeft{Member: "b", At: 4}).                               // 32
						add(groups, &group.MembersAdded{Members: []string{"b"}, By: "o", At: 5}).envs, 0) // 40
		reads, err := store.GroupReads(ctx, as("o"), "g1")
		Expect(err).NotTo(HaveOccurred())
		Expect(reads[1]).To(Equal(projections.GroupRead{Tenant: "x0001", GroupID: "g1", Member: "b", JoinSeq: 40}))
	})

	It("ignores an acknowledgement of another group's message folded in an earlier batch", func() {
		store := openStore()
		other := &chat.MessageSent{MessageID: "x1", UUID: "u-x1", ChatType: "Group", From: "o", GroupID: "g2", MsgType: "Text", Content: "elsewhere", At: 10}
		l := created().
			add("x0001.group-g2", &group.Created{GroupID: "g2", Name: "Other", Owner: "o", Members: []string{"a"}, At: 1}).
			add(chats, groupSent("m1", "a", "one")).
			add("x0001.chat-g2", other).
			add(chats, groupAck("o", "x1"))
		foldChats(store, l.envs[:len(l.envs)-1], 0)

		Expect(foldChats(store, l.envs[len(l.envs)-1:], 0)).To(BeEmpty())
		s, _ := session(store, "o")
		Expect(s.UnreadCount).To(Equal(1))
	})

	It("stops a member who left or was removed, and shows new members the chat from their joining on", func() {
		l := created().
			add(chats, groupSent("m1", "o", "before")).
			add(groups, &group.MemberRemoved{Member: "b", By: "o", At: 2}).
			add(groups, &group.MembersAdded{Members: []string{"c"}, By: "a", At: 3}).
			add(groups, &group.MemberLeft{Member: "a", At: 4}).
			add(chats, groupSent("m2", "o", "after"))
		for _, n := range []int{0, 1} {
			store := openStore()
			ds := foldChats(store, l.envs, n)
			last := ds[len(ds)-1]
			Expect(last.Cmd).To(Equal(projections.CmdMessage))
			Expect(last.To).To(Equal([]string{"c", "o"}))
			_, ok := session(store, "b")
			Expect(ok).To(BeFalse())
			_, ok = session(store, "a")
			Expect(ok).To(BeFalse())
			Expect(history(store, "c")).To(Equal([]string{projections.OpJoin, projections.OpLeave, "after"}))
			Expect(history(store, "o")).To(Equal([]string{projections.OpCreate, "before", projections.OpRemove, projections.OpJoin, projections.OpLeave, "after"}))
		}
	})

	It("writes an event line for each change the spec names, from the group's events alone", func() {
		name, notice, head, muted := "Renamed", "Read me", "https://img/x", true
		store := openStore()
		foldChats(store, created().
			add(groups, &group.MemberRoleChanged{Member: "a", Role: group.Admin, By: "o", At: 2}).
			add(groups, &group.MemberRoleChanged{Member: "a", Role: group.Normal, By: "o", At: 3}).
			add(groups, &group.Modified{Name: &name, Notice: &notice, HeadURL: &head, MuteAll: &muted, By: "o", At: 4}).
			add(groups, &group.MemberMuted{Member: "b", Muted: true, Until: 99, By: "o", At: 5}).
			add(groups, &group.MemberMuted{Member: "b", Until: 0, By: "o", At: 6}).
			add(groups, &group.OwnershipTransferred{From: "o", To: "a", At: 7}).
			add(groups, &group.NicknameSet{Member: "b", Nickname: "Bee", At: 8}).envs, 0)
		Expect(history(store, "b")).To(Equal([]string{
			projections.OpCreate, projections.OpSetMemberRole, projections.OpCancelMemberRole,
			projections.OpModifyName, projections.OpModifyNotice, projections.OpModifyHead, projections.OpMuteAll,
			projections.OpMuteMember, projections.OpUnmuteMember, projections.OpTransferOwner,
		}))
		page, _ := store.HistoryPage(ctx, as("b"), "g1", nil, projections.Up, 50)
		last := page[len(page)-1]
		Expect([]string{last.OperatorID, last.TargetID, last.Content}).To(Equal([]string{"o", "a", "@[o] made @[a] the group owner"}))
		s, _ := session(store, "b")
		Expect([]any{s.LastMessageType, s.LastMessageContent, s.UnreadCount}).To(Equal([]any{"Event", "@[o] made @[a] the group owner", 0}))
	})

	It("takes a dissolved group out of every member's list", func() {
		store := openStore()
		foldChats(store, created().
			add(chats, groupSent("m1", "o", "bye")).
			add(groups, &group.Dissolved{By: "o", At: 2}).envs, 0)
		for _, m := range []string{"o", "a", "b"} {
			_, ok := session(store, m)
			Expect(ok).To(BeFalse())
		}
	})

	It("records mentions of members and of everyone, never of the sender", func() {
		store := openStore()
		at := groupSent("m1", "1", "@[2] look")
		at.MsgType = "AtText"
		all := groupSent("m2", "2", "@[0000000000000000000] all")
		all.MsgType = "AtText"
		foldChats(store, newLog().
			add(groups, &group.Created{GroupID: "g1", Name: "Team", Owner: "1", Members: []string{"2", "3"}, At: 1}).
			add(chats, at).add(chats, all).envs, 0)
		count := func(member string) int {
			ms, err := store.Mentions(ctx, member)
			Expect(err).NotTo(HaveOccurred())
			return len(ms)
		}
		Expect([]int{count("1"), count("2"), count("3")}).To(Equal([]int{1, 1, 1}))
		ms, _ := store.Mentions(ctx, "3")
		Expect([]string{ms[0].SessionID, ms[0].SessionType}).To(Equal([]string{"g1", "Group"}))
	})

	It("takes recalled, deleted and hidden messages off the unread counts of those who had not read them", func() {
		store := openStore()
		ds := foldChats(store, created().
			add(chats, groupSent("m1", "a", "one")).
			add(chats, groupSent("m2", "a", "two")).
			add(chats, groupSent("m3", "a", "three")).
			add(chats, groupAck("o", "m2")).
			add(chats, &chat.MessageRecalled{MessageID: "m1", By: "a", At: 20}).
			add(chats, &chat.MessageRecalled{MessageID: "m3", By: "a", At: 21}).
			add(chats, &chat.MessagesHidden{Member: "b", Peer: "g1", ChatType: "Group", MessageIDs: []string{"m2"}, At: 22}).envs, 0)
		o, _ := session(store, "o")
		b, _ := session(store, "b")
		Expect([]int{o.UnreadCount, b.UnreadCount}).To(Equal([]int{0, 0}))
		Expect(o.LastMessageContent).To(Equal(projections.RecalledPreview))
		recalls := 0
		for _, d := range ds {
			if d.Cmd == projections.CmdRecall && len(d.To) == 3 {
				recalls++
			}
		}
		Expect(recalls).To(Equal(2))

		foldChats(store, (&log{revisions: map[string]uint64{}, offset: 30}).
			add(chats, groupSent("m4", "o", "four")).
			add(chats, &chat.MessagesDeleted{MessageIDs: []string{"m4"}, By: "a", At: 23}).envs, 0)
		a, _ := session(store, "a")
		Expect(a.UnreadCount).To(Equal(0))
		Expect(history(store, "a")).NotTo(ContainElement("four"))
	})

	It("clears a member's history up to the clear, with command 29", func() {
		store := openStore()
		ds := foldChats(store, created().
			add(chats, groupSent("m1", "a", "one")).
			add("x0001.inbox-b", &chat.ChatCleared{Member: "b", Peer: "g1", ChatType: "Group", At: 30}).
			add(chats, groupSent("m2", "a", "two")).envs, 0)
		Expect(history(store, "b")).To(Equal([]string{"two"}))
		Expect(history(store, "o")).To(HaveLen(3))
		Expect(cmds(ds)).To(ContainElement(projections.CmdClearGroup))
		s, _ := session(store, "b")
		Expect(s.UnreadCount).To(Equal(1))
	})
})
