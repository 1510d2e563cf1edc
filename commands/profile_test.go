package commands_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
)

var _ = Describe("Profile and credentials", func() {
	var w *world
	ctx := context.Background()
	BeforeEach(func() { w = newWorld() })

	login := func(account, password string) error {
		_, err := w.app.LoginMember(ctx, commands.Login{Account: account, Password: password, TenantCode: "x0001"})
		return err
	}
	phoneOf := func(p commands.Principal) string {
		w.settle()
		ms, err := w.reads.MembersByID(ctx, viewer(p), []string{p.MemberID})
		Expect(err).NotTo(HaveOccurred())
		return ms[p.MemberID].Phone
	}

	It("resets a forgotten password by a reset code, lifting the lock", func() {
		alice := w.member("alice001")
		for range 5 {
			_, err := w.app.ModifyPassword(ctx, alice, commands.ModifyPassword{OldPassword: "wrong000", NewPassword: "newPass99", ConfirmPassword: "newPass99"})
			Expect(err).To(HaveOccurred())
		}
		_, err := w.app.ModifyPassword(ctx, alice, commands.ModifyPassword{OldPassword: "pass1234", NewPassword: "newPass99", ConfirmPassword: "newPass99"})
		Expect(fault.Is(err, fault.RateLimited)).To(BeTrue())

		phone := phoneOf(alice)
		w.advance(time.Minute)
		Expect(w.app.SendSMSCode(ctx, "x0001", phone, "reset")).To(Succeed())
		_, err = w.app.ForgetPassword(ctx, commands.ForgetPassword{Phone: phone, SMSCode: w.lastCode(phone), Password: "reset123", ConfirmPassword: "reset123", TenantCode: "x0001"})
		Expect(err).NotTo(HaveOccurred())
		Expect(login("alice001", "reset123")).To(Succeed())
		Expect(login("alice001", "pass1234")).To(HaveOccurred())

		_, err = w.app.ModifyPassword(ctx, alice, commands.ModifyPassword{OldPassword: "reset123", NewPassword: "newPass99", ConfirmPassword: "newPass99"})
		Expect(err).NotTo(HaveOccurred())
		Expect(login("alice001", "newPass99")).To(Succeed())
	})

	It("refuses the reset of a banned member with the ban text, changing nothing, also with a code sent before the ban", func() {
		alice := w.member("alice001")
		phone := phoneOf(alice)
		w.advance(time.Minute)
		Expect(w.app.SendSMSCode(ctx, "x0001", phone, "reset")).To(Succeed())
		_, err := w.app.BanMember(ctx, commands.Operator{Name: "spec"}, "x0001", "alice001")
		Expect(err).NotTo(HaveOccurred())
		By("with a code sent before the ban")
		_, err = w.app.ForgetPassword(ctx, commands.ForgetPassword{Phone: phone, SMSCode: w.lastCode(phone), Password: "reset123", ConfirmPassword: "reset123", TenantCode: "x0001"})
		Expect(fault.Is(err, fault.Forbidden)).To(BeTrue())
		Expect(err.Error()).To(Equal(fault.MsgBanned))
		_, err = w.app.UnbanMember(ctx, commands.Operator{Name: "spec"}, "x0001", "alice001")
		Expect(err).NotTo(HaveOccurred())
		Expect(login("alice001", "pass1234")).To(Succeed())
		Expect(login("alice001", "reset123")).To(HaveOccurred())
	})

	It("refuses a reset for a phone nobody uses", func() {
		_, err := w.app.ForgetPassword(ctx, commands.ForgetPassword{Phone: "13312345678", SMSCode: "123456", Password: "reset123", ConfirmPassword: "reset123", TenantCode: "x0001"})
		Expect(err).To(HaveOccurred())
	})

	It("lets one of two members racing for an account ID win", func() {
		alice, bob := w.member("alice001"), w.member("bob00001")
		errs := make(chan error, 2)
		for _, p := range []commands.Principal{alice, bob} {
			go func() {
				_, err := w.app.ModifyUsername(ctx, p, commands.ModifyUsername{Username: "Winner123"})
				errs <- err
			}()
		}
		first, second := <-errs, <-errs
		Expect([]bool{first == nil, second == nil}).To(ConsistOf(true, false))
		lost := first
		if lost == nil {
			lost = second
		}
		Expect(fault.Is(lost, fault.Conflict)).To(BeTrue())
		Expect(login("Winner123", "pass1234")).To(Succeed())
	})

	It("frees the old phone for a registration once a member moves", func() {
		alice := w.member("alice001")
		old := phoneOf(alice)
		w.advance(time.Minute)
		Expect(w.app.SendSMSCode(ctx, "x0001", "13312345678", "register")).To(Succeed())
		_, err := w.app.ModifyMobile(ctx, alice, commands.ModifyMobile{Phone: "13312345678", SMSCode: w.lastCode("13312345678")})
		Expect(err).NotTo(HaveOccurred())
		registered, err := w.app.IsMobileRegistered(ctx, "x0001", old)
		Expect(err).NotTo(HaveOccurred())
		Expect(registered).To(BeFalse())
		Expect(w.app.SendSMSCode(ctx, "x0001", old, "register")).To(Succeed())
		_, err = w.app.RegisterMember(ctx, commands.Register{Phone: old, SMSCode: w.lastCode(old), Account: "carol001", Password: "pass1234", TenantCode: "x0001"})
		Expect(err).NotTo(HaveOccurred())
	})
})
