package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

// lifeMessage is a history item with the fields of the message life.
type lifeMessage struct {
	ID              string `json:"id"`
	From            string `json:"from"`
	MsgType         string `json:"msgType"`
	Content         string `json:"content"`
	MsgStatus       string `json:"msgStatus"`
	ParentMessageID string `json:"parentMessageId"`
	Edited          bool   `json:"edited"`
	EditTime        int64  `json:"editTime"`
	Recalled        bool   `json:"recalled"`
	ForwardBatchID  string `json:"forwardBatchId"`
	ForwardFrom     string `json:"forwardFrom"`
	ForwardType     string `json:"forwardType"`
}

// change is a pushed 16 or 34.
type change struct {
	ID            string   `json:"id"`
	MessageIDs    []string `json:"messageIds"`
	Content       string   `json:"content"`
	OperationType string   `json:"operationType"`
	Scope         string   `json:"scope"`
	From          string   `json:"from"`
	To            string   `json:"to"`
}

var _ = Describe("The message life", func() {
	var s *testServer
	var alice, bob, carol member
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob, carol = s.register("alice001"), s.register("bob00001"), s.register("carol001")
		s.befriend(alice, bob)
		s.befriend(alice, carol)
	})

	history := func(m member, peer member, after uint64) []lifeMessage {
		GinkgoHelper()
		var page []lifeMessage
		s.ok("GET", fmt.Sprintf("/v1/message/messagePush/history/list/page?friendMemberId=%s&pageSize=50&after=%d", peer.ID, after), m.Token, nil, &page)
		return page
	}
	ids := func(ms []lifeMessage) []string {
		out := make([]string, len(ms))
		for i, m := range ms {
			out[i] = m.ID
		}
		return out
	}
	sessionWith := func(m, peer member, after uint64) conversationItem {
		GinkgoHelper()
		var items []conversationItem
		s.ok("GET", fmt.Sprintf("/v1/message/sessionInfo/list?after=%d", after), m.Token, nil, &items)
		for _, it := range items {
			if it.ID == peer.ID {
				return it
			}
		}
		Fail("no session with " + peer.Account)
		return conversationItem{}
	}
	push := func(c *wsclient.Client, cmd int) change {
		GinkgoHelper()
		var ch change
		Expect(json.Unmarshal(next(c, cmd).Data, &ch)).To(Succeed())
		return ch
	}

	It("edits one's own message for both members, live and in history", func() {
		a, b := s.dial(alice), s.dial(bob)
		sent := s.send(alice, bob, "e-1", "helo")
		pos := s.written("PUT", "/v1/message/modify", alice, map[string]string{"id": sent.ID, "content": "hello"})
		for _, c := range []*wsclient.Client{a, b} {
			ch := push(c, 34)
			Expect([]string{ch.ID, ch.Content, ch.OperationType}).To(Equal([]string{sent.ID, "hello", "edit"}))
		}
		for _, m := range [][]lifeMessage{history(alice, bob, pos), history(bob, alice, pos)} {
			Expect(m).To(HaveLen(1))
			Expect(m[0].Content).To(Equal("hello"))
			Expect(m[0].Edited).To(BeTrue())
		}
		Expect(sessionWith(bob, alice, pos).LastMessageContent).To(Equal("hello"))

		s.refused("PUT", "/v1/message/modify", bob, map[string]string{"id": sent.ID, "content": "mine now"}, http.StatusForbidden, "only the sender can do this to a message")
		s.refused("PUT", "/v1/message/modify", alice, map[string]string{"id": sent.ID, "content": "  "}, http.StatusBadRequest, "Conversation content empty")
		s.refused("PUT", "/v1/message/modify", alice, map[string]string{"id": "1234567890123456789", "content": "x"}, http.StatusNotFound, "message not found")
		s.refused("PUT", "/v1/message/modify", carol, map[string]string{"id": sent.ID, "content": "x"}, http.StatusNotFound, "message not found")
		s.refused("PUT", "/v1/message/modify", alice, `{"id":`, http.StatusBadRequest, "invalid request")
		Expect(history(alice, bob, pos)[0].Content).To(Equal("hello"))
	})

	It("recalls one's own message: both see the recall, the preview and unread count follow", func() {
		a, b := s.dial(alice), s.dial(bob)
		sent := s.send(alice, bob, "r-1", "oops")
		Expect(sessionWith(bob, alice, sent.Position).UnreadCount).To(Equal(1))
		pos := s.written("PUT", "/v1/message/recall", alice, map[string]string{"id": sent.ID})
		for _, c := range []*wsclient.Client{a, b} {
			ch := push(c, 16)
			Expect(ch.MessageIDs).To(Equal([]string{sent.ID}))
			Expect(ch.OperationType).To(Equal("Recall"))
		}
		m := history(bob, alice, pos)[0]
		Expect(m.Recalled).To(BeTrue())
		Expect(m.Content).To(BeEmpty())
		item := sessionWith(bob, alice, pos)
		Expect(item.LastMessageContent).To(Equal("[recalled]"))
		Expect(item.UnreadCount).To(Equal(0))

		s.refused("PUT", "/v1/message/modify", alice, map[string]string{"id": sent.ID, "content": "again"}, http.StatusConflict, "this message has been recalled")
		theirs := s.send(bob, alice, "r-2", "not yours")
		s.refused("PUT", "/v1/message/recall", alice, map[string]string{"id": theirs.ID}, http.StatusForbidden, "only the sender can do this to a message")
	})

	It("deletes for oneself: gone from one's own history only, with a push to one's own devices and a 28 to the friend naming the message it settled as Read", func() {
		a, b := s.dial(alice), s.dial(bob)
		one := s.send(bob, alice, "d-1", "first")
		two := s.send(bob, alice, "d-2", "second")
		pos := s.written("POST", "/v1/message/deleteMessage", alice, map[string][]string{"messageIds": {two.ID}})
		ch := push(a, 16)
		Expect([]string{ch.OperationType, ch.Scope}).To(Equal([]string{"Delete", "Me"}))
		Expect(ch.MessageIDs).To(Equal([]string{two.ID}))
		var read readReceipt
		Expect(json.Unmarshal(next(b, 28).Data, &read)).To(Succeed())
		Expect([]string{read.From, read.To, read.MessageID}).To(Equal([]string{alice.ID, bob.ID, ""}), "no read-up-to mark: the older message is still unread")
		Expect(read.MessageIDs).To(Equal([]string{two.ID}))
		Expect(ids(history(alice, bob, pos))).To(Equal([]string{one.ID}))
		statuses := statusByID(history(bob, alice, pos))
		Expect(statuses).To(Equal(map[string]string{one.ID: "Unread", two.ID: "Read"}), "as bob's 28 told it")
		item := sessionWith(alice, bob, pos)
		Expect(item.LastMessageID).To(Equal(one.ID))
		Expect(item.UnreadCount).To(Equal(1))

		head := s.head()
		var again struct {
			MessageIDs []string
			Position   uint64
		}
		s.ok("POST", "/v1/message/deleteMessage", alice.Token, map[string][]string{"messageIds": {two.ID}}, &again)
		Expect(again.MessageIDs).To(Equal([]string{two.ID}), "a delete repeated is answered as done")
		Expect(again.Position).To(BeZero())
		Expect(s.head()).To(Equal(head), "and appends nothing")

		s.refused("POST", "/v1/message/deleteMessage", carol, map[string][]string{"messageIds": {one.ID}}, http.StatusNotFound, "message not found")
		s.refused("POST", "/v1/message/deleteMessage", alice, map[string][]string{"messageIds": {}}, http.StatusBadRequest, "select the messages first")
		many := make([]string, 101)
		for i := range many {
			many[i] = one.ID
		}
		s.refused("POST", "/v1/message/deleteMessage", alice, map[string][]string{"messageIds": many}, http.StatusBadRequest, "at most 100 messages at once")
	})

	It("tells the friend once when a member deletes its message for itself twice at once, and never when a stranger or another tenant's member tries", func() {
		s.ok("POST", "/v1/admin/tenant/create", s.operator().Token, map[string]string{"code": "x0002", "name": "B"}, nil)
		foreigner := s.registerIn("x0002", "foreign1")
		b := s.dial(bob)
		unopened := s.send(bob, alice, "dx-1", "never opened")
		body := `{"messageIds":["` + unopened.ID + `"]}`
		for _, outsider := range []member{carol, foreigner} {
			refused := atOnce(2, func(int) answer { return s.rawCall("POST", "/v1/message/deleteMessage", outsider.Token, body) })
			Expect(statuses(refused)).To(Equal(map[int]int{http.StatusNotFound: 2}), "carol is alice's friend, not in alice and bob's chat; the foreigner is of another tenant")
			for _, a := range refused {
				Expect(a.body).NotTo(ContainSubstring("never opened"))
			}
		}
		answers := statuses(atOnce(2, func(int) answer { return s.rawCall("POST", "/v1/message/deleteMessage", alice.Token, body) }))
		Expect(answers).To(Equal(map[int]int{http.StatusOK: 2}), "the second finds the message deleted already, or deletes it again")
		after := s.send(alice, bob, "dx-2", "after the deletes")
		for _, outsider := range []member{carol, foreigner} {
			refused := s.rawCall("POST", "/v1/message/deleteMessage", outsider.Token, body)
			Expect(refused.status).To(Equal(http.StatusNotFound), "what alice deleted for herself is hers alone to find again")
			Expect(refused.body).NotTo(ContainSubstring("never opened"))
		}

		Expect(readsBefore(b, after.ID)).To(Equal([][]string{{unopened.ID}}))
	})

	It("deletes one's own messages for everyone; the friend's unread count drops", func() {
		a, b := s.dial(alice), s.dial(bob)
		keep := s.send(alice, bob, "x-1", "keep")
		gone := s.send(alice, bob, "x-2", "gone")
		path := "/v1/chat/friendInfo/deleteRemoteFriendMessage"
		pos := s.written("DELETE", path, alice, map[string]any{"friendMemberId": bob.ID, "messageIds": []string{gone.ID}, "deleteMessageType": "Bilateral"})
		for _, c := range []*wsclient.Client{a, b} {
			ch := push(c, 16)
			Expect([]string{ch.OperationType, ch.Scope}).To(Equal([]string{"Delete", "Everyone"}))
		}
		for _, page := range [][]lifeMessage{history(alice, bob, pos), history(bob, alice, pos)} {
			Expect(ids(page)).To(Equal([]string{keep.ID}))
		}
		item := sessionWith(bob, alice, pos)
		Expect(item.UnreadCount).To(Equal(1))
		Expect(item.LastMessageContent).To(Equal("keep"))

		s.refused("DELETE", path, bob, map[string]any{"friendMemberId": alice.ID, "messageIds": []string{keep.ID}}, http.StatusForbidden, "only the sender can do this to a message")
		s.refused("DELETE", path, alice, map[string]any{"friendMemberId": carol.ID, "messageIds": []string{keep.ID}}, http.StatusNotFound, "message not found")
		s.refused("DELETE", path, alice, map[string]any{"friendMemberId": bob.ID, "messageIds": []string{keep.ID}, "deleteMessageType": "Both"}, http.StatusBadRequest, "deleteMessageType must be Bilateral or Unilateral")
		// The query form, Unilateral: for alice only.
		pos = s.written("DELETE", path+"?deleteMessageType=Unilateral&messageIds="+keep.ID, alice, nil)
		Expect(history(alice, bob, pos)).To(BeEmpty())
		Expect(ids(history(bob, alice, pos))).To(Equal([]string{keep.ID}))
		Expect(sessionWith(alice, bob, pos).LastMessageContent).To(BeEmpty())
	})

	It("replies to a message of the same chat only", func() {
		parent := s.send(bob, alice, "p-1", "question")
		var r sendResult
		s.ok("PUT", "/v1/message/reply", alice.Token, map[string]string{"uuid": "p-2", "chatType": "Friend", "to": bob.ID, "content": "answer", "parentMessageId": parent.ID}, &r)
		page := history(bob, alice, r.Position)
		Expect(page[1].MsgType).To(Equal("Reply"))
		Expect(page[1].ParentMessageID).To(Equal(parent.ID))

		other := s.send(carol, alice, "p-3", "elsewhere")
		s.refused("PUT", "/v1/message/reply", alice, map[string]string{"uuid": "p-4", "chatType": "Friend", "to": bob.ID, "content": "x", "parentMessageId": other.ID}, http.StatusBadRequest, "the message replied to is not in this conversation")
		s.refused("POST", "/v1/message/send", alice, map[string]string{"uuid": "p-5", "chatType": "Friend", "to": bob.ID, "msgType": "Reply", "content": "x"}, http.StatusBadRequest, "the message replied to is not in this conversation")
	})

	It("forwards records to friends once per uuid; deleting one forwarded message deletes its batch", func() {
		c := s.dial(carol)
		m1 := s.send(bob, alice, "f-1", "look")
		m2 := s.send(alice, bob, "f-2", "at this")
		body := map[string]any{"uuid": "fw-1", "messageIds": []string{m1.ID, m2.ID}, "targets": []map[string]string{{"chatType": "Friend", "to": carol.ID}}}
		var fw struct {
			Messages []struct {
				ID, To   string
				Position uint64
			}
		}
		s.ok("POST", "/v1/message/forward", alice.Token, body, &fw)
		Expect(fw.Messages).To(HaveLen(2))
		for i := range 2 {
			var m lifeMessage
			Expect(json.Unmarshal(next(c, 11).Data, &m)).To(Succeed())
			Expect(m.ID).To(Equal(fw.Messages[i].ID))
		}
		page := history(carol, alice, fw.Messages[1].Position)
		Expect(page).To(HaveLen(2))
		Expect([]string{page[0].MsgType, page[0].Content, page[0].ForwardFrom, page[0].ForwardType}).To(Equal([]string{"Forward", "look", bob.ID, "Text"}))
		Expect(page[1].ForwardBatchID).To(Equal(page[0].ID))
		Expect(sessionWith(carol, alice, fw.Messages[1].Position).LastMessageContent).To(Equal("at this"), "a forward's preview is what it forwarded")

		var again struct{ Messages []struct{ ID string } }
		s.ok("POST", "/v1/message/forward", alice.Token, body, &again)
		Expect(again.Messages[0].ID).To(Equal(fw.Messages[0].ID))
		Expect(history(carol, alice, 0)).To(HaveLen(2))

		pos := s.written("DELETE", "/v1/chat/friendInfo/deleteRemoteFriendMessage", alice, map[string]any{"friendMemberId": carol.ID, "messageIds": []string{fw.Messages[1].ID}})
		Expect(history(carol, alice, pos)).To(BeEmpty())

		eleven := make([]string, 11)
		for i := range eleven {
			eleven[i] = m1.ID
		}
		target := []map[string]string{{"chatType": "Friend", "to": carol.ID}}
		s.refused("POST", "/v1/message/forward", alice, map[string]any{"uuid": "fw-2", "messageIds": eleven, "targets": target}, http.StatusBadRequest, "A maximum of 10 records can be forwarded at once!")
		s.refused("POST", "/v1/message/forward", alice, map[string]any{"uuid": "fw-3", "messageIds": []string{}, "targets": target}, http.StatusBadRequest, "Please select the records to forward")
		s.refused("POST", "/v1/message/forward", alice, map[string]any{"uuid": "fw-4", "messageIds": []string{"local_12"}, "targets": target}, http.StatusBadRequest, "This message cannot be forwarded yet")
		s.refused("POST", "/v1/message/forward", alice, map[string]any{"uuid": "fw-5", "messageIds": []string{m1.ID}}, http.StatusBadRequest, "Please select who to forward to")
		s.ok("PUT", "/v1/message/recall", alice.Token, map[string]string{"id": m2.ID}, nil)
		s.refused("POST", "/v1/message/forward", alice, map[string]any{"uuid": "fw-6", "messageIds": []string{m2.ID}, "targets": target}, http.StatusBadRequest, "This message cannot be forwarded yet")
		dave := s.register("dave0001")
		s.refused("POST", "/v1/message/forward", alice, map[string]any{"uuid": "fw-7", "messageIds": []string{m1.ID}, "targets": []map[string]string{{"chatType": "Friend", "to": dave.ID}}}, http.StatusForbidden, "You are not yet a friend, add first")
	})

	It("shares a contact card and finds messages by id", func() {
		r := func() sendResult {
			var r sendResult
			s.ok("POST", "/v1/message/shareContact", alice.Token, map[string]string{"uuid": "c-1", "chatType": "Friend", "to": bob.ID, "memberId": carol.ID}, &r)
			return r
		}()
		var got []lifeMessage
		s.ok("POST", fmt.Sprintf("/v1/message/messagePush/getMessageByIds?after=%d", r.Position), bob.Token, []string{r.ID, "1234567890123456789"}, &got)
		Expect(got).To(HaveLen(1))
		Expect(got[0].MsgType).To(Equal("ShareContact"))
		var card struct{ MemberID, Name, Account string }
		Expect(json.Unmarshal([]byte(got[0].Content), &card)).To(Succeed())
		Expect([]string{card.MemberID, card.Account}).To(Equal([]string{carol.ID, "carol001"}))

		s.ok("POST", "/v1/message/messagePush/getMessageByIds", carol.Token, map[string][]string{"ids": {r.ID}}, &got)
		Expect(got).To(BeEmpty(), "the card is of carol, the message is alice's and bob's")
		s.refused("POST", "/v1/message/shareContact", alice, map[string]string{"uuid": "c-2", "chatType": "Friend", "to": bob.ID, "memberId": "1234567890123456789"}, http.StatusNotFound, "member not found")
		s.refused("POST", "/v1/message/messagePush/getMessageByIds", alice, []string{}, http.StatusBadRequest, "select the messages first")
	})

	It("clears one's history of a chat up to now, with a 30 to one's own devices and a 28 to the friend for what it settled as Read", func() {
		a, b := s.dial(alice), s.dial(bob)
		old := s.send(bob, alice, "h-1", "old")
		s.send(alice, bob, "h-2", "older reply")
		var cleared struct {
			UpTo     int64
			Position uint64
		}
		s.ok("POST", "/v1/message/clearHistory", alice.Token, map[string]string{"chatType": "Friend", "friendMemberId": bob.ID}, &cleared)
		f := next(a, 30)
		Expect(string(f.Data)).To(ContainSubstring(bob.ID))
		var read readReceipt
		Expect(json.Unmarshal(next(b, 28).Data, &read)).To(Succeed())
		Expect(read.From).To(Equal(alice.ID))
		Expect(read.MessageIDs).To(Equal([]string{old.ID}), "bob's message alice never opened, not alice's own reply")
		Expect(read.MessageID).To(Equal(old.ID))
		Expect(history(alice, bob, cleared.Position)).To(BeEmpty())
		statuses := statusByID(history(bob, alice, cleared.Position))
		Expect(statuses).To(HaveLen(2))
		Expect(statuses).To(HaveKeyWithValue(old.ID, "Read"), "as bob's 28 told it")
		item := sessionWith(alice, bob, cleared.Position)
		Expect(item.LastMessageContent).To(BeEmpty())
		Expect(item.UnreadCount).To(Equal(0))

		fresh := s.send(bob, alice, "h-3", "new")
		Expect(ids(history(alice, bob, fresh.Position))).To(Equal([]string{fresh.ID}))
		s.refused("POST", "/v1/message/clearHistory", alice, map[string]string{"chatType": "Friend"}, http.StatusBadRequest, "Friend not in friend list or deleted")
		s.refused("POST", "/v1/message/clearHistory", alice, map[string]string{"chatType": "Nope", "friendMemberId": bob.ID}, http.StatusBadRequest, "chatType must be Friend or Group")
	})

	It("settles the friend's messages once when a member clears twice at once: both answered, one 28", func() {
		b := s.dial(bob)
		old := s.send(bob, alice, "hx-1", "never opened")
		body := `{"chatType":"Friend","friendMemberId":"` + bob.ID + `"}`
		answers := atOnce(2, func(int) answer { return s.rawCall("POST", "/v1/message/clearHistory", alice.Token, body) })
		Expect(statuses(answers)).To(Equal(map[int]int{http.StatusOK: 2}))
		after := s.send(alice, bob, "hx-2", "after the clears")

		Expect(readsBefore(b, after.ID)).To(Equal([][]string{{old.ID}}))
	})

	It("refuses clears naming the victims from another tenant's member, a stranger and a group's non-member, twice at once: no event, no 28, nothing settled", func() {
		s.ok("POST", "/v1/admin/tenant/create", s.operator().Token, map[string]string{"code": "x0002", "name": "B"}, nil)
		foreigner := s.registerIn("x0002", "foreign1")
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Secret Club", "memberIds": []string{bob.ID}}, &created)
		a, b := s.dial(alice), s.dial(bob)
		secret := s.send(alice, bob, "v-1", "the secret")
		next(b, 11)
		head := s.head()

		// carol is alice's friend but not bob's, and not in the group.
		bodies := []string{
			`{"chatType":"Friend","friendMemberId":"` + alice.ID + `"}`,
			`{"chatType":"Friend","friendMemberId":"` + bob.ID + `"}`,
			`{"chatType":"Group","groupId":"` + created.GroupID + `"}`,
		}
		for _, attacker := range []member{foreigner, carol} {
			for _, body := range bodies {
				if attacker.ID == carol.ID && strings.Contains(body, alice.ID) {
					continue // carol's own chat with alice is hers to clear
				}
				answers := atOnce(2, func(int) answer { return s.rawCall("POST", "/v1/message/clearHistory", attacker.Token, body) })
				for _, an := range answers {
					Expect(an.err).NotTo(HaveOccurred())
					Expect(an.status).To(BeNumerically(">=", 400), "%s: %s", body, an.body)
					Expect(an.status).To(BeNumerically("<", 500), "%s: %s", body, an.body)
					for _, leak := range []string{"the secret", secret.ID, "Secret Club"} {
						Expect(an.body).NotTo(ContainSubstring(leak))
					}
				}
			}
		}
		Expect(s.head()).To(Equal(head), "no clear appended")
		for _, f := range pushesWithin(300*time.Millisecond, a, b) {
			Expect(f.Cmd).NotTo(BeElementOf(28, 29, 30), "pushed to a victim: %s", f.Data)
		}
		statuses := statusByID(history(alice, bob, 0))
		Expect(statuses).To(Equal(map[string]string{secret.ID: "Unread"}), "nothing settled as Read")
	})

	It("records mentions until acknowledged, by message or by conversation, and resolves them in previews", func() {
		mention := func(from, to member, uuid, content string) sendResult {
			GinkgoHelper()
			var r sendResult
			s.ok("POST", "/v1/message/send", from.Token, map[string]string{"uuid": uuid, "chatType": "Friend", "to": to.ID, "msgType": "AtText", "content": content}, &r)
			return r
		}
		type at struct{ MessageID, SessionID, SessionType string }
		mentions := func(m member, after uint64) []at {
			GinkgoHelper()
			var out []at
			s.ok("GET", fmt.Sprintf("/v1/message/messagePush/at/list?after=%d", after), m.Token, nil, &out)
			return out
		}
		one := mention(alice, bob, "at-1", "@["+bob.ID+"] look")
		two := mention(alice, bob, "at-2", "@[0000000000000000000] everyone")
		mention(alice, bob, "at-3", "@["+carol.ID+"] not bob")
		Expect(mentions(bob, two.Position+1)).To(Equal([]at{{one.ID, alice.ID, "Friend"}, {two.ID, alice.ID, "Friend"}}))
		Expect(mentions(alice, 0)).To(BeEmpty())

		var items []struct {
			ID, LastMessageContent, AtContent string
			AtCount                           int
		}
		s.ok("GET", "/v1/message/sessionInfo/list", bob.Token, nil, &items)
		Expect(items[0].AtCount).To(Equal(2))
		Expect(items[0].AtContent).To(Equal("[You were mentioned]"))
		Expect(items[0].LastMessageContent).To(Equal("@carol001 not bob"))

		pos := s.written("POST", "/v1/message/messagePush/at/ack/messageIds", bob, map[string][]string{"messageIds": {one.ID}})
		Expect(mentions(bob, pos)).To(Equal([]at{{two.ID, alice.ID, "Friend"}}))
		pos = s.written("POST", "/v1/message/messagePush/at/ack/sessionId", bob, map[string]string{"sessionId": alice.ID})
		Expect(mentions(bob, pos)).To(BeEmpty())

		three := mention(alice, bob, "at-4", "@["+bob.ID+"] again")
		Expect(mentions(bob, three.Position)).To(HaveLen(1))
		pos = s.written("PUT", "/v1/message/recall", alice, map[string]string{"id": three.ID})
		Expect(mentions(bob, pos)).To(BeEmpty())

		s.refused("POST", "/v1/message/messagePush/at/ack/sessionId", bob, map[string]string{}, http.StatusBadRequest, "invalid request")
		s.refused("POST", "/v1/message/messagePush/at/ack/messageIds", bob, map[string][]string{"messageIds": {}}, http.StatusBadRequest, "select the messages first")
	})

	It("refuses bad input to every call of the message life with a clear 4xx and appends nothing", func() {
		dave := s.register("dave0002")
		mine := s.send(alice, bob, "b-1", "mine")
		theirs := s.send(bob, alice, "b-2", "theirs")
		before := s.send(alice, bob, "b-3", "before").Position
		unknown := "1234567890123456789"
		target := []map[string]string{{"chatType": "Friend", "to": bob.ID}}
		cases := []struct {
			method, path string
			body         any
			status       int
			info         string
		}{
			{"PUT", "/v1/message/modify", `{"id":`, 400, "invalid request"},
			{"PUT", "/v1/message/modify", map[string]string{"content": "x"}, 400, "message not found"},
			{"PUT", "/v1/message/modify", map[string]string{"id": theirs.ID, "content": "x"}, 403, "only the sender can do this to a message"},
			{"PUT", "/v1/message/modify", map[string]string{"id": mine.ID, "content": strings.Repeat("x", 65<<10)}, 413, "message content too long"},
			{"PUT", "/v1/message/recall", map[string]string{"id": unknown}, 404, "message not found"},
			{"PUT", "/v1/message/recall", `[]`, 400, "invalid request"},
			{"POST", "/v1/message/deleteMessage", map[string]any{"messageIds": []string{mine.ID, unknown}}, 404, "message not found"},
			{"POST", "/v1/message/deleteMessage", map[string]any{"messageIds": "x"}, 400, "invalid request"},
			{"DELETE", "/v1/chat/friendInfo/deleteRemoteFriendMessage", map[string]any{"messageIds": []string{mine.ID}}, 400, "Friend not in friend list or deleted"},
			{"DELETE", "/v1/chat/friendInfo/deleteRemoteFriendMessage", map[string]any{"friendMemberId": bob.ID, "messageIds": []string{theirs.ID}}, 403, "only the sender can do this to a message"},
			{"PUT", "/v1/message/reply", map[string]string{"uuid": "b-4", "chatType": "Friend", "to": bob.ID, "content": "x", "parentMessageId": unknown}, 400, "the message replied to is not in this conversation"},
			{"PUT", "/v1/message/reply", map[string]string{"uuid": "b-5", "chatType": "Friend", "to": bob.ID, "msgType": "Text", "content": "x"}, 400, "message type not supported"},
			{"POST", "/v1/message/forward", map[string]any{"messageIds": []string{mine.ID}, "targets": target}, 400, "uuid is required"},
			{"POST", "/v1/message/forward", map[string]any{"uuid": "b-6", "messageIds": []string{mine.ID}, "targets": []map[string]string{{"chatType": "Group", "to": "1"}}}, 404, "group not found"},
			{"POST", "/v1/message/forward", map[string]any{"uuid": "b-7", "messageIds": []string{unknown}, "targets": target}, 404, "message not found"},
			{"POST", "/v1/message/shareContact", map[string]string{"uuid": "b-8", "chatType": "Friend", "to": bob.ID}, 400, "member not found"},
			{"POST", "/v1/message/shareContact", map[string]string{"uuid": "b-9", "chatType": "Friend", "to": dave.ID, "memberId": carol.ID}, 403, "You are not yet a friend, add first"},
			{"POST", "/v1/message/clearHistory", map[string]string{"chatType": "Group", "friendMemberId": bob.ID}, 400, "a group chat needs its groupId"},
			{"POST", "/v1/message/messagePush/at/ack/messageIds", `{"messageIds":[1]}`, 400, "invalid request"},
		}
		for _, c := range cases {
			status, env := s.call(c.method, c.path, alice.Token, c.body)
			Expect(status).To(Equal(c.status), "%s %s %v: %s", c.method, c.path, c.body, env.Info)
			Expect(env.Code).To(Equal(fmt.Sprint(c.status)))
			Expect(env.Info).To(Equal(c.info), "%s %s %v", c.method, c.path, c.body)
		}
		after := s.send(alice, bob, "b-10", "after").Position
		Expect(after).To(Equal(before+1), "a refused request appended an event")
	})
})

// readReceipt is a 28 as a test reads it.
type readReceipt struct {
	From, To, MessageID string
	MessageIDs          []string
}

// statusByID is each message's status, by its id.
func statusByID(page []lifeMessage) map[string]string {
	out := make(map[string]string, len(page))
	for _, m := range page {
		out[m.ID] = m.MsgStatus
	}
	return out
}

// readsBefore reads c's pushes up to the 11 of message id and returns the
// messageIds of each 28 among them. Pushes come in the log's order, so what
// was appended before that message is pushed before it.
func readsBefore(c *wsclient.Client, id string) [][]string {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var reads [][]string
	for {
		f, err := c.Next(ctx)
		Expect(err).NotTo(HaveOccurred())
		if f.Cmd == 11 && strings.Contains(string(f.Data), id) {
			return reads
		}
		if f.Cmd == 28 {
			var read readReceipt
			Expect(json.Unmarshal(f.Data, &read)).To(Succeed())
			reads = append(reads, read.MessageIDs)
		}
	}
}
