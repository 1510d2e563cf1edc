package commands

import (
	"context"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/friend"
)

// ModifyFriend is the body of PUT /v1/chat/friendInfo/modify: a new remark,
// blocking or unblocking, or both; an absent field is left as it is.
type ModifyFriend struct {
	FriendMemberID string  `json:"friendMemberId"`
	Remark         *string `json:"remark"`
	Blocked        *bool   `json:"blocked"`
}

// DeleteFriend is the body of POST /v1/chat/friendInfo/delete.
type DeleteFriend struct {
	FriendMemberID string `json:"friendMemberId"`
}

// FriendChanged answers a change of a friendship; Position is 0 when the
// change was already in place.
type FriendChanged struct {
	FriendMemberID string `json:"friendMemberId"`
	Position       uint64 `json:"position"`
}

// ModifyFriend sets p's remark for a friend, or blocks or unblocks them.
func (a *App) ModifyFriend(ctx context.Context, p Principal, r ModifyFriend) (FriendChanged, error) {
	if r.Remark == nil && r.Blocked == nil {
		return FriendChanged{}, fault.New(fault.Invalid, fault.MsgBadRequest)
	}
	return a.changeFriend(ctx, p, r.FriendMemberID, func(f *friend.Friendship, now time.Time) ([]es.Event, error) {
		var events []es.Event
		if r.Remark != nil {
			e, err := f.Remark(p.MemberID, *r.Remark, now)
			if err != nil {
				return nil, err
			}
			events = append(events, e...)
		}
		if r.Blocked != nil {
			e, err := f.Block(p.MemberID, *r.Blocked, now)
			if err != nil {
				return nil, err
			}
			events = append(events, e...)
		}
		return events, nil
	})
}

// DeleteFriend ends p's friendship with a friend, for both of them.
func (a *App) DeleteFriend(ctx context.Context, p Principal, r DeleteFriend) (FriendChanged, error) {
	return a.changeFriend(ctx, p, r.FriendMemberID, func(f *friend.Friendship, now time.Time) ([]es.Event, error) {
		return f.Remove(p.MemberID, now)
	})
}

// changeFriend decides a change of p's friendship with peer and appends
// it. A peer who is no friend is reported as missing, whichever tenant they
// are of.
func (a *App) changeFriend(ctx context.Context, p Principal, peer string, decide func(*friend.Friendship, time.Time) ([]es.Event, error)) (FriendChanged, error) {
	if peer == "" || peer == p.MemberID {
		return FriendChanged{}, fault.New(fault.Invalid, fault.MsgFriendMissing)
	}
	pair := friend.PairID(p.MemberID, peer)
	return retryOnConflict(ctx, func() (FriendChanged, error) {
		f, st, err := a.friendship(ctx, p.Tenant, pair)
		if err != nil {
			return FriendChanged{}, err
		}
		events, err := decide(&f, a.Now())
		if err != nil || len(events) == 0 {
			return FriendChanged{FriendMemberID: peer}, err
		}
		res, err := a.appendFriendship(ctx, p, pair, st.expected(), events)
		if err != nil {
			return FriendChanged{}, err
		}
		return FriendChanged{FriendMemberID: peer, Position: res.Position}, nil
	})
}
