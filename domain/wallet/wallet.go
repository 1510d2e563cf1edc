// Package wallet holds a member's balance and its top-up orders. The
// balance lives in the member's wallet stream (<tenant>.wallet-<member>)
// and changes only by its events: a confirmed order credits it, an
// operator's adjustment credits or debits it, and no decision ever takes
// it below zero. Amounts are whole minor units (cents).
package wallet

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// Limits of top-ups.
const (
	MinAmount  int64 = 100       // 1.00
	MaxAmount  int64 = 1_000_000 // 10,000.00, per order and per adjustment
	MaxBalance int64 = 100_000_000
	// MaxPending bounds a member's orders waiting for their payment.
	MaxPending = 3
	// OrderTimeout is how long an order waits for its payment before it
	// expires, unless the server is configured otherwise.
	OrderTimeout   = 15 * time.Minute
	maxRequestID   = 64
	maxReasonRunes = 200
)

// Read-model keys: each member's history (orders and adjustments) and
// balance are its personal items of KindHistory and KindBalance, a
// settled order's status an item of KindStatus under the order's id; a
// tenant's orders, for operators, are the items of the same kinds of its
// OrdersOwner.
const (
	KindHistory = "topup"
	KindStatus  = "topup-status"
	KindBalance = "topup-balance"
	BalanceID   = "balance"
)

// OrdersOwner owns tenant's list of orders among the personal items; no
// member id equals it.
func OrdersOwner(tenant string) string { return "topups:" + tenant }

// Presets are the amounts the top-up page offers.
var Presets = []int64{1_000, 5_000, 10_000, 50_000}

// Status of an order.
type Status string

const (
	Pending   Status = "Pending"
	Confirmed Status = "Confirmed"
	Rejected  Status = "Rejected"
	Expired   Status = "Expired"
	Failed    Status = "Failed"
)

// Message keys.
const (
	MsgDisabled           = "Top-up is not available for this server"
	MsgRequestID          = "requestId must be 1 to 64 letters, digits, '-' or '_'"
	MsgAmount             = "The amount must be between 1.00 and 10,000.00"
	MsgTooManyPending     = "You have 3 top-ups waiting for payment: wait for them to finish"
	MsgBalanceFull        = "This top-up would take the balance over 1,000,000.00"
	MsgOrderNotFound      = "The top-up order is not found"
	MsgOrderExpired       = "The top-up order has expired"
	MsgOrderConfirmed     = "The top-up order is already confirmed"
	MsgOrderRejected      = "The top-up order was rejected"
	MsgOrderFailed        = "The top-up order failed"
	MsgInsufficient       = "The balance is too low for this debit"
	MsgAdjustAmount       = "An adjustment is a non-zero amount of at most 10,000.00 either way"
	MsgReason             = "The reason must be 1 to 200 characters"
	MsgRejectReason       = "The reason must be at most 200 characters"
	MsgProviderFailed     = "The payment provider could not take the payment: the order failed and nothing was charged"
	MsgProviderTimeout    = "The payment provider did not answer in time: the order failed and nothing was charged"
	MsgAdjustmentRepeated = "This adjustment id was used for a different adjustment"
)

// Order is a top-up order as the wallet knows it.
type Order struct {
	ID        string
	RequestID string
	Amount    int64
	Status    Status
	At        int64
	ExpiresAt int64
}

// Wallet is a member's balance and orders, folded from its stream.
type Wallet struct {
	balance     int64
	orders      map[string]*Order
	adjustments map[string]BalanceAdjusted
}

// Balance is the wallet's balance.
func (w *Wallet) Balance() int64 { return w.balance }

// Order returns the order id, false when there is none.
func (w *Wallet) Order(id string) (Order, bool) {
	o, ok := w.orders[id]
	if !ok {
		return Order{}, false
	}
	return *o, true
}

