package commands

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/tenant"
	"github.com/eventchat/eventchat/domain/wallet"
)

// Payments is the payment provider of top-up orders.
type Payments interface {
	// Start hands a new order to the provider, which takes the member's
	// payment; the order is credited when the payment is confirmed
	// (ConfirmTopUp). An error fails the order: nothing is charged.
	Start(ctx context.Context, o TopUpPayment) error
}

// TopUpPayment is what the provider is told of an order.
type TopUpPayment struct {
	Tenant    string
	Member    string
	Order     string
	Amount    int64 // minor units
	ExpiresAt time.Time
}

// PaymentTimeout bounds a call to the payment provider unless Deps says
// otherwise.
const PaymentTimeout = 10 * time.Second

// TopUp is the body of POST /v1/member/topup/order: amount in minor units
// (cents), requestId the client's, repeated by a retry.
type TopUp struct {
	RequestID string `json:"requestId"`
	Amount    int64  `json:"amount"`
}

// TopUpOrder is an order as the member and operators see it.
type TopUpOrder struct {
	ID         string `json:"id"`
	RequestID  string `json:"requestId"`
	MemberID   string `json:"memberId"`
	Amount     int64  `json:"amount"`
	Status     string `json:"status"` // Pending | Confirmed | Rejected | Expired | Failed
	CreateTime int64  `json:"createTime"`
	ExpireTime int64  `json:"expireTime"`
	Balance    int64  `json:"balance"`  // the member's balance after the order's last event
	Position   uint64 `json:"position"` // of the last event appended, 0 when none was
}

// BalanceChange is an operator's adjustment of a member's balance.
type BalanceChange struct {
	MemberID string `json:"memberId"`
	ID       string `json:"id"`
	Amount   int64  `json:"amount"`
	Balance  int64  `json:"balance"`
	Position uint64 `json:"position"` // 0 when the id was used already
}

func walletStream(tenantCode, member string) string {
	return es.Stream(tenantCode, es.CategoryWallet, member)
}

// decideWallet loads a member's wallet, decides on it and appends what
// was decided with the revision it loaded, again after a lost race. It
// returns the wallet after the decision, the append's result and the
// decision's error: a decision may both decide events and refuse (an
// order found expired).
func (a *App) decideWallet(ctx context.Context, actor Principal, tenantCode, member string,
	decide func(w *wallet.Wallet, now time.Time) ([]es.Event, error)) (*wallet.Wallet, es.WriteResult, error) {
	type outcome struct {
		w   *wallet.Wallet
		res es.WriteResult
		err error
	}
	o, err := retryOnConflict(ctx, func() (outcome, error) {
		var w wallet.Wallet
		stream := walletStream(tenantCode, member)
		st, err := a.loadAll(ctx, stream, w.Apply)
		if err != nil {
			return outcome{}, err
		}
		events, refusal := decide(&w, a.Now())
		var res es.WriteResult
		if len(events) > 0 {
			if res, err = a.appendEvents(ctx, actor, stream, st.expected(), events); err != nil {
				return outcome{}, err
			}
			for _, e := range events {
				w.Apply(e)
			}
		}
		return outcome{w: &w, res: res, err: refusal}, nil
	})
	if err != nil {
		return nil, es.WriteResult{}, err
	}
	return o.w, o.res, o.err
}

func orderView(w *wallet.Wallet, member, id string, res es.WriteResult) TopUpOrder {
	o, _ := w.Order(id)
	return TopUpOrder{ID: o.ID, RequestID: o.RequestID, MemberID: member, Amount: o.Amount, Status: string(o.Status),
		CreateTime: o.At, ExpireTime: o.ExpiresAt, Balance: w.Balance(), Position: res.Position}
}

