package commands_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

var _ = Describe("Delivery acknowledgements", func() {
	var w *world
	var a, b, c commands.Principal
	BeforeEach(func() {
		w = newWorld()
		a, b, c = w.member("anna0001"), w.member("ben00001"), w.member("cleo0001")
		w.befriend(a, b)
		w.befriend(b, c)
	})
	send := func(from, to commands.Principal, uuid string) commands.SendResult {
		GinkgoHelper()
		r, err := w.app.SendMessage(ctx, from, commands.SendMessage{UUID: uuid, ChatType: "Friend", To: to.MemberID, MsgType: "Text", Content: "hi"})
		Expect(err).NotTo(HaveOccurred())
		return r
	}
	inboxLength := func(p commands.Principal) int {
		GinkgoHelper()
		recs, err := w.events.ReadStream(ctx, es.Stream("x0001", es.CategoryInbox, p.MemberID), es.Forwards, 0, 1000)
		Expect(err).NotTo(HaveOccurred())
		return len(recs)
	}

	It("moves the device's position forward only, by position or by the newest of the messages named", func() {
		one, two := send(b, a, "u1"), send(b, a, "u2")
		d, err := w.app.AckDelivery(ctx, a, commands.MessageAck{MessageIDs: []string{two.ID, one.ID}})
		Expect(err).NotTo(HaveOccurred())
		Expect(d.Delivered).To(Equal(two.Position))
		Expect(d.Position).NotTo(BeZero())
		n := inboxLength(a)
		d, err = w.app.AckDelivery(ctx, a, commands.MessageAck{Position: one.Position})
		Expect(err).NotTo(HaveOccurred())
		Expect(d).To(Equal(commands.Delivery{Delivered: two.Position}))
		Expect(inboxLength(a)).To(Equal(n))
	})

	It("refuses nothing named, a position ahead of the log, and messages the member does not see, appending nothing", func() {
		theirs := send(b, c, "u3")
		n := inboxLength(a)
		for _, r := range []struct {
			ack  commands.MessageAck
			kind fault.Kind
			key  string
		}{
			{commands.MessageAck{}, fault.Invalid, fault.MsgDeliveryNone},
			{commands.MessageAck{Position: theirs.Position + 100}, fault.Invalid, fault.MsgDeliveryAhead},
			{commands.MessageAck{MessageIDs: []string{theirs.ID}}, fault.NotFound, fault.MsgMessageNotFound},
			{commands.MessageAck{MessageIDs: []string{"nope"}}, fault.NotFound, fault.MsgMessageNotFound},
			{commands.MessageAck{MessageIDs: make([]string, 101)}, fault.Invalid, fault.MsgTooManyMessages},
		} {
			_, err := w.app.AckDelivery(ctx, a, r.ack)
			Expect(fault.Is(err, r.kind)).To(BeTrue(), "%v", err)
			Expect(err.Error()).To(Equal(r.key))
		}
		Expect(inboxLength(a)).To(Equal(n))
	})
})
