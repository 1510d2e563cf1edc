package commands

import (
	"context"

	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/friend"
)

// AnswerFriendRequest is the body of PUT /v1/chat/applyInfo/modify.
type AnswerFriendRequest struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// Answered answers an answer.
type Answered struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	Position uint64 `json:"position"`
}

// acceptance reads the status of an answer: true for accepted.
func acceptance(status string) (bool, error) {
	switch status {
	case friend.StatusAccepted:
		return true, nil
	case friend.StatusRejected:
		return false, nil
	}
	return false, fault.New(fault.Invalid, fault.MsgStatusInvalid)
}

// AnswerFriendRequest accepts or rejects a request p received.
func (a *App) AnswerFriendRequest(ctx context.Context, p Principal, r AnswerFriendRequest) (Answered, error) {
	accept, err := acceptance(r.Status)
	if err != nil {
		return Answered{}, err
	}
	if r.ID == "" {
		return Answered{}, fault.New(fault.Invalid, fault.MsgApplyNotFound)
	}
	pair, ok, err := a.Applies.PairOfApply(ctx, p.Tenant, r.ID)
	if err != nil {
		return Answered{}, err
	}
	if !ok {
		groupID, isJoin, err := a.Applies.GroupOfApply(ctx, p.Tenant, r.ID)
		if err != nil {
			return Answered{}, err
		}
		if isJoin {
			answered, err := a.AnswerGroupJoin(ctx, p, groupID, r)
			if fault.Is(err, fault.NotFound) { // the group of a request p may not see
				return Answered{}, fault.New(fault.NotFound, fault.MsgApplyNotFound)
			}
			return answered, err
		}
	}
	if !ok || friend.Peer(pair, p.MemberID) == "" {
		return Answered{}, fault.New(fault.NotFound, fault.MsgApplyNotFound)
	}
	return retryOnConflict(ctx, func() (Answered, error) {
		f, st, err := a.friendship(ctx, p.Tenant, pair)
		if err != nil {
			return Answered{}, err
		}
		events, err := f.Answer(r.ID, p.MemberID, accept, a.Now())
		if err != nil {
			return Answered{}, err
		}
		res, err := a.appendFriendship(ctx, p, pair, st.expected(), events)
		if err != nil {
			return Answered{}, err
		}
		return Answered{ID: r.ID, Status: r.Status, Position: res.Position}, nil
	})
}
