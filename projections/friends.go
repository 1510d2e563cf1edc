package projections

import (
	"context"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/domain/member"
)

// Friends keeps friend requests and friend lists.
type Friends struct{}

// Name is the persisted checkpoint key.
func (Friends) Name() string { return "friends.v1" }

// Project folds requests and answers; both sides are told that their
// request list changed (26) and, on acceptance, that a friend was added (24).
func (Friends) Project(ctx context.Context, tx Tx, events []Envelope) ([]Delta, error) {
	applies := map[string]*Apply{}
	var order []string
	friends := friendRows{tx: tx, rows: map[friendKey]*Friend{}}
	var deltas []Delta
	get := func(env Envelope, id string) (*Apply, error) {
		if a, ok := applies[id]; ok {
			return a, nil
		}
		a, ok, err := tx.GetApply(ctx, env.Tenant, id)
		if err != nil || !ok {
			return nil, err
		}
		applies[id] = &a
		order = append(order, id)
		return &a, nil
	}
	answer := func(env Envelope, id, status string, at int64) (*Apply, error) {
		a, err := get(env, id)
		if a == nil || err != nil {
			return nil, err
		}
		a.Status, a.UpdatedAt = status, at
		deltas = append(deltas, delta(env, CmdApplyRefresh, map[string]string{"id": id}, a.From, a.To))
		return a, nil
	}
	for _, env := range events {
		switch e := env.Event.(type) {
		case *friend.Requested:
			applies[e.ApplyID] = &Apply{
				ID: e.ApplyID, Tenant: env.Tenant, PairID: env.Stream.ID, From: e.From, To: e.To,
				Remark: erasedAs(e.Remark, ErasedName), Content: erasedAs(e.Content, ErasedContent), Status: friend.StatusPending, ReadFlag: StatusUnread,
				CreatedAt: e.At, UpdatedAt: e.At,
			}
			order = append(order, e.ApplyID)
			deltas = append(deltas, delta(env, CmdApplyRefresh, map[string]string{"id": e.ApplyID}, e.From, e.To))
		case *friend.RequestAccepted:
			a, err := answer(env, e.ApplyID, friend.StatusAccepted, e.At)
			if err != nil {
				return nil, err
			}
			if a == nil {
				continue
			}
			friends.put(Friend{Tenant: env.Tenant, Member: a.From, FriendID: a.To, ChatID: env.Stream.ID, Since: e.At})
			friends.put(Friend{Tenant: env.Tenant, Member: a.To, FriendID: a.From, ChatID: env.Stream.ID, Since: e.At})
			deltas = append(deltas,
				delta(env, CmdFriendAdded, map[string]string{"friendMemberId": a.To}, a.From),
				delta(env, CmdFriendAdded, map[string]string{"friendMemberId": a.From}, a.To))
		case *friend.RequestRejected:
			if _, err := answer(env, e.ApplyID, friend.StatusRejected, e.At); err != nil {
				return nil, err
			}
		case *friend.RequestDeleted:
			a, err := get(env, e.ApplyID)
			if err != nil {
				return nil, err
			}
			if a == nil {
				continue
			}
			a.HiddenFrom = a.HiddenFrom || a.From == e.By
			a.HiddenTo = a.HiddenTo || a.To == e.By
			deltas = append(deltas, delta(env, CmdApplyRefresh, map[string]string{"id": e.ApplyID}, e.By))
		case *friend.Remarked, *friend.Blocked, *friend.Unblocked:
			d, err := friends.change(ctx, env)
			if err != nil {
				return nil, err
			}
			deltas = append(deltas, d...)
		case *member.Erased:
			if env.Stream.Category != es.CategoryMember {
				continue
			}
			// The requests it sent: stored, and made in this batch.
			stored, err := tx.AppliesFrom(ctx, env.Tenant, env.Stream.ID)
			if err != nil {
				return nil, err
			}
			for _, s := range stored {
				if _, ok := applies[s.ID]; !ok {
					applies[s.ID] = &s
					order = append(order, s.ID)
				}
			}
			for _, id := range order {
				if a := applies[id]; a.From == env.Stream.ID && erasedApply(a) {
					deltas = append(deltas, delta(env, CmdApplyRefresh, map[string]string{"id": id}, a.From, a.To))
				}
			}
			if err := friends.erased(ctx, env.Stream.ID); err != nil {
				return nil, err
			}
		case *friend.Removed:
			a, b := friend.Members(env.Stream.ID)
			friends.remove(a, b)
			friends.remove(b, a)
			deltas = append(deltas,
				delta(env, CmdFriendDeleted, map[string]string{"friendMemberId": b, "by": e.By}, a),
				delta(env, CmdFriendDeleted, map[string]string{"friendMemberId": a, "by": e.By}, b))
		}
	}
	if len(order) > 0 {
		as := make([]Apply, len(order))
		for i, id := range order {
			as[i] = *applies[id]
		}
		if err := tx.PutApplies(ctx, as); err != nil {
			return nil, err
		}
	}
	if err := friends.flush(ctx); err != nil {
		return nil, err
	}
	return deltas, nil
}

type friendKey struct{ member, friend string }

// friendRows are the friend rows a batch changed: nil for a deleted one.
type friendRows struct {
	tx    Tx
	rows  map[friendKey]*Friend
	order []friendKey
}

func (f *friendRows) set(k friendKey, row *Friend) {
	if _, ok := f.rows[k]; !ok {
		f.order = append(f.order, k)
	}
	f.rows[k] = row
}

func (f *friendRows) put(row Friend) { f.set(friendKey{row.Member, row.FriendID}, &row) }

func (f *friendRows) remove(member, friend string) { f.set(friendKey{member, friend}, nil) }

// change folds a remark, block or unblock into the row of the member who
// made it, and tells that member's devices to refresh the friend (48).
func (f *friendRows) change(ctx context.Context, env Envelope) ([]Delta, error) {
	var by string
	switch e := env.Event.(type) {
	case *friend.Remarked:
		by = e.By
	case *friend.Blocked:
		by = e.By
	case *friend.Unblocked:
		by = e.By
	}
	k := friendKey{by, friend.Peer(env.Stream.ID, by)}
	row, ok := f.rows[k]
	if !ok {
		stored, err := f.tx.GetFriends(ctx, k.member, []string{k.friend})
		if err != nil {
			return nil, err
		}
		if s, found := stored[k.friend]; found {
			row = &s
		}
	}
	if row == nil { // no friendship to change: nothing was decided on one
		return nil, nil
	}
	switch e := env.Event.(type) {
	case *friend.Remarked:
		row.Remark = erasedAs(e.Remark, ErasedName)
	case *friend.Blocked:
		row.Blocked = true
	case *friend.Unblocked:
		row.Blocked = false
	}
	f.set(k, row)
	return []Delta{delta(env, CmdFriendInfo, *row, by)}, nil
}

func (f *friendRows) flush(ctx context.Context) error {
	var puts []Friend
	gone := map[string][]string{}
	for _, k := range f.order {
		if row := f.rows[k]; row != nil {
			puts = append(puts, *row)
		} else {
			gone[k.member] = append(gone[k.member], k.friend)
		}
	}
	for member, ids := range gone {
		if err := f.tx.DeleteFriends(ctx, member, ids); err != nil {
			return err
		}
	}
	if len(puts) == 0 {
		return nil
	}
	return f.tx.PutFriends(ctx, puts)
}
