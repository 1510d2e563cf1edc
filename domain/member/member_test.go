package member_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
)

var now = time.UnixMilli(1_800_000_000_000)

func valid() member.Registration {
	return member.Registration{Phone: "13800138000", SMSCode: "123456", Account: "alice01", Password: "pass1"}
}

var _ = Describe("Registration", func() {
	DescribeTable("rules of spec/accounts.md section 5",
		func(change func(*member.Registration), key string) {
			r := valid()
			change(&r)
			err := r.Validate()
			if key == "" {
				Expect(err).NotTo(HaveOccurred())
				return
			}
			f, ok := fault.As(err)
			Expect(ok).To(BeTrue())
			Expect(f.Kind).To(Equal(fault.Invalid))
			Expect(f.Key).To(Equal(key))
		},
		Entry("a valid registration", func(*member.Registration) {}, ""),
		Entry("empty phone", func(r *member.Registration) { r.Phone = "" }, fault.MsgPhoneEmpty),
		Entry("a non-mainland number", func(r *member.Registration) { r.Phone = "4155550100" }, fault.MsgPhoneInvalid),
		Entry("a landline-like number", func(r *member.Registration) { r.Phone = "12800138000" }, fault.MsgPhoneInvalid),
		Entry("missing SMS code", func(r *member.Registration) { r.SMSCode = " " }, fault.MsgSMSCodeRequired),
		Entry("empty account", func(r *member.Registration) { r.Account = "" }, fault.MsgAccountEmpty),
		Entry("account of 5 characters", func(r *member.Registration) { r.Account = "abc12" }, fault.MsgAccountInvalid),
		Entry("account with a symbol", func(r *member.Registration) { r.Account = "alice_01" }, fault.MsgAccountInvalid),
		Entry("account of exactly 6", func(r *member.Registration) { r.Account = "Abc123" }, ""),
		Entry("empty password", func(r *member.Registration) { r.Password = "" }, fault.MsgPasswordEmpty),
		Entry("password of 3", func(r *member.Registration) { r.Password = "ab1" }, fault.MsgPasswordTooShort),
		Entry("password of exactly 4", func(r *member.Registration) { r.Password = "ab12" }, ""),
		Entry("password with a symbol", func(r *member.Registration) { r.Password = "ab12!" }, fault.MsgPasswordInvalid),
	)

	It("accepts a +86 prefix once normalised", func() {
		Expect(member.ValidatePhone(member.NormalizePhone(" +86 13912345678 "))).To(Succeed())
	})

	It("decides a registration with the hash, never the password", func() {
		events := member.Register("1", valid(), "HASH", now)
		Expect(events).To(HaveLen(1))
		e := events[0].(*member.Registered)
		Expect(e.PasswordHash).To(Equal("HASH"))
		Expect(e.Name).To(Equal("alice01"))
		Expect(e.Level).To(Equal(member.LevelNormal))
	})
})

var _ = Describe("Sessions", func() {
	given := func(events ...es.Event) *member.Member {
		var m member.Member
		for _, e := range events {
			m.Apply(e)
		}
		return &m
	}
	registered := &member.Registered{MemberID: "1", Account: "alice01"}

	It("opens a session for a registered member", func() {
		events, err := given(registered).Login("s1", "ua", now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(Equal([]es.Event{&member.SessionStarted{SessionID: "s1", Device: "ua", At: now.UnixMilli()}}))
	})

	It("refuses a login of a member that does not exist", func() {
		_, err := given().Login("s1", "", now)
		Expect(fault.Is(err, fault.NotFound)).To(BeTrue())
	})

	It("ends an open session once", func() {
		m := given(registered, &member.SessionStarted{SessionID: "s1"})
		Expect(m.Logout("s1", now)).To(HaveLen(1))
		m.Apply(&member.SessionEnded{SessionID: "s1"})
		Expect(m.Logout("s1", now)).To(BeEmpty())
	})
})

var _ = Describe("SMS codes", func() {
	matches := func(want string) func(string) bool { return func(h string) bool { return h == want } }

	It("refuses a second code within a minute", func() {
		var s member.SMSCodes
		events, err := s.Issue("13800138000", member.PurposeRegister, "h1", now)
		Expect(err).NotTo(HaveOccurred())
		s.Apply(events[0])
		_, err = s.Issue("13800138000", member.PurposeRegister, "h2", now.Add(30*time.Second))
		Expect(fault.Is(err, fault.RateLimited)).To(BeTrue())
		_, err = s.Issue("13800138000", member.PurposeRegister, "h2", now.Add(61*time.Second))
		Expect(err).NotTo(HaveOccurred())
	})

	It("accepts a live code for its purpose only, until it expires", func() {
		var s member.SMSCodes
		events, _ := s.Issue("13800138000", member.PurposeRegister, "h1", now)
		s.Apply(events[0])
		Expect(s.Valid(member.PurposeRegister, now.Add(time.Minute), matches("h1"))).To(BeTrue())
		Expect(s.Valid(member.PurposeReset, now.Add(time.Minute), matches("h1"))).To(BeFalse())
		Expect(s.Valid(member.PurposeRegister, now.Add(time.Minute), matches("other"))).To(BeFalse())
		Expect(s.Valid(member.PurposeRegister, now.Add(member.SMSCodeValidity()+time.Second), matches("h1"))).To(BeFalse())
	})

	It("knows the three purposes only", func() {
		_, err := member.ParsePurpose("bogus")
		Expect(fault.Is(err, fault.Invalid)).To(BeTrue())
	})
})