// OrderTopUp places p's order of r.Amount and hands it to the payment
// provider. A request id p used already answers its order as it stands,
// however often it is repeated: one order, one credit. The tenant must
// have top-up on.
func (a *App) OrderTopUp(ctx context.Context, p Principal, r TopUp) (TopUpOrder, error) {
	cfg, err := a.TenantConfig(ctx, p.Tenant)
	if err != nil {
		return TopUpOrder{}, err
	}
	if !cfg.TopUp {
		return TopUpOrder{}, fault.New(fault.Forbidden, wallet.MsgDisabled)
	}
	if err := wallet.CheckRequestID(r.RequestID); err != nil {
		return TopUpOrder{}, err
	}
	id := wallet.OrderID(p.Tenant, p.MemberID, r.RequestID)
	timeout := a.orderTimeout()
	placed := false
	w, res, err := a.decideWallet(ctx, p, p.Tenant, p.MemberID, func(w *wallet.Wallet, now time.Time) ([]es.Event, error) {
		events, _, err := w.Place(id, r.RequestID, r.Amount, now, timeout)
		placed = len(events) > 0
		return events, err
	})
	if err != nil {
		return TopUpOrder{}, err
	}
	view := orderView(w, p.MemberID, id, res)
	if !placed {
		return view, nil
	}
	if reason := a.startPayment(ctx, p, view); reason != "" {
		w, res, err := a.decideWallet(ctx, p, p.Tenant, p.MemberID, func(w *wallet.Wallet, now time.Time) ([]es.Event, error) {
			return w.Fail(id, reason, now), nil
		})
		if err != nil {
			return TopUpOrder{}, err
		}
		if o, _ := w.Order(id); o.Status == wallet.Failed {
			return TopUpOrder{}, fault.New(fault.Unavailable, reason)
		}
		// Settled by an operator while the provider was asked.
		return orderView(w, p.MemberID, id, res), nil
	}
	return view, nil
}

// startPayment hands the order to the provider and returns why it failed,
// "" when the provider took it. The call outlives the request that made
// the order, up to its own timeout.
func (a *App) startPayment(ctx context.Context, p Principal, o TopUpOrder) string {
	timeout := a.PaymentTimeout
	if timeout <= 0 {
		timeout = PaymentTimeout
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	err := a.Payments.Start(ctx, TopUpPayment{Tenant: p.Tenant, Member: p.MemberID, Order: o.ID, Amount: o.Amount,
		ExpiresAt: time.UnixMilli(o.ExpireTime)})
	switch {
	case err == nil:
		return ""
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return wallet.MsgProviderTimeout
	}
	return wallet.MsgProviderFailed
}

// orderOwner finds the member whose order id is, among tenantCode's.
func (a *App) orderOwner(ctx context.Context, tenantCode, id string) (string, error) {
	if !wallet.OrderIDValid(id) {
		return "", fault.New(fault.NotFound, wallet.MsgOrderNotFound)
	}
	docs, err := a.Personal.PersonalDocs(ctx, tenantCode, wallet.OrdersOwner(tenantCode), wallet.KindHistory, []string{id})
	if err != nil {
		return "", err
	}
	if len(docs) == 0 {
		return "", fault.New(fault.NotFound, wallet.MsgOrderNotFound)
	}
	var o struct {
		MemberID string `json:"memberId"`
	}
	if err := json.Unmarshal(docs[0], &o); err != nil {
		return "", err
	}
	return o.MemberID, nil
}

// settleTopUp lets an operator decide on order id of tenantCode.
func (a *App) settleTopUp(ctx context.Context, op Operator, tenantCode, id, action string,
	decide func(w *wallet.Wallet, now time.Time) ([]es.Event, error)) (TopUpOrder, error) {
	if err := a.operatorMay(op, "topup", action); err != nil {
		return TopUpOrder{}, err
	}
	if err := tenant.ValidateCode(tenantCode); err != nil {
		return TopUpOrder{}, err
	}
	member, err := a.orderOwner(ctx, tenantCode, id)
	if err != nil {
		return TopUpOrder{}, err
	}
	w, res, err := a.decideWallet(ctx, op.principal(tenantCode), tenantCode, member, decide)
	if err != nil {
		return TopUpOrder{}, err
	}
	return orderView(w, member, id, res), nil
}

// ConfirmTopUp is the operator's confirmation that order id of tenantCode
// was paid: the member's balance is credited once, however often it is
// confirmed. An order past its time expires instead.
func (a *App) ConfirmTopUp(ctx context.Context, op Operator, tenantCode, id string) (TopUpOrder, error) {
	return a.settleTopUp(ctx, op, tenantCode, id, "confirm", func(w *wallet.Wallet, now time.Time) ([]es.Event, error) {
		return w.Confirm(id, now)
	})
}

// RejectTopUp is the operator's refusal of order id's payment.
func (a *App) RejectTopUp(ctx context.Context, op Operator, tenantCode, id, reason string) (TopUpOrder, error) {
	return a.settleTopUp(ctx, op, tenantCode, id, "reject", func(w *wallet.Wallet, now time.Time) ([]es.Event, error) {
		return w.Reject(id, reason, now)
	})
}

// AdjustBalance credits (amount > 0) or debits a member's balance by an
// operator's decision, under the operator's id for it; a debit the
// balance cannot cover is refused.
func (a *App) AdjustBalance(ctx context.Context, op Operator, tenantCode, who, id string, amount int64, reason string) (BalanceChange, error) {
	if err := a.operatorMay(op, "topup", "adjust"); err != nil {
		return BalanceChange{}, err
	}
	if err := tenant.ValidateCode(tenantCode); err != nil {
		return BalanceChange{}, err
	}
	if err := a.ensureTenant(ctx, tenantCode); err != nil {
		return BalanceChange{}, err
	}
	member, err := a.findMemberID(ctx, tenantCode, who)
	if err != nil {
		return BalanceChange{}, err
	}
	w, res, err := a.decideWallet(ctx, op.principal(tenantCode), tenantCode, member, func(w *wallet.Wallet, now time.Time) ([]es.Event, error) {
		return w.Adjust(id, amount, reason, now)
	})
	if err != nil {
		return BalanceChange{}, err
	}
	return BalanceChange{MemberID: member, ID: id, Amount: amount, Balance: w.Balance(), Position: res.Position}, nil
}

// pendingTopUps holds the pending orders of every tenant, folded from the
// log by Follow, for ExpireTopUps.
type pendingTopUps struct {
	mu     sync.Mutex
	orders map[string]pendingTopUp // by order id
}

type pendingTopUp struct {
	tenant, member string
	expiresAt      int64
}

func (r *pendingTopUps) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.orders = map[string]pendingTopUp{}
}

