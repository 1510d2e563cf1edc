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
	registered := &member.Registered{MemberID: "1", Account: "alice01", Level: member.LevelNormal}

	It("opens a session for a registered member", func() {
		events, err := given(registered).Login("s1", "ua", false, now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(Equal([]es.Event{&member.SessionStarted{SessionID: "s1", Device: "ua", At: now.UnixMilli()}}))
	})

	It("refuses a login of a member that does not exist", func() {
		_, err := given().Login("s1", "", false, now)
		Expect(fault.Is(err, fault.NotFound)).To(BeTrue())
	})

	It("ends an open session once", func() {
		m := given(registered, &member.SessionStarted{SessionID: "s1"})
		Expect(m.Logout("s1", now)).To(HaveLen(1))
		m.Apply(&member.SessionEnded{SessionID: "s1"})
		Expect(m.Logout("s1", now)).To(BeEmpty())
	})

	ended := func(id, reason string) es.Event {
		return &member.SessionEnded{SessionID: id, Reason: reason, At: now.UnixMilli()}
	}
	started := func(id string) es.Event { return &member.SessionStarted{SessionID: id, At: now.UnixMilli()} }

	DescribeTable("session ends (spec messaging.md section 4, command 31)",
		func(past []es.Event, when func(*member.Member) ([]es.Event, error), want []es.Event, key string) {
			events, err := when(given(append([]es.Event{registered}, past...)...))
			if key != "" {
				f, ok := fault.As(err)
				Expect(ok).To(BeTrue(), "%v", err)
				Expect(f.Key).To(Equal(key))
				Expect(events).To(BeEmpty())
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(events).To(Equal(want))
		},
		Entry("a second login on a multi-device tenant keeps the first session",
			[]es.Event{started("s1")},
			func(m *member.Member) ([]es.Event, error) { return m.Login("s2", "", false, now) },
			[]es.Event{started("s2")}, ""),
		Entry("a second login on a single-device tenant kicks out every older session",
			[]es.Event{started("s2"), started("s1")},
			func(m *member.Member) ([]es.Event, error) { return m.Login("s3", "", true, now) },
			[]es.Event{ended("s1", member.EndKickOut), ended("s2", member.EndKickOut), started("s3")}, ""),
		Entry("a ban ends every session as Disable",
			[]es.Event{started("s1"), started("s2"), ended("s2", member.EndLogout)},
			func(m *member.Member) ([]es.Event, error) { return m.Ban(now) },
			[]es.Event{&member.Banned{At: now.UnixMilli()}, ended("s1", member.EndDisable)}, ""),
		Entry("banning a banned member decides nothing",
			[]es.Event{&member.Banned{}},
			func(m *member.Member) ([]es.Event, error) { return m.Ban(now) }, nil, ""),
		Entry("a banned member cannot log in",
			[]es.Event{&member.Banned{}},
			func(m *member.Member) ([]es.Event, error) { return m.Login("s1", "", false, now) }, nil, fault.MsgBanned),
		Entry("an unbanned member logs in again",
			[]es.Event{&member.Banned{}, &member.Unbanned{}},
			func(m *member.Member) ([]es.Event, error) { return m.Login("s1", "", false, now) },
			[]es.Event{started("s1")}, ""),
		Entry("unbanning a member not banned decides nothing", nil,
			func(m *member.Member) ([]es.Event, error) { return m.Unban(now) }, nil, ""),
		Entry("signing out ends every session as Offline",
			[]es.Event{started("s1")},
			func(m *member.Member) ([]es.Event, error) { return m.SignOut(now) },
			[]es.Event{ended("s1", member.EndOffline)}, ""),
		Entry("a new level is recorded", nil,
			func(m *member.Member) ([]es.Event, error) { return m.SetLevel(member.LevelAdmin, now) },
			[]es.Event{&member.LevelChanged{Level: member.LevelAdmin, At: now.UnixMilli()}}, ""),
		Entry("the same level decides nothing", nil,
			func(m *member.Member) ([]es.Event, error) { return m.SetLevel(member.LevelNormal, now) }, nil, ""),
		Entry("an unknown level is refused", nil,
			func(m *member.Member) ([]es.Event, error) { return m.SetLevel("Gold", now) }, nil, member.MsgLevelInvalid),
	)

	It("refuses to ban a member that does not exist", func() {
		_, err := given().Ban(now)
		Expect(fault.Is(err, fault.NotFound)).To(BeTrue())
	})
})

