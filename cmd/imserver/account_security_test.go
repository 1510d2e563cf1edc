package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

// Issue 13, findings 2 to 5, tried from outside as an attacker would.
var _ = Describe("Account security", func() {
	var s *testServer
	BeforeEach(func() { s = startServer(GinkgoT().TempDir()) })

	const expired = "login expired, please log in again"
	phoneOf := func(m member) string {
		GinkgoHelper()
		var u userInfo
		s.ok("GET", "/v1/member/memberInfo/getMemberByToken", m.Token, nil, &u)
		return u.Phone
	}
	tokenStatus := func(m member) func() int {
		return func() int {
			status, _ := s.call("GET", "/v1/member/memberInfo/getMemberByToken", m.Token, nil)
			return status
		}
	}
	sessionEnded := func(c *wsclient.Client) {
		GinkgoHelper()
		var end struct{ Type string }
		Expect(json.Unmarshal(next(c, 31).Data, &end)).To(Succeed())
		Expect(end.Type).To(Equal("Offline"))
		Eventually(c.Done()).Should(BeClosed())
	}
	// from makes a call as a client at its own address, as a proxy tells it.
	from := func(address int, method, path string, body any) (int, envelope) {
		return s.call(method, path, "", body, "X-Forwarded-For", fmt.Sprintf("203.0.113.%d", address))
	}
	register := func(phone, code, account string, headers ...string) (int, envelope) {
		return s.call("POST", "/v1/member/memberInfo/register", "",
			map[string]string{"phone": phone, "smsCode": code, "account": account, "password": "pass1234", "tenantCode": "x0001"}, headers...)
	}

	It("voids a code after five wrong tries from any addresses, spends a code once, and ends every session on a reset", func() {
		alice, bob := s.register("alice001"), s.register("bob00001")
		alicePhone, bobPhone := phoneOf(alice), phoneOf(bob)
		By("waiting out the minute between two codes to one phone (the register codes)")
		time.Sleep(61 * time.Second)
		old := s.dial(bob)
		s.ok("GET", "/v1/member/sms/send?phone="+alicePhone+"&type=reset", "", nil, nil)
		s.ok("GET", "/v1/member/sms/send?phone="+bobPhone+"&type=reset", "", nil, nil)
		reset := func(phone, code string) map[string]string {
			return map[string]string{"phone": phone, "smsCode": code, "password": "reset123", "confirmPassword": "reset123", "tenantCode": "x0001"}
		}

		By("25 wrong codes from 25 addresses, then the right one: refused (finding 2)")
		right := s.smsCode(alicePhone)
		wrong := "000000"
		if right == wrong {
			wrong = "000001"
		}
		for i := range 25 {
			status, env := from(i+1, "PUT", "/v1/member/memberInfo/forgetPassword", reset(alicePhone, wrong))
			Expect(status).To(Equal(http.StatusBadRequest))
			switch {
			case i < 4:
				Expect(env.Info).To(Equal(fmt.Sprintf("wrong verification code, %d attempts left", 4-i)))
			default:
				Expect(env.Info).To(Equal("too many wrong verification codes, please request a new one"))
			}
		}
		status, env := from(26, "PUT", "/v1/member/memberInfo/forgetPassword", reset(alicePhone, right))
		Expect(status).To(Equal(http.StatusBadRequest))
		Expect(env.Info).To(Equal("too many wrong verification codes, please request a new one"))
		s.ok("GET", "/v1/member/memberInfo/getMemberByToken", alice.Token, nil, nil)
		status, _ = s.call("POST", "/v1/member/memberInfo/login", "", map[string]string{"account": "alice001", "password": "reset123"})
		Expect(status).To(Equal(http.StatusBadRequest))

		By("the same code twice: the second reset is refused (finding 3)")
		code := s.smsCode(bobPhone)
		s.ok("PUT", "/v1/member/memberInfo/forgetPassword", "", reset(bobPhone, code), nil)
		status, env = from(1, "PUT", "/v1/member/memberInfo/forgetPassword", reset(bobPhone, code))
		Expect(status).To(Equal(http.StatusBadRequest))
		Expect(env.Info).To(Equal("this verification code has already been used, please request a new one"))

		By("the reset ends every session: 401, and 31 on the open socket (finding 4)")
		sessionEnded(old)
		s.refused("GET", "/v1/member/memberInfo/getMemberByToken", bob, nil, http.StatusUnauthorized, expired)
		status, _ = s.call("POST", "/v1/member/memberInfo/login", "", map[string]string{"account": "bob00001", "password": "reset123"})
		Expect(status).To(Equal(http.StatusOK))
	})

	It("voids a register code after five wrong tries from different addresses, and spends it once", func() {
		phone := fmt.Sprintf("136%08d", phones.Add(1))
		s.ok("GET", "/v1/member/sms/send?phone="+phone+"&type=register", "", nil, nil)
		right := s.smsCode(phone)
		status, env := register(phone, "x", "carol001", "Accept-Language", "zh_CN")
		Expect(status).To(Equal(http.StatusBadRequest))
		Expect(env.Info).To(Equal("验证码错误，还可尝试 4 次"))
		_, env = register(phone, "x", "carol001", "Accept-Language", "vi_VN")
		Expect(env.Info).To(Equal("Mã xác minh sai, còn 3 lần thử"))
		for i := range 3 {
			status, _ := from(i+1, "POST", "/v1/member/memberInfo/register", map[string]string{
				"phone": phone, "smsCode": fmt.Sprintf("x%d", i), "account": "carol001", "password": "pass1234", "tenantCode": "x0001"})
			Expect(status).To(Equal(http.StatusBadRequest))
		}
		status, env = register(phone, right, "carol001")
		Expect(status).To(Equal(http.StatusBadRequest))
		Expect(env.Info).To(Equal("too many wrong verification codes, please request a new one"))
		_, env = register(phone, right, "carol001", "Accept-Language", "zh_CN")
		Expect(env.Info).To(Equal("验证码错误次数过多，请重新获取验证码"))

		other := fmt.Sprintf("136%08d", phones.Add(1))
		s.ok("GET", "/v1/member/sms/send?phone="+other+"&type=register", "", nil, nil)
		status, env = register(other, s.smsCode(other), "dave0001")
		Expect(status).To(Equal(http.StatusOK), env.Info)
		status, env = register(other, s.smsCode(other), "erin0001")
		Expect(status).To(Equal(http.StatusBadRequest))
		Expect(env.Info).To(Equal("this verification code has already been used, please request a new one"))
		_, env = register(other, s.smsCode(other), "erin0001", "Accept-Language", "vi_VN")
		Expect(env.Info).To(Equal("Mã xác minh này đã được sử dụng, vui lòng lấy mã mới"))
	})

	It("ends every session but the current one on a password change (finding 4)", func() {
		first := s.register("alice001")
		second, current := s.login("alice001"), s.login("alice001")
		c := s.dial(second)
		mine := s.dial(current)
		s.written("PUT", "/v1/member/memberInfo/modifyPassword", current,
			map[string]string{"oldPassword": "pass1234", "newPassword": "newPass99", "confirmPassword": "newPass99"})
		sessionEnded(c)
		Eventually(tokenStatus(first)).Should(Equal(http.StatusUnauthorized))
		s.refused("GET", "/v1/member/memberInfo/getMemberByToken", second, nil, http.StatusUnauthorized, expired)
		s.ok("GET", "/v1/member/memberInfo/getMemberByToken", current.Token, nil, nil)
		Expect(mine.Done()).NotTo(BeClosed())
		Consistently(tokenStatus(current), 300*time.Millisecond).Should(Equal(http.StatusOK))
	})

	It("keeps a locked account locked through every spelling of its phone (finding 5)", func() {
		alice, bob := s.register("alice001"), s.register("bob00001")
		phone := phoneOf(alice)
		login := func(account, password string) (int, envelope) {
			return s.call("POST", "/v1/member/memberInfo/login", "", map[string]string{"account": account, "password": password})
		}
		spellings := []string{"+86" + phone, " " + phone, "+86 " + phone, phone, "alice001"}
		for i := range 10 {
			status, env := login(spellings[i%len(spellings)], "wrong000")
			Expect(status).To(Equal(http.StatusBadRequest), env.Info)
		}
		for _, spelling := range spellings {
			status, env := login(spelling, "pass1234")
			Expect(status).To(Equal(http.StatusTooManyRequests), spelling)
			Expect(env.Info).To(Equal("too many attempts, please try again later"))
		}
		status, env := login("bob00001", "pass1234")
		Expect(status).To(Equal(http.StatusOK), env.Info)
		s.ok("GET", "/v1/member/memberInfo/getMemberByToken", bob.Token, nil, nil)

		By("an unknown phone locks out alike, whatever its spelling, so a lockout tells nothing")
		nobody := fmt.Sprintf("137%08d", phones.Add(1))
		for i := range 10 {
			status, _ := login([]string{nobody, "+86 " + nobody}[i%2], "wrong000")
			Expect(status).To(Equal(http.StatusBadRequest))
		}
		status, env = login("+86"+nobody, "wrong000")
		Expect(status).To(Equal(http.StatusTooManyRequests))
		Expect(env.Info).To(Equal("too many attempts, please try again later"))
	})
})
