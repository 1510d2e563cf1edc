package main

import (
	"fmt"
	"net/http"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

type userInfo struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Username string `json:"username"`
	Phone    string `json:"phone"`
	HeadURL  string `json:"headUrl"`
	Gender   string `json:"gender"`
}

type preferences struct {
	Notifications      bool   `json:"notifications"`
	ShowMessageTime    bool   `json:"showMessageTime"`
	ImagePreviewWindow bool   `json:"imagePreviewWindow"`
	ReadSync           bool   `json:"readSync"`
	FontSize           int    `json:"fontSize"`
	Background         string `json:"background"`
}

var _ = Describe("Accounts: profile, credentials, feedback, settings and limits", func() {
	var s *testServer
	var alice, bob member
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob = s.register("alice001"), s.register("bob00001")
	})

	me := func(m member, after uint64) userInfo {
		GinkgoHelper()
		var u userInfo
		s.ok("GET", fmt.Sprintf("/v1/member/memberInfo/getMemberByToken?after=%d", after), m.Token, nil, &u)
		return u
	}
	// head appends one event (a settings change) and returns its position.
	flips := 0
	head := func(m member) uint64 {
		GinkgoHelper()
		flips++
		return s.written("PUT", "/v1/member/memberSetting/modify", m, map[string]any{"fontSize": (flips % 2) * 2})
	}
	// refusedUnchanged makes a call that must fail with status and info and
	// append nothing: no event lies between the heads around it.
	refusedUnchanged := func(method, path string, m member, body any, status int, info string) {
		GinkgoHelper()
		before := head(m)
		s.refused(method, path, m, body, status, info)
		Expect(head(m)).To(Equal(before+1), "%s %s appended", method, path)
	}
	loginWith := func(account, password string, headers ...string) (int, envelope) {
		GinkgoHelper()
		return s.call("POST", "/v1/member/memberInfo/login", "", map[string]string{"account": account, "password": password}, headers...)
	}

	Describe("PUT /member/memberInfo/modify", func() {
		It("changes the name and gender, shows them in getMemberByToken and pushes 46", func() {
			c := s.dial(alice)
			pos := s.written("PUT", "/v1/member/memberInfo/modify", alice, map[string]string{"name": " Alice Liddell ", "gender": "female"})
			Expect(next(c, 46).Data).To(ContainSubstring(alice.ID))
			u := me(alice, pos)
			Expect(u.Name).To(Equal("Alice Liddell"))
			Expect(u.Gender).To(Equal("female"))
			Expect(u.Username).To(Equal("alice001"))
		})

		It("sets an avatar uploaded with type=avatar", func() {
			status, up := s.upload(alice.Token, "?type=avatar", "file", "me.png", pngOf(4, 4))
			Expect(status).To(Equal(http.StatusOK))
			pos := s.written("PUT", "/v1/member/memberInfo/modify", alice, map[string]string{"headUrl": up.Data.FilePath})
			Expect(me(alice, pos).HeadURL).To(Equal(up.Data.FilePath))
			var pub struct{ HeadURL string }
			s.ok("GET", "/v1/member/memberInfo/getMemberByMemberId?memberId="+alice.ID, bob.Token, nil, &pub)
			Expect(pub.HeadURL).To(Equal(up.Data.FilePath))
		})

		It("refuses a gif avatar at the upload", func() {
			status, up := s.upload(alice.Token, "?type=avatar", "file", "a.gif", gif1x1)
			Expect(status).To(Equal(http.StatusBadRequest))
			Expect(up.Code).To(Equal("400"))
		})

		DescribeTable("refuses bad input and appends nothing",
			func(body map[string]any, info string) {
				refusedUnchanged("PUT", "/v1/member/memberInfo/modify", alice, body, http.StatusBadRequest, info)
			},
			Entry("an empty name", map[string]any{"name": "  "}, "name cannot be empty"),
			Entry("a name too long", map[string]any{"name": strings.Repeat("n", 33)}, "name too long, at most 32 characters"),
			Entry("an unknown gender", map[string]any{"gender": "robot"}, "gender must be male, female or prefer not to say"),
			Entry("an avatar never uploaded", map[string]any{"headUrl": "/v1/sso/im/file/x0001/00000000000000000000000000000000.png"},
				"the avatar must be a jpg or png picture uploaded first"),
			Entry("an avatar elsewhere", map[string]any{"headUrl": "https://example.com/a.png"}, "the avatar must be a jpg or png picture uploaded first"),
			Entry("a name of the wrong type", map[string]any{"name": 5}, "invalid request"),
		)

		It("answers in the member's language", func() {
			code, env := s.call("PUT", "/v1/member/memberInfo/modify", alice.Token, map[string]string{"name": ""}, "Accept-Language", "zh-CN")
			Expect(code).To(Equal(http.StatusBadRequest))
			Expect(env.Info).To(Equal("名称不能为空"))
		})
	})

	Describe("PUT /member/memberInfo/modifyPassword", func() {
		change := func(old, pw string) map[string]string {
			return map[string]string{"oldPassword": old, "newPassword": pw, "confirmPassword": pw}
		}

		It("changes the password: the new one logs in, the old no longer", func() {
			s.written("PUT", "/v1/member/memberInfo/modifyPassword", alice, change("pass1234", "newPass99"))
			status, _ := loginWith("alice001", "newPass99")
			Expect(status).To(Equal(http.StatusOK))
			status, env := loginWith("alice001", "pass1234")
			Expect(status).To(Equal(http.StatusBadRequest))
			Expect(env.Info).To(Equal("wrong password, please enter the correct password"))
		})

		It("reports the attempts left for a wrong old password and locks after the fifth", func() {
			for left := 4; left > 0; left-- {
				s.refused("PUT", "/v1/member/memberInfo/modifyPassword", alice, change("wrong000", "newPass99"),
					http.StatusBadRequest, fmt.Sprintf("wrong old password, %d attempts left", left))
			}
			s.refused("PUT", "/v1/member/memberInfo/modifyPassword", alice, change("wrong000", "newPass99"),
				http.StatusTooManyRequests, "too many wrong passwords, try again in 30 minutes")
			refusedUnchanged("PUT", "/v1/member/memberInfo/modifyPassword", alice, change("pass1234", "newPass99"),
				http.StatusTooManyRequests, "too many wrong passwords, try again in 30 minutes")
			status, _ := loginWith("alice001", "pass1234")
			Expect(status).To(Equal(http.StatusOK))
		})

		DescribeTable("refuses bad input and appends nothing",
			func(body map[string]string, info string) {
				refusedUnchanged("PUT", "/v1/member/memberInfo/modifyPassword", alice, body, http.StatusBadRequest, info)
			},
			Entry("no old password", change("", "newPass99"), "please enter the old password"),
			Entry("no new password", change("pass1234", ""), "please enter the new password"),
			Entry("a new password of 7", change("pass1234", "short12"), "password must be 8-16 letters and digits"),
			Entry("a new password of 17", change("pass1234", "abcdefgh123456789"), "password must be 8-16 letters and digits"),
			Entry("a symbol", change("pass1234", "newPass99!"), "password must be 8-16 letters and digits"),
			Entry("a different confirmation", map[string]string{"oldPassword": "pass1234", "newPassword": "newPass99", "confirmPassword": "newPass98"},
				"the two passwords do not match"),
		)
	})

	Describe("PUT /member/memberInfo/modifyUsername", func() {
		It("changes the account ID once: the new one logs in and is found, the old is free, a second change is refused", func() {
			pos := s.written("PUT", "/v1/member/memberInfo/modifyUsername", alice, map[string]string{"username": "Alice2026"})
			Expect(me(alice, pos).Username).To(Equal("Alice2026"))
			status, _ := loginWith("Alice2026", "pass1234")
			Expect(status).To(Equal(http.StatusOK))
			status, _ = loginWith("alice001", "pass1234")
			Expect(status).To(Equal(http.StatusBadRequest))
			var found struct{ ID string }
			s.ok("GET", fmt.Sprintf("/v1/member/memberInfo/getMemberByCodeOrUsername?keyword=Alice2026&after=%d", pos), bob.Token, nil, &found)
			Expect(found.ID).To(Equal(alice.ID))

			refusedUnchanged("PUT", "/v1/member/memberInfo/modifyUsername", alice, map[string]string{"username": "Alice2027"},
				http.StatusConflict, "the account ID can be changed only once")
			By("letting another member take the released ID")
			s.written("PUT", "/v1/member/memberInfo/modifyUsername", bob, map[string]string{"username": "alice001"})
		})

		It("refuses an ID in use", func() {
			refusedUnchanged("PUT", "/v1/member/memberInfo/modifyUsername", alice, map[string]string{"username": "bob00001"},
				http.StatusConflict, "account already in use")
			s.written("PUT", "/v1/member/memberInfo/modifyUsername", alice, map[string]string{"username": "alice0002"})
		})

		DescribeTable("refuses bad input and appends nothing",
			func(name, info string) {
				refusedUnchanged("PUT", "/v1/member/memberInfo/modifyUsername", alice, map[string]string{"username": name}, http.StatusBadRequest, info)
			},
			Entry("7 characters", "abc1234", "account ID must be 8-16 letters or digits"),
			Entry("17 characters", "abcdefgh123456789", "account ID must be 8-16 letters or digits"),
			Entry("a symbol", "alice_2026", "account ID must be 8-16 letters or digits"),
		)
	})

	Describe("phones", func() {
		It("moves to a new phone by its code; isMobileRegister follows", func() {
			var old userInfo = me(alice, 0)
			phone := fmt.Sprintf("137%08d", phones.Add(1))
			registered := func(p string) bool {
				var b bool
				s.ok("GET", "/v1/member/memberInfo/isMobileRegister?phone="+p, "", nil, &b)
				return b
			}
			Expect(registered(phone)).To(BeFalse())
			Expect(registered(old.Phone)).To(BeTrue())
			s.ok("GET", "/v1/member/sms/send?phone="+phone+"&type=register", "", nil, nil)
			s.refused("PUT", "/v1/member/memberInfo/modifyMobile", alice, map[string]string{"phone": phone, "smsCode": "000000x"},
				http.StatusBadRequest, "wrong verification code, 4 attempts left")
			pos := s.written("PUT", "/v1/member/memberInfo/modifyMobile", alice, map[string]string{"phone": phone, "smsCode": s.smsCode(phone)})
			Expect(me(alice, pos).Phone).To(Equal(phone))
			Expect(registered(phone)).To(BeTrue())
			Expect(registered(old.Phone)).To(BeFalse())
			status, _ := loginWith(phone, "pass1234")
			Expect(status).To(Equal(http.StatusOK))
		})

		It("refuses a phone in use and a bad number", func() {
			refusedUnchanged("PUT", "/v1/member/memberInfo/modifyMobile", alice, map[string]string{"phone": me(bob, 0).Phone, "smsCode": "123456"},
				http.StatusConflict, "phone number already registered")
			refusedUnchanged("PUT", "/v1/member/memberInfo/modifyMobile", alice, map[string]string{"phone": "4155550100", "smsCode": "123456"},
				http.StatusBadRequest, "only mainland China mobile numbers are supported")
			s.refused("GET", "/v1/member/memberInfo/isMobileRegister?phone=12", member{}, nil, http.StatusBadRequest, "only mainland China mobile numbers are supported")
		})

		It("refuses a bad password reset and appends nothing (the reset itself: commands suite, which moves the clock past the SMS minute)", func() {
			phone := me(alice, 0).Phone
			reset := func(pw, confirm, smsCode string) map[string]string {
				return map[string]string{"phone": phone, "smsCode": smsCode, "password": pw, "confirmPassword": confirm}
			}
			refusedUnchanged("PUT", "/v1/member/memberInfo/forgetPassword", alice, reset("newPass99", "newPass98", "123456"),
				http.StatusBadRequest, "the two passwords do not match")
			refusedUnchanged("PUT", "/v1/member/memberInfo/forgetPassword", alice, reset("short", "short", "123456"),
				http.StatusBadRequest, "password must be 8-16 letters and digits")
			refusedUnchanged("PUT", "/v1/member/memberInfo/forgetPassword", alice, reset("newPass99", "newPass99", ""),
				http.StatusBadRequest, "verification code is required")
			refusedUnchanged("PUT", "/v1/member/memberInfo/forgetPassword", alice, reset("newPass99", "newPass99", "999999"),
				http.StatusBadRequest, "verification code is wrong or expired")
		})
	})

	Describe("GET /member/memberInfo/getFriendIp", func() {
		It("tells a friend the address of the last login, and nobody else", func() {
			s.befriend(alice, bob)
			status, env := loginWith("bob00001", "pass1234", "X-Forwarded-For", "203.0.113.77")
			Expect(status).To(Equal(http.StatusOK), env.Info)
			var ip struct {
				FriendMemberID string
				IP             string
			}
			Eventually(func() string {
				s.ok("GET", "/v1/member/memberInfo/getFriendIp?friendMemberId="+bob.ID, alice.Token, nil, &ip)
				return ip.IP
			}).Should(Equal("203.0.113.77"))
			carol := s.register("carol001")
			s.refused("GET", "/v1/member/memberInfo/getFriendIp?friendMemberId="+bob.ID, carol, nil, http.StatusNotFound, "You are not yet a friend, add first")
			s.refused("GET", "/v1/member/memberInfo/getFriendIp", carol, nil, http.StatusBadRequest, "invalid request")
		})
	})

	It("gives a permanent invitation code and link", func() {
		var link struct {
			Code, Link string
			Permanent  bool
		}
		s.ok("GET", "/v1/chat/friendInfo/getRefereeLink", alice.Token, nil, &link)
		Expect(link.Code).NotTo(BeEmpty())
		Expect(link.Link).To(HaveSuffix("/#/register?inviteCode=" + link.Code + "&tenantCode=x0001"))
		Expect(link.Permanent).To(BeTrue())
		var again struct{ Code string }
		s.ok("GET", "/v1/chat/friendInfo/getRefereeLink", alice.Token, nil, &again)
		Expect(again.Code).To(Equal(link.Code))
	})

	Describe("POST /member/feedback/build", func() {
		It("keeps feedback with screenshots uploaded with type=feedback", func() {
			_, shot := s.upload(alice.Token, "?type=feedback", "file", "s.gif", gif1x1)
			Expect(shot.Code).To(Equal("200"))
			var built struct {
				ID       string
				Position uint64
			}
			s.ok("POST", "/v1/member/feedback/build", alice.Token, map[string]any{"type": "bug", "content": "it broke", "images": []string{shot.Data.FilePath}}, &built)
			Expect(built.ID).NotTo(BeEmpty())
			Expect(built.Position).NotTo(BeZero())
		})

		DescribeTable("refuses bad input and appends nothing",
			func(body map[string]any, info string) {
				refusedUnchanged("POST", "/v1/member/feedback/build", alice, body, http.StatusBadRequest, info)
			},
			Entry("no type", map[string]any{"content": "x"}, "please choose a feedback type"),
			Entry("no content", map[string]any{"type": "bug"}, "please describe the problem"),
			Entry("content too long", map[string]any{"type": "bug", "content": strings.Repeat("x", 1001)}, "feedback too long, at most 1000 characters"),
			Entry("six images", map[string]any{"type": "bug", "content": "x", "images": []string{"a", "b", "c", "d", "e", "f"}}, "at most 5 pictures"),
			Entry("an image never uploaded", map[string]any{"type": "bug", "content": "x", "images": []string{"/v1/sso/im/file/x0001/00000000000000000000000000000000.png"}},
				"only jpeg, jpg, png and gif pictures under 5 MB, uploaded first"),
		)
	})

	Describe("settings", func() {
		It("has defaults, keeps changes and pushes 46 to the member's other devices", func() {
			var p preferences
			s.ok("GET", "/v1/member/memberSetting/get", alice.Token, nil, &p)
			Expect(p).To(Equal(preferences{Notifications: true, ShowMessageTime: true, ReadSync: true, FontSize: 1, Background: "default"}))
			other := s.login("alice001")
			c := s.dial(other)
			pos := s.written("PUT", "/v1/member/memberSetting/modify", alice, map[string]any{"notifications": false, "fontSize": 2, "background": "night", "imagePreviewWindow": true})
			next(c, 46)
			s.ok("GET", fmt.Sprintf("/v1/member/memberSetting/get?after=%d", pos), other.Token, nil, &p)
			Expect(p).To(Equal(preferences{Notifications: false, ShowMessageTime: true, ImagePreviewWindow: true, ReadSync: true, FontSize: 2, Background: "night"}))
		})

		DescribeTable("refuses bad input and appends nothing",
			func(body any, info string) {
				refusedUnchanged("PUT", "/v1/member/memberSetting/modify", alice, body, http.StatusBadRequest, info)
			},
			Entry("font size 3", map[string]any{"fontSize": 3}, "invalid setting"),
			Entry("an unknown background", map[string]any{"background": "plaid"}, "invalid setting"),
			Entry("a toggle of the wrong type", map[string]any{"notifications": "yes"}, "invalid request"),
			Entry("not JSON", "{", "invalid request"),
		)
	})

	Describe("rate limits", func() {
		It("limits logins per client address", func() {
			for range 20 {
				status, _ := loginWith("alice001", "pass1234", "X-Forwarded-For", "198.51.100.1")
				Expect(status).To(Equal(http.StatusOK))
			}
			status, env := loginWith("alice001", "pass1234", "X-Forwarded-For", "198.51.100.1")
			Expect(status).To(Equal(http.StatusTooManyRequests))
			Expect(env.Info).To(Equal("too many attempts, please try again later"))
			status, _ = loginWith("alice001", "pass1234", "X-Forwarded-For", "198.51.100.2")
			Expect(status).To(Equal(http.StatusOK))
		})

		It("refuses the logins of an account after ten wrong passwords", func() {
			for range 10 {
				status, _ := loginWith("alice001", "wrong")
				Expect(status).To(Equal(http.StatusBadRequest))
			}
			status, env := loginWith("alice001", "pass1234")
			Expect(status).To(Equal(http.StatusTooManyRequests))
			Expect(env.Info).To(Equal("too many attempts, please try again later"))
			status, _ = loginWith("bob00001", "pass1234")
			Expect(status).To(Equal(http.StatusOK))
		})

		It("limits SMS codes per client address and keeps one a minute per phone", func() {
			for i := range 10 {
				code, env := s.call("GET", fmt.Sprintf("/v1/member/sms/send?phone=135%08d&type=register", 90000000+i), "", nil, "X-Forwarded-For", "198.51.100.9")
				Expect(code).To(Equal(http.StatusOK), env.Info)
			}
			code, env := s.call("GET", "/v1/member/sms/send?phone=13599999999&type=register", "", nil, "X-Forwarded-For", "198.51.100.9")
			Expect(code).To(Equal(http.StatusTooManyRequests))
			Expect(env.Info).To(Equal("too many verification codes, please try again later"))
			code, env = s.call("GET", "/v1/member/sms/send?phone=13590000000&type=register", "", nil)
			Expect(code).To(Equal(http.StatusTooManyRequests))
			Expect(env.Info).To(Equal("verification code sent too often, try later"))
		})

		It("refuses a second friend request to the same member within 200 ms", func() {
			var wg sync.WaitGroup
			codes := make([]int, 2)
			for i := range 2 {
				wg.Add(1)
				go func() {
					defer GinkgoRecover()
					defer wg.Done()
					codes[i], _ = s.call("POST", "/v1/chat/applyInfo/build", alice.Token, map[string]string{"friendMemberId": bob.ID, "content": "hi"})
				}()
			}
			wg.Wait()
			Expect(codes).To(ConsistOf(http.StatusOK, http.StatusTooManyRequests))
		})
	})
})
