package member_test

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
)

const chromeOnWindows = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"

var _ = Describe("New-device verification", func() {
	login := func(session, device string) *member.SessionStarted {
		return &member.SessionStarted{SessionID: session, Device: device}
	}

	DescribeTable("a login from a device the member never used, after its first login, is verified",
		func(history []es.Event, device string, verified bool) {
			events := folded(append([]es.Event{alice}, history...)...).VerifyDevice("s9", device, "042917", now)
			if !verified {
				Expect(events).To(BeEmpty())
				return
			}
			Expect(events).To(Equal([]es.Event{&member.DeviceVerificationIssued{
				SessionID: "s9", Device: device, System: member.DeviceSystem(device), Code: "042917", ValidMinutes: 10,
				ExpiresAt: now.Add(10 * time.Minute).UnixMilli(), At: now.UnixMilli()}}))
		},
		Entry("not the first login ever", nil, chromeOnWindows, false),
		Entry("a device it used before", []es.Event{login("s1", chromeOnWindows), &member.SessionEnded{SessionID: "s1"}}, chromeOnWindows, false),
		Entry("a new device", []es.Event{login("s1", "okhttp/4.9 (Android 14)")}, chromeOnWindows, true),
		Entry("a device telling nothing, after one that did", []es.Event{login("s1", chromeOnWindows)}, "", true),
	)

	DescribeTable("the new device's system comes from its User-Agent",
		func(ua, system string) { Expect(member.DeviceSystem(ua)).To(Equal(system)) },
		Entry("Windows", chromeOnWindows, "Windows"),
		Entry("macOS", "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 Safari/605.1.15", "macOS"),
		Entry("iOS before macOS", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) Mobile/15E148", "iOS"),
		Entry("Android before Linux", "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120.0 Mobile", "Android"),
		Entry("Linux", "Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/120.0", "Linux"),
		Entry("nothing known", "Go-http-client/1.1", "Unknown"),
	)
})

var _ = Describe("Invitation codes", func() {
	It("are the member id in base 36 and read back in any case", func() {
		code := member.InvitationCode("1866123456789012345")
		Expect(code).To(MatchRegexp(`^[0-9A-Z]+$`))
		Expect(member.ParseInvitationCode(code)).To(Equal("1866123456789012345"))
		Expect(member.ParseInvitationCode(" " + strings.ToLower(code) + " ")).To(Equal("1866123456789012345"))
	})

	DescribeTable("refuses what cannot be a code",
		func(code string) {
			_, err := member.ParseInvitationCode(code)
			Expect(faultKey(err)).To(Equal(fault.MsgInvitationCodeInvalid))
		},
		Entry("empty", " "),
		Entry("a symbol", "AB-12"),
		Entry("negative", "-5"),
		Entry("zero", "0"),
		Entry("too long", strings.Repeat("Z", 14)),
	)

	It("records the referrer with the code as given, upper case", func() {
		Expect(member.Refer("7", " ab1 ", now)).To(Equal([]es.Event{&member.Referred{Referrer: "7", Code: "AB1", At: now.UnixMilli()}}))
		m := folded(alice, &member.Referred{Referrer: "7", Code: "7"})
		Expect(m.Referrer()).To(Equal("7"))
	})
})

var _ = Describe("Feedback replies", func() {
	submitted := &member.FeedbackSubmitted{ID: "f1", Type: "bug", Content: "it broke"}

	DescribeTable("a reply to the member's own feedback, 1 to 1000 characters",
		func(reply string, want []es.Event, key string) {
			events, err := folded(alice, submitted).ReplyFeedback("f1", reply, now)
			if key == "" {
				Expect(err).NotTo(HaveOccurred())
			} else {
				Expect(faultKey(err)).To(Equal(key))
			}
			Expect(events).To(Equal(want))
		},
		Entry("a reply, trimmed", "  fixed in 1.2  ", []es.Event{&member.FeedbackReplied{ID: "f1", Reply: "fixed in 1.2", At: now.UnixMilli()}}, ""),
		Entry("blank", "  ", nil, fault.MsgFeedbackReplyEmpty),
		Entry("too long", strings.Repeat("x", 1001), nil, fault.MsgFeedbackReplyTooLong),
	)

	It("refuses a feedback the member never sent", func() {
		events, err := folded(alice, submitted).ReplyFeedback("f2", "ok", now)
		Expect(faultKey(err)).To(Equal(fault.MsgFeedbackNotFound))
		Expect(events).To(BeEmpty())
	})
})

var _ = Describe("Password reset of a banned member", func() {
	It("is refused with the ban text and decides nothing", func() {
		events, err := folded(alice, &member.Banned{}).ResetPassword("H2", now)
		Expect(faultKey(err)).To(Equal(fault.MsgBanned))
		Expect(events).To(BeEmpty())
	})
})