func (r *pendingTopUps) apply(tenantCode, member string, e es.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.orders == nil {
		r.orders = map[string]pendingTopUp{}
	}
	switch e := e.(type) {
	case *wallet.TopUpOrdered:
		r.orders[e.Order] = pendingTopUp{tenant: tenantCode, member: member, expiresAt: e.ExpiresAt}
	case *wallet.TopUpConfirmed:
		delete(r.orders, e.Order)
	case *wallet.TopUpRejected:
		delete(r.orders, e.Order)
	case *wallet.TopUpExpired:
		delete(r.orders, e.Order)
	case *wallet.TopUpFailed:
		delete(r.orders, e.Order)
	}
}

// due returns the pending orders past their time at now.
func (r *pendingTopUps) due(now time.Time) []pendingTopUp {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []pendingTopUp
	for _, o := range r.orders {
		if o.expiresAt <= now.UnixMilli() {
			out = append(out, o)
		}
	}
	return out
}

// ExpireTopUps closes every pending order past its time. Several nodes may
// do so at once: the expiry is decided on the wallet's revision, so it is
// appended once.
func (a *App) ExpireTopUps(ctx context.Context) error {
	var errs []error
	done := map[string]bool{}
	for _, o := range a.topUps.due(a.Now()) {
		stream := walletStream(o.tenant, o.member)
		if done[stream] {
			continue
		}
		done[stream] = true
		_, _, err := a.decideWallet(ctx, Principal{Tenant: o.tenant}, o.tenant, o.member, func(w *wallet.Wallet, now time.Time) ([]es.Event, error) {
			return w.Expire(now), nil
		})
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// ExpireTopUpsEvery runs ExpireTopUps every period until ctx ends.
func (a *App) ExpireTopUpsEvery(period time.Duration) func(ctx context.Context) error {
	return func(ctx context.Context) error { return every(ctx, period, a.ExpireTopUps) }
}

// TopUpTerms are the terms of an order on p's tenant.
type TopUpTerms struct {
	Enabled        bool    `json:"enabled"` // the tenant has top-up on
	MinAmount      int64   `json:"minAmount"`
	MaxAmount      int64   `json:"maxAmount"`
	Presets        []int64 `json:"presets"`
	MaxPending     int     `json:"maxPending"`
	TimeoutSeconds int64   `json:"timeoutSeconds"` // how long an order waits for its payment
}

// TopUpTerms returns the terms of an order on p's tenant.
func (a *App) TopUpTerms(ctx context.Context, p Principal) (TopUpTerms, error) {
	cfg, err := a.TenantConfig(ctx, p.Tenant)
	if err != nil {
		return TopUpTerms{}, err
	}
	return TopUpTerms{Enabled: cfg.TopUp, MinAmount: wallet.MinAmount, MaxAmount: wallet.MaxAmount, Presets: wallet.Presets,
		MaxPending: wallet.MaxPending, TimeoutSeconds: int64(a.orderTimeout() / time.Second)}, nil
}

func (a *App) orderTimeout() time.Duration {
	if a.TopUpTimeout > 0 {
		return a.TopUpTimeout
	}
	return wallet.OrderTimeout
}

// MayListTopUps tells whether op may list the orders of tenantCode's
// members; the edge reads them from the read model.
func (a *App) MayListTopUps(op Operator, tenantCode string) error {
	if err := a.operatorMay(op, "topup", "list"); err != nil {
		return err
	}
	return tenant.ValidateCode(tenantCode)
}
