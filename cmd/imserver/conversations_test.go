package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

// conversationItem is an item of the conversation list, or of its 49 push.
type conversationItem struct {
	ID                 string `json:"id"`
	FriendMemberID     string `json:"friendMemberId"`
	Name               string `json:"name"`
	LastMessageID      string `json:"lastMessageId"`
	LastMessageContent string `json:"lastMessageContent"`
	UnreadCount        int    `json:"unreadCount"`
	TopMessage         string `json:"topMessage"`
	TopTime            int64  `json:"topTime"`
	DND                string `json:"dnd"`
	MarkedUnread       string `json:"markedUnread"`
	Hide               string `json:"hide"`
	OperationType      string `json:"operationType"`
}

type changed struct {
	Position uint64 `json:"position"`
}

var _ = Describe("Conversation actions", func() {
	var s *testServer
	var alice, bob, carol member
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob, carol = s.register("alice001"), s.register("bob00001"), s.register("carol001")
		s.befriend(alice, bob)
		s.befriend(alice, carol)
	})

	friendOf := func(m member) map[string]string {
		return map[string]string{"chatType": "Friend", "friendMemberId": m.ID}
	}
	list := func(m member, after uint64) []conversationItem {
		GinkgoHelper()
		var out []conversationItem
		s.ok("GET", fmt.Sprintf("/v1/message/sessionInfo/list?after=%d", after), m.Token, nil, &out)
		return out
	}
	peers := func(items []conversationItem) []string {
		out := make([]string, len(items))
		for i, it := range items {
			out[i] = it.ID
		}
		return out
	}
	item := func(items []conversationItem, id string) conversationItem {
		GinkgoHelper()
		for _, it := range items {
			if it.ID == id {
				return it
			}
		}
		Fail("no item " + id)
		return conversationItem{}
	}
	change := func(method, path string, m member, body any) uint64 {
		GinkgoHelper()
		var c changed
		s.ok(method, path, m.Token, body, &c)
		return c.Position
	}
	pushed := func(c *wsclient.Client) conversationItem {
		GinkgoHelper()
		var it conversationItem
		Expect(json.Unmarshal(next(c, 49).Data, &it)).To(Succeed())
		return it
	}

	It("pins over REST, lists pinned conversations first and pushes AddTop and DelTop to all the member's devices", func() {
		s.send(bob, alice, "m1", "older")
		time.Sleep(5 * time.Millisecond) // a later millisecond
		last := s.send(carol, alice, "m2", "newer")
		Expect(peers(list(alice, last.Position))).To(Equal([]string{carol.ID, bob.ID}))
		a1, a2, b := s.dial(alice), s.dial(alice), s.dial(bob)

		pos := change("POST", "/v1/chat/topInfo/build", alice, friendOf(bob))
		for _, c := range []*wsclient.Client{a1, a2} {
			it := pushed(c)
			Expect(it.OperationType).To(Equal("AddTop"))
			Expect(it.FriendMemberID).To(Equal(bob.ID))
			Expect(it.TopMessage).To(Equal("Y"))
		}
		items := list(alice, pos)
		Expect(peers(items)).To(Equal([]string{bob.ID, carol.ID}))
		Expect(items[0].TopMessage).To(Equal("Y"))
		Expect(items[0].Name).NotTo(BeEmpty())
		Expect(items[1].TopMessage).To(Equal("N"))
		var pinned []conversationItem
		s.ok("GET", fmt.Sprintf("/v1/chat/topInfo/list?after=%d", pos), alice.Token, nil, &pinned)
		Expect(peers(pinned)).To(Equal([]string{bob.ID}))
		Expect(pinned[0].TopTime).To(BeNumerically(">", 0))

		Expect(change("POST", "/v1/chat/topInfo/build", alice, friendOf(bob))).To(Equal(pos), "a second pin appends nothing")

		pos = change("DELETE", "/v1/chat/topInfo/delete?chatType=Friend&friendMemberId="+bob.ID, alice, nil)
		Expect(pushed(a1).OperationType).To(Equal("DelTop"))
		Expect(peers(list(alice, pos))).To(Equal([]string{carol.ID, bob.ID}))
		pos = change("POST", "/v1/chat/topInfo/build", alice, friendOf(carol))
		pos = change("DELETE", "/v1/chat/topInfo/delete", alice, friendOf(carol))
		s.ok("GET", fmt.Sprintf("/v1/chat/topInfo/list?after=%d", pos), alice.Token, nil, &pinned)
		Expect(pinned).To(BeEmpty())

		// bob's devices heard nothing of alice's pins.
		s.send(alice, bob, "m3", "marker")
		Expect(next(b, 11).Cmd).To(Equal(11))
		Expect(b.Dropped()).To(BeZero())
	})

	It("refuses a pin past 10 with code 20065 and the spec's notice, in the request's language", func() {
		var pos uint64
		for i := range 10 {
			f := s.register(fmt.Sprintf("friend%03d", i))
			s.befriend(alice, f)
			pos = change("POST", "/v1/chat/topInfo/build", alice, friendOf(f))
		}
		status, env := s.call("POST", "/v1/chat/topInfo/build", alice.Token, friendOf(bob))
		Expect(status).To(Equal(http.StatusConflict))
		Expect(env.Code).To(Equal("20065"))
		Expect(env.Info).To(Equal("The number of pinned chats has reached its limit, cancel another pin and try again"))
		_, env = s.call("POST", "/v1/chat/topInfo/build", alice.Token, friendOf(bob), "Accept-Language", "zh-CN")
		Expect(env.Code).To(Equal("20065"))
		Expect(env.Info).To(Equal("置顶聊天数量已超过上限，请取消其他置顶后重试"))

		var pinned []conversationItem
		s.ok("GET", fmt.Sprintf("/v1/chat/topInfo/list?after=%d", pos), alice.Token, nil, &pinned)
		Expect(pinned).To(HaveLen(10))
		Expect(peers(pinned)).NotTo(ContainElement(bob.ID))
	})

	It("answers bad input and strangers with a clear 4xx and appends nothing", func() {
		dave := s.register("dave0001")
		before := change("PUT", "/v1/message/sessionInfo/markUnread", alice, friendOf(bob))
		cases := []struct {
			method, path string
			body         any
			status       int
			info         string
		}{
			{"POST", "/v1/chat/topInfo/build", `{"chatType":`, 400, "invalid request"},
			{"POST", "/v1/chat/topInfo/build", ``, 400, "invalid request"},
			{"POST", "/v1/chat/topInfo/build", map[string]string{"chatType": "Friend"}, 400, "give either a friendMemberId or a groupId that matches chatType"},
			{"POST", "/v1/chat/topInfo/build", map[string]string{"chatType": "Group", "friendMemberId": bob.ID}, 400, "give either a friendMemberId or a groupId that matches chatType"},
			{"POST", "/v1/chat/topInfo/build", map[string]string{"chatType": "Nope", "friendMemberId": bob.ID}, 400, "chatType must be Friend or Group"},
			{"POST", "/v1/chat/topInfo/build", map[string]string{"chatType": "Group", "groupId": "1"}, 404, "group not found"},
			{"POST", "/v1/chat/topInfo/build", friendOf(alice), 400, "Friend not in friend list or deleted"},
			{"POST", "/v1/chat/topInfo/build", friendOf(dave), 404, "Friend not in friend list or deleted"},
			{"POST", "/v1/chat/topInfo/build", map[string]string{"friendMemberId": "1234567890123456789"}, 404, "Friend not in friend list or deleted"},
			{"DELETE", "/v1/chat/topInfo/delete", nil, 400, "invalid request"},
			{"PUT", "/v1/message/sessionInfo/dnd", `{"friendMemberId":"` + bob.ID + `","on":"yes"}`, 400, "invalid request"},
			{"PUT", "/v1/message/sessionInfo/remove", friendOf(dave), 404, "Friend not in friend list or deleted"},
			{"PUT", "/v1/message/sessionInfo/markRead", map[string]string{"groupId": "1", "friendMemberId": bob.ID}, 400, "give either a friendMemberId or a groupId that matches chatType"},
		}
		for _, c := range cases {
			status, env := s.call(c.method, c.path, alice.Token, c.body)
			Expect(status).To(Equal(c.status), "%s %s %v: %s", c.method, c.path, c.body, env.Info)
			Expect(env.Code).To(Equal(fmt.Sprint(c.status)))
			Expect(env.Info).To(Equal(c.info), "%s %s %v", c.method, c.path, c.body)
		}
		after := change("PUT", "/v1/message/sessionInfo/markUnread", alice, friendOf(bob))
		Expect(after).To(Equal(before+1), "a refused request appended an event")
	})

	It("turns do-not-disturb on and off; a muted conversation still counts its unread messages", func() {
		a := s.dial(alice)
		pos := change("PUT", "/v1/message/sessionInfo/dnd", alice, map[string]any{"chatType": "Friend", "friendMemberId": bob.ID, "on": true})
		Expect(pushed(a)).To(SatisfyAll(
			HaveField("OperationType", "DndOn"), HaveField("DND", "Y")))
		Expect(item(list(alice, pos), bob.ID).DND).To(Equal("Y"))
		sent := s.send(bob, alice, "m1", "while muted")
		it := item(list(alice, sent.Position), bob.ID)
		Expect(it.UnreadCount).To(Equal(1))
		Expect(it.DND).To(Equal("Y"))

		pos = change("PUT", "/v1/message/sessionInfo/dnd", alice, map[string]any{"friendMemberId": bob.ID, "on": false})
		Expect(item(list(alice, pos), bob.ID).DND).To(Equal("N"))
	})

	It("marks unread, and marks read: the mark goes, the unread count goes to 0 and the friend gets 28", func() {
		first := s.send(bob, alice, "m1", "one")
		second := s.send(bob, alice, "m2", "two")
		b := s.dial(bob)
		pos := change("PUT", "/v1/message/sessionInfo/markUnread", alice, friendOf(bob))
		it := item(list(alice, pos), bob.ID)
		Expect(it.MarkedUnread).To(Equal("Y"))
		Expect(it.UnreadCount).To(Equal(2))

		pos = change("PUT", "/v1/message/sessionInfo/markRead", alice, friendOf(bob))
		Expect(pos).To(BeNumerically(">", second.Position))
		var ack struct {
			From       string   `json:"from"`
			MessageID  string   `json:"messageId"`
			MessageIDs []string `json:"messageIds"`
		}
		Expect(json.Unmarshal(next(b, 28).Data, &ack)).To(Succeed())
		Expect(ack.From).To(Equal(alice.ID))
		Expect(ack.MessageID).To(Equal(second.ID))
		Expect(ack.MessageIDs).To(ConsistOf(first.ID, second.ID))
		it = item(list(alice, pos), bob.ID)
		Expect(it.MarkedUnread).To(Equal("N"))
		Expect(it.UnreadCount).To(BeZero())

		// A read acknowledgement, as opening the chat sends, clears the mark too.
		change("PUT", "/v1/message/sessionInfo/markUnread", alice, friendOf(bob))
		third := s.send(bob, alice, "m3", "three")
		a := s.dial(alice)
		Expect(a.Send(27, map[string]any{"chatType": "Friend", "from": alice.ID, "to": bob.ID, "messageId": third.ID})).To(Succeed())
		Eventually(func() string { return item(list(alice, 0), bob.ID).MarkedUnread }).Should(Equal("N"))
	})

	It("removes a conversation until a newer message arrives, keeping its history", func() {
		sent := s.send(bob, alice, "m1", "kept")
		pos := change("PUT", "/v1/message/sessionInfo/remove", alice, friendOf(bob))
		Expect(peers(list(alice, pos))).NotTo(ContainElement(bob.ID))
		Expect(peers(list(bob, pos))).To(ContainElement(alice.ID), "the friend's list keeps it")
		var history []message
		s.ok("GET", "/v1/message/messagePush/history/list/page?friendMemberId="+bob.ID, alice.Token, nil, &history)
		Expect(history).To(HaveLen(1))
		Expect(history[0].ID).To(Equal(sent.ID))

		again := s.send(bob, alice, "m2", "back")
		it := item(list(alice, again.Position), bob.ID)
		Expect(it.UnreadCount).To(Equal(2))
		Expect(it.Hide).To(Equal("N"))
	})

	It("runs command 49 from the client: AddTop, DelTop, Del, Add and Report, with replies", func() {
		a1, a2 := s.dial(alice), s.dial(alice)
		request := func(op string) wsclient.Reply {
			GinkgoHelper()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			r, err := a1.Request(ctx, 49, map[string]any{"type": "Friend", "memberId": alice.ID, "friendMemberId": bob.ID, "operationType": op, "unreadCount": 0})
			Expect(err).NotTo(HaveOccurred())
			return r
		}
		r := request("AddTop")
		Expect(r.OK()).To(BeTrue(), r.Info)
		Expect(r.Cmd).To(Equal(49))
		var c changed
		Expect(json.Unmarshal(r.Data, &c)).To(Succeed())
		Expect(item(list(alice, c.Position), bob.ID).TopMessage).To(Equal("Y"))
		Expect(pushed(a2).OperationType).To(Equal("AddTop"))

		Expect(request("DelTop").OK()).To(BeTrue())
		Expect(pushed(a2).OperationType).To(Equal("DelTop"))

		r = request("Del")
		Expect(r.OK()).To(BeTrue())
		Expect(pushed(a2)).To(SatisfyAll(HaveField("OperationType", "Del"), HaveField("Hide", "Y")))
		Expect(json.Unmarshal(r.Data, &c)).To(Succeed())
		Expect(peers(list(alice, c.Position))).NotTo(ContainElement(bob.ID))

		r = request("Add")
		Expect(r.OK()).To(BeTrue())
		Expect(pushed(a2).OperationType).To(Equal("Add"))
		Expect(json.Unmarshal(r.Data, &c)).To(Succeed())
		Expect(peers(list(alice, c.Position))).To(ContainElement(bob.ID))

		Expect(request("Report").OK()).To(BeTrue())
		r = request("Sideways")
		Expect(r.Code).To(Equal("400"))
		Expect(r.Info).To(Equal("operationType must be Add, Del, Report, AddTop or DelTop"))
	})
})
