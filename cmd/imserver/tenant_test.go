package main

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/authtoken"
)

// operator returns a member-shaped holder of an operator token, signed
// with the data directory's secret as imctl signs it.
func (s *testServer) operator() member {
	GinkgoHelper()
	key, err := authtoken.LoadSecret(s.dataDir, false)
	Expect(err).NotTo(HaveOccurred())
	tokens, err := authtoken.New(key, nil)
	Expect(err).NotTo(HaveOccurred())
	return member{Token: tokens.IssueOperator("spec", time.Now().Add(time.Minute))}
}

// configure changes x0001's settings and returns the position written.
func (s *testServer) configure(settings map[string]string) uint64 {
	GinkgoHelper()
	return s.written("PUT", "/v1/admin/tenant/settings", s.operator(), map[string]any{"code": "x0001", "settings": settings})
}

type systemInfo struct {
	TenantCode      string
	SystemIcon      string
	SystemLogo      string
	HasVoiceCall    bool
	ShowGroupMember bool
}

var _ = Describe("Tenant configuration over REST", func() {
	var s *testServer
	BeforeEach(func() { s = startServer(GinkgoT().TempDir()) })

	It("serves getSystemInfo and getSystemRegister from the tenant's settings, before and after login", func() {
		var info systemInfo
		s.ok("GET", "/v1/member/memberInfo/getSystemInfo", "", nil, &info)
		Expect(info).To(Equal(systemInfo{TenantCode: "x0001", HasVoiceCall: true, ShowGroupMember: true}))

		s.configure(map[string]string{"icon": "/v1/icon.png", "logo": "https://cdn.example/logo.png", "hasVoiceCall": "false", "showGroupMember": "N"})
		alice := s.register("alice001")
		s.ok("GET", "/v1/member/memberInfo/getSystemInfo", alice.Token, nil, &info)
		Expect(info).To(Equal(systemInfo{TenantCode: "x0001", SystemIcon: "/v1/icon.png", SystemLogo: "https://cdn.example/logo.png"}))

		var reg struct {
			TenantCode  string
			SMSRegister bool
		}
		s.ok("GET", "/v1/member/memberInfo/getSystemRegister?tenantCode=x0001", "", nil, &reg)
		Expect(reg.TenantCode).To(Equal("x0001"))
		Expect(reg.SMSRegister).To(BeTrue())
		s.refused("GET", "/v1/member/memberInfo/getSystemInfo?tenantCode=zz9999", member{}, nil, 400, "tenant number invalid")
	})

	DescribeTable("tenantChecker (spec accounts.md section 5)",
		func(query string, status int, info string) {
			code, env := s.call("GET", "/v1/member/tenantConfig/tenantChecker"+query, "", nil)
			Expect(code).To(Equal(status))
			Expect(env.Info).To(Equal(info))
		},
		Entry("an existing tenant", "?tenantFlag=x0001", 200, "added successfully"),
		Entry("one the client holds already", "?tenantFlag=x0001&tenantList=x0002,x0001", 409, "already exists"),
		Entry("an unknown tenant", "?tenantFlag=zz9999", 400, "tenant number invalid"),
		Entry("a malformed code", "?tenantFlag=x-0001", 400, "tenant number invalid"),
		Entry("no code", "", 400, "tenant number invalid"),
	)

	It("translates the checker's outcome", func() {
		_, env := s.call("GET", "/v1/member/tenantConfig/tenantChecker?tenantFlag=x0001", "", nil, "Accept-Language", "zh-CN")
		Expect(env.Info).To(Equal("添加成功"))
	})

	It("serves the admin API to operators only, and bad settings change nothing", func() {
		alice := s.register("alice001")
		s.refused("PUT", "/v1/admin/tenant/settings", member{}, map[string]any{"code": "x0001", "settings": map[string]string{"singleDevice": "true"}}, 401, "login expired, please log in again")
		s.refused("PUT", "/v1/admin/tenant/settings", alice, map[string]any{"code": "x0001", "settings": map[string]string{"singleDevice": "true"}}, 401, "login expired, please log in again")
		op := s.operator()
		s.refused("PUT", "/v1/admin/tenant/settings", op, map[string]any{"code": "x0001", "settings": map[string]string{"singleDevice": "perhaps"}}, 400, "singleDevice must be true or false")
		s.refused("PUT", "/v1/admin/tenant/settings", op, map[string]any{"code": "x0001", "settings": map[string]string{"sensitiveWords.Gold": "x"}}, 400, "unknown member level Gold: want Normal, Admin or System")
		s.refused("PUT", "/v1/admin/tenant/settings", op, map[string]any{"code": "x0001"}, 400, "give at least one setting as key=value")
		s.refused("PUT", "/v1/admin/tenant/settings", op, "{not json", 400, "invalid request")
		s.refused("PUT", "/v1/admin/member/level", op, map[string]string{"tenant": "x0001", "account": "alice001", "level": "Gold"}, 400, "unknown member level Gold: want Normal, Admin or System")
		s.refused("PUT", "/v1/admin/member/ban", op, map[string]string{"tenant": "x0001", "account": "nobody00"}, 404, "member not found")
		s.refused("POST", "/v1/admin/tenant/create", op, map[string]string{"code": "x0001"}, 409, "already exists")
		var t struct {
			SingleDevice   bool
			SensitiveWords map[string]string
			Position       uint64
		}
		s.ok("GET", "/v1/admin/tenant/show?code=x0001", op.Token, nil, &t)
		Expect(t.SingleDevice).To(BeFalse())
		Expect(t.SensitiveWords).To(BeEmpty())

		s.ok("POST", "/v1/admin/tenant/create", op.Token, map[string]string{"code": "x0002", "name": "Second"}, nil)
		code, env := s.call("GET", "/v1/member/tenantConfig/tenantChecker?tenantFlag=x0002", "", nil)
		Expect(code).To(Equal(200), env.Info)
	})

	It("gives a member level's sensitive words, comma separated, with the illegal-words flag", func() {
		alice := s.register("alice001")
		var words struct {
			MemberLevelID string
			SensitiveWord string
			IllegalWords  bool
		}
		s.ok("GET", "/v1/member/sensitiveWord/getSensitiveWordByMemberLevelId", alice.Token, nil, &words)
		Expect(words.MemberLevelID).To(Equal("Normal"))
		Expect(words.SensitiveWord).To(BeEmpty())
		Expect(words.IllegalWords).To(BeTrue())

		s.configure(map[string]string{"sensitiveWords.Normal": "spam, scam", "sensitiveWords.Admin": "x", "illegalWords": "false"})
		s.ok("GET", "/v1/member/sensitiveWord/getSensitiveWordByMemberLevelId", alice.Token, nil, &words)
		Expect(words.SensitiveWord).To(Equal("spam,scam"))
		Expect(words.IllegalWords).To(BeFalse())
		s.ok("GET", "/v1/member/sensitiveWord/getSensitiveWordByMemberLevelId?memberLevelId=Admin", alice.Token, nil, &words)
		Expect(words.SensitiveWord).To(Equal("x"))
		s.refused("GET", "/v1/member/sensitiveWord/getSensitiveWordByMemberLevelId?memberLevelId=Gold", alice, nil, 400, "unknown member level Gold: want Normal, Admin or System")
		s.refused("GET", "/v1/member/sensitiveWord/getSensitiveWordByMemberLevelId", member{Token: "nope"}, nil, 401, "login expired, please log in again")
	})

	It("refuses a sensitive word on send over REST and the socket while the flag is off, and lets Admin through", func() {
		alice, bob := s.register("alice001"), s.register("bob00001")
		s.befriend(alice, bob)
		s.configure(map[string]string{"sensitiveWords.Normal": "spam", "sensitiveWords.Admin": "spam"})
		s.send(alice, bob, "on-1", "spam while the flag is on")

		s.configure(map[string]string{"illegalWords": "false"})
		msg := map[string]string{"uuid": "off-1", "chatType": "Friend", "to": bob.ID, "msgType": "Text", "content": "cheap Spam"}
		s.refused("POST", "/v1/message/send", alice, msg, 400, "Content contains sensitive words, please use civilized language")
		r, err := s.dial(alice).Request(ctxWithin(5*time.Second), 11, msg)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Code).To(Equal("400"))
		Expect(r.Info).To(Equal("Content contains sensitive words, please use civilized language"))
		_, env := s.call("POST", "/v1/message/send", alice.Token, msg, "Accept-Language", "zh-CN")
		Expect(env.Info).To(Equal("内容包含敏感词，请文明用语"))

		pos := s.written("PUT", "/v1/admin/member/level", s.operator(), map[string]string{"tenant": "x0001", "account": "alice001", "level": "Admin"})
		var me struct{ MemberLevelCode string }
		s.ok("GET", "/v1/member/memberInfo/getMemberByToken?after="+strconv.FormatUint(pos, 10), alice.Token, nil, &me)
		Expect(me.MemberLevelCode).To(Equal("Admin"))
		s.send(alice, bob, "off-2", "cheap Spam")
	})

	It("hides calls and mass send when the tenant turns them off", func() {
		alice, bob := s.register("alice001"), s.register("bob00001")
		s.befriend(alice, bob)
		s.configure(map[string]string{"hasVoiceCall": "false", "sendBatchMessage": "Disable"})
		s.refused("POST", "/v1/message/call/start", alice, map[string]string{"uuid": "c1", "chatType": "Friend", "to": bob.ID, "media": "voice"},
			403, "voice and video calls are turned off on this server")
		var me struct{ SendBatchMessage string }
		s.ok("GET", "/v1/member/memberInfo/getMemberByToken", alice.Token, nil, &me)
		Expect(me.SendBatchMessage).To(Equal("Disable"))
	})
})

