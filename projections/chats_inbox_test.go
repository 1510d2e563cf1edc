package projections_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/domain/inbox"
	"github.com/eventchat/eventchat/projections"
)

const inboxOf1 = "x0001.inbox-1"

func ref(peer string, at int64) inbox.Ref {
	return inbox.Ref{Member: "1", ChatType: "Friend", Peer: peer, At: at}
}

func list(store projections.ReadStore, member string) []string {
	ss, err := store.Sessions(ctx, member)
	Expect(err).NotTo(HaveOccurred())
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Peer
		if s.Top {
			out[i] += "^"
		}
	}
	return out
}

func sessionOf(store projections.ReadStore, member, peer string) projections.Session {
	GinkgoHelper()
	ss, err := store.Sessions(ctx, member)
	Expect(err).NotTo(HaveOccurred())
	for _, s := range ss {
		if s.Peer == peer {
			return s
		}
	}
	Fail("no session of " + member + " with " + peer)
	return projections.Session{}
}

// ops lists the operation types of the pushed 49s.
func ops(ds []projections.Delta) []string {
	var out []string
	for _, d := range ds {
		if v, ok := d.Payload.(projections.SessionView); ok && d.Cmd == projections.CmdSessionChanged {
			out = append(out, v.OperationType)
		}
	}
	return out
}

