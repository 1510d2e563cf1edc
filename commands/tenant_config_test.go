package commands_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/personal"
	"github.com/eventchat/eventchat/domain/tenant"
)

var op = commands.Operator{Name: "ops"}

var _ = Describe("Tenant configuration", func() {
	var w *world
	BeforeEach(func() { w = newWorld() })

	configure := func(settings map[string]string) commands.TenantSettings {
		GinkgoHelper()
		res, err := w.app.ConfigureTenant(ctx, op, "x0001", settings)
		Expect(err).NotTo(HaveOccurred())
		return res
	}

	It("changes settings as events of the tenant's stream, read back at once", func() {
		res := configure(map[string]string{"hasVoiceCall": "false", "icon": "/i.png", "sensitiveWords.Normal": "spam,scam"})
		Expect(res.Position).NotTo(BeZero())
		cfg, err := w.app.TenantConfig(ctx, "x0001")
		Expect(err).NotTo(HaveOccurred())
		Expect(cfg.HasVoiceCall).To(BeFalse())
		Expect(cfg.SystemIcon).To(Equal("/i.png"))
		Expect(cfg.SensitiveWords).To(Equal(map[string][]string{"Normal": {"spam", "scam"}}))
		Expect(cfg.IllegalWords).To(BeTrue())

		recs, err := w.events.ReadStream(ctx, es.Stream("x0001", es.CategoryTenant, "x0001"), es.Forwards, 0, 10)
		Expect(err).NotTo(HaveOccurred())
		Expect(recs).To(HaveLen(2))
		Expect(recs[1].Type).To(Equal(tenant.TypeSettingsChanged))
		Expect(recs[1].Metadata.Actor).To(Equal("operator:ops"))
	})

	It("appends nothing for unchanged values or bad input", func() {
		head, _ := w.events.Head(ctx)
		Expect(configure(map[string]string{"illegalWords": "true"}).Position).To(BeZero())
		_, err := w.app.ConfigureTenant(ctx, op, "x0001", map[string]string{"singleDevice": "sometimes"})
		expectFault(err, fault.Invalid, tenant.MsgSettingBool)
		_, err = w.app.ConfigureTenant(ctx, op, "nope99", map[string]string{"singleDevice": "true"})
		expectFault(err, fault.NotFound, fault.MsgTenantInvalid)
		_, err = w.app.TenantConfig(ctx, "Bad.Code")
		expectFault(err, fault.Invalid, fault.MsgTenantInvalid)
		Expect(w.events.Head(ctx)).To(Equal(head))
	})

	It("sees a change made by another node", func() {
		other := w.node()
		_, err := other.TenantConfig(ctx, "x0001") // cached there
		Expect(err).NotTo(HaveOccurred())
		configure(map[string]string{"singleDevice": "true"})
		Eventually(func() bool {
			cfg, err := other.TenantConfig(ctx, "x0001")
			return err == nil && cfg.SingleDevice
		}).Should(BeTrue())
	})

	Describe("sensitive words on send (spec messaging.md section 5)", func() {
		var alice, bob commands.Principal
		BeforeEach(func() {
			alice, bob = w.member("alice01"), w.member("bobby01")
			w.befriend(alice, bob)
			configure(map[string]string{"sensitiveWords.Normal": "spam", "sensitiveWords.Admin": "spam"})
		})
		send := func(uuid, content string) error {
			_, err := w.app.SendMessage(ctx, alice, commands.SendMessage{UUID: uuid, ChatType: "Friend", To: bob.MemberID, MsgType: "Text", Content: content})
			return err
		}

		It("lets every word through while the illegal-words flag is on, as by default", func() {
			Expect(send("u1", "cheap SPAM here")).To(Succeed())
		})

		It("refuses a word of the sender's level once the flag is off, and appends nothing", func() {
			configure(map[string]string{"illegalWords": "false"})
			head, _ := w.events.Head(ctx)
			expectFault(send("u1", "cheap SPAM here"), fault.Invalid, commands.MsgSensitiveWords)
			_, err := w.app.SendBatch(ctx, alice, commands.SendBatch{UUID: "b1", MsgType: "Text", Content: "spam", Recipients: []string{bob.MemberID}})
			expectFault(err, fault.Invalid, commands.MsgSensitiveWords)
			Expect(w.events.Head(ctx)).To(Equal(head))
			Expect(send("u2", "hello")).To(Succeed())
		})

		It("refuses an edit that brings a word in", func() {
			configure(map[string]string{"illegalWords": "false"})
			sent, err := w.app.SendMessage(ctx, alice, commands.SendMessage{UUID: "u1", ChatType: "Friend", To: bob.MemberID, MsgType: "Text", Content: "hello"})
			Expect(err).NotTo(HaveOccurred())
			w.settle()
			_, err = w.app.EditMessage(ctx, alice, commands.EditMessage{ID: sent.ID, Content: "spam"})
			expectFault(err, fault.Invalid, commands.MsgSensitiveWords)
		})

		It("exempts the Admin member level", func() {
			configure(map[string]string{"illegalWords": "false"})
			_, err := w.app.SetMemberLevel(ctx, op, "x0001", "alice01", member.LevelAdmin)
			Expect(err).NotTo(HaveOccurred())
			Expect(send("u1", "spam")).To(Succeed())
		})
	})

	It("turns mass send and calls off for the tenant", func() {
		alice, bob := w.member("alice01"), w.member("bobby01")
		w.befriend(alice, bob)
		configure(map[string]string{"sendBatchMessage": "Disable", "hasVoiceCall": "false"})
		_, err := w.app.SendBatch(ctx, alice, commands.SendBatch{UUID: "b1", MsgType: "Text", Content: "hi", Recipients: []string{bob.MemberID}})
		expectFault(err, fault.Forbidden, commands.MsgBatchSendOff)
		_, err = w.app.StartCall(ctx, alice, commands.StartCall{UUID: "c1", ChatType: "Friend", To: bob.MemberID, Media: "voice"})
		expectFault(err, fault.Forbidden, commands.MsgCallsOff)
		_ = personal.Enable
	})
})

