package commands_test

import (
	"context"
	"encoding/json"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/call"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Calls", func() {
	var w *world
	var a, b, c commands.Principal
	BeforeEach(func() {
		w = newWorld()
		a, b, c = w.member("alice001"), w.member("bob00001"), w.member("carol001")
		w.befriend(a, b)
		w.befriend(a, c)
		w.befriend(b, c)
	})

	start := func(from, to commands.Principal, uuid, media string) commands.CallResult {
		GinkgoHelper()
		r, err := w.app.StartCall(ctx, from, commands.StartCall{UUID: uuid, ChatType: "Friend", To: to.MemberID, Media: media})
		Expect(err).NotTo(HaveOccurred())
		return r
	}
	chatOf := func(x, y commands.Principal) string {
		return es.Stream("x0001", es.CategoryChat, friend.PairID(x.MemberID, y.MemberID))
	}
	types := func(stream string) []string {
		GinkgoHelper()
		recs, err := w.events.ReadStream(ctx, stream, es.Forwards, 0, 100)
		Expect(err).NotTo(HaveOccurred())
		out := make([]string, len(recs))
		for i, r := range recs {
			out[i] = r.Type
		}
		return out
	}
	records := func(x, y commands.Principal) []call.Record {
		GinkgoHelper()
		w.settle()
		page, err := w.reads.HistoryPage(ctx, viewer(x), friend.PairID(x.MemberID, y.MemberID), nil, projections.Up, 50)
		Expect(err).NotTo(HaveOccurred())
		var out []call.Record
		for _, m := range page {
			if m.MsgType == "VoiceCall" || m.MsgType == "VideoCall" {
				var r call.Record
				Expect(json.Unmarshal([]byte(m.Content), &r)).To(Succeed())
				out = append(out, r)
			}
		}
		return out
	}

	It("rings, answers and completes a call, leaving one record with its duration", func() {
		r := start(a, b, "call-1", "video")
		Expect(r.CallID).To(HaveLen(19))
		Expect([]string{r.From, r.To, r.Media, r.State}).To(Equal([]string{a.MemberID, b.MemberID, "video", "ringing"}))
		Expect(r.Position).NotTo(BeZero())

		answered, err := w.app.AnswerCall(ctx, b, commands.CallSignal{CallID: r.CallID})
		Expect(err).NotTo(HaveOccurred())
		Expect(answered.State).To(Equal("inCall"))
		w.advance(42 * time.Second)
		done, err := w.app.CompleteCall(ctx, a, commands.CallSignal{CallID: r.CallID})
		Expect(err).NotTo(HaveOccurred())
		Expect([]any{done.State, done.Outcome, done.Duration}).To(Equal([]any{"ended", "completed", int64(42)}))
		Expect(types(chatOf(a, b))).To(Equal([]string{"CallStarted", "CallAnswered", "CallEnded", "MessageSent"}))
		Expect(records(b, a)).To(Equal([]call.Record{{CallID: r.CallID, Media: "video", Outcome: "completed", Duration: 42}}))
	})

	It("answers a start retried with the same uuid with the same call, appending nothing", func() {
		first := start(a, b, "same", "voice")
		head, _ := w.events.Head(ctx)
		again := start(a, b, "same", "voice")
		Expect(again.CallID).To(Equal(first.CallID))
		Expect(w.events.Head(ctx)).To(Equal(head))
	})

	DescribeTable("ends a ringing call with the outcome of the signal",
		func(by func() commands.Principal, op func(*commands.App, context.Context, commands.Principal, commands.CallSignal) (commands.CallResult, error), outcome string) {
			r := start(a, b, "ring", "voice")
			ended, err := op(w.app, ctx, by(), commands.CallSignal{CallID: r.CallID})
			Expect(err).NotTo(HaveOccurred())
			Expect([]string{ended.State, ended.Outcome}).To(Equal([]string{"ended", outcome}))
			Expect(records(a, b)).To(Equal([]call.Record{{CallID: r.CallID, Media: "voice", Outcome: outcome}}))
			Expect(w.app.StartCall(ctx, b, commands.StartCall{UUID: "next", ChatType: "Friend", To: c.MemberID, Media: "voice"})).
				To(HaveField("State", "ringing"), "both members are free again")
		},
		Entry("reject by the callee", func() commands.Principal { return b }, (*commands.App).RejectCall, "rejected"),
		Entry("cancel by the caller", func() commands.Principal { return a }, (*commands.App).CancelCall, "cancelled"),
		Entry("no answer from the caller's client", func() commands.Principal { return a }, (*commands.App).NoAnswerCall, "noAnswer"),
		Entry("busy from the callee's client", func() commands.Principal { return b }, (*commands.App).BusyCall, "busy"),
	)

	It("ends a call to a member in a call at once as Busy, and refuses a caller in a call", func() {
		start(a, b, "first", "voice")
		busy := start(c, b, "second", "video")
		Expect([]string{busy.State, busy.Outcome}).To(Equal([]string{"ended", "busy"}))
		Expect(types(chatOf(c, b))).To(Equal([]string{"CallEnded", "MessageSent"}), "it never rang")
		again := start(c, b, "second", "video")
		Expect([]string{again.CallID, again.Outcome}).To(Equal([]string{busy.CallID, "busy"}))
		_, err := w.app.AnswerCall(ctx, b, commands.CallSignal{CallID: busy.CallID})
		expectFault(err, fault.Conflict, fault.MsgCallEnded)
		Expect(records(c, b)).To(Equal([]call.Record{{CallID: busy.CallID, Media: "video", Outcome: "busy"}}))

		head, _ := w.events.Head(ctx)
		_, err = w.app.StartCall(ctx, a, commands.StartCall{UUID: "third", ChatType: "Friend", To: c.MemberID, Media: "voice"})
		expectFault(err, fault.Conflict, fault.MsgInCall)
		Expect(w.events.Head(ctx)).To(Equal(head))
	})

	It("refuses wrong signals and appends nothing", func() {
		r := start(a, b, "wrong", "voice")
		w.settle()
		head, _ := w.events.Head(ctx)
		id := commands.CallSignal{CallID: r.CallID}
		_, err := w.app.CancelCall(ctx, b, id)
		expectFault(err, fault.Forbidden, fault.MsgCallNotCaller)
		_, err = w.app.AnswerCall(ctx, a, id)
		expectFault(err, fault.Forbidden, fault.MsgCallNotCallee)
		_, err = w.app.CompleteCall(ctx, a, id)
		expectFault(err, fault.Conflict, fault.MsgCallNotAnswered)
		_, err = w.app.RejectCall(ctx, c, id)
		expectFault(err, fault.NotFound, fault.MsgCallNotFound)
		_, err = w.app.AnswerCall(ctx, b, commands.CallSignal{})
		expectFault(err, fault.Invalid, fault.MsgCallIDRequired)
		_, err = w.app.AnswerCall(ctx, b, commands.CallSignal{CallID: "1234567890123456789"})
		expectFault(err, fault.NotFound, fault.MsgCallNotFound)
		Expect(w.events.Head(ctx)).To(Equal(head))

		_, err = w.app.RejectCall(ctx, b, id)
		Expect(err).NotTo(HaveOccurred())
		head, _ = w.events.Head(ctx)
		_, err = w.app.AnswerCall(ctx, b, id)
		expectFault(err, fault.Conflict, fault.MsgCallEnded)
		_, err = w.app.CancelCall(ctx, a, id)
		expectFault(err, fault.Conflict, fault.MsgCallEnded)
		Expect(w.events.Head(ctx)).To(Equal(head))
	})

	It("refuses bad starts: media, uuid, group chats, strangers and other tenants", func() {
		dave := w.member("dave0001")
		_, err := w.app.CreateTenant(ctx, "x0002", "Second")
		Expect(err).NotTo(HaveOccurred())
		Expect(w.app.SendSMSCode(ctx, "x0002", "13700000009", "register")).To(Succeed())
		other, err := w.app.RegisterMember(ctx, commands.Register{
			Phone: "13700000009", SMSCode: w.lastCode("13700000009"), Account: "zed00009", Password: "abcd", TenantCode: "x0002"})
		Expect(err).NotTo(HaveOccurred())
		w.settle()
		head, _ := w.events.Head(ctx)
		for _, tc := range []struct {
			body commands.StartCall
			kind fault.Kind
			key  string
		}{
			{commands.StartCall{UUID: "s", ChatType: "Friend", To: b.MemberID, Media: "fax"}, fault.Invalid, fault.MsgCallMediaInvalid},
			{commands.StartCall{ChatType: "Friend", To: b.MemberID, Media: "voice"}, fault.Invalid, fault.MsgUUIDRequired},
			{commands.StartCall{UUID: "s", ChatType: "Group", To: b.MemberID, Media: "voice"}, fault.Invalid, fault.MsgGroupNotSupported},
			{commands.StartCall{UUID: "s", ChatType: "Friend", Media: "voice"}, fault.Invalid, fault.MsgFriendMissing},
			{commands.StartCall{UUID: "s", ChatType: "Friend", To: a.MemberID, Media: "voice"}, fault.Invalid, fault.MsgFriendMissing},
			{commands.StartCall{UUID: "s", ChatType: "Friend", To: dave.MemberID, Media: "voice"}, fault.Forbidden, fault.MsgNotFriend},
			{commands.StartCall{UUID: "s", ChatType: "Friend", To: other.MemberID, Media: "voice"}, fault.NotFound, fault.MsgMemberNotFound},
		} {
			_, err := w.app.StartCall(ctx, a, tc.body)
			expectFault(err, tc.kind, tc.key)
		}
		Expect(w.events.Head(ctx)).To(Equal(head))
	})

	It("ends calls ringing past the timeout as NoAnswer once, whichever nodes try", func() {
		other := w.node()
		dave := w.member("dave0001")
		w.befriend(c, dave)
		r := start(a, b, "late", "voice")
		answered := start(dave, c, "kept", "voice")
		Expect(w.app.ExpireCalls(ctx)).To(Succeed())
		Expect(types(chatOf(a, b))).To(Equal([]string{"CallStarted"}), "not before the timeout")
		w.settle()
		Eventually(func() error {
			_, err := other.AnswerCall(ctx, c, commands.CallSignal{CallID: answered.CallID})
			return err
		}).Should(Succeed(), "the other node knows the call from the log")
		Eventually(func() error {
			_, err := w.app.AnswerCall(ctx, c, commands.CallSignal{CallID: answered.CallID})
			return err
		}).Should(MatchError(fault.MsgCallAnswered), "this node knows of the answer from the log")

		w.advance(call.RingTimeout)
		Expect(w.app.ExpireCalls(ctx)).To(Succeed())
		Expect(other.ExpireCalls(ctx)).To(Succeed())
		Expect(types(chatOf(a, b))).To(Equal([]string{"CallStarted", "CallEnded", "MessageSent"}))
		Expect(types(chatOf(dave, c))).To(Equal([]string{"CallStarted", "CallAnswered"}))
		Expect(records(b, a)).To(Equal([]call.Record{{CallID: r.CallID, Media: "voice", Outcome: "noAnswer"}}))
		_, err := w.app.CancelCall(ctx, a, commands.CallSignal{CallID: r.CallID})
		expectFault(err, fault.Conflict, fault.MsgCallEnded)
	})

	It("says that no media provider is configured", func() {
		_, err := w.app.MediaToken(ctx, a, "video")
		expectFault(err, fault.Conflict, fault.MsgCallsNotConfigured)
		_, err = w.app.MediaToken(ctx, a, "screen")
		expectFault(err, fault.Invalid, fault.MsgCallMediaInvalid)
	})
})
