package projections

import (
	"context"
	"encoding/json"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/wallet"
)

// Wallet keeps each member's balance and top-up history, and each
// tenant's orders for operators, as personal items (wallet.KindHistory,
// KindStatus, KindBalance): an order's item is written once, when it is
// placed, and its settlement under the order's id beside it, so that no
// fold reads what an earlier one wrote.
type Wallet struct{}

// Name is the persisted checkpoint key.
func (Wallet) Name() string { return "wallet.v1" }

// TopUpEntry is one line of a member's top-up history: an order (type
// TopUp) or an operator's adjustment (type Adjustment, signed amount).
type TopUpEntry struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	RequestID  string `json:"requestId,omitempty"`
	MemberID   string `json:"memberId"`
	Amount     int64  `json:"amount"`
	Note       string `json:"note,omitempty"` // an adjustment's reason
	CreateTime int64  `json:"createTime"`
	ExpireTime int64  `json:"expireTime,omitempty"`
}

// TopUpStatus is how an order ended.
type TopUpStatus struct {
	Status     string `json:"status"`
	Reason     string `json:"reason,omitempty"`
	UpdateTime int64  `json:"updateTime"`
}

// BalanceDoc is a member's balance.
type BalanceDoc struct {
	Balance    int64  `json:"balance"`
	UpdateTime int64  `json:"updateTime"`
	Position   uint64 `json:"position"`
}

// Entry types of the history.
const (
	EntryTopUp      = "TopUp"
	EntryAdjustment = "Adjustment"
)

// Project folds the wallet events in log order.
func (Wallet) Project(ctx context.Context, tx Tx, events []Envelope) ([]Delta, error) {
	var items []PersonalItem
	index := map[[3]string]int{} // a key written twice in the batch keeps its last document
	put := func(env Envelope, owner, kind, id string, at int64, v any) error {
		doc, err := json.Marshal(v)
		if err != nil {
			return err
		}
		it := PersonalItem{Tenant: env.Tenant, Member: owner, Kind: kind, ID: id, At: at, Doc: doc}
		key := [3]string{owner, kind, id}
		if i, ok := index[key]; ok {
			items[i] = it
		} else {
			index[key] = len(items)
			items = append(items, it)
		}
		return nil
	}
	both := func(env Envelope, kind, id string, at int64, v any) error {
		if err := put(env, env.Stream.ID, kind, id, at, v); err != nil {
			return err
		}
		return put(env, wallet.OrdersOwner(env.Tenant), kind, id, at, v)
	}
	balance := func(env Envelope, b, at int64) error {
		return put(env, env.Stream.ID, wallet.KindBalance, wallet.BalanceID, at, BalanceDoc{Balance: b, UpdateTime: at, Position: env.Position})
	}
	for _, env := range events {
		if env.Stream.Category != es.CategoryWallet {
			continue
		}
		var err error
		switch e := env.Event.(type) {
		case *wallet.TopUpOrdered:
			err = both(env, wallet.KindHistory, e.Order, e.At, TopUpEntry{ID: e.Order, Type: EntryTopUp, RequestID: e.RequestID,
				MemberID: env.Stream.ID, Amount: e.Amount, CreateTime: e.At, ExpireTime: e.ExpiresAt})
		case *wallet.TopUpConfirmed:
			err = both(env, wallet.KindStatus, e.Order, e.At, TopUpStatus{Status: string(wallet.Confirmed), UpdateTime: e.At})
			if err == nil {
				err = balance(env, e.Balance, e.At)
			}
		case *wallet.TopUpRejected:
			err = both(env, wallet.KindStatus, e.Order, e.At, TopUpStatus{Status: string(wallet.Rejected), Reason: e.Reason, UpdateTime: e.At})
		case *wallet.TopUpExpired:
			err = both(env, wallet.KindStatus, e.Order, e.At, TopUpStatus{Status: string(wallet.Expired), UpdateTime: e.At})
		case *wallet.TopUpFailed:
			err = both(env, wallet.KindStatus, e.Order, e.At, TopUpStatus{Status: string(wallet.Failed), Reason: e.Reason, UpdateTime: e.At})
		case *wallet.BalanceAdjusted:
			err = put(env, env.Stream.ID, wallet.KindHistory, "adj-"+e.ID, e.At, TopUpEntry{ID: e.ID, Type: EntryAdjustment,
				MemberID: env.Stream.ID, Amount: e.Amount, Note: e.Reason, CreateTime: e.At})
			if err == nil {
				err = balance(env, e.Balance, e.At)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if len(items) == 0 {
		return nil, nil
	}
	return nil, tx.PutPersonalItems(ctx, items)
}