var _ = Describe("Conversation settings in the chats projector", func() {
	// chats gives member 1 conversations with 2 (newest), 3 and 4 (oldest).
	chats := func() *log {
		l := newLog()
		for _, p := range []struct{ peer, id string }{{"4", "a"}, {"3", "b"}, {"2", "c"}} {
			m := sent(p.id, p.peer, "1", "hi")
			m.At = map[string]int64{"a": 100, "b": 200, "c": 300}[p.id]
			l.add("x0001.chat-1_"+p.peer, m)
		}
		return l
	}

	It("lists pinned conversations first, the latest pinned first, and back in place when unpinned", func() {
		store := openStore()
		l := chats().
			add(inboxOf1, &inbox.Pinned{Ref: ref("4", 1000)}).
			add(inboxOf1, &inbox.Pinned{Ref: ref("3", 2000)})
		ds := fold(store, projections.Chats{}, l.envs, 0)
		Expect(list(store, "1")).To(Equal([]string{"3^", "4^", "2"}))
		Expect(sessionOf(store, "1", "3").TopTime).To(Equal(int64(2000)))
		Expect(ops(ds)).To(Equal([]string{"AddTop", "AddTop"}))
		Expect(ds[len(ds)-1].To).To(Equal([]string{"1"}))
		Expect(ds[len(ds)-1].Session).To(BeEmpty(), "to every connection of the member")
		view := ds[len(ds)-1].Payload.(projections.SessionView)
		Expect(view.TopMessage).To(Equal("Y"))
		Expect(view.FriendMemberID).To(Equal("3"))

		ds = fold(store, projections.Chats{}, newLogAfter(l).add(inboxOf1, &inbox.Unpinned{Ref: ref("3", 3000)}).envs, 0)
		Expect(list(store, "1")).To(Equal([]string{"4^", "2", "3"}))
		Expect(ops(ds)).To(Equal([]string{"DelTop"}))
		Expect(list(store, "2")).To(Equal([]string{"1"}), "another member's list is untouched")
	})

	It("hides a conversation until a newer message arrives in it, keeping its history", func() {
		store := openStore()
		l := chats().add(inboxOf1, &inbox.Hidden{Ref: ref("3", 1000)})
		ds := fold(store, projections.Chats{}, l.envs, 0)
		Expect(list(store, "1")).To(Equal([]string{"2", "4"}))
		Expect(ops(ds)).To(Equal([]string{"Del"}))
		Expect(ds[len(ds)-1].Payload.(projections.SessionView).Hide).To(Equal("Y"))
		page, err := store.HistoryPage(ctx, as("1"), "1_3", nil, projections.Up, 10)
		Expect(err).NotTo(HaveOccurred())
		Expect(page).To(HaveLen(1))

		again := sent("d", "3", "1", "back")
		again.At = 400
		fold(store, projections.Chats{}, newLogAfter(l).add("x0001.chat-1_3", again).envs, 0)
		Expect(list(store, "1")).To(Equal([]string{"3", "2", "4"}))
		Expect(sessionOf(store, "1", "3").UnreadCount).To(Equal(2))
	})

	It("hides the conversation from both members when their friendship is deleted, creating none", func() {
		store := openStore()
		l := chats().
			add("x0001.friendship-1_3", &friend.Removed{By: "3", At: 1000}).
			add("x0001.friendship-1_9", &friend.Removed{By: "1", At: 1001})
		ds := fold(store, projections.Chats{}, l.envs, 0)
		Expect(list(store, "1")).To(Equal([]string{"2", "4"}))
		Expect(list(store, "3")).To(BeEmpty())
		Expect(list(store, "9")).To(BeEmpty())
		Expect(ops(ds)).To(BeEmpty(), "the friend-deleted push tells the clients")
	})

	It("creates the session of a conversation without messages when it is shown or pinned", func() {
		store := openStore()
		l := newLog().
			add(inboxOf1, &inbox.Shown{Ref: ref("5", 10)}).
			add(inboxOf1, &inbox.Pinned{Ref: ref("6", 20)})
		ds := fold(store, projections.Chats{}, l.envs, 0)
		Expect(list(store, "1")).To(Equal([]string{"6^", "5"}))
		Expect(ops(ds)).To(Equal([]string{"Add", "AddTop"}))
		Expect(sessionOf(store, "1", "5").ChatID).To(Equal("1_5"))
		Expect(sessionOf(store, "1", "6").ChatID).To(Equal("1_6"))
	})

	It("sets and clears do-not-disturb and the unread marker; a read acknowledgement clears the marker", func() {
		store := openStore()
		l := chats().
			add(inboxOf1, &inbox.DoNotDisturbSet{Ref: ref("2", 1000), On: true}).
			add(inboxOf1, &inbox.MarkedUnread{Ref: ref("3", 1000)}).
			add(inboxOf1, &inbox.MarkedUnread{Ref: ref("4", 1000)})
		ds := fold(store, projections.Chats{}, l.envs, 0)
		Expect(ops(ds)).To(Equal([]string{"DndOn", "MarkUnread", "MarkUnread"}))
		two := sessionOf(store, "1", "2")
		Expect(two.DoNotDisturb).To(BeTrue())
		Expect(two.UnreadCount).To(Equal(1), "a muted conversation still counts")
		Expect(two.View().DoNotDisturb).To(Equal("Y"))
		Expect(sessionOf(store, "1", "3").View().MarkedUnread).To(Equal("Y"))

		next := newLogAfter(l).
			add(inboxOf1, &inbox.DoNotDisturbSet{Ref: ref("2", 2000)}).
			add(inboxOf1, &inbox.MarkedRead{Ref: ref("3", 2000)}).
			add("x0001.chat-1_4", ack("1", "4", "a"))
		ds = fold(store, projections.Chats{}, next.envs, 0)
		Expect(ops(ds)).To(Equal([]string{"DndOff", "MarkRead", "MarkRead", ""}))
		Expect(sessionOf(store, "1", "2").DoNotDisturb).To(BeFalse())
		Expect(sessionOf(store, "1", "3").MarkedUnread).To(BeFalse())
		four := sessionOf(store, "1", "4")
		Expect(four.MarkedUnread).To(BeFalse())
		Expect(four.UnreadCount).To(BeZero())
	})

	It("folds the same settings to the same sessions whatever the batch boundaries", func() {
		l := chats().
			add(inboxOf1, &inbox.Pinned{Ref: ref("4", 1000)}).
			add(inboxOf1, &inbox.Hidden{Ref: ref("2", 1100)}).
			add(inboxOf1, &inbox.MarkedUnread{Ref: ref("3", 1200)}).
			add("x0001.chat-1_3", ack("1", "3", "b")).
			add(inboxOf1, &inbox.DoNotDisturbSet{Ref: ref("3", 1300), On: true}).
			add("x0001.chat-1_2", sent("e", "1", "2", "again"))
		whole, single := openStore(), openStore()
		fold(whole, projections.Chats{}, l.envs, 0)
		fold(single, projections.Chats{}, l.envs, 1)
		Expect(list(whole, "1")).To(Equal([]string{"4^", "2", "3"}))
		for _, peer := range []string{"2", "3", "4"} {
			Expect(sessionOf(single, "1", peer)).To(Equal(sessionOf(whole, "1", peer)))
		}
	})
})

// newLogAfter continues l: the events added to the returned log follow l's
// in positions and revisions, and only they are in its envs.
func newLogAfter(l *log) *log {
	next := &log{revisions: map[string]uint64{}}
	for k, v := range l.revisions {
		next.revisions[k] = v
	}
	next.offset = l.offset + len(l.envs)
	return next
}
