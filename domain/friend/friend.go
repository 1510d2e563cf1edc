// Package friend holds the friendship of two members of a tenant: the requests
// between them and whether they are friends. One stream per pair.
package friend

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// Request states of the spec.
const (
	StatusPending  = "pending"
	StatusAccepted = "accepted"
	StatusRejected = "rejected"
)

const maxNoteLen = 200

// PairID names the pair of members a and b, whatever their order.
func PairID(a, b string) string {
	if b < a {
		a, b = b, a
	}
	return a + "_" + b
}

// Peer returns the other member of a pair id, or "" if m is not in it.
func Peer(pairID, m string) string {
	a, b, ok := strings.Cut(pairID, "_")
	switch {
	case !ok:
		return ""
	case a == m:
		return b
	case b == m:
		return a
	}
	return ""
}

// Request is one friend request as the pair's state holds it.
type Request struct {
	ID     string
	From   string
	To     string
	Status string
}

// Friendship is the state of a pair.
type Friendship struct {
	friends  bool
	requests map[string]*Request
	order    []string
}

// Friends reports whether the pair are friends.
func (f *Friendship) Friends() bool { return f.friends }

// Request returns a request of the pair by id.
func (f *Friendship) Request(id string) (*Request, bool) {
	r, ok := f.requests[id]
	return r, ok
}

// Apply folds an event into the state.
func (f *Friendship) Apply(e es.Event) {
	if f.requests == nil {
		f.requests = map[string]*Request{}
	}
	switch e := e.(type) {
	case *Requested:
		f.requests[e.ApplyID] = &Request{ID: e.ApplyID, From: e.From, To: e.To, Status: StatusPending}
		f.order = append(f.order, e.ApplyID)
	case *RequestAccepted:
		if r := f.requests[e.ApplyID]; r != nil {
			r.Status = StatusAccepted
		}
		f.friends = true
	case *RequestRejected:
		if r := f.requests[e.ApplyID]; r != nil {
			r.Status = StatusRejected
		}
	}
}

// pendingFrom returns the open request sent by from, if any.
func (f *Friendship) pendingFrom(from string) *Request {
	for i := len(f.order) - 1; i >= 0; i-- {
		if r := f.requests[f.order[i]]; r.From == from && r.Status == StatusPending {
			return r
		}
	}
	return nil
}

// Ask decides a request from from to to. A repeated request while one is
// pending decides nothing and returns the pending request's id.
func (f *Friendship) Ask(applyID, from, to, remark, content string, now time.Time) ([]es.Event, string, error) {
	switch {
	case from == to:
		return nil, "", fault.New(fault.Invalid, fault.MsgSelfFriend)
	case f.friends:
		return nil, "", fault.New(fault.Conflict, fault.MsgAlreadyFriends)
	case utf8.RuneCountInString(remark) > maxNoteLen || utf8.RuneCountInString(content) > maxNoteLen:
		return nil, "", fault.New(fault.Invalid, fault.MsgBadRequest)
	}
	if r := f.pendingFrom(from); r != nil {
		return nil, r.ID, nil
	}
	// A request crossing one already pending the other way is an agreement.
	if r := f.pendingFrom(to); r != nil {
		return []es.Event{&RequestAccepted{ApplyID: r.ID, By: from, At: now.UnixMilli()}}, r.ID, nil
	}
	return []es.Event{&Requested{
		ApplyID: applyID, From: from, To: to,
		Remark: strings.TrimSpace(remark), Content: strings.TrimSpace(content), At: now.UnixMilli(),
	}}, applyID, nil
}

// Answer decides the recipient's answer to a pending request.
func (f *Friendship) Answer(applyID, by string, accept bool, now time.Time) ([]es.Event, error) {
	r, ok := f.requests[applyID]
	if !ok || (r.To != by && r.From != by) {
		return nil, fault.New(fault.NotFound, fault.MsgApplyNotFound)
	}
	if r.To != by {
		return nil, fault.New(fault.Forbidden, fault.MsgForbidden)
	}
	if r.Status != StatusPending {
		return nil, fault.New(fault.Conflict, fault.MsgAlreadyProcessed)
	}
	if accept {
		return []es.Event{&RequestAccepted{ApplyID: applyID, By: by, At: now.UnixMilli()}}, nil
	}
	return []es.Event{&RequestRejected{ApplyID: applyID, By: by, At: now.UnixMilli()}}, nil
}

// Clone returns an independent copy of the state.
func (f *Friendship) Clone() Friendship {
	c := Friendship{friends: f.friends, order: append([]string(nil), f.order...)}
	if f.requests != nil {
		c.requests = make(map[string]*Request, len(f.requests))
		for id, r := range f.requests {
			cp := *r
			c.requests[id] = &cp
		}
	}
	return c
}
