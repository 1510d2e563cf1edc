package projections_test

import (
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/inbox"
	"github.com/eventchat/eventchat/projections"
)

const chatStream = "x0001.chat-1_2"

func sent(id, from, to, content string) *chat.MessageSent {
	return &chat.MessageSent{MessageID: id, UUID: "u" + id, ChatType: "Friend", From: from, To: to, MsgType: "Text", Content: content, At: 1000}
}

func ack(reader, peer, id string) *chat.ReadAcknowledged {
	return &chat.ReadAcknowledged{Reader: reader, Peer: peer, ChatType: "Friend", MessageID: id, At: 2000}
}

func statuses(store projections.ReadStore, member string) []string {
	page, err := store.HistoryPage(ctx, as(member), "1_2", nil, projections.Up, 50)
	Expect(err).NotTo(HaveOccurred())
	var out []string
	for _, m := range page {
		out = append(out, m.ID+":"+m.Status)
	}
	return out
}

// readAcks is the 28s among ds.
func readAcks(ds []projections.Delta) []projections.Delta {
	var out []projections.Delta
	for _, d := range ds {
		if d.Cmd == 28 {
			out = append(out, d)
		}
	}
	return out
}

func unread(store projections.ReadStore, member string) int {
	ss, err := store.Sessions(ctx, member)
	Expect(err).NotTo(HaveOccurred())
	Expect(ss).To(HaveLen(1))
	return ss[0].UnreadCount
}

