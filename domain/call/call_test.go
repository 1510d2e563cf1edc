package call_test

import (
	"encoding/json"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/call"
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

var _ = Describe("A call", func() {
	t0 := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	started := &call.CallStarted{CallID: "c1", Caller: "a", Callee: "b", Media: "video", At: t0.UnixMilli()}
	answered := &call.CallAnswered{CallID: "c1", Caller: "a", Callee: "b", Media: "video", By: "b", At: t0.Add(5 * time.Second).UnixMilli()}
	ended := &call.CallEnded{CallID: "c1", Caller: "a", Callee: "b", Media: "video", By: "a", Outcome: "cancelled", At: t0.Add(time.Second).UnixMilli()}
	given := func(events ...es.Event) call.Call {
		var c call.Call
		for _, e := range events {
			c.Apply(e)
		}
		return c
	}
	record := func(e es.Event) (*chat.MessageSent, call.Record) {
		GinkgoHelper()
		m, ok := e.(*chat.MessageSent)
		Expect(ok).To(BeTrue(), "the end comes with its record, got %T", e)
		var r call.Record
		Expect(json.Unmarshal([]byte(m.Content), &r)).To(Succeed())
		return m, r
	}

	Describe("Start", func() {
		It("raises an incoming call", func() {
			events, err := call.Start("c1", "a", "b", call.Video, false, false, "r1", t0)
			Expect(err).NotTo(HaveOccurred())
			Expect(events).To(Equal([]es.Event{started}))
			Expect(given(events...).State).To(Equal(call.StateRinging))
		})
		It("refuses a caller already in a call", func() {
			_, err := call.Start("c1", "a", "b", call.Voice, true, false, "r1", t0)
			expectFault(err, fault.Conflict, fault.MsgInCall)
		})
		It("ends at once as Busy, with its record, when the callee is in a call", func() {
			events, err := call.Start("c1", "a", "b", call.Voice, false, true, "r1", t0)
			Expect(err).NotTo(HaveOccurred())
			Expect(events).To(HaveLen(2), "it never rings")
			Expect(events[0]).To(Equal(&call.CallEnded{CallID: "c1", Caller: "a", Callee: "b", Media: "voice", Outcome: "busy", At: t0.UnixMilli()}))
			m, r := record(events[1])
			Expect([]string{m.MessageID, m.UUID, m.From, m.To, m.MsgType}).To(Equal([]string{"r1", "call-c1", "a", "b", "VoiceCall"}))
			Expect(r).To(Equal(call.Record{CallID: "c1", Media: "voice", Outcome: "busy"}))
			Expect(chat.Preview(m.MsgType, m.Content)).To(Equal("[voice call]"))
			c := given(events...)
			Expect([]any{c.ID, c.Caller, c.Callee, c.State, c.Outcome}).To(Equal([]any{"c1", "a", "b", call.StateEnded, call.Busy}))
		})
		It("accepts voice and video only", func() {
			Expect(call.ParseMedia("video")).To(Equal(call.Video))
			_, err := call.ParseMedia("fax")
			expectFault(err, fault.Invalid, fault.MsgCallMediaInvalid)
		})
	})

	Describe("Answer", func() {
		It("lets the callee answer a ringing call", func() {
			e, err := given(started).Answer("b", t0.Add(5*time.Second))
			Expect(err).NotTo(HaveOccurred())
			Expect(e).To(Equal(answered))
			Expect(given(started, e).State).To(Equal(call.StateInCall))
		})
	})

	DescribeTable("ending signals allowed",
		func(past []es.Event, by string, op call.Operation, at time.Duration, outcome string, duration int64) {
			events, err := given(past...).End(by, op, "r1", t0.Add(at))
			Expect(err).NotTo(HaveOccurred())
			Expect(events).To(HaveLen(2))
			end := events[0].(*call.CallEnded)
			Expect([]string{end.CallID, end.By, end.Outcome}).To(Equal([]string{"c1", by, outcome}))
			Expect(end.Duration).To(Equal(duration))
			m, r := record(events[1])
			Expect(m.MsgType).To(Equal("VideoCall"))
			Expect(chat.Preview(m.MsgType, m.Content)).To(Equal("[video call]"))
			Expect(r).To(Equal(call.Record{CallID: "c1", Media: "video", Outcome: outcome, Duration: duration}))
			Expect(call.OperationOf(call.Outcome(outcome))).To(Equal(op))
			Expect(given(append(past, events...)...).State).To(Equal(call.StateEnded))
		},
		Entry("the callee rejects", []es.Event{started}, "b", call.OpReject, time.Second, "rejected", int64(0)),
		Entry("the callee is busy", []es.Event{started}, "b", call.OpBusy, time.Second, "busy", int64(0)),
		Entry("the caller cancels", []es.Event{started}, "a", call.OpCancel, time.Second, "cancelled", int64(0)),
		Entry("the caller gives up: no answer", []es.Event{started}, "a", call.OpNoAnswer, time.Minute, "noAnswer", int64(0)),
		Entry("the caller hangs up after 90 s in call", []es.Event{started, answered}, "a", call.OpComplete, 95*time.Second, "completed", int64(90)),
		Entry("the callee hangs up", []es.Event{started, answered}, "b", call.OpComplete, 6*time.Second, "completed", int64(1)),
	)

	DescribeTable("signals refused",
		func(past []es.Event, by string, op call.Operation, kind fault.Kind, key string) {
			c := given(past...)
			var err error
			if op == call.OpAnswer {
				_, err = c.Answer(by, t0)
			} else {
				_, err = c.End(by, op, "r1", t0)
			}
			expectFault(err, kind, key)
		},
		Entry("answer by the caller", []es.Event{started}, "a", call.OpAnswer, fault.Forbidden, fault.MsgCallNotCallee),
		Entry("answer twice", []es.Event{started, answered}, "b", call.OpAnswer, fault.Conflict, fault.MsgCallAnswered),
		Entry("answer an ended call", []es.Event{started, ended}, "b", call.OpAnswer, fault.Conflict, fault.MsgCallEnded),
		Entry("reject by the caller", []es.Event{started}, "a", call.OpReject, fault.Forbidden, fault.MsgCallNotCallee),
		Entry("reject once answered", []es.Event{started, answered}, "b", call.OpReject, fault.Conflict, fault.MsgCallAnswered),
		Entry("busy by the caller", []es.Event{started}, "a", call.OpBusy, fault.Forbidden, fault.MsgCallNotCallee),
		Entry("cancel by the callee", []es.Event{started}, "b", call.OpCancel, fault.Forbidden, fault.MsgCallNotCaller),
		Entry("cancel once answered", []es.Event{started, answered}, "a", call.OpCancel, fault.Conflict, fault.MsgCallAnswered),
		Entry("cancel an ended call", []es.Event{started, ended}, "a", call.OpCancel, fault.Conflict, fault.MsgCallEnded),
		Entry("no answer by the callee", []es.Event{started}, "b", call.OpNoAnswer, fault.Forbidden, fault.MsgCallNotCaller),
		Entry("complete before answer", []es.Event{started}, "a", call.OpComplete, fault.Conflict, fault.MsgCallNotAnswered),
		Entry("complete an ended call", []es.Event{started, answered, ended}, "b", call.OpComplete, fault.Conflict, fault.MsgCallEnded),
		Entry("someone outside the call", []es.Event{started}, "z", call.OpComplete, fault.NotFound, fault.MsgCallNotFound),
		Entry("no one", []es.Event{started}, "", call.OpCancel, fault.NotFound, fault.MsgCallNotFound),
		Entry("a call never started", nil, "a", call.OpCancel, fault.NotFound, fault.MsgCallNotFound),
		Entry("start is no ending signal", []es.Event{started}, "a", call.OpStart, fault.Invalid, fault.MsgBadRequest),
	)

	Describe("Expire", func() {
		It("ends a call ringing past the timeout as NoAnswer, by the server", func() {
			Expect(given(started).Expire(call.RingTimeout, "r1", t0.Add(call.RingTimeout-time.Millisecond))).To(BeNil())
			events := given(started).Expire(call.RingTimeout, "r1", t0.Add(call.RingTimeout))
			Expect(events).To(HaveLen(2))
			end := events[0].(*call.CallEnded)
			Expect([]string{end.By, end.Outcome}).To(Equal([]string{"", "noAnswer"}))
			_, r := record(events[1])
			Expect(r.Outcome).To(Equal("noAnswer"))
		})
		It("leaves answered and ended calls alone", func() {
			late := t0.Add(time.Hour)
			Expect(given(started, answered).Expire(call.RingTimeout, "r1", late)).To(BeNil())
			Expect(given(started, ended).Expire(call.RingTimeout, "r1", late)).To(BeNil())
		})
	})

	It("folds events after the end as nothing: the first end wins", func() {
		c := given(started, ended, answered, &call.CallEnded{CallID: "c1", Outcome: "completed", Duration: 9})
		Expect([]any{c.State, c.Outcome, c.Duration}).To(Equal([]any{call.StateEnded, call.Cancelled, int64(0)}))
	})
})

func expectFault(err error, kind fault.Kind, key string) {
	GinkgoHelper()
	f, ok := fault.As(err)
	Expect(ok).To(BeTrue(), "want %q, got %v", key, err)
	Expect(f.Kind).To(Equal(kind))
	Expect(f.Key).To(Equal(key))
}
