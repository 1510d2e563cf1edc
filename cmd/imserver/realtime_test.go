package main

import (
	"encoding/json"
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

type realtimeMessage struct {
	ID       string `json:"id"`
	From     string `json:"from"`
	To       string `json:"to"`
	Content  string `json:"content"`
	Position uint64 `json:"position"`
}

type realtimePage struct {
	Records  []realtimeMessage `json:"records"`
	Since    uint64            `json:"since"`
	Position uint64            `json:"position"`
	HasMore  bool              `json:"hasMore"`
}

var _ = Describe("The realtime list and its acknowledgement", func() {
	const (
		list = "/v1/message/messagePush/realtime/list"
		ack  = "/v1/message/messagePush/realtime/messageAck"
	)
	var s *testServer
	var alice, bob, carol member
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob, carol = s.register("alice001"), s.register("bob00001"), s.register("carol001")
		s.befriend(alice, bob)
		s.befriend(alice, carol)
		s.befriend(bob, carol)
	})
	realtime := func(m member, query string) realtimePage {
		GinkgoHelper()
		var p realtimePage
		s.ok("GET", list+query, m.Token, nil, &p)
		return p
	}
	contents := func(p realtimePage) []string {
		out := []string{}
		for _, m := range p.Records {
			out = append(out, m.Content)
		}
		return out
	}

	It("lists what a device missed across chats, oldest first, pages it, and starts after the device's acknowledgement", func() {
		// A device that never acknowledged starts now: nothing missed.
		start := realtime(alice, "")
		Expect(start.Records).To(BeEmpty())
		Expect(start.Position).NotTo(BeZero())

		s.send(bob, alice, "u1", "one")
		s.send(carol, alice, "u2", "two")
		s.send(alice, bob, "u3", "three")
		last := s.send(bob, alice, "u4", "four")
		s.send(bob, carol, "u5", "not alice's")

		p := realtime(alice, fmt.Sprintf("?since=%d", start.Position))
		Expect(contents(p)).To(Equal([]string{"one", "two", "three", "four"}))
		Expect(p.HasMore).To(BeFalse())
		Expect(p.Position).To(BeNumerically(">=", last.Position))

		p = realtime(alice, fmt.Sprintf("?since=%d&pageSize=3", start.Position))
		Expect(contents(p)).To(Equal([]string{"one", "two", "three"}))
		Expect(p.HasMore).To(BeTrue())
		Expect(p.Position).To(Equal(p.Records[2].Position))
		p = realtime(alice, fmt.Sprintf("?since=%d&pageSize=3", p.Position))
		Expect(contents(p)).To(Equal([]string{"four"}))
		Expect(p.HasMore).To(BeFalse())

		// Acknowledged up to "two": this device's list starts after it;
		// another login of alice is a device of its own.
		var d struct{ Delivered, Position uint64 }
		s.ok("POST", ack, alice.Token, map[string]any{"messageIds": []string{realtime(alice, fmt.Sprintf("?since=%d", start.Position)).Records[1].ID}}, &d)
		Expect(d.Position).NotTo(BeZero())
		Expect(contents(realtime(alice, ""))).To(Equal([]string{"three", "four"}))
		other := s.login("alice001")
		Expect(realtime(other, "").Records).To(BeEmpty())

		// An acknowledgement behind the device's changes nothing.
		var again struct{ Delivered, Position uint64 }
		s.ok("POST", ack, alice.Token, map[string]any{"position": start.Position}, &again)
		Expect(again.Position).To(BeZero())
		Expect(again.Delivered).To(Equal(d.Delivered))
		s.ok("POST", ack, alice.Token, map[string]any{"position": last.Position}, nil)
		Expect(realtime(alice, "").Records).To(BeEmpty())
	})

	It("refuses bad input in the envelope and records nothing", func() {
		m := s.send(bob, carol, "u9", "theirs")
		head := realtime(alice, "").Position
		s.refused("GET", list+"?since=-1", alice, nil, 400, "a position is a whole number")
		s.refused("GET", list+"?pageSize=501", alice, nil, 400, "invalid request")
		s.refused("POST", ack, alice, map[string]any{}, 400, "give the position or the ids of the messages received")
		s.refused("POST", ack, alice, map[string]any{"position": head + 1000}, 400, "position is ahead of the event log")
		s.refused("POST", ack, alice, map[string]any{"messageIds": []string{m.ID}}, 404, "message not found")
		s.refused("POST", ack, alice, map[string]any{"position": "1"}, 400, "invalid request")
		code, _ := s.call("POST", ack, "", map[string]any{"position": 1})
		Expect(code).To(Equal(http.StatusUnauthorized))
		var p realtimePage
		s.ok("GET", list, alice.Token, nil, &p)
		Expect(p.Since).To(Equal(head))
	})
})

var _ = Describe("The augmented conversation list", func() {
	It("puts the fixed entries first, the notifications entry with its unread counts and newest notice", func() {
		s := startServer(GinkgoT().TempDir())
		alice, bob := s.register("alice001"), s.register("bob00001")
		s.befriend(alice, bob)
		at := s.send(bob, alice, "u1", "hello").Position
		fav := s.written("POST", "/v1/chat/favoriteInfo/build", alice, map[string]string{"messageId": s.send(bob, alice, "u2", "keep me").ID})

		var items []struct {
			ID                 string `json:"id"`
			ChatType           string `json:"chatType"`
			FriendMemberID     string `json:"friendMemberId"`
			LastMessageContent string `json:"lastMessageContent"`
			LastMessageTime    int64  `json:"lastMessageTime"`
			UnreadCount        int    `json:"unreadCount"`
			NoticeCounts       *noticeCounts
		}
		code, env := s.call("GET", fmt.Sprintf("/v1/message/sessionInfo/list/augment?after=%d", max(at, fav)), alice.Token, nil)
		Expect(code).To(Equal(http.StatusOK))
		Expect(json.Unmarshal(env.Data, &items)).To(Succeed())
		Expect(items).To(HaveLen(4))
		Expect(items[0].ID).To(Equal("001"))
		Expect(items[0].ChatType).To(Equal("Collect"))
		Expect(items[0].LastMessageContent).To(Equal("keep me"))
		Expect(items[1].ID).To(Equal("002"))
		Expect(items[1].ChatType).To(Equal("GroupSend"))
		Expect(items[1].LastMessageContent).To(BeEmpty())
		Expect(items[2].ID).To(Equal("003"))
		Expect(items[2].ChatType).To(Equal("SystemAlert"))
		Expect(items[2].UnreadCount).To(Equal(1))
		Expect(items[2].LastMessageContent).To(Equal("bob00001 accepted your friend request"))
		Expect(*items[2].NoticeCounts).To(Equal(noticeCounts{Total: 1, Friend: 1}))
		Expect(items[3].FriendMemberID).To(Equal(bob.ID))
		Expect(items[3].UnreadCount).To(Equal(2))
	})
})
