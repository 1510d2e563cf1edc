package member_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
)

func folded(events ...es.Event) *member.Member {
	var m member.Member
	for _, e := range events {
		m.Apply(e)
	}
	return &m
}

func str(s string) *string { return &s }

func started(id string) es.Event { return &member.SessionStarted{SessionID: id} }

func ended(id string) es.Event {
	return &member.SessionEnded{SessionID: id, Reason: member.EndLogout}
}

func faultKey(err error) string {
	f, ok := fault.As(err)
	Expect(ok).To(BeTrue(), "%v", err)
	return f.Key
}

var alice = &member.Registered{MemberID: "1", Account: "alice01", Name: "alice01", Phone: "13800138000", PasswordHash: "H0"}

var _ = Describe("Profile", func() {
	DescribeTable("ModifyProfile",
		func(c member.ProfileChange, key string, want *member.ProfileModified) {
			events, err := folded(alice).ModifyProfile(c, now)
			if key != "" {
				Expect(faultKey(err)).To(Equal(key))
				Expect(events).To(BeEmpty())
				return
			}
			Expect(err).NotTo(HaveOccurred())
			if want == nil {
				Expect(events).To(BeEmpty())
				return
			}
			want.At = now.UnixMilli()
			Expect(events).To(Equal([]es.Event{want}))
		},
		Entry("a new name, trimmed", member.ProfileChange{Name: str("  Alice ")}, "",
			&member.ProfileModified{Name: "Alice", Gender: member.GenderUnknown}),
		Entry("an empty name", member.ProfileChange{Name: str("  ")}, fault.MsgNameEmpty, nil),
		Entry("a name of 33 characters", member.ProfileChange{Name: str("一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三")}, fault.MsgNameTooLong, nil),
		Entry("a gender", member.ProfileChange{Gender: str("female")}, "",
			&member.ProfileModified{Name: "alice01", Gender: member.GenderFemale}),
		Entry("an unknown gender", member.ProfileChange{Gender: str("robot")}, fault.MsgGenderInvalid, nil),
		Entry("an avatar", member.ProfileChange{HeadURL: str("/v1/sso/im/file/x0001/a.png")}, "",
			&member.ProfileModified{Name: "alice01", HeadURL: "/v1/sso/im/file/x0001/a.png", Gender: member.GenderUnknown}),
		Entry("nothing new", member.ProfileChange{Name: str("alice01")}, "", nil),
	)

	It("folds a change into the state", func() {
		m := folded(alice, &member.ProfileModified{Name: "Alice", HeadURL: "/a.png", Gender: member.GenderMale})
		Expect(m.Name()).To(Equal("Alice"))
		Expect(m.HeadURL()).To(Equal("/a.png"))
		Expect(m.Gender()).To(Equal(member.GenderMale))
	})
})

