package wallet_test

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/wallet"
)

var now = time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)

func apply(w *wallet.Wallet, events []es.Event) {
	for _, e := range events {
		w.Apply(e)
	}
}

func place(w *wallet.Wallet, request string, amount int64) wallet.Order {
	GinkgoHelper()
	events, o, err := w.Place(wallet.OrderID("x0001", "1", request), request, amount, now, wallet.OrderTimeout)
	Expect(err).NotTo(HaveOccurred())
	apply(w, events)
	return o
}

var _ = Describe("Wallet", func() {
	It("credits a confirmed order once and keeps a retried request to its first order", func() {
		var w wallet.Wallet
		o := place(&w, "r1", 5_000)
		events, again, err := w.Place(wallet.OrderID("x0001", "1", "r1"), "r1", 9_000, now, wallet.OrderTimeout)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(BeEmpty())
		Expect(again).To(Equal(o))
		events, err = w.Confirm(o.ID, now.Add(time.Minute))
		Expect(err).NotTo(HaveOccurred())
		apply(&w, events)
		Expect(w.Balance()).To(Equal(int64(5_000)))
		events, err = w.Confirm(o.ID, now.Add(time.Minute))
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(BeEmpty())
		_, err = w.Reject(o.ID, "", now)
		Expect(fault.Is(err, fault.Conflict)).To(BeTrue())
	})

	It("refuses amounts out of bounds, bad request ids and a fourth pending order", func() {
		var w wallet.Wallet
		for _, amount := range []int64{0, -1, wallet.MinAmount - 1, wallet.MaxAmount + 1} {
			_, _, err := w.Place("1", "r", amount, now, time.Minute)
			Expect(err).To(MatchError(wallet.MsgAmount))
		}
		for _, id := range []string{"", "a b", "é", string(make([]byte, 65))} {
			_, _, err := w.Place("1", id, 1_000, now, time.Minute)
			Expect(err).To(MatchError(wallet.MsgRequestID))
		}
		place(&w, "a", 1_000)
		place(&w, "b", 1_000)
		place(&w, "c", 1_000)
		_, _, err := w.Place("4", "d", 1_000, now, time.Minute)
		Expect(err).To(MatchError(wallet.MsgTooManyPending))
	})

	It("expires an order past its time, and a late confirmation is refused with its expiry", func() {
		var w wallet.Wallet
		o := place(&w, "r1", 1_000)
		Expect(w.Expire(now.Add(wallet.OrderTimeout - time.Millisecond))).To(BeEmpty())
		events, err := w.Confirm(o.ID, now.Add(wallet.OrderTimeout))
		Expect(err).To(MatchError(wallet.MsgOrderExpired))
		Expect(events).To(ConsistOf(&wallet.TopUpExpired{Order: o.ID, At: now.Add(wallet.OrderTimeout).UnixMilli()}))
		apply(&w, events)
		Expect(w.Balance()).To(BeZero())
		got, _ := w.Order(o.ID)
		Expect(got.Status).To(Equal(wallet.Expired))
	})

	It("never lets a debit take the balance below zero", func() {
		var w wallet.Wallet
		events, err := w.Adjust("credit-1", 3_000, "goodwill", now)
		Expect(err).NotTo(HaveOccurred())
		apply(&w, events)
		_, err = w.Adjust("debit-1", -3_001, "refund", now)
		Expect(err).To(MatchError(wallet.MsgInsufficient))
		events, err = w.Adjust("debit-1", -3_000, "refund", now)
		Expect(err).NotTo(HaveOccurred())
		apply(&w, events)
		Expect(w.Balance()).To(BeZero())
		events, err = w.Adjust("debit-1", -3_000, "refund", now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(BeEmpty())
	})

	It("fails a pending order once", func() {
		var w wallet.Wallet
		o := place(&w, "r1", 1_000)
		events := w.Fail(o.ID, wallet.MsgProviderFailed, now)
		Expect(events).To(HaveLen(1))
		apply(&w, events)
		Expect(w.Fail(o.ID, wallet.MsgProviderFailed, now)).To(BeEmpty())
	})
})

var _ = Describe("Wallet refusals", func() {
	It("refuses a rejection reason over 200 characters and changes nothing", func() {
		var w wallet.Wallet
		o := place(&w, "r1", 1_000)
		long := strings.Repeat("é", 201)
		_, err := w.Reject(o.ID, long, now)
		Expect(err).To(MatchError(wallet.MsgRejectReason))
		got, _ := w.Order(o.ID)
		Expect(got.Status).To(Equal(wallet.Pending))
	})
})
