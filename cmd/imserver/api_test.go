package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

type session struct {
	ID                 string `json:"id"`
	FriendMemberID     string `json:"friendMemberId"`
	Name               string `json:"name"`
	LastMessageContent string `json:"lastMessageContent"`
	LastMessageTime    int64  `json:"lastMessageTime"`
	UnreadCount        int    `json:"unreadCount"`
	TopMessage         string `json:"topMessage"`
}

type message struct {
	ID        string `json:"id"`
	UUID      string `json:"uuid"`
	From      string `json:"from"`
	To        string `json:"to"`
	Content   string `json:"content"`
	MsgStatus string `json:"msgStatus"`
	Seq       uint64 `json:"seq"`
}

var _ = Describe("The REST API", func() {
	var s *testServer
	var alice, bob member
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob = s.register("alice001"), s.register("bob00001")
	})

	It("takes two members from a friend request to a chat with history, sessions and unread counts", func() {
		var found struct{ ID, Name string }
		s.ok("GET", "/v1/member/memberInfo/getMemberByCodeOrUsername?keyword=bob00001", alice.Token, nil, &found)
		Expect(found.ID).To(Equal(bob.ID))

		var applied struct {
			ID       string
			Position uint64
		}
		s.ok("POST", "/v1/chat/applyInfo/build", alice.Token, map[string]string{"friendMemberId": bob.ID, "content": "hi"}, &applied)
		var page struct {
			Records []struct {
				ID, Status, Direction string
				Member                struct{ ID string }
			}
			Total int
		}
		s.ok("GET", fmt.Sprintf("/v1/chat/applyInfo/queryFriendApplyInfoPages?pageSize=99&curPage=1&after=%d", applied.Position), bob.Token, nil, &page)
		Expect(page.Total).To(Equal(1))
		Expect(page.Records[0].Direction).To(Equal("received"))
		Expect(page.Records[0].Member.ID).To(Equal(alice.ID))

		status, env := s.call("POST", "/v1/message/send", alice.Token, map[string]string{"uuid": "early", "chatType": "Friend", "to": bob.ID, "content": "too soon"})
		Expect(status).To(Equal(http.StatusForbidden))
		Expect(env.Info).To(Equal("You are not yet a friend, add first"))

		s.ok("PUT", "/v1/chat/applyInfo/modify", bob.Token, map[string]string{"id": applied.ID, "status": "accepted"}, nil)
		status, env = s.call("PUT", "/v1/chat/applyInfo/modify", bob.Token, map[string]string{"id": applied.ID, "status": "rejected"})
		Expect(status).To(Equal(http.StatusConflict))
		Expect(env.Info).To(Equal("the selected items have already been processed"))

		first := s.send(alice, bob, "m-1", "hello bob")
		Expect(first.ID).To(HaveLen(19))
		again := s.send(alice, bob, "m-1", "hello bob")
		Expect(again).To(Equal(first))
		last := s.send(alice, bob, "m-2", "are you there?")

		var sessions []session
		s.ok("GET", fmt.Sprintf("/v1/message/sessionInfo/list?after=%d", last.Position), bob.Token, nil, &sessions)
		Expect(sessions).To(HaveLen(1))
		Expect(sessions[0].FriendMemberID).To(Equal(alice.ID))
		Expect(sessions[0].Name).To(Equal("alice001"))
		Expect(sessions[0].UnreadCount).To(Equal(2))
		Expect(sessions[0].LastMessageContent).To(Equal("are you there?"))
		Expect(sessions[0].TopMessage).To(Equal("N"))

		var history []message
		s.ok("GET", "/v1/message/messagePush/history/list/page?friendMemberId="+alice.ID, bob.Token, nil, &history)
		Expect(history).To(HaveLen(2))
		Expect(history[0].Content).To(Equal("hello bob"))
		Expect(history[1].ID).To(Equal(last.ID))
		var older []message
		s.ok("GET", "/v1/message/messagePush/history/list/page?queryType=Up&messageId="+last.ID+"&friendMemberId="+alice.ID, bob.Token, nil, &older)
		Expect(older).To(HaveLen(1))
		Expect(older[0].ID).To(Equal(first.ID))

		var friends []struct {
			Friends []struct{ FriendMemberID, Name string }
		}
		s.ok("GET", "/v1/chat/friendGroup/listFriendGroupByMemberId", alice.Token, nil, &friends)
		Expect(friends[0].Friends).To(HaveLen(1))
		Expect(friends[0].Friends[0].Name).To(Equal("bob00001"))
	})

	It("pages history of a long chat with Up and Down", func() {
		s.befriend(alice, bob)
		var ids []string
		var last sendResult
		for i := range 45 {
			last = s.send(alice, bob, fmt.Sprint("p", i), fmt.Sprint("msg ", i))
			ids = append(ids, last.ID)
		}
		base := fmt.Sprintf("/v1/message/messagePush/history/list/page?friendMemberId=%s&after=%d", bob.ID, last.Position)
		var newest, up, down []message
		s.ok("GET", base, alice.Token, nil, &newest)
		Expect(newest).To(HaveLen(20))
		Expect(newest[19].ID).To(Equal(ids[44]))
		s.ok("GET", base+"&messageId="+newest[0].ID, alice.Token, nil, &up)
		Expect(up).To(HaveLen(20))
		Expect(up[19].ID).To(Equal(ids[24]))
		s.ok("GET", base+"&queryType=Down&pageSize=5&messageId="+ids[10], alice.Token, nil, &down)
		Expect(down).To(HaveLen(5))
		Expect(down[0].ID).To(Equal(ids[11]))
	})

	It("caps a chunked body at 1 MiB like one of known length: 413 in the envelope, nothing changed", func() {
		// A small JSON value padded with white space to size bytes, of no
		// announced length.
		chunked := func(value string, size int) io.Reader {
			return io.MultiReader(strings.NewReader(value), strings.NewReader(strings.Repeat(" ", size-len(value))))
		}
		over := 1<<20 + 1<<18
		op := s.operator()
		head := s.head()
		var before map[string]any
		s.ok("GET", "/v1/member/memberInfo/getMemberByToken", alice.Token, nil, &before)
		for _, c := range []struct{ method, path, token, body string }{
			{"POST", "/v1/admin/projections/rebuild", op.Token, `{"name":"all"}`},
			{"PUT", "/v1/member/memberInfo/modify", alice.Token, `{"name":"too big"}`},
			{"PUT", "/v1/member/memberSetting/modify", alice.Token, `{"fontSize":2}`},
		} {
			status, env := s.call(c.method, c.path, c.token, chunked(c.body, over))
			Expect(status).To(Equal(http.StatusRequestEntityTooLarge), "%s %s: %s", c.method, c.path, env.Info)
			Expect(env.Code).To(Equal("413"))
			Expect(env.Info).To(Equal("request body too large"))
		}
		Expect(s.head()).To(Equal(head), "a refused body appended an event")
		var rebuild struct{ State string }
		s.ok("GET", "/v1/admin/projections/rebuild", op.Token, nil, &rebuild)
		Expect(rebuild.State).To(Equal(projections.RebuildIdle), "a refused body started a rebuild")
		var after map[string]any
		s.ok("GET", "/v1/member/memberInfo/getMemberByToken", alice.Token, nil, &after)
		Expect(after["name"]).To(Equal(before["name"]))

		By("taking one just under the cap")
		s.ok("PUT", "/v1/member/memberInfo/modify", alice.Token, chunked(`{"name":"just under"}`, 1<<20-1), nil)
		s.ok("GET", "/v1/member/memberInfo/getMemberByToken?after="+fmt.Sprint(s.head()), alice.Token, nil, &after)
		Expect(after["name"]).To(Equal("just under"))
	})

	It("answers bad input with a clear 4xx in the envelope and appends nothing", func() {
		s.befriend(alice, bob)
		before := s.send(alice, bob, "before", "x")
		huge := `{"uuid":"big","chatType":"Friend","to":"` + bob.ID + `","content":"` + strings.Repeat("a", 1<<20+10) + `"}`
		long := map[string]string{"uuid": "long", "chatType": "Friend", "to": bob.ID, "content": strings.Repeat("a", 70_000)}
		cases := []struct {
			method, path, token string
			body                any
			status              int
			info                string
		}{
			{"POST", "/v1/message/send", alice.Token, `{"uuid":`, 400, "invalid request"},
			{"POST", "/v1/message/send", alice.Token, `[1,2]`, 400, "invalid request"},
			{"POST", "/v1/message/send", alice.Token, `{"uuid":"x","chatType":"Friend","to":"` + bob.ID + `","content":42}`, 400, "invalid request"},
			{"POST", "/v1/message/send", alice.Token, ``, 400, "invalid request"},
			{"POST", "/v1/message/send", alice.Token, map[string]string{"chatType": "Friend", "to": bob.ID, "content": "x"}, 400, "uuid is required"},
			{"POST", "/v1/message/send", alice.Token, map[string]string{"uuid": "u", "chatType": "Friend", "to": bob.ID}, 400, "Conversation content empty"},
			{"POST", "/v1/message/send", alice.Token, map[string]string{"uuid": "u", "chatType": "Friend", "content": "x"}, 400, "Friend not in friend list or deleted"},
			{"POST", "/v1/message/send", alice.Token, huge, 413, "request body too large"},
			{"POST", "/v1/message/send", alice.Token, long, 413, "message content too long"},
			{"POST", "/v1/message/send", "", map[string]string{"uuid": "u", "chatType": "Friend", "to": bob.ID, "content": "x"}, 401, "login expired, please log in again"},
			{"POST", "/v1/message/send", "garbage.token", map[string]string{"uuid": "u", "chatType": "Friend", "to": bob.ID, "content": "x"}, 401, "login expired, please log in again"},
			{"POST", "/v1/message/send", alice.Token + "x", map[string]string{"uuid": "u", "chatType": "Friend", "to": bob.ID, "content": "x"}, 401, "login expired, please log in again"},
			{"POST", "/v1/member/memberInfo/register", "", map[string]string{"phone": "123", "smsCode": "1", "account": "abcdef1", "password": "abcd"}, 400, "only mainland China mobile numbers are supported"},
			{"POST", "/v1/member/memberInfo/register", "", map[string]string{"phone": "13900000000", "smsCode": "1", "account": "abc", "password": "abcd"}, 400, "account must be at least 6 letters or digits"},
			{"POST", "/v1/member/memberInfo/register", "", map[string]string{"phone": "13900000000", "smsCode": "1", "account": "abcdef1", "password": "ab"}, 400, "password too short, at least 4 characters"},
			{"POST", "/v1/member/memberInfo/register", "", map[string]string{"phone": "13900000000", "smsCode": "1", "account": "abcdef1", "password": "ab 12"}, 400, "password may contain only letters and digits"},
			{"POST", "/v1/member/memberInfo/register", "", map[string]string{"phone": "", "smsCode": "1", "account": "abcdef1", "password": "abcd"}, 400, "phone number cannot be empty"},
			{"POST", "/v1/member/memberInfo/login", "", map[string]string{"account": "", "password": "pass1234"}, 400, "account cannot be empty"},
			{"POST", "/v1/member/memberInfo/login", "", map[string]string{"account": "alice001", "password": ""}, 400, "password cannot be empty"},
			// A member's wrong password is recorded (MemberLoginFailed, for the
			// lockout); an unknown account is answered alike and appends nothing.
			{"POST", "/v1/member/memberInfo/login", "", map[string]string{"account": "nobody01", "password": "wrong"}, 400, "wrong password, please enter the correct password"},
			{"POST", "/v1/member/memberInfo/login", "", map[string]string{"account": "alice001", "password": "pass1234", "tenantCode": "x9999"}, 400, "tenant number invalid"},
			{"GET", "/v1/member/sms/send?phone=13900000000&type=bogus", "", nil, 400, "unknown verification code type"},
			{"GET", "/v1/message/messagePush/history/list/page?friendMemberId=" + bob.ID + "&pageSize=0", alice.Token, nil, 400, "invalid request"},
			{"GET", "/v1/message/messagePush/history/list/page?friendMemberId=" + bob.ID + "&queryType=Sideways", alice.Token, nil, 400, "invalid request"},
			{"GET", "/v1/message/messagePush/history/list/page?friendMemberId=" + bob.ID + "&messageId=999", alice.Token, nil, 404, "message not found"},
			{"GET", "/v1/message/sessionInfo/list?after=abc", alice.Token, nil, 400, "invalid request"},
			{"PUT", "/v1/chat/applyInfo/modify", alice.Token, map[string]string{"id": "1", "status": "accepted"}, 404, "friend request not found"},
			{"GET", "/v1/no/such/route", alice.Token, nil, 404, "not found"},
		}
		for _, c := range cases {
			status, env := s.call(c.method, c.path, c.token, c.body)
			Expect(status).To(Equal(c.status), "%s %s: %s", c.method, c.path, env.Info)
			Expect(env.Code).To(Equal(fmt.Sprint(c.status)))
			Expect(env.Info).To(Equal(c.info), "%s %s", c.method, c.path)
		}
		after := s.send(alice, bob, "after", "x")
		Expect(after.Position).To(Equal(before.Position+1), "a refused request appended an event")
	})

	It("translates texts to Accept-Language zh_CN and vi_VN", func() {
		for lang, want := range map[string]string{"zh_CN": "登录已过期，请重新登录", "vi_VN": "Phiên đăng nhập đã hết hạn, vui lòng đăng nhập lại", "en": "login expired, please log in again"} {
			_, env := s.call("GET", "/v1/message/sessionInfo/list", "", nil, "Accept-Language", lang)
			Expect(env.Info).To(Equal(want))
		}
	})

	It("ends a token on logout", func() {
		s.ok("GET", "/v1/member/memberInfo/logout", alice.Token, nil, nil)
		status, _ := s.call("GET", "/v1/member/memberInfo/getMemberByToken", alice.Token, nil)
		Expect(status).To(Equal(http.StatusUnauthorized))
		var me struct{ ID string }
		s.ok("GET", "/v1/member/memberInfo/getMemberByToken", bob.Token, nil, &me)
		Expect(me.ID).To(Equal(bob.ID))
	})

	It("serves health and readiness", func() {
		for _, p := range []string{"/healthz", "/readyz"} {
			resp, err := http.Get(s.base + p)
			Expect(err).NotTo(HaveOccurred())
			resp.Body.Close()
			Expect(resp.StatusCode).To(Equal(http.StatusOK))
		}
	})

	It("describes its routes in /v1/openapi.json", func() {
		resp, err := http.Get(s.base + "/v1/openapi.json")
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		var doc struct{ Paths map[string]map[string]any }
		Expect(json.NewDecoder(resp.Body).Decode(&doc)).To(Succeed())
		Expect(doc.Paths).To(HaveKey("/v1/message/send"))
		Expect(doc.Paths["/v1/message/send"]).To(HaveKey("post"))
	})
})