// Due lists the pending orders past their expiry at now.
func (w *Wallet) Due(now time.Time) []string {
	var out []string
	for id, o := range w.orders {
		if o.Status == Pending && now.UnixMilli() >= o.ExpiresAt {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

func (w *Wallet) pending() int {
	n := 0
	for _, o := range w.orders {
		if o.Status == Pending {
			n++
		}
	}
	return n
}

func (w *Wallet) pendingAmount() int64 {
	var sum int64
	for _, o := range w.orders {
		if o.Status == Pending {
			sum += o.Amount
		}
	}
	return sum
}

// Apply folds one event into the wallet. It never validates.
func (w *Wallet) Apply(e es.Event) {
	if w.orders == nil {
		w.orders = map[string]*Order{}
		w.adjustments = map[string]BalanceAdjusted{}
	}
	switch e := e.(type) {
	case *TopUpOrdered:
		w.orders[e.Order] = &Order{ID: e.Order, RequestID: e.RequestID, Amount: e.Amount, Status: Pending, At: e.At, ExpiresAt: e.ExpiresAt}
	case *TopUpConfirmed:
		w.settle(e.Order, Confirmed)
		w.balance = e.Balance
	case *TopUpRejected:
		w.settle(e.Order, Rejected)
	case *TopUpExpired:
		w.settle(e.Order, Expired)
	case *TopUpFailed:
		w.settle(e.Order, Failed)
	case *BalanceAdjusted:
		w.adjustments[e.ID] = *e
		w.balance = e.Balance
	}
}

func (w *Wallet) settle(id string, s Status) {
	if o, ok := w.orders[id]; ok {
		o.Status = s
	}
}

// OrderID is the id of the order member asks for with requestID: 19
// digits, the same for every retry, so that two requests racing with one
// id decide the same order. It is a cryptographic hash: no member can
// choose a request id that names another member's order.
func OrderID(tenant, member, requestID string) string {
	h := sha256.New()
	for _, s := range []string{tenant, member, requestID} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	const low, span = 1_000_000_000_000_000_000, 9_000_000_000_000_000_000
	return strconv.FormatUint(low+binary.BigEndian.Uint64(h.Sum(nil))%span, 10)
}

// OrderIDValid tells whether id can be an order's id: 19 digits.
func OrderIDValid(id string) bool {
	if len(id) != 19 {
		return false
	}
	for _, r := range id {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// CheckRequestID checks a client's request id.
func CheckRequestID(id string) error {
	if id == "" || len(id) > maxRequestID {
		return fault.New(fault.Invalid, MsgRequestID)
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fault.New(fault.Invalid, MsgRequestID)
		}
	}
	return nil
}

// Place decides a new order of amount under requestID, pending for
// timeout. A request id the wallet has seen decides nothing and returns
// its order: a retry never orders twice.
func (w *Wallet) Place(id, requestID string, amount int64, now time.Time, timeout time.Duration) ([]es.Event, Order, error) {
	if err := CheckRequestID(requestID); err != nil {
		return nil, Order{}, err
	}
	for _, o := range w.orders {
		if o.RequestID == requestID {
			return nil, *o, nil
		}
	}
	switch {
	case amount < MinAmount || amount > MaxAmount:
		return nil, Order{}, fault.New(fault.Invalid, MsgAmount)
	case w.pending() >= MaxPending:
		return nil, Order{}, fault.New(fault.Conflict, MsgTooManyPending)
	case w.balance+w.pendingAmount()+amount > MaxBalance:
		return nil, Order{}, fault.New(fault.Conflict, MsgBalanceFull)
	}
	e := &TopUpOrdered{Order: id, RequestID: requestID, Amount: amount, At: now.UnixMilli(), ExpiresAt: now.Add(timeout).UnixMilli()}
	return []es.Event{e}, Order{ID: id, RequestID: requestID, Amount: amount, Status: Pending, At: e.At, ExpiresAt: e.ExpiresAt}, nil
}

// closed is the refusal to settle an order no longer pending.
func closed(o *Order) error {
	key := map[Status]string{Expired: MsgOrderExpired, Confirmed: MsgOrderConfirmed, Rejected: MsgOrderRejected, Failed: MsgOrderFailed}[o.Status]
	return fault.New(fault.Conflict, key)
}

// pendingOrder returns the order id, which must be pending at now: one
// past its expiry decides its expiry, returned with the refusal.
func (w *Wallet) pendingOrder(id string, now time.Time) (*Order, []es.Event, error) {
	o, ok := w.orders[id]
	if !ok {
		return nil, nil, fault.New(fault.NotFound, MsgOrderNotFound)
	}
	if o.Status == Pending && now.UnixMilli() >= o.ExpiresAt {
		return o, []es.Event{&TopUpExpired{Order: id, At: now.UnixMilli()}}, fault.New(fault.Conflict, MsgOrderExpired)
	}
	return o, nil, nil
}

// Confirm decides the payment of order id: its amount is credited.
// Confirming a confirmed order decides nothing; a closed one is refused;
// one past its expiry expires, and the refusal says so.
func (w *Wallet) Confirm(id string, now time.Time) ([]es.Event, error) {
	o, expired, err := w.pendingOrder(id, now)
	switch {
	case err != nil:
		return expired, err
	case o.Status == Confirmed:
		return nil, nil
	case o.Status != Pending:
		return nil, closed(o)
	}
	return []es.Event{&TopUpConfirmed{Order: id, Amount: o.Amount, Balance: w.balance + o.Amount, At: now.UnixMilli()}}, nil
}

// Reject decides the refusal of order id's payment; rejecting a rejected
// order decides nothing.
func (w *Wallet) Reject(id, reason string, now time.Time) ([]es.Event, error) {
	reason = strings.TrimSpace(reason)
	if utf8.RuneCountInString(reason) > maxReasonRunes || !utf8.ValidString(reason) {
		return nil, fault.New(fault.Invalid, MsgRejectReason)
	}
	o, expired, err := w.pendingOrder(id, now)
	switch {
	case err != nil:
		return expired, err
	case o.Status == Rejected:
		return nil, nil
	case o.Status != Pending:
		return nil, closed(o)
	}
	return []es.Event{&TopUpRejected{Order: id, Reason: reason, At: now.UnixMilli()}}, nil
}

// Fail decides the failure of order id, which the payment provider could
// not take, with the reason's message key.
func (w *Wallet) Fail(id, reason string, now time.Time) []es.Event {
	if o, ok := w.orders[id]; !ok || o.Status != Pending {
		return nil
	}
	return []es.Event{&TopUpFailed{Order: id, Reason: reason, At: now.UnixMilli()}}
}

// Expire decides the expiry of the pending orders past their time.
func (w *Wallet) Expire(now time.Time) []es.Event {
	var out []es.Event
	for _, id := range w.Due(now) {
		out = append(out, &TopUpExpired{Order: id, At: now.UnixMilli()})
	}
	return out
}

// Adjust decides an operator's change of the balance by amount (a debit
// below zero) under the operator's id for it: the same id again decides
// nothing, a debit the balance cannot cover is refused.
func (w *Wallet) Adjust(id string, amount int64, reason string, now time.Time) ([]es.Event, error) {
	if err := CheckRequestID(id); err != nil {
		return nil, err
	}
	reason = strings.TrimSpace(reason)
	if reason == "" || utf8.RuneCountInString(reason) > maxReasonRunes || !utf8.ValidString(reason) {
		return nil, fault.New(fault.Invalid, MsgReason)
	}
	if amount == 0 || amount > MaxAmount || amount < -MaxAmount {
		return nil, fault.New(fault.Invalid, MsgAdjustAmount)
	}
	if prev, ok := w.adjustments[id]; ok {
		if prev.Amount != amount {
			return nil, fault.New(fault.Conflict, MsgAdjustmentRepeated)
		}
		return nil, nil
	}
	after := w.balance + amount
	switch {
	case after < 0:
		return nil, fault.New(fault.Conflict, MsgInsufficient)
	case after > MaxBalance:
		return nil, fault.New(fault.Conflict, MsgBalanceFull)
	}
	return []es.Event{&BalanceAdjusted{ID: id, Amount: amount, Reason: reason, Balance: after, At: now.UnixMilli()}}, nil
}
