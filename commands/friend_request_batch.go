package commands

import (
	"context"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/friend"
)

// maxRequestBatch bounds the requests one batch call handles, as a page of
// the request list does.
const maxRequestBatch = 99

// AnswerFriendRequests is the body of PUT /v1/chat/applyInfo/batchModify.
type AnswerFriendRequests struct {
	IDs    []string `json:"ids"`
	Status string   `json:"status"`
}

// DeleteFriendRequests is the body of POST /v1/chat/applyInfo/delete.
type DeleteFriendRequests struct {
	IDs []string `json:"ids"`
}

// RequestsHandled answers a batch: the requests changed and the position
// of the last change (0 when none was needed).
type RequestsHandled struct {
	IDs      []string `json:"ids"`
	Position uint64   `json:"position"`
}

// AnswerFriendRequests accepts or rejects several requests p received. All
// are checked before any is answered: one unknown, not p's to answer, or
// already processed refuses the whole batch.
func (a *App) AnswerFriendRequests(ctx context.Context, p Principal, r AnswerFriendRequests) (RequestsHandled, error) {
	accept, err := acceptance(r.Status)
	if err != nil {
		return RequestsHandled{}, err
	}
	return a.handleRequests(ctx, p, r.IDs, func(f *friend.Friendship, id string, now time.Time) ([]es.Event, error) {
		return f.Answer(id, p.MemberID, accept, now)
	})
}

// DeleteFriendRequests drops requests, sent or received, from p's list.
func (a *App) DeleteFriendRequests(ctx context.Context, p Principal, r DeleteFriendRequests) (RequestsHandled, error) {
	return a.handleRequests(ctx, p, r.IDs, func(f *friend.Friendship, id string, now time.Time) ([]es.Event, error) {
		return f.DeleteRequest(id, p.MemberID, now)
	})
}

// handleRequests decides every request of ids first and appends only when
// all were decided; each request's decision is appended to its pair's
// stream, deciding again on a lost race.
func (a *App) handleRequests(ctx context.Context, p Principal, ids []string, decide func(*friend.Friendship, string, time.Time) ([]es.Event, error)) (RequestsHandled, error) {
	switch {
	case len(ids) == 0:
		return RequestsHandled{}, fault.New(fault.Invalid, fault.MsgApplyIDsEmpty)
	case len(ids) > maxRequestBatch:
		return RequestsHandled{}, fault.New(fault.Invalid, fault.MsgTooManyApplies)
	}
	pairs := make([]string, len(ids))
	seen := map[string]bool{}
	for i, id := range ids {
		if id == "" || seen[id] {
			return RequestsHandled{}, fault.New(fault.Invalid, fault.MsgBadRequest)
		}
		seen[id] = true
		pair, ok, err := a.Applies.PairOfApply(ctx, p.Tenant, id)
		if err != nil {
			return RequestsHandled{}, err
		}
		if !ok || friend.Peer(pair, p.MemberID) == "" {
			return RequestsHandled{}, fault.New(fault.NotFound, fault.MsgApplyNotFound)
		}
		f, _, err := a.friendship(ctx, p.Tenant, pair)
		if err != nil {
			return RequestsHandled{}, err
		}
		if _, err := decide(&f, id, a.Now()); err != nil {
			return RequestsHandled{}, err
		}
		pairs[i] = pair
	}
	out := RequestsHandled{IDs: []string{}}
	for i, id := range ids {
		res, err := retryOnConflict(ctx, func() (es.WriteResult, error) {
			f, st, err := a.friendship(ctx, p.Tenant, pairs[i])
			if err != nil {
				return es.WriteResult{}, err
			}
			events, err := decide(&f, id, a.Now())
			if err != nil || len(events) == 0 { // an error: another device handled it since the check
				return es.WriteResult{}, err
			}
			return a.appendFriendship(ctx, p, pairs[i], st.expected(), events)
		})
		if err != nil {
			return out, err
		}
		if res.Position != 0 { // 0: nothing to append for this one
			out.IDs, out.Position = append(out.IDs, id), res.Position
		}
	}
	return out, nil
}
