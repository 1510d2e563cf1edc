package commands

import (
	"context"

	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/friend"
)

// RequestFriend is the body of POST /v1/chat/applyInfo/build.
type RequestFriend struct {
	FriendMemberID string `json:"friendMemberId"`
	Remark         string `json:"remark"`
	Content        string `json:"content"`
}

// Applied answers a friend request.
type Applied struct {
	ID       string `json:"id"`
	Position uint64 `json:"position"`
}

// RequestFriend asks another member of the tenant to be friends.
func (a *App) RequestFriend(ctx context.Context, p Principal, r RequestFriend) (Applied, error) {
	if r.FriendMemberID == "" {
		return Applied{}, fault.New(fault.Invalid, fault.MsgMemberNotFound)
	}
	if err := a.checkTarget(ctx, p, r.FriendMemberID, "apply", "create"); err != nil {
		return Applied{}, err
	}
	pair := friend.PairID(p.MemberID, r.FriendMemberID)
	applyID, err := a.NewID()
	if err != nil {
		return Applied{}, err
	}
	return retryOnConflict(ctx, func() (Applied, error) {
		f, st, err := a.friendship(ctx, p.Tenant, pair)
		if err != nil {
			return Applied{}, err
		}
		events, id, err := f.Ask(applyID, p.MemberID, r.FriendMemberID, r.Remark, r.Content, a.Now())
		if err != nil || len(events) == 0 {
			return Applied{ID: id}, err
		}
		res, err := a.appendFriendship(ctx, p, pair, st.expected(), events)
		if err != nil {
			return Applied{}, err
		}
		return Applied{ID: id, Position: res.Position}, nil
	})
}

// checkTarget asks the policy whether p may act on another member: the
// target must be registered in p's tenant. Another tenant's member is
// answered as an unknown id, so that no answer tells that it exists.
func (a *App) checkTarget(ctx context.Context, p Principal, target, object, action string) error {
	ok, err := a.memberExists(ctx, p.Tenant, target)
	if err != nil {
		return err
	}
	if !ok {
		return fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	if !a.Authz.Allowed(RoleMember, ScopeSameTenant, object, action) {
		return fault.New(fault.Forbidden, fault.MsgForbidden)
	}
	return nil
}
