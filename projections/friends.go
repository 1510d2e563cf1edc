package projections

import (
	"context"

	"github.com/eventchat/eventchat/domain/friend"
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
	var friends []Friend
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
				Remark: e.Remark, Content: e.Content, Status: friend.StatusPending, ReadFlag: StatusUnread,
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
			friends = append(friends,
				Friend{Tenant: env.Tenant, Member: a.From, FriendID: a.To, ChatID: env.Stream.ID, Since: e.At},
				Friend{Tenant: env.Tenant, Member: a.To, FriendID: a.From, ChatID: env.Stream.ID, Since: e.At})
			deltas = append(deltas,
				delta(env, CmdFriendAdded, map[string]string{"friendMemberId": a.To}, a.From),
				delta(env, CmdFriendAdded, map[string]string{"friendMemberId": a.From}, a.To))
		case *friend.RequestRejected:
			if _, err := answer(env, e.ApplyID, friend.StatusRejected, e.At); err != nil {
				return nil, err
			}
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
	if len(friends) > 0 {
		if err := tx.PutFriends(ctx, friends); err != nil {
			return nil, err
		}
	}
	return deltas, nil
}
