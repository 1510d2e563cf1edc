package commands_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/wallet"
)

// brokenPayments is a payment provider that refuses every order, or,
// with hang, never answers until its call is given up.
type brokenPayments struct{ hang bool }

func (b brokenPayments) Start(ctx context.Context, _ commands.TopUpPayment) error {
	if b.hang {
		<-ctx.Done()
		return ctx.Err()
	}
	return errors.New("provider: 502 bad gateway")
}

var _ = Describe("Top-up through a payment provider that fails", func() {
	var w *world
	var app *commands.App
	var alice commands.Principal
	op := commands.Operator{Name: "ops"}
	ctx := context.Background()

	BeforeEach(func() {
		w = newWorld()
		_, err := w.app.ConfigureTenant(ctx, op, "x0001", map[string]string{"topUp": "true"})
		Expect(err).NotTo(HaveOccurred())
		alice = w.member("provalice1")
		app = w.newApp(3)
	})

	failsCleanly := func(reason string) {
		GinkgoHelper()
		_, err := app.OrderTopUp(ctx, alice, commands.TopUp{RequestID: "r1", Amount: 2_000})
		Expect(fault.Is(err, fault.Unavailable)).To(BeTrue(), "%v", err)
		Expect(err).To(MatchError(reason))
		By("a retry answers the failed order; nothing was or can be credited")
		o, err := app.OrderTopUp(ctx, alice, commands.TopUp{RequestID: "r1", Amount: 2_000})
		Expect(err).NotTo(HaveOccurred())
		Expect(o.Status).To(Equal(string(wallet.Failed)))
		w.settle()
		_, err = w.app.ConfirmTopUp(ctx, op, "x0001", o.ID)
		Expect(err).To(MatchError(wallet.MsgOrderFailed))
		Expect(o.Balance).To(BeZero())
	}

	It("fails the order with a clear message when the provider refuses it", func() {
		app.Payments = brokenPayments{}
		failsCleanly(wallet.MsgProviderFailed)
	})

	It("fails the order when the provider does not answer in time", func() {
		app.Payments = brokenPayments{hang: true}
		app.PaymentTimeout = 50 * time.Millisecond
		failsCleanly(wallet.MsgProviderTimeout)
	})

	It("does not count a failed order against the pending cap", func() {
		app.Payments = brokenPayments{}
		for _, r := range []string{"f1", "f2", "f3", "f4"} {
			_, err := app.OrderTopUp(ctx, alice, commands.TopUp{RequestID: r, Amount: 100})
			Expect(fault.Is(err, fault.Unavailable)).To(BeTrue())
		}
		o, err := w.app.OrderTopUp(ctx, alice, commands.TopUp{RequestID: "ok", Amount: 100})
		Expect(err).NotTo(HaveOccurred())
		Expect(o.Status).To(Equal(string(wallet.Pending)))
	})
})

var _ = Describe("Top-up decisions racing on one wallet", func() {
	var w *world
	var alice commands.Principal
	op := commands.Operator{Name: "ops"}
	ctx := context.Background()

	BeforeEach(func() {
		w = newWorld()
		_, err := w.app.ConfigureTenant(ctx, op, "x0001", map[string]string{"topUp": "true"})
		Expect(err).NotTo(HaveOccurred())
		alice = w.member("racealice1")
	})

	// both runs f on this node and on another at once and returns their errors.
	both := func(f func(i int, app *commands.App) error) []error {
		apps := []*commands.App{w.app, w.node()}
		errs := make([]error, len(apps))
		var wg sync.WaitGroup
		for i, app := range apps {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer GinkgoRecover()
				errs[i] = f(i, app)
			}()
		}
		wg.Wait()
		return errs
	}

	It("credits an order confirmed on two nodes at once once", func() {
		o, err := w.app.OrderTopUp(ctx, alice, commands.TopUp{RequestID: "r1", Amount: 4_000})
		Expect(err).NotTo(HaveOccurred())
		w.settle()
		balances := make(chan int64, 2)
		Expect(both(func(_ int, app *commands.App) error {
			c, err := app.ConfirmTopUp(ctx, op, "x0001", o.ID)
			balances <- c.Balance
			return err
		})).To(HaveEach(BeNil()))
		close(balances)
		for b := range balances {
			Expect(b).To(BeEquivalentTo(4_000))
		}
	})

	It("lets only one of two debits racing for the same money through", func() {
		_, err := w.app.AdjustBalance(ctx, op, "x0001", alice.MemberID, "credit", 10_000, "opening")
		Expect(err).NotTo(HaveOccurred())
		errs := both(func(i int, app *commands.App) error {
			_, err := app.AdjustBalance(ctx, op, "x0001", alice.MemberID, fmt.Sprint("debit-", i), -6_000, "withdrawal")
			return err
		})
		Expect(errs).To(ContainElement(BeNil()))
		Expect(errs).To(ContainElement(MatchError(wallet.MsgInsufficient)))
		c, err := w.app.AdjustBalance(ctx, op, "x0001", alice.MemberID, "credit", 10_000, "opening")
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Balance).To(BeEquivalentTo(4_000))
	})
})