var _ = Describe("The chats projector", func() {
	It("keeps history, previews and unread counts, and pushes 11, 28 and 49", func() {
		store := openStore()
		l := newLog().
			add(chatStream, sent("m1", "1", "2", "hello")).
			add(chatStream, sent("m2", "1", "2", "how are you")).
			add(chatStream, sent("m3", "2", "1", "fine")).
			add(chatStream, ack("2", "1", "m1"))
		ds := fold(store, projections.Chats{}, l.envs, 0)

		Expect(cmds(ds)).To(Equal([]int{11, 11, 11, 49, 28}))
		Expect(ds[0].To).To(ConsistOf("1", "2"))
		var pushed map[string]any
		Expect(json.Unmarshal(encoded(ds[0]), &pushed)).To(Succeed())
		Expect(pushed).To(HaveKeyWithValue("content", "hello"))
		Expect(pushed).To(HaveKeyWithValue("msgStatus", "Unread"))
		Expect(pushed).To(HaveKeyWithValue("createTime", BeNumerically("==", 1000)))
		var readAck map[string]any
		Expect(json.Unmarshal(encoded(ds[4]), &readAck)).To(Succeed())
		Expect(readAck).To(HaveKeyWithValue("messageIds", ConsistOf("m1")))
		Expect(readAck).To(HaveKeyWithValue("seq", BeNumerically("==", 0)), "m1's place in the chat, the first")
		Expect(ds[4].To).To(ConsistOf("1", "2"))

		Expect(statuses(store, "2")).To(Equal([]string{"m1:Read", "m2:Unread", "m3:Unread"}))
		Expect(unread(store, "2")).To(Equal(1))
		Expect(unread(store, "1")).To(Equal(1))
		ss, _ := store.Sessions(ctx, "2")
		Expect(ss[0].LastMessageContent).To(Equal("fine"))
		Expect(ss[0].Peer).To(Equal("1"))
	})

	It("folds the same log to the same read model whatever the batch boundaries", func() {
		l := newLog()
		for i, id := range []string{"a", "b", "c", "d", "e", "f"} {
			l.add(chatStream, sent(id, "1", "2", "x"))
			if i%2 == 1 {
				l.add(chatStream, ack("2", "1", id))
			}
			l.add(chatStream, sent(id+"r", "2", "1", "y"))
		}
		l.add(chatStream, ack("1", "2", "dr"))
		whole, single := openStore(), openStore()
		fold(whole, projections.Chats{}, l.envs, 0)
		fold(single, projections.Chats{}, l.envs, 1)
		for _, m := range []string{"1", "2"} {
			Expect(statuses(single, m)).To(Equal(statuses(whole, m)))
			Expect(unread(single, m)).To(Equal(unread(whole, m)))
		}
		Expect(unread(whole, "2")).To(Equal(0))
		Expect(unread(whole, "1")).To(Equal(2))
	})

	It("ignores an acknowledgement of an unknown message or another chat's", func() {
		store := openStore()
		l := newLog().
			add(chatStream, sent("m1", "1", "2", "hello")).
			add(chatStream, ack("2", "1", "nope")).
			add("x0001.chat-3_4", sent("m9", "3", "4", "other")).
			add(chatStream, ack("2", "1", "m9"))
		ds := fold(store, projections.Chats{}, l.envs, 0)
		Expect(cmds(ds)).To(Equal([]int{11, 11}))
		Expect(unread(store, "2")).To(Equal(1))
	})

	It("ignores an acknowledgement of another chat's message folded in an earlier batch", func() {
		store := openStore()
		l := newLog().
			add(chatStream, sent("m1", "1", "2", "hello")).
			add("x0001.chat-3_4", sent("m9", "3", "4", "other")).
			add("x0001.inbox-2", &inbox.MarkedUnread{Ref: inbox.Ref{Member: "2", ChatType: "Friend", Peer: "1", At: 1500}}).
			add(chatStream, ack("2", "1", "m9"))
		Expect(cmds(fold(store, projections.Chats{}, l.envs[:3], 0))).To(Equal([]int{11, 11, 49}))

		Expect(fold(store, projections.Chats{}, l.envs[3:], 0)).To(BeEmpty(), "no read mark, no 28 to the peer")
		Expect(unread(store, "2")).To(Equal(1))
		Expect(statuses(store, "2")).To(Equal([]string{"m1:Unread"}))
		Expect(sessionOf(store, "2", "1").MarkedUnread).To(BeTrue(), "the conversation stays marked unread")
	})

	It("reads up to the acknowledged message's place in the chat, whatever the order of the ids, and names that place in the 28", func() {
		// Two sends at once: the id drawn second was appended first.
		l := newLog().
			add(chatStream, sent("m2", "1", "2", "drawn second")).
			add(chatStream, sent("m1", "1", "2", "drawn first")).
			add(chatStream, ack("2", "1", "m2"))
		store := openStore()
		acks := readAcks(fold(store, projections.Chats{}, l.envs, 0))
		Expect(statuses(store, "2")).To(Equal([]string{"m2:Read", "m1:Unread"}))
		Expect(unread(store, "2")).To(Equal(1))
		var readAck map[string]any
		Expect(json.Unmarshal(encoded(acks[0]), &readAck)).To(Succeed())
		Expect(readAck).To(HaveKeyWithValue("seq", BeNumerically("==", 0)))

		acks = readAcks(fold(store, projections.Chats{}, newLogAfter(l).add(chatStream, ack("2", "1", "m1")).envs, 0))
		Expect(statuses(store, "2")).To(Equal([]string{"m2:Read", "m1:Read"}))
		Expect(unread(store, "2")).To(Equal(0))
		Expect(json.Unmarshal(encoded(acks[0]), &readAck)).To(Succeed())
		Expect(readAck).To(HaveKeyWithValue("messageIds", ConsistOf("m1")))
		Expect(readAck).To(HaveKeyWithValue("seq", BeNumerically("==", 1)))
	})

	It("tells the friend with a 28 which of its messages a clear settled as Read, whatever the batch boundaries", func() {
		l := newLog().
			add(chatStream, sent("m1", "2", "1", "one")).
			add(chatStream, sent("m2", "2", "1", "two")).
			add(chatStream, sent("m3", "1", "2", "three")).
			add(chatStream, sent("m4", "2", "1", "four")).
			add("x0001.inbox-1", &chat.ChatCleared{Member: "1", Peer: "2", ChatType: "Friend", UpToSeq: 2, At: 1900})
		for _, size := range []int{0, 1} {
			store := openStore()
			acks := readAcks(fold(store, projections.Chats{}, l.envs, size))
			Expect(acks).To(HaveLen(1), "batches of %d", size)
			Expect(acks[0].To).To(ConsistOf("2"), "the member's own connections have the 30 and the 34")
			var readAck map[string]any
			Expect(json.Unmarshal(encoded(acks[0]), &readAck)).To(Succeed())
			Expect(readAck).To(HaveKeyWithValue("messageIds", ConsistOf("m1", "m2")))
			Expect(readAck).To(HaveKeyWithValue("messageId", "m2"))
			Expect(readAck).To(HaveKeyWithValue("seq", BeNumerically("==", 2)), "read up to the clear's point")
			Expect(readAck).To(HaveKeyWithValue("from", "1"))
			Expect(readAck).To(HaveKeyWithValue("to", "2"))
			Expect(statuses(store, "2")).To(Equal([]string{"m1:Read", "m2:Read", "m3:Unread", "m4:Unread"}))
			Expect(unread(store, "1")).To(Equal(1), "m4 came after the clear's point")
		}

		twice := newLog().
			add(chatStream, sent("m1", "2", "1", "one")).
			add("x0001.inbox-1", &chat.ChatCleared{Member: "1", Peer: "2", ChatType: "Friend", UpToSeq: 0, At: 1800}).
			add("x0001.inbox-1", &chat.ChatCleared{Member: "1", Peer: "2", ChatType: "Friend", UpToSeq: 0, At: 1900})
		store := openStore()
		Expect(cmds(fold(store, projections.Chats{}, twice.envs[:2], 0))).To(ContainElement(28))
		Expect(cmds(fold(store, projections.Chats{}, twice.envs[2:], 0))).NotTo(ContainElement(28), "nothing left to settle, nothing to tell")
	})

	It("tells the friend with a 28 naming only them which of its messages a delete-for-me settled as Read", func() {
		l := newLog().
			add(chatStream, sent("m1", "2", "1", "one")).
			add(chatStream, sent("m2", "2", "1", "two")).
			add(chatStream, sent("m3", "1", "2", "three")).
			add("x0001.inbox-1", &chat.MessagesHidden{Member: "1", Peer: "2", ChatType: "Friend", MessageIDs: []string{"m2", "m3"}, At: 1900})
		for _, size := range []int{0, 1} {
			store := openStore()
			acks := readAcks(fold(store, projections.Chats{}, l.envs, size))
			Expect(acks).To(HaveLen(1), "batches of %d", size)
			Expect(acks[0].To).To(ConsistOf("2"))
			var readAck map[string]any
			Expect(json.Unmarshal(encoded(acks[0]), &readAck)).To(Succeed())
			Expect(readAck).To(HaveKeyWithValue("messageIds", ConsistOf("m2")), "not m3, member 1's own")
			Expect(readAck).To(HaveKeyWithValue("messageId", ""), "m1, older, is still unread: no read-up-to mark")
			Expect(readAck).To(HaveKeyWithValue("from", "1"))
			Expect(readAck).To(HaveKeyWithValue("to", "2"))
			Expect(statuses(store, "2")).To(Equal([]string{"m1:Unread", "m2:Read", "m3:Unread"}))
			Expect(unread(store, "1")).To(Equal(1))
		}

		again := newLog().
			add(chatStream, sent("m1", "2", "1", "one")).
			add("x0001.inbox-1", &chat.MessagesHidden{Member: "1", Peer: "2", ChatType: "Friend", MessageIDs: []string{"m1"}, At: 1800}).
			add("x0001.inbox-2", &chat.MessagesHidden{Member: "2", Peer: "1", ChatType: "Friend", MessageIDs: []string{"m1"}, At: 1900})
		store := openStore()
		Expect(cmds(fold(store, projections.Chats{}, again.envs[:2], 0))).To(ContainElement(28))
		Expect(cmds(fold(store, projections.Chats{}, again.envs[2:], 0))).NotTo(ContainElement(28), "the sender hiding its own message settles nothing")
	})

	It("folds edits, recalls, deletions and clears alike whatever the batch boundaries", func() {
		inbox1 := "x0001.inbox-1"
		l := newLog().
			add(chatStream, sent("a", "1", "2", "one")).
			add(chatStream, sent("b", "1", "2", "two")).
			add(chatStream, &chat.MessageEdited{MessageID: "a", Editor: "1", Content: "one!", At: 1500}).
			add(chatStream, sent("c", "2", "1", "three")).
			add(chatStream, &chat.MessageRecalled{MessageID: "b", By: "1", At: 1600}).
			add(chatStream, sent("d", "1", "2", "four")).
			add(chatStream, sent("e", "2", "1", "five")).
			add(inbox1, &chat.MessagesHidden{Member: "1", Peer: "2", ChatType: "Friend", MessageIDs: []string{"e"}, At: 1700}).
			add(chatStream, &chat.MessagesDeleted{MessageIDs: []string{"d"}, By: "1", At: 1800}).
			add(chatStream, sent("f", "2", "1", "six")).
			add(inbox1, &chat.ChatCleared{Member: "1", Peer: "2", ChatType: "Friend", UpToSeq: 3, At: 1900})
		view := func(store projections.ReadStore, member string) []string {
			page, err := store.HistoryPage(ctx, as(member), "1_2", nil, projections.Up, 50)
			Expect(err).NotTo(HaveOccurred())
			var out []string
			for _, m := range page {
				out = append(out, m.ID+":"+m.Content+":"+m.Status)
			}
			ss, err := store.Sessions(ctx, member)
			Expect(err).NotTo(HaveOccurred())
			Expect(ss).To(HaveLen(1))
			return append(out, "last="+ss[0].LastMessageID+":"+ss[0].LastMessageContent, fmt.Sprint("unread=", ss[0].UnreadCount))
		}
		whole, single := openStore(), openStore()
		ds := fold(whole, projections.Chats{}, l.envs, 0)
		fold(single, projections.Chats{}, l.envs, 1)
		for _, m := range []string{"1", "2"} {
			Expect(view(single, m)).To(Equal(view(whole, m)), "member %s", m)
		}
		// Member 1 cleared up to c (seq 3) and hid e, which settles them as
		// Read; d is deleted for both.
		Expect(view(whole, "1")).To(Equal([]string{"f:six:Unread", "last=f:six", "unread=1"}))
		Expect(view(whole, "2")).To(Equal([]string{
			"a:one!:Unread", "b::Read", "c:three:Read", "e:five:Read", "f:six:Unread", "last=f:six", "unread=1",
		}))
		Expect(cmds(ds)).To(ContainElements(34, 16, 30))
	})
})