var _ = Describe("Session end (31) and online status (33)", func() {
	var s *testServer
	var alice, bob member
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob = s.register("alice001"), s.register("bob00001")
		s.befriend(alice, bob)
	})

	ended := func(c interface {
		Done() <-chan struct{}
	}, frame []byte, want string) {
		GinkgoHelper()
		var end struct{ Type string }
		Expect(json.Unmarshal(frame, &end)).To(Succeed())
		Expect(end.Type).To(Equal(want))
		Eventually(c.Done()).Should(BeClosed())
	}

	It("keeps both sessions on a multi-device tenant, and kicks the older out on a single-device one", func() {
		second := s.login("alice001")
		s.ok("GET", "/v1/member/memberInfo/getMemberByToken", alice.Token, nil, nil)
		s.ok("GET", "/v1/member/memberInfo/getMemberByToken", second.Token, nil, nil)

		s.configure(map[string]string{"singleDevice": "true"})
		a1, a2 := s.dial(alice), s.dial(second)
		third := s.login("alice001")
		ended(a1, next(a1, 31).Data, "KickOut")
		ended(a2, next(a2, 31).Data, "KickOut")
		s.refused("GET", "/v1/member/memberInfo/getMemberByToken", alice, nil, 401, "login expired, please log in again")
		s.refused("GET", "/v1/member/memberInfo/getMemberByToken", second, nil, 401, "login expired, please log in again")
		s.ok("GET", "/v1/member/memberInfo/getMemberByToken", third.Token, nil, nil)
	})

	It("ends every session with Disable on a ban, refuses login with the spec's text until unbanned", func() {
		a := s.dial(alice)
		s.written("PUT", "/v1/admin/member/ban", s.operator(), map[string]string{"tenant": "x0001", "account": "alice001"})
		ended(a, next(a, 31).Data, "Disable")
		s.refused("GET", "/v1/member/memberInfo/getMemberByToken", alice, nil, 401, "login expired, please log in again")
		s.refused("POST", "/v1/member/memberInfo/login", member{}, map[string]string{"account": "alice001", "password": "pass1234"},
			http.StatusForbidden, "You have been banned by the backend administrator")

		s.written("PUT", "/v1/admin/member/unban", s.operator(), map[string]string{"tenant": "x0001", "account": "alice001"})
		s.login("alice001")
	})

	It("ends every session with Offline when an operator signs a member out", func() {
		a := s.dial(alice)
		s.written("PUT", "/v1/admin/member/offline", s.operator(), map[string]string{"tenant": "x0001", "account": "alice001"})
		ended(a, next(a, 31).Data, "Offline")
		s.login("alice001")
	})

	It("tells friends when a member's first socket opens and its last closes, and lists friends' presence", func() {
		onlineOf := func(m, friend member) bool {
			GinkgoHelper()
			var cats []struct {
				Friends []struct {
					FriendMemberID string
					IsOnline       bool
				}
			}
			s.ok("GET", "/v1/chat/friendGroup/listFriendGroupByMemberId", m.Token, nil, &cats)
			for _, f := range cats[0].Friends {
				if f.FriendMemberID == friend.ID {
					return f.IsOnline
				}
			}
			Fail("friend not listed")
			return false
		}
		status := func(data []byte) (string, bool) {
			var st struct {
				MemberID string
				Online   bool
			}
			Expect(json.Unmarshal(data, &st)).To(Succeed())
			return st.MemberID, st.Online
		}

		b := s.dial(bob)
		Expect(onlineOf(bob, alice)).To(BeFalse())
		a1 := s.dial(alice)
		id, on := status(next(b, 33).Data)
		Expect(id).To(Equal(alice.ID))
		Expect(on).To(BeTrue())
		Expect(onlineOf(bob, alice)).To(BeTrue())
		Expect(onlineOf(alice, bob)).To(BeTrue())

		a2 := s.dial(alice) // a second socket tells nobody
		a1.Close()
		a2.Close()
		id, on = status(next(b, 33).Data)
		Expect(id).To(Equal(alice.ID))
		Expect(on).To(BeFalse())
		Eventually(func() bool { return onlineOf(bob, alice) }).Should(BeFalse())
	})
})
