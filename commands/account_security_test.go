package commands_test

import (
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Account security", func() {
	var w *world
	BeforeEach(func() { w = newWorld() })

	reset := func(app *commands.App, phone, code string) error {
		_, err := app.ForgetPassword(ctx, commands.ForgetPassword{
			Phone: phone, SMSCode: code, Password: "reset123", ConfirmPassword: "reset123", TenantCode: "x0001"})
		return err
	}
	phoneOf := func(p commands.Principal) string {
		w.settle()
		ms, err := w.reads.MembersByID(ctx, projections.Viewer{Tenant: p.Tenant, Member: p.MemberID}, []string{p.MemberID})
		Expect(err).NotTo(HaveOccurred())
		return ms[p.MemberID].Phone
	}
	resetCode := func(phone string) string {
		w.advance(time.Minute)
		Expect(w.app.SendSMSCode(ctx, "x0001", phone, "reset")).To(Succeed())
		return w.lastCode(phone)
	}
	active := func(sessionID string) bool {
		w.settle()
		s, found, err := w.reads.AuthSession(ctx, sessionID)
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeTrue())
		return s.Active
	}

	It("voids a code after five wrong tries, counted on every node, until a new code is sent", func() {
		phone := phoneOf(w.member("alice001"))
		code := resetCode(phone)
		other := w.node()
		for i := range member.MaxSMSCodeTries - 1 {
			app := w.app
			if i%2 == 1 {
				app = other
			}
			expectFault(reset(app, phone, "000000"), fault.Invalid, fault.MsgSMSCodeWrong)
		}
		expectFault(reset(other, phone, "000000"), fault.Invalid, fault.MsgSMSCodeVoid)
		expectFault(reset(w.app, phone, code), fault.Invalid, fault.MsgSMSCodeVoid)
		expectFault(reset(other, phone, code), fault.Invalid, fault.MsgSMSCodeVoid)

		recs, err := w.events.ReadStream(ctx, es.Stream("x0001", es.CategorySMS, w.blind(phone)), es.Forwards, 0, 100)
		Expect(err).NotTo(HaveOccurred())
		var rejected int
		for _, r := range recs {
			if r.Type == member.TypeSMSCodeRejected {
				rejected++
			}
		}
		Expect(rejected).To(Equal(member.MaxSMSCodeTries))

		Expect(reset(w.app, phone, resetCode(phone))).To(Succeed())
	})

	It("spends a code on its first use", func() {
		phone := phoneOf(w.member("alice001"))
		code := resetCode(phone)
		Expect(reset(w.app, phone, code)).To(Succeed())
		expectFault(reset(w.app, phone, code), fault.Invalid, fault.MsgSMSCodeUsed)
		expectFault(reset(w.node(), phone, code), fault.Invalid, fault.MsgSMSCodeUsed)
	})

	It("lets only one of many concurrent uses of a code through", func() {
		phone := phoneOf(w.member("alice001"))
		code := resetCode(phone)
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Add(1)
			go func() { defer wg.Done(); errs <- reset(w.app, phone, code) }()
		}
		wg.Wait()
		close(errs)
		var ok int
		for err := range errs {
			if err == nil {
				ok++
			} else {
				expectFault(err, fault.Invalid, fault.MsgSMSCodeUsed)
			}
		}
		Expect(ok).To(Equal(1))
	})

	It("spends the code of a mobile number change", func() {
		alice := w.member("alice001")
		Expect(w.app.SendSMSCode(ctx, "x0001", "13700000001", "register")).To(Succeed())
		_, err := w.app.ModifyMobile(ctx, alice, commands.ModifyMobile{Phone: "13700000001", SMSCode: w.lastCode("13700000001")})
		Expect(err).NotTo(HaveOccurred())
		recs, err := w.events.ReadStream(ctx, es.Stream("x0001", es.CategorySMS, w.blind("13700000001")), es.Forwards, 0, 100)
		Expect(err).NotTo(HaveOccurred())
		Expect(recs).To(HaveLen(2))
		Expect(recs[1].Type).To(Equal(member.TypeSMSCodeUsed))
	})

	It("ends every other session on a password change and all of them on a reset", func() {
		alice := w.member("alice001")
		login := func() commands.Principal {
			in, err := w.app.LoginMember(ctx, commands.Login{Account: "alice001", Password: "pass1234", TenantCode: "x0001"})
			Expect(err).NotTo(HaveOccurred())
			return in.Principal
		}
		second, third := login(), login()
		_, err := w.app.ModifyPassword(ctx, second, commands.ModifyPassword{OldPassword: "pass1234", NewPassword: "newPass99", ConfirmPassword: "newPass99"})
		Expect(err).NotTo(HaveOccurred())
		Expect(active(alice.SessionID)).To(BeFalse())
		Expect(active(third.SessionID)).To(BeFalse())
		Expect(active(second.SessionID)).To(BeTrue())

		Expect(reset(w.app, phoneOf(alice), resetCode(phoneOf(alice)))).To(Succeed())
		Expect(active(second.SessionID)).To(BeFalse())
	})

	It("keeps the sessions on a wrong old password", func() {
		alice := w.member("alice001")
		in, err := w.app.LoginMember(ctx, commands.Login{Account: "alice001", Password: "pass1234", TenantCode: "x0001"})
		Expect(err).NotTo(HaveOccurred())
		_, err = w.app.ModifyPassword(ctx, in.Principal, commands.ModifyPassword{OldPassword: "wrong000", NewPassword: "newPass99", ConfirmPassword: "newPass99"})
		expectFault(err, fault.Invalid, fault.MsgOldPasswordWrong)
		Expect(active(alice.SessionID)).To(BeTrue())
	})

	It("locks a member out after ten wrong passwords by any spelling on any node, the right one included, until the window ends", func() {
		alice := w.member("alice001")
		phone := phoneOf(alice)
		other := w.node()
		login := func(app *commands.App, account, password string) error {
			_, err := app.LoginMember(ctx, commands.Login{Account: account, Password: password, TenantCode: "x0001"})
			return err
		}
		spellings := []string{phone, "+86" + phone, " " + phone, "+86 " + phone, "alice001"}
		for i := range member.MaxLoginFailures {
			app := w.app
			if i%2 == 1 {
				app = other
			}
			expectFault(login(app, spellings[i%len(spellings)], "wrong000"), fault.Invalid, fault.MsgWrongPassword)
		}
		for _, spelling := range spellings {
			expectFault(login(w.app, spelling, "pass1234"), fault.RateLimited, fault.MsgTooManyAttempts)
			expectFault(login(other, spelling, "pass1234"), fault.RateLimited, fault.MsgTooManyAttempts)
		}
		w.advance(member.LoginLockWindow)
		Expect(login(other, "+86 "+phone, "pass1234")).To(Succeed())
	})

	It("names an unknown account by its normalised spelling, and no member's", func() {
		alice := w.member("alice001")
		Expect(w.app.UnknownLoginKey(ctx, "x0001", "alice001")).To(BeEmpty())
		Expect(w.app.UnknownLoginKey(ctx, "x0001", "+86 "+phoneOf(alice))).To(BeEmpty())
		unknown, err := w.app.UnknownLoginKey(ctx, "x0001", "13311112222")
		Expect(err).NotTo(HaveOccurred())
		Expect(unknown).NotTo(BeEmpty())
		for _, spelling := range []string{"+8613311112222", " 13311112222", "+86 13311112222"} {
			Expect(w.app.UnknownLoginKey(ctx, "x0001", spelling)).To(Equal(unknown))
		}
		_, err = w.app.UnknownLoginKey(ctx, "x0009", "alice001")
		expectFault(err, fault.Invalid, fault.MsgTenantInvalid)
	})
})
