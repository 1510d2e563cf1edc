package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

type friendView struct {
	FriendMemberID string `json:"friendMemberId"`
	Remark         string `json:"remark"`
	Blocked        bool   `json:"blocked"`
}

var _ = Describe("Managing friends", func() {
	var s *testServer
	var alice, bob, carol member
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob, carol = s.register("alice001"), s.register("bob00001"), s.register("carol001")
		s.befriend(alice, bob)
	})

	friends := func(m member, after uint64) []friendView {
		GinkgoHelper()
		var cats []struct{ Friends []friendView }
		s.ok("GET", "/v1/chat/friendGroup/listFriendGroupByMemberId?after="+fmt.Sprint(after), m.Token, nil, &cats)
		Expect(cats).To(HaveLen(1))
		return cats[0].Friends
	}
	modify := func(m member, body map[string]any) uint64 {
		GinkgoHelper()
		return s.written("PUT", "/v1/chat/friendInfo/modify", m, body)
	}

	It("sets a remark that only its author sees, pushed to the author's devices (48)", func() {
		a := s.dial(alice)
		at := modify(alice, map[string]any{"friendMemberId": bob.ID, "remark": " Bobby "})
		var pushed friendView
		Expect(json.Unmarshal(next(a, 48).Data, &pushed)).To(Succeed())
		Expect(pushed).To(Equal(friendView{FriendMemberID: bob.ID, Remark: "Bobby"}))
		Expect(friends(alice, at)).To(Equal([]friendView{{FriendMemberID: bob.ID, Remark: "Bobby"}}))
		Expect(friends(bob, at)).To(Equal([]friendView{{FriendMemberID: alice.ID}}))
		Expect(modify(alice, map[string]any{"friendMemberId": bob.ID, "remark": "Bobby"})).To(BeZero(), "the same remark appends nothing")
	})

	It("answers the friends of a category and one friend by id", func() {
		at := modify(alice, map[string]any{"friendMemberId": bob.ID, "remark": "Bobby"})
		var inCategory []friendView
		s.ok("GET", fmt.Sprintf("/v1/chat/friendInfo/getFriendInfoByGroupId?groupId=0&after=%d", at), alice.Token, nil, &inCategory)
		Expect(inCategory).To(Equal([]friendView{{FriendMemberID: bob.ID, Remark: "Bobby"}}))
		var one friendView
		s.ok("GET", fmt.Sprintf("/v1/chat/friendInfo/listFriendInfoMessage/%s?after=%d", bob.ID, at), alice.Token, nil, &one)
		Expect(one).To(Equal(friendView{FriendMemberID: bob.ID, Remark: "Bobby"}))
		s.refused("GET", "/v1/chat/friendInfo/listFriendInfoMessage/"+carol.ID, alice, nil, http.StatusNotFound, "Friend not in friend list or deleted")
		s.refused("GET", "/v1/chat/friendInfo/getFriendInfoByGroupId?groupId=7", alice, nil, http.StatusNotFound, "friend category not found")
	})

	It("keeps a blocked friend's messages and calls out until unblocked, and the blocked still read", func() {
		first := s.send(alice, bob, "u1", "before")
		at := modify(bob, map[string]any{"friendMemberId": alice.ID, "blocked": true})
		Expect(friends(bob, at)).To(Equal([]friendView{{FriendMemberID: alice.ID, Blocked: true}}))
		Expect(friends(alice, at)).To(Equal([]friendView{{FriendMemberID: bob.ID}}), "the blocked side is not told")

		send := map[string]string{"uuid": "u2", "chatType": "Friend", "to": bob.ID, "msgType": "Text", "content": "hello?"}
		s.refused("POST", "/v1/message/send", alice, send, http.StatusForbidden, "This friend is not accepting your messages")
		s.refused("POST", "/v1/message/call/start", alice, map[string]string{"uuid": "c1", "chatType": "Friend", "to": bob.ID, "media": "voice"},
			http.StatusForbidden, "This friend is not accepting your messages")
		s.send(bob, alice, "u3", "I can still write")
		var page []struct{ ID string }
		s.ok("GET", "/v1/message/messagePush/history/list/page?friendMemberId="+bob.ID+"&after="+fmt.Sprint(first.Position), alice.Token, nil, &page)
		Expect(page).NotTo(BeEmpty())

		modify(bob, map[string]any{"friendMemberId": alice.ID, "blocked": false})
		s.send(alice, bob, "u2", "hello again")
	})

	It("deletes a friend for both: 25 to each, the conversation hidden, messages refused, and a new request possible", func() {
		sent := s.send(alice, bob, "u1", "hi")
		a, b := s.dial(alice), s.dial(bob)
		at := s.written("POST", "/v1/chat/friendInfo/delete", bob, map[string]string{"friendMemberId": alice.ID})
		var gone struct{ FriendMemberID, By string }
		Expect(json.Unmarshal(next(a, 25).Data, &gone)).To(Succeed())
		Expect(gone).To(Equal(struct{ FriendMemberID, By string }{bob.ID, bob.ID}))
		Expect(json.Unmarshal(next(b, 25).Data, &gone)).To(Succeed())
		Expect(gone.FriendMemberID).To(Equal(alice.ID))
		Expect(friends(alice, at)).To(BeEmpty())
		Expect(friends(bob, at)).To(BeEmpty())
		for _, m := range []member{alice, bob} {
			var sessions []conversationItem
			s.ok("GET", "/v1/message/sessionInfo/list?after="+fmt.Sprint(at), m.Token, nil, &sessions)
			Expect(sessions).To(BeEmpty(), "the conversation of %s since %d", m.Account, sent.Position)
		}
		s.refused("POST", "/v1/message/send", alice, map[string]string{"uuid": "u2", "chatType": "Friend", "to": bob.ID, "msgType": "Text", "content": "?"},
			http.StatusForbidden, "You are not yet a friend, add first")
		s.refused("POST", "/v1/chat/friendInfo/delete", alice, map[string]string{"friendMemberId": bob.ID}, http.StatusNotFound, "Friend not in friend list or deleted")

		time.Sleep(250 * time.Millisecond) // past the 200 ms double-submit lock of friend requests
		s.befriend(alice, bob)
		s.send(alice, bob, "u3", "friends again")
	})

	It("refuses the repeat of a friend request sent at the same moment", func() {
		const n = 4
		answers := make(chan string, n)
		var wg sync.WaitGroup
		for range n {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				status, env := s.call("POST", "/v1/chat/applyInfo/build", alice.Token, map[string]string{"friendMemberId": carol.ID})
				answers <- fmt.Sprint(status, " ", env.Info)
			}()
		}
		wg.Wait()
		close(answers)
		var all []string
		for a := range answers {
			all = append(all, a)
		}
		Expect(all).To(ContainElement("429 please do not submit repeatedly"))
	})

	It("refuses bad input with a clear 4xx and appends nothing", func() {
		dir := GinkgoT().TempDir()
		secondTenant(dir)
		s = startServer(dir)
		alice, bob, carol = s.register("alice001"), s.register("bob00001"), s.register("carol001")
		s.befriend(alice, bob)
		zed := s.registerIn("x0002", "zed00001")
		before := modify(alice, map[string]any{"friendMemberId": bob.ID, "remark": "b"})
		cases := []struct {
			method, path string
			body         any
			status       int
			info         string
		}{
			{"PUT", "/v1/chat/friendInfo/modify", map[string]any{"friendMemberId": bob.ID}, 400, "invalid request"},
			{"PUT", "/v1/chat/friendInfo/modify", map[string]any{"remark": "x"}, 400, "Friend not in friend list or deleted"},
			{"PUT", "/v1/chat/friendInfo/modify", map[string]any{"friendMemberId": alice.ID, "remark": "me"}, 400, "Friend not in friend list or deleted"},
			{"PUT", "/v1/chat/friendInfo/modify", map[string]any{"friendMemberId": bob.ID, "remark": strings.Repeat("x", 201)}, 400, "remark too long, at most 200 characters"},
			{"PUT", "/v1/chat/friendInfo/modify", map[string]any{"friendMemberId": bob.ID, "blocked": "yes"}, 400, "invalid request"},
			{"PUT", "/v1/chat/friendInfo/modify", map[string]any{"friendMemberId": carol.ID, "blocked": true}, 404, "Friend not in friend list or deleted"},
			{"PUT", "/v1/chat/friendInfo/modify", map[string]any{"friendMemberId": zed.ID, "remark": "z"}, 404, "Friend not in friend list or deleted"},
			{"POST", "/v1/chat/friendInfo/delete", map[string]any{"friendMemberId": zed.ID}, 404, "Friend not in friend list or deleted"},
			{"POST", "/v1/chat/friendInfo/delete", map[string]any{"friendMemberId": "1234567890123456789"}, 404, "Friend not in friend list or deleted"},
			{"POST", "/v1/chat/friendInfo/delete", `{"friendMemberId":`, 400, "invalid request"},
		}
		for _, c := range cases {
			status, env := s.call(c.method, c.path, alice.Token, c.body)
			Expect(status).To(Equal(c.status), "%s %s %v: %s", c.method, c.path, c.body, env.Info)
			Expect(env.Info).To(Equal(c.info), "%s %s %v", c.method, c.path, c.body)
		}
		after := modify(alice, map[string]any{"friendMemberId": bob.ID, "remark": "c"})
		Expect(after).To(Equal(before+1), "a refused request appended an event")
	})
})