var _ = Describe("Operators' member changes", func() {
	var w *world
	BeforeEach(func() { w = newWorld() })

	It("ends every session on a single-device tenant's second login (KickOut)", func() {
		_, err := w.app.ConfigureTenant(ctx, op, "x0001", map[string]string{"singleDevice": "true"})
		Expect(err).NotTo(HaveOccurred())
		first := w.member("alice01")
		second, err := w.app.LoginMember(ctx, commands.Login{Account: "alice01", Password: "pass1234", TenantCode: "x0001"})
		Expect(err).NotTo(HaveOccurred())
		recs, err := w.events.ReadStream(ctx, es.Stream("x0001", es.CategoryMember, first.MemberID), es.Backwards, es.End, 2)
		Expect(err).NotTo(HaveOccurred())
		Expect(recs[1].Type).To(Equal(member.TypeSessionEnded))
		Expect(string(recs[1].Data)).To(ContainSubstring(`"sessionId":"` + first.SessionID + `","reason":"KickOut"`))
		Expect(string(recs[0].Data)).To(ContainSubstring(second.Principal.SessionID))
	})

	It("bans by account: sessions end as Disable, login is refused with the spec's text, unban lets it in", func() {
		alice := w.member("alice01")
		st, err := w.app.BanMember(ctx, op, "x0001", "alice01")
		Expect(err).NotTo(HaveOccurred())
		Expect(st).To(MatchFields(alice.MemberID, true, 1))
		_, err = w.app.LoginMember(ctx, commands.Login{Account: "alice01", Password: "pass1234", TenantCode: "x0001"})
		expectFault(err, fault.Forbidden, fault.MsgBanned)

		head, _ := w.events.Head(ctx)
		again, err := w.app.BanMember(ctx, op, "x0001", alice.MemberID)
		Expect(err).NotTo(HaveOccurred())
		Expect(again.Position).To(BeZero())
		Expect(w.events.Head(ctx)).To(Equal(head))

		Expect(w.app.SendSMSCode(ctx, "x0001", phoneOf(w, alice), "reset")).To(MatchError(fault.MsgBanned))

		_, err = w.app.UnbanMember(ctx, op, "x0001", "alice01")
		Expect(err).NotTo(HaveOccurred())
		_, err = w.app.LoginMember(ctx, commands.Login{Account: "alice01", Password: "pass1234", TenantCode: "x0001"})
		Expect(err).NotTo(HaveOccurred())
	})

	It("refuses unknown members, tenants and levels, appending nothing", func() {
		w.member("alice01")
		head, _ := w.events.Head(ctx)
		_, err := w.app.BanMember(ctx, op, "x0001", "nobody99")
		expectFault(err, fault.NotFound, fault.MsgMemberNotFound)
		_, err = w.app.BanMember(ctx, op, "zz9999", "alice01")
		expectFault(err, fault.Invalid, fault.MsgTenantInvalid)
		_, err = w.app.SetMemberLevel(ctx, op, "x0001", "alice01", "Gold")
		expectFault(err, fault.Invalid, member.MsgLevelInvalid)
		Expect(w.events.Head(ctx)).To(Equal(head))
	})
})

// MatchFields matches a MemberState's id, ban and count of ended sessions.
func MatchFields(id string, banned bool, ended int) OmegaMatcher {
	return And(
		WithTransform(func(s commands.MemberState) string { return s.MemberID }, Equal(id)),
		WithTransform(func(s commands.MemberState) bool { return s.Banned }, Equal(banned)),
		WithTransform(func(s commands.MemberState) int { return s.SessionsEnded }, Equal(ended)),
	)
}

var _ = Describe("Concurrent logins on a single-device tenant", func() {
	It("leave exactly one session open", func() {
		w := newWorld()
		_, err := w.app.ConfigureTenant(ctx, op, "x0001", map[string]string{"singleDevice": "true"})
		Expect(err).NotTo(HaveOccurred())
		first := w.member("alice01")
		done := make(chan error, 6)
		for range 6 {
			go func() {
				_, err := w.app.LoginMember(ctx, commands.Login{Account: "alice01", Password: "pass1234", TenantCode: "x0001"})
				done <- err
			}()
		}
		for range 6 {
			Expect(<-done).To(Succeed())
		}
		var m member.Member
		recs, err := w.events.ReadStream(ctx, es.Stream("x0001", es.CategoryMember, first.MemberID), es.Forwards, 0, 100)
		Expect(err).NotTo(HaveOccurred())
		for _, r := range recs {
			e, err := catalogRegistry.Decode(r.Type, r.Data)
			Expect(err).NotTo(HaveOccurred())
			m.Apply(e)
		}
		Expect(m.Sessions()).To(HaveLen(1))
	})
})
var catalogRegistry = catalog.Registry()

// phoneOf reads the phone a member registered with.
func phoneOf(w *world, p commands.Principal) string {
	GinkgoHelper()
	w.settle()
	ms, err := w.reads.MembersByID(ctx, viewer(p), []string{p.MemberID})
	Expect(err).NotTo(HaveOccurred())
	return ms[p.MemberID].Phone
}