var _ = Describe("Login lockout", func() {
	matches := func(ok bool) func(string) bool { return func(string) bool { return ok } }
	failures := func(n int, at time.Time) []es.Event {
		out := []es.Event{&member.Registered{MemberID: "1", PasswordHash: "H"}}
		for range n {
			out = append(out, &member.LoginFailed{At: at.UnixMilli()})
		}
		return out
	}
	fold := func(events []es.Event, more ...es.Event) *member.Member {
		var m member.Member
		for _, e := range append(events, more...) {
			m.Apply(e)
		}
		return &m
	}

	It("records a wrong password and passes the right one", func() {
		events, err := fold(failures(0, now)).CheckPassword(matches(false), now)
		Expect(fault.Is(err, fault.Invalid)).To(BeTrue())
		Expect(events).To(Equal([]es.Event{&member.LoginFailed{At: now.UnixMilli()}}))
		events, err = fold(failures(member.MaxLoginFailures-1, now)).CheckPassword(matches(true), now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(BeEmpty())
	})

	It("refuses even the right password after the last wrong one, recording nothing, until the window ends", func() {
		m := fold(failures(member.MaxLoginFailures, now))
		events, err := m.CheckPassword(matches(true), now.Add(member.LoginLockWindow-time.Second))
		Expect(fault.Is(err, fault.RateLimited)).To(BeTrue())
		Expect(events).To(BeEmpty())
		Expect(m.LoginLockedUntil(now)).To(Equal(time.UnixMilli(now.Add(member.LoginLockWindow).UnixMilli())))
		_, err = m.CheckPassword(matches(true), now.Add(member.LoginLockWindow))
		Expect(err).NotTo(HaveOccurred())
	})

	It("counts only the wrong passwords within the window", func() {
		old := failures(member.MaxLoginFailures-1, now)
		m := fold(old, &member.LoginFailed{At: now.Add(member.LoginLockWindow).UnixMilli()})
		Expect(m.LoginLockedUntil(now.Add(member.LoginLockWindow)).IsZero()).To(BeTrue())
	})

	It("starts the count again on a login or a new password", func() {
		Expect(fold(failures(member.MaxLoginFailures-1, now), &member.SessionStarted{SessionID: "s"},
			&member.LoginFailed{At: now.UnixMilli()}).LoginLockedUntil(now).IsZero()).To(BeTrue())
		Expect(fold(failures(member.MaxLoginFailures, now), &member.PasswordChanged{PasswordHash: "H2", Reset: true}).
			LoginLockedUntil(now).IsZero()).To(BeTrue())
	})
})

var _ = Describe("SMS codes", func() {
	matches := func(want string) func(string) bool { return func(h string) bool { return h == want } }

	It("refuses a second code within a minute", func() {
		var s member.SMSCodes
		events, err := s.Issue(member.PurposeRegister, "h1", now)
		Expect(err).NotTo(HaveOccurred())
		s.Apply(events[0])
		_, err = s.Issue(member.PurposeRegister, "h2", now.Add(30*time.Second))
		Expect(fault.Is(err, fault.RateLimited)).To(BeTrue())
		_, err = s.Issue(member.PurposeRegister, "h2", now.Add(61*time.Second))
		Expect(err).NotTo(HaveOccurred())
	})

	It("refuses a sixth code to one phone within an hour", func() {
		var s member.SMSCodes
		at := now
		for range member.MaxSMSCodesPerHour {
			events, err := s.Issue(member.PurposeReset, "h", at)
			Expect(err).NotTo(HaveOccurred())
			s.Apply(events[0])
			at = at.Add(2 * time.Minute)
		}
		_, err := s.Issue(member.PurposeReset, "h", at)
		f, ok := fault.As(err)
		Expect(ok).To(BeTrue(), "%v", err)
		Expect(f.Kind).To(Equal(fault.RateLimited))
		Expect(f.Key).To(Equal(fault.MsgSMSTooManyToday))
		_, err = s.Issue(member.PurposeReset, "h", now.Add(time.Hour))
		Expect(err).NotTo(HaveOccurred())
	})

	issued := func(purpose, hash string) es.Event {
		return &member.SMSCodeIssued{Phone: "13800138000", Purpose: purpose, CodeHash: hash,
			ExpiresAt: now.Add(member.SMSCodeValidity()).UnixMilli(), At: now.UnixMilli()}
	}
	codes := func(events ...es.Event) *member.SMSCodes {
		var s member.SMSCodes
		for _, e := range events {
			s.Apply(e)
		}
		return &s
	}
	used := &member.SMSCodeUsed{Purpose: member.PurposeRegister, At: now.Add(time.Minute).UnixMilli()}
	rejected := &member.SMSCodeRejected{Purpose: member.PurposeRegister, At: now.Add(time.Minute).UnixMilli()}

	DescribeTable("Use: the right live code is spent, a wrong one recorded",
		func(history []es.Event, purpose, hash string, at time.Duration, want []es.Event, key string) {
			events, err := codes(history...).Use(purpose, now.Add(at), matches(hash))
			Expect(events).To(Equal(want))
			if key == "" {
				Expect(err).NotTo(HaveOccurred())
				return
			}
			f, ok := fault.As(err)
			Expect(ok).To(BeTrue(), "%v", err)
			Expect(f.Kind).To(Equal(fault.Invalid))
			Expect(f.Key).To(Equal(key))
		},
		Entry("the right code", []es.Event{issued(member.PurposeRegister, "h1")}, member.PurposeRegister, "h1", time.Minute,
			[]es.Event{used}, ""),
		Entry("a wrong code, with the tries left", []es.Event{issued(member.PurposeRegister, "h1")}, member.PurposeRegister, "h2", time.Minute,
			[]es.Event{rejected}, fault.MsgSMSCodeWrong),
		Entry("the right code after four wrong ones", []es.Event{issued(member.PurposeRegister, "h1"), rejected, rejected, rejected, rejected},
			member.PurposeRegister, "h1", time.Minute, []es.Event{used}, ""),
		Entry("the fifth wrong code voids it", []es.Event{issued(member.PurposeRegister, "h1"), rejected, rejected, rejected, rejected},
			member.PurposeRegister, "h2", time.Minute, []es.Event{rejected}, fault.MsgSMSCodeVoid),
		Entry("the right code after five wrong ones", []es.Event{issued(member.PurposeRegister, "h1"), rejected, rejected, rejected, rejected, rejected},
			member.PurposeRegister, "h1", time.Minute, nil, fault.MsgSMSCodeVoid),
		Entry("a spent code", []es.Event{issued(member.PurposeRegister, "h1"), used}, member.PurposeRegister, "h1", time.Minute,
			nil, fault.MsgSMSCodeUsed),
		Entry("a code of another purpose", []es.Event{issued(member.PurposeRegister, "h1")}, member.PurposeReset, "h1", time.Minute,
			nil, fault.MsgSMSCodeInvalid),
		Entry("an expired code", []es.Event{issued(member.PurposeRegister, "h1")}, member.PurposeRegister, "h1", member.SMSCodeValidity()+time.Second,
			nil, fault.MsgSMSCodeInvalid),
		Entry("no code", nil, member.PurposeRegister, "h1", time.Minute, nil, fault.MsgSMSCodeInvalid),
		Entry("a code replaced by a newer one", []es.Event{issued(member.PurposeRegister, "h1"), issued(member.PurposeRegister, "h2")},
			member.PurposeRegister, "h1", time.Minute, []es.Event{rejected}, fault.MsgSMSCodeWrong),
		Entry("a new code after a void one", []es.Event{issued(member.PurposeRegister, "h1"), rejected, rejected, rejected, rejected, rejected,
			issued(member.PurposeRegister, "h2")}, member.PurposeRegister, "h2", time.Minute, []es.Event{used}, ""),
	)

	It("tells the tries left", func() {
		_, err := codes(issued(member.PurposeReset, "h1"), &member.SMSCodeRejected{Purpose: member.PurposeReset}).
			Use(member.PurposeReset, now, matches("h2"))
		f, _ := fault.As(err)
		Expect(f.Args).To(Equal([]any{member.MaxSMSCodeTries - 2}))
	})

	It("knows the three purposes only", func() {
		_, err := member.ParsePurpose("bogus")
		Expect(fault.Is(err, fault.Invalid)).To(BeTrue())
	})
})