var _ = Describe("Another tenant's member ids", func() {
	It("are answered exactly as unknown ids, on every call that takes a member id", func() {
		s := startServer(GinkgoT().TempDir())
		s.ok("POST", "/v1/admin/tenant/create", s.operator().Token, map[string]string{"code": "x0002", "name": "B"}, nil)
		alice, bob := s.register("alice001"), s.register("bob00001")
		s.befriend(alice, bob)
		zed := s.registerIn("x0002", "zed00001")
		unknown := "1234567890123456789"
		head := s.head()
		for _, c := range []struct {
			method, path string
			body         func(id string) any
		}{
			{"POST", "/v1/chat/applyInfo/build", func(id string) any { return map[string]string{"friendMemberId": id, "content": "hi"} }},
			{"POST", "/v1/message/send", func(id string) any {
				return map[string]string{"uuid": "u1", "chatType": "Friend", "to": id, "msgType": "Text", "content": "hi"}
			}},
			{"POST", "/v1/message/call/start", func(id string) any {
				return map[string]string{"uuid": "c1", "chatType": "Friend", "to": id, "media": "voice"}
			}},
			{"POST", "/v1/chat/batchSend/build", func(id string) any {
				return map[string]any{"uuid": "b1", "recipients": []string{bob.ID, id}, "content": "hi"}
			}},
			{"PUT", "/v1/chat/friendInfo/modify", func(id string) any { return map[string]string{"friendMemberId": id, "remark": "x"} }},
			{"POST", "/v1/chat/friendInfo/delete", func(id string) any { return map[string]string{"friendMemberId": id} }},
			{"POST", "/v1/message/shareContact", func(id string) any {
				return map[string]string{"uuid": "s1", "chatType": "Friend", "to": bob.ID, "memberId": id}
			}},
			{"POST", "/v1/message/shareContact", func(id string) any {
				return map[string]string{"uuid": "s2", "chatType": "Friend", "to": id, "memberId": bob.ID}
			}},
			{"POST", "/v1/chat/groupInfo/build", func(id string) any { return map[string]any{"name": "T", "memberIds": []string{bob.ID, id}} }},
			{"GET", "/v1/message/getTokenByMemberId?memberId=", nil},
			{"GET", "/v1/member/memberInfo/getMemberByMemberId?memberId=", nil},
		} {
			call := func(id string) (int, envelope) {
				if c.body == nil {
					return s.call(c.method, c.path+id, alice.Token, nil)
				}
				return s.call(c.method, c.path, alice.Token, c.body(id))
			}
			foreignStatus, foreign := call(zed.ID)
			unknownStatus, missing := call(unknown)
			Expect(foreignStatus).To(BeNumerically(">=", 400), "%s %s: %s", c.method, c.path, foreign.Info)
			Expect(foreignStatus).To(Equal(unknownStatus), "%s %s", c.method, c.path)
			Expect(foreign).To(Equal(missing), "%s %s", c.method, c.path)
		}
		Expect(s.head()).To(Equal(head), "a refused call appended an event")
	})
})