var _ = Describe("Password change", func() {
	DescribeTable("ValidateNewPassword: 8-16 letters and digits, confirmed",
		func(pw, confirm, key string) {
			err := member.ValidateNewPassword(pw, confirm)
			if key == "" {
				Expect(err).NotTo(HaveOccurred())
				return
			}
			Expect(faultKey(err)).To(Equal(key))
		},
		Entry("8 characters", "abcd1234", "abcd1234", ""),
		Entry("16 characters", "abcd1234abcd1234", "abcd1234abcd1234", ""),
		Entry("empty", "", "", fault.MsgNewPasswordEmpty),
		Entry("7 characters", "abcd123", "abcd123", fault.MsgNewPasswordRule),
		Entry("17 characters", "abcd1234abcd12345", "abcd1234abcd12345", fault.MsgNewPasswordRule),
		Entry("a symbol", "abcd1234!", "abcd1234!", fault.MsgNewPasswordRule),
		Entry("a different confirmation", "abcd1234", "abcd1235", fault.MsgPasswordsDiffer),
	)

	It("changes the hash with the right old password", func() {
		events, err := folded(alice).ChangePassword(true, "H1", "s1", now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(Equal([]es.Event{&member.PasswordChanged{PasswordHash: "H1", At: now.UnixMilli()}}))
		Expect(folded(alice, events[0]).PasswordHash()).To(Equal("H1"))
	})

	It("ends every other session, keeping the one it was changed from", func() {
		events, err := folded(alice, started("s1"), started("s2"), started("s3"), ended("s3")).ChangePassword(true, "H1", "s2", now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(Equal([]es.Event{
			&member.PasswordChanged{PasswordHash: "H1", At: now.UnixMilli()},
			&member.SessionEnded{SessionID: "s1", Reason: member.EndOffline, At: now.UnixMilli()},
		}))
		Expect(folded(append([]es.Event{alice, started("s1"), started("s2")}, events...)...).Sessions()).To(Equal([]string{"s2"}))
	})

	It("ends no session on a wrong old password", func() {
		events, err := folded(alice, started("s1"), started("s2")).ChangePassword(false, "H1", "s2", now)
		Expect(faultKey(err)).To(Equal(fault.MsgOldPasswordWrong))
		Expect(events).To(Equal([]es.Event{&member.PasswordAttemptFailed{Remaining: member.MaxPasswordAttempts - 1, At: now.UnixMilli()}}))
	})

	It("records each wrong old password with the attempts left, and locks after the last", func() {
		history := []es.Event{alice}
		for left := member.MaxPasswordAttempts - 1; left > 0; left-- {
			events, err := folded(history...).ChangePassword(false, "H1", "s1", now)
			f, _ := fault.As(err)
			Expect(f.Key).To(Equal(fault.MsgOldPasswordWrong))
			Expect(f.Args).To(Equal([]any{left}))
			Expect(events).To(Equal([]es.Event{&member.PasswordAttemptFailed{Remaining: left, At: now.UnixMilli()}}))
			history = append(history, events...)
		}
		events, err := folded(history...).ChangePassword(false, "H1", "s1", now)
		Expect(fault.Is(err, fault.RateLimited)).To(BeTrue())
		Expect(faultKey(err)).To(Equal(fault.MsgPasswordLocked))
		until := now.Add(member.PasswordLockDuration).UnixMilli()
		Expect(events).To(Equal([]es.Event{
			&member.PasswordAttemptFailed{Remaining: 0, At: now.UnixMilli()},
			&member.PasswordLocked{Until: until, At: now.UnixMilli()},
		}))
		history = append(history, events...)

		By("refusing even the right password while locked, recording nothing")
		events, err = folded(history...).ChangePassword(true, "H1", "s1", now.Add(29*time.Minute))
		Expect(faultKey(err)).To(Equal(fault.MsgPasswordLocked))
		Expect(err.Error()).To(ContainSubstring("1 minutes"))
		Expect(events).To(BeEmpty())

		By("accepting it once the lock ends, with a full count again")
		events, err = folded(history...).ChangePassword(false, "H1", "s1", now.Add(31*time.Minute))
		Expect(faultKey(err)).To(Equal(fault.MsgOldPasswordWrong))
		Expect(events[0].(*member.PasswordAttemptFailed).Remaining).To(Equal(member.MaxPasswordAttempts - 1))
	})

	It("ends every session with a reset by SMS code", func() {
		events, err := folded(alice, started("s1"), started("s2")).ResetPassword("H2", now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(Equal([]es.Event{
			&member.PasswordChanged{PasswordHash: "H2", Reset: true, At: now.UnixMilli()},
			&member.SessionEnded{SessionID: "s1", Reason: member.EndOffline, At: now.UnixMilli()},
			&member.SessionEnded{SessionID: "s2", Reason: member.EndOffline, At: now.UnixMilli()},
		}))
	})

	It("lifts the lock with a reset by SMS code", func() {
		m := folded(alice, &member.PasswordLocked{Until: now.Add(time.Hour).UnixMilli()})
		events, err := m.ResetPassword("H2", now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(Equal([]es.Event{&member.PasswordChanged{PasswordHash: "H2", Reset: true, At: now.UnixMilli()}}))
		m.Apply(events[0])
		Expect(m.PasswordLockedUntil(now).IsZero()).To(BeTrue())
	})
})

var _ = Describe("Account ID change", func() {
	DescribeTable("CheckAccountChange: 8-16 letters or digits, once only",
		func(history []es.Event, account, key string) {
			err := folded(history...).CheckAccountChange(account)
			if key == "" {
				Expect(err).NotTo(HaveOccurred())
				return
			}
			Expect(faultKey(err)).To(Equal(key))
		},
		Entry("8 letters and digits", []es.Event{alice}, "Alice123", ""),
		Entry("16", []es.Event{alice}, "Alice123Alice123", ""),
		Entry("7", []es.Event{alice}, "Alice12", fault.MsgAccountIDRule),
		Entry("17", []es.Event{alice}, "Alice123Alice1234", fault.MsgAccountIDRule),
		Entry("a symbol", []es.Event{alice}, "Alice_123", fault.MsgAccountIDRule),
		Entry("empty", []es.Event{alice}, "", fault.MsgAccountEmpty),
		Entry("the current one", []es.Event{&member.Registered{MemberID: "1", Account: "alice0123"}}, "alice0123", fault.MsgAccountInUse),
		Entry("a second change", []es.Event{alice, &member.AccountChanged{Account: "Alice123", Old: "alice01"}}, "Bobby1234", fault.MsgAccountChangedOnce),
	)

	It("decides the change and folds the new account", func() {
		events, err := folded(alice).ChangeAccount("Alice123", now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(Equal([]es.Event{&member.AccountChanged{Account: "Alice123", Old: "alice01", At: now.UnixMilli()}}))
		m := folded(alice, events[0])
		Expect(m.Account()).To(Equal("Alice123"))
		Expect(m.AccountChangedOnce()).To(BeTrue())
	})
})

var _ = Describe("Phone change", func() {
	It("moves to a valid new number", func() {
		events, err := folded(alice).ChangePhone("13900139000", now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(Equal([]es.Event{&member.PhoneChanged{Phone: "13900139000", Old: "13800138000", At: now.UnixMilli()}}))
		Expect(folded(alice, events[0]).Phone()).To(Equal("13900139000"))
	})

	It("refuses an invalid or the same number", func() {
		Expect(faultKey(folded(alice).CheckPhoneChange("4155550100"))).To(Equal(fault.MsgPhoneInvalid))
		Expect(faultKey(folded(alice).CheckPhoneChange("13800138000"))).To(Equal(fault.MsgPhoneInUse))
	})
})

var _ = Describe("Feedback", func() {
	DescribeTable("type and content required, at most 5 images",
		func(f member.Feedback, key string) {
			events, err := folded(alice).SubmitFeedback("f1", f, now)
			if key == "" {
				Expect(err).NotTo(HaveOccurred())
				Expect(events).To(HaveLen(1))
				return
			}
			Expect(faultKey(err)).To(Equal(key))
		},
		Entry("type and content", member.Feedback{Type: "bug", Content: "it broke"}, ""),
		Entry("five images", member.Feedback{Type: "bug", Content: "x", Images: []string{"1", "2", "3", "4", "5"}}, ""),
		Entry("no type", member.Feedback{Content: "it broke"}, fault.MsgFeedbackTypeEmpty),
		Entry("no content", member.Feedback{Type: "bug", Content: " "}, fault.MsgFeedbackContentEmpty),
		Entry("six images", member.Feedback{Type: "bug", Content: "x", Images: []string{"1", "2", "3", "4", "5", "6"}}, fault.MsgFeedbackTooManyImages),
	)
})

var _ = Describe("Login address", func() {
	It("is stamped on the session start", func() {
		events, err := folded(alice).Login("s1", "ua", false, now)
		Expect(err).NotTo(HaveOccurred())
		member.StampIP(events, "203.0.113.9")
		Expect(events[0].(*member.SessionStarted).IP).To(Equal("203.0.113.9"))
	})
})
