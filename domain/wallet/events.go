package wallet

import "github.com/eventchat/eventchat/domain/es"

// Event type names: stored identifiers, never renamed.
const (
	TypeOrdered   = "TopUpOrdered"
	TypeConfirmed = "TopUpConfirmed"
	TypeRejected  = "TopUpRejected"
	TypeExpired   = "TopUpExpired"
	TypeFailed    = "TopUpFailed"
	TypeAdjusted  = "BalanceAdjusted"
)

// TopUpOrdered opens a member's top-up order of Amount (minor units),
// Pending until ExpiresAt; RequestID is the client's, which a retry
// repeats.
type TopUpOrdered struct {
	Order     string `json:"order"`
	RequestID string `json:"requestId"`
	Amount    int64  `json:"amount"`
	At        int64  `json:"at"`
	ExpiresAt int64  `json:"expiresAt"`
}

// TopUpConfirmed credits a pending order's amount: Balance is the
// member's balance after it.
type TopUpConfirmed struct {
	Order   string `json:"order"`
	Amount  int64  `json:"amount"`
	Balance int64  `json:"balance"`
	At      int64  `json:"at"`
}

// TopUpRejected closes a pending order without credit: the payment was
// refused.
type TopUpRejected struct {
	Order  string `json:"order"`
	Reason string `json:"reason,omitempty"`
	At     int64  `json:"at"`
}

// TopUpExpired closes a pending order nobody confirmed in time.
type TopUpExpired struct {
	Order string `json:"order"`
	At    int64  `json:"at"`
}

// TopUpFailed closes an order the payment provider could not take.
type TopUpFailed struct {
	Order  string `json:"order"`
	Reason string `json:"reason"`
	At     int64  `json:"at"`
}

// BalanceAdjusted changes a balance by Amount (a credit above zero, a
// debit below), outside any order; Balance is the balance after it.
type BalanceAdjusted struct {
	ID      string `json:"id"`
	Amount  int64  `json:"amount"`
	Reason  string `json:"reason"`
	Balance int64  `json:"balance"`
	At      int64  `json:"at"`
}

func (*TopUpOrdered) EventType() string    { return TypeOrdered }
func (*TopUpConfirmed) EventType() string  { return TypeConfirmed }
func (*TopUpRejected) EventType() string   { return TypeRejected }
func (*TopUpExpired) EventType() string    { return TypeExpired }
func (*TopUpFailed) EventType() string     { return TypeFailed }
func (*BalanceAdjusted) EventType() string { return TypeAdjusted }

// Events lists the constructors of this package's events.
func Events() []func() es.Event {
	return []func() es.Event{
		func() es.Event { return &TopUpOrdered{} },
		func() es.Event { return &TopUpConfirmed{} },
		func() es.Event { return &TopUpRejected{} },
		func() es.Event { return &TopUpExpired{} },
		func() es.Event { return &TopUpFailed{} },
		func() es.Event { return &BalanceAdjusted{} },
	}
}