var _ = Describe("Handling friend requests in batches", func() {
	var s *testServer
	var alice, bob, carol, dave member
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob, carol, dave = s.register("alice001"), s.register("bob00001"), s.register("carol001"), s.register("dave0001")
	})

	ask := func(from, to member) string {
		GinkgoHelper()
		var applied struct{ ID string }
		s.ok("POST", "/v1/chat/applyInfo/build", from.Token, map[string]string{"friendMemberId": to.ID}, &applied)
		return applied.ID
	}
	listed := func(m member, after uint64) map[string]string {
		GinkgoHelper()
		var page struct {
			Records []struct{ ID, Status string }
			Total   int
		}
		s.ok("GET", "/v1/chat/applyInfo/queryFriendApplyInfoPages?pageSize=99&curPage=1&after="+fmt.Sprint(after), m.Token, nil, &page)
		out := map[string]string{}
		for _, r := range page.Records {
			out[r.ID] = r.Status
		}
		Expect(page.Total).To(Equal(len(out)))
		return out
	}

	It("accepts several received requests at once, and refuses a batch holding a processed one whole", func() {
		fromBob, fromCarol, fromDave := ask(bob, alice), ask(carol, alice), ask(dave, alice)
		at := s.written("PUT", "/v1/chat/applyInfo/batchModify", alice, map[string]any{"ids": []string{fromBob, fromCarol}, "status": "accepted"})
		Expect(listed(alice, at)).To(Equal(map[string]string{fromBob: "accepted", fromCarol: "accepted", fromDave: "pending"}))
		s.send(alice, carol, "u1", "welcome")

		s.refused("PUT", "/v1/chat/applyInfo/batchModify", alice, map[string]any{"ids": []string{fromDave, fromBob}, "status": "rejected"},
			http.StatusConflict, "the selected items have already been processed")
		Expect(listed(alice, at)[fromDave]).To(Equal("pending"), "nothing of a refused batch is done")
	})

	It("deletes requests from the caller's list only; deleting again changes nothing", func() {
		toBob, fromCarol := ask(alice, bob), ask(carol, alice)
		b := s.dial(bob)
		at := s.written("POST", "/v1/chat/applyInfo/delete", alice, map[string]any{"ids": []string{toBob, fromCarol}})
		Expect(listed(alice, at)).To(BeEmpty())
		Expect(listed(bob, at)).To(Equal(map[string]string{toBob: "pending"}))
		Expect(listed(carol, at)).To(Equal(map[string]string{fromCarol: "pending"}))
		s.written("PUT", "/v1/chat/applyInfo/modify", bob, map[string]string{"id": toBob, "status": "accepted"})
		next(b, 24)
		Expect(s.written("POST", "/v1/chat/applyInfo/delete", alice, map[string]any{"ids": []string{toBob}})).To(BeZero())
	})

	It("refuses bad batches with a clear 4xx and appends nothing", func() {
		fromBob := ask(bob, alice)
		toCarol := ask(alice, carol)
		before := ask(dave, alice)
		many := make([]string, 100)
		for i := range many {
			many[i] = fmt.Sprint(1000 + i)
		}
		cases := []struct {
			who          member
			method, path string
			body         any
			status       int
			info         string
		}{
			{alice, "PUT", "/v1/chat/applyInfo/batchModify", map[string]any{"ids": []string{}, "status": "accepted"}, 400, "select requests first"},
			{alice, "PUT", "/v1/chat/applyInfo/batchModify", map[string]any{"ids": []string{fromBob}, "status": "maybe"}, 400, "status must be accepted or rejected"},
			{alice, "PUT", "/v1/chat/applyInfo/batchModify", map[string]any{"ids": many, "status": "accepted"}, 400, "at most 99 requests at once"},
			{alice, "PUT", "/v1/chat/applyInfo/batchModify", map[string]any{"ids": []string{fromBob, fromBob}, "status": "accepted"}, 400, "invalid request"},
			{alice, "PUT", "/v1/chat/applyInfo/batchModify", map[string]any{"ids": []string{fromBob, toCarol}, "status": "accepted"}, 403, "you are not allowed to do this"},
			{alice, "PUT", "/v1/chat/applyInfo/batchModify", map[string]any{"ids": []string{fromBob, "1234567890123456789"}, "status": "accepted"}, 404, "friend request not found"},
			{dave, "PUT", "/v1/chat/applyInfo/batchModify", map[string]any{"ids": []string{fromBob}, "status": "accepted"}, 404, "friend request not found"},
			{dave, "POST", "/v1/chat/applyInfo/delete", map[string]any{"ids": []string{toCarol}}, 404, "friend request not found"},
			{alice, "POST", "/v1/chat/applyInfo/delete", `{"ids":`, 400, "invalid request"},
			{alice, "POST", "/v1/chat/applyInfo/delete", map[string]any{}, 400, "select requests first"},
		}
		for _, c := range cases {
			status, env := s.call(c.method, c.path, c.who.Token, c.body)
			Expect(status).To(Equal(c.status), "%s %s %v: %s", c.method, c.path, c.body, env.Info)
			Expect(env.Info).To(Equal(c.info), "%s %s %v", c.method, c.path, c.body)
		}
		var first, last struct{ Position uint64 }
		s.ok("PUT", "/v1/chat/applyInfo/modify", alice.Token, map[string]string{"id": before, "status": "accepted"}, &first)
		s.ok("PUT", "/v1/chat/applyInfo/modify", alice.Token, map[string]string{"id": fromBob, "status": "accepted"}, &last)
		Expect(last.Position).To(Equal(first.Position+1), "a refused batch appended an event")
		Expect(listed(alice, last.Position)).To(HaveLen(3))
	})
})
