package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"
)

// accountNotice is a notice item with the fields of the verification,
// feedback reply and join request kinds.
type accountNotice struct {
	noticeItem
	Code         string `json:"code"`
	ValidMinutes int    `json:"validMinutes"`
	System       string `json:"system"`
	RequestID    string `json:"requestId"`
	MemberID     string `json:"memberId"`
	MemberName   string `json:"memberName"`
	Status       string `json:"status"`
}

var _ = Describe("Account notices: new-device verification, feedback replies, join requests; invitation codes", func() {
	const windowsChrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"
	var s *testServer
	var alice, bob member
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob = s.register("alice001"), s.register("bob00001")
	})
	notices := func(m member, tab string, after uint64, lang ...string) []accountNotice {
		GinkgoHelper()
		headers := []string{}
		if len(lang) > 0 {
			headers = append(headers, "Accept-Language", lang[0])
		}
		code, env := s.call("GET", fmt.Sprintf("/v1/message/messagePush/history/systemNotify/list?tab=%s&after=%d", tab, after), m.Token, nil, headers...)
		Expect(code).To(Equal(http.StatusOK), env.Info)
		var p struct{ Records []accountNotice }
		Expect(json.Unmarshal(env.Data, &p)).To(Succeed())
		return p.Records
	}
	// head appends one event of m (a settings change) and returns its
	// position: nothing was appended between two heads one apart.
	flips := 0
	head := func(m member) uint64 {
		GinkgoHelper()
		flips++
		return s.written("PUT", "/v1/member/memberSetting/modify", m, map[string]any{"fontSize": (flips % 2) * 2})
	}
	loginFrom := func(account, userAgent string) {
		GinkgoHelper()
		code, env := s.call("POST", "/v1/member/memberInfo/login", "", map[string]string{"account": account, "password": "pass1234"}, "User-Agent", userAgent)
		Expect(code).To(Equal(http.StatusOK), env.Info)
	}

	It("gives a verification notice with a code, its validity and the system when a member logs in from a new device, once per device", func() {
		ws := s.dial(alice)
		loginFrom("alice001", windowsChrome)
		var counts noticeCounts
		Expect(json.Unmarshal(next(ws, 44).Data, &counts)).To(Succeed())
		Expect(counts.System).To(Equal(1))
		ns := notices(alice, "system", counts.Position)
		Expect(ns).To(HaveLen(1))
		n := ns[0]
		Expect(n.Command).To(Equal("Verification"))
		Expect(n.Code).To(MatchRegexp(`^[0-9]{6}$`))
		Expect(n.ValidMinutes).To(Equal(10))
		Expect(n.System).To(Equal("Windows"))
		Expect(n.ReadFlag).To(Equal("Unread"))
		Expect(n.Content).To(Equal(fmt.Sprintf("A new device (Windows) logged in to your account. Verification code: %s, valid for 10 minutes", n.Code)))
		Expect(notices(alice, "system", 0, "zh_CN")[0].Content).To(ContainSubstring(n.Code))

		loginFrom("alice001", windowsChrome)
		s.login("alice001")
		Expect(notices(alice, "system", head(alice))).To(HaveLen(1), "a device used before is not verified again")
		Expect(notices(bob, "all", 0)).To(BeEmpty())
	})

	It("lets operators list feedback and reply; the member gets a feedback reply notice", func() {
		op := s.operator()
		var built struct{ ID string }
		s.ok("POST", "/v1/member/feedback/build", alice.Token, map[string]any{"type": "bug", "content": "the send button hides"}, &built)
		type feedback struct {
			ID, MemberID, Account, Type, Content, Reply, RepliedBy string
			CreateTime, ReplyTime                                  int64
		}
		list := func(after uint64) []feedback {
			GinkgoHelper()
			var page struct {
				Records []feedback
				Total   int
			}
			s.ok("GET", fmt.Sprintf("/v1/admin/feedback/list?tenant=x0001&after=%d", after), op.Token, nil, &page)
			Expect(page.Total).To(Equal(len(page.Records)))
			return page.Records
		}
		at := head(alice)
		got := list(at)
		Expect(got).To(HaveLen(1))
		Expect(got[0]).To(MatchFields(IgnoreExtras, Fields{"ID": Equal(built.ID), "MemberID": Equal(alice.ID), "Account": Equal("alice001"),
			"Type": Equal("bug"), "Content": Equal("the send button hides"), "Reply": BeEmpty()}))

		ws := s.dial(alice)
		var replied struct {
			ID, MemberID string
			Position     uint64
		}
		s.ok("PUT", "/v1/admin/feedback/reply", op.Token, map[string]string{"tenant": "x0001", "id": built.ID, "reply": "  fixed in 1.2  "}, &replied)
		Expect(replied.MemberID).To(Equal(alice.ID))
		Expect(next(ws, 44).Data).To(ContainSubstring(`"system":1`))
		ns := notices(alice, "system", replied.Position)
		Expect(ns).To(HaveLen(1))
		Expect(ns[0].Command).To(Equal("FeedbackReply"))
		Expect(ns[0].Message).To(Equal("fixed in 1.2"))
		Expect(ns[0].ContentID).To(Equal(built.ID))
		Expect(ns[0].Content).To(Equal("The back-end administrator replied to your feedback"))
		got = list(replied.Position)
		Expect(got[0].Reply).To(Equal("fixed in 1.2"))
		Expect(got[0].RepliedBy).To(Equal("operator:spec"))
		Expect(got[0].ReplyTime).NotTo(BeZero())

		before := head(alice)
		for _, bad := range []struct {
			body   map[string]string
			status int
			info   string
		}{
			{map[string]string{"tenant": "x0001", "id": "123", "reply": "ok"}, http.StatusNotFound, "feedback not found"},
			{map[string]string{"tenant": "x0001", "id": built.ID, "reply": "  "}, http.StatusBadRequest, "the reply cannot be empty"},
			{map[string]string{"tenant": "x0001", "id": built.ID, "reply": strings.Repeat("x", 1001)}, http.StatusBadRequest, "reply too long, at most 1000 characters"},
		} {
			s.refused("PUT", "/v1/admin/feedback/reply", op, bad.body, bad.status, bad.info)
		}
		Expect(head(alice)).To(Equal(before+1), "a refused reply appended")
		code, _ := s.call("PUT", "/v1/admin/feedback/reply", alice.Token, map[string]string{"tenant": "x0001", "id": built.ID, "reply": "mine"})
		Expect(code).To(Equal(http.StatusUnauthorized))
	})

	It("tells the owner and the admins of a join request and shows its answer", func() {
		carol, dave := s.register("carol001"), s.register("dave0001")
		s.befriend(alice, bob)
		s.befriend(bob, carol)
		s.befriend(alice, dave)
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "memberIds": []string{bob.ID, dave.ID}}, &created)
		s.written("PUT", "/v1/chat/groupInfo/setMemberRole", alice, map[string]string{"groupId": created.GroupID, "memberId": dave.ID, "role": "Admin"})
		at := s.written("POST", "/v1/chat/applyInfo/batchMemberToGroup", bob, map[string]any{"groupId": created.GroupID, "memberIds": []string{carol.ID}})
		for _, manager := range []member{alice, dave} {
			ns := notices(manager, "groups", at)
			Expect(ns[0]).To(MatchFields(IgnoreExtras, Fields{"MemberID": Equal(carol.ID),
				"MemberName": Equal("carol001"), "Status": Equal("pending"), "RequestID": Not(BeEmpty())}))
			Expect(ns[0].noticeItem).To(MatchFields(IgnoreExtras, Fields{"Command": Equal("GroupJoinRequest"), "FromID": Equal(bob.ID), "GroupID": Equal(created.GroupID),
				"GroupName": Equal("Team"), "ReadFlag": Equal("Unread"), "Content": Equal("bob00001 invited carol001 to join the group Team")}))
		}
		Expect(notices(bob, "groups", at)).NotTo(ContainElement(HaveField("Command", "GroupJoinRequest")))
		requestID := notices(alice, "groups", at)[0].RequestID

		at = s.written("PUT", "/v1/chat/applyInfo/modify", dave, map[string]string{"id": requestID, "status": "accepted"})
		for _, manager := range []member{alice, dave} {
			n := notices(manager, "groups", at)
			Expect(n).To(ContainElement(And(HaveField("Command", "GroupJoinRequest"), HaveField("Status", "accepted"),
				HaveField("ReadFlag", "Read"))))
		}
	})

	Describe("registration with an invitation code", func() {
		registerWith := func(account, inviteCode string) (int, envelope) {
			GinkgoHelper()
			phone := fmt.Sprintf("136%08d", phones.Add(1))
			s.ok("GET", "/v1/member/sms/send?phone="+phone+"&type=register", "", nil, nil)
			return s.call("POST", "/v1/member/memberInfo/register", "", map[string]string{
				"phone": phone, "smsCode": s.smsCode(phone), "account": account, "password": "pass1234", "inviteCode": inviteCode})
		}
		type info struct{ ID, InvitationCode, ReferralCode, ReferrerID string }

		It("records who invited the member and shows it in the member's info", func() {
			var link struct{ Code string }
			s.ok("GET", "/v1/chat/friendInfo/getRefereeLink", alice.Token, nil, &link)
			code, env := registerWith("carol001", strings.ToLower(link.Code))
			Expect(code).To(Equal(http.StatusOK), env.Info)
			var registered info
			Expect(json.Unmarshal(env.Data, &registered)).To(Succeed())
			Expect(registered.ReferrerID).To(Equal(alice.ID))
			Expect(registered.ReferralCode).To(Equal(link.Code))
			carol := s.login("carol001")
			var me info
			s.ok("GET", "/v1/member/memberInfo/getMemberByToken", carol.Token, nil, &me)
			Expect(me.ReferrerID).To(Equal(alice.ID))
			Expect(me.InvitationCode).NotTo(BeEmpty())
			var carolLink struct{ Code string }
			s.ok("GET", "/v1/chat/friendInfo/getRefereeLink", carol.Token, nil, &carolLink)
			Expect(me.InvitationCode).To(Equal(carolLink.Code))
			s.ok("GET", "/v1/member/memberInfo/getMemberByToken", alice.Token, nil, &me)
			Expect(me.ReferrerID).To(BeEmpty())
			Expect(me.ReferralCode).To(BeEmpty())
		})

		It("refuses a code of nobody and registers nothing", func() {
			for _, bad := range []string{"ZZZZZZZZZ", "not-a-code"} {
				code, env := registerWith("carol001", bad)
				Expect(code).To(Equal(http.StatusBadRequest))
				Expect(env.Info).To(Equal("the invitation code is not valid"))
			}
			code, env := s.call("POST", "/v1/member/memberInfo/login", "", map[string]string{"account": "carol001", "password": "pass1234"})
			Expect(code).To(Equal(http.StatusBadRequest), "carol001 was registered: %s", env.Info)
			code, env = registerWith("carol001", "")
			Expect(code).To(Equal(http.StatusOK), env.Info)
		})
	})
})
