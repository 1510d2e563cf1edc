// Package friend holds the friendship of two members of a tenant: the requests
// between them and whether they are friends. One stream per pair.
package friend

import (
	"slices"
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

// Members returns the two members a pair id names.
func Members(pairID string) (string, string) {
	a, b, _ := strings.Cut(pairID, "_")
	return a, b
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
	ID        string
	From      string
	To        string
	Status    string
	DeletedBy []string // members who dropped it from their list
}

// Friendship is the state of a pair.
type Friendship struct {
	friends   bool
	blockedBy map[string]bool // members who blocked the other one
	remarks   map[string]string
	requests  map[string]*Request
	order     []string
}

// Friends reports whether the pair are friends.
func (f *Friendship) Friends() bool { return f.friends }

// BlockedBy reports whether m blocked the other member of the pair.
func (f *Friendship) BlockedBy(m string) bool { return f.blockedBy[m] }

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
	case *RequestDeleted:
		if r := f.requests[e.ApplyID]; r != nil && !slices.Contains(r.DeletedBy, e.By) {
			r.DeletedBy = append(r.DeletedBy, e.By)
		}
	case *Remarked:
		if f.remarks == nil {
			f.remarks = map[string]string{}
		}
		f.remarks[e.By] = e.Remark
	case *Blocked:
		if f.blockedBy == nil {
			f.blockedBy = map[string]bool{}
		}
		f.blockedBy[e.By] = true
	case *Unblocked:
		delete(f.blockedBy, e.By)
	case *Removed:
		f.friends, f.blockedBy, f.remarks = false, nil, nil
	}
}

// Remark decides by's new remark for the other member: trimmed, at most
// 200 characters; the same remark again decides nothing.
func (f *Friendship) Remark(by, remark string, now time.Time) ([]es.Event, error) {
	if err := f.checkFriend(); err != nil {
		return nil, err
	}
	remark = strings.TrimSpace(remark)
	switch {
	case utf8.RuneCountInString(remark) > maxNoteLen:
		return nil, fault.New(fault.Invalid, fault.MsgRemarkTooLong)
	case f.remarks[by] == remark:
		return nil, nil
	}
	return []es.Event{&Remarked{By: by, Remark: remark, At: now.UnixMilli()}}, nil
}

// Block decides whether by blocks (on) or unblocks the other member; a
// state already in place decides nothing.
func (f *Friendship) Block(by string, on bool, now time.Time) ([]es.Event, error) {
	if err := f.checkFriend(); err != nil {
		return nil, err
	}
	switch {
	case f.blockedBy[by] == on:
		return nil, nil
	case on:
		return []es.Event{&Blocked{By: by, At: now.UnixMilli()}}, nil
	}
	return []es.Event{&Unblocked{By: by, At: now.UnixMilli()}}, nil
}

// Remove decides the end of the friendship by either member.
func (f *Friendship) Remove(by string, now time.Time) ([]es.Event, error) {
	if err := f.checkFriend(); err != nil {
		return nil, err
	}
	return []es.Event{&Removed{By: by, At: now.UnixMilli()}}, nil
}

func (f *Friendship) checkFriend() error {
	if !f.friends {
		return fault.New(fault.NotFound, fault.MsgFriendMissing)
	}
	return nil
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

// DeleteRequest decides that by drops a request of the pair, sent or
// received, from their list; one already dropped decides nothing.
func (f *Friendship) DeleteRequest(applyID, by string, now time.Time) ([]es.Event, error) {
	r, ok := f.requests[applyID]
	switch {
	case !ok || (r.To != by && r.From != by):
		return nil, fault.New(fault.NotFound, fault.MsgApplyNotFound)
	case slices.Contains(r.DeletedBy, by):
		return nil, nil
	}
	return []es.Event{&RequestDeleted{ApplyID: applyID, By: by, At: now.UnixMilli()}}, nil
}

// Clone returns an independent copy of the state.
func (f *Friendship) Clone() Friendship {
	c := Friendship{friends: f.friends, order: append([]string(nil), f.order...)}
	if f.blockedBy != nil {
		c.blockedBy = make(map[string]bool, len(f.blockedBy))
		for m, on := range f.blockedBy {
			c.blockedBy[m] = on
		}
	}
	if f.remarks != nil {
		c.remarks = make(map[string]string, len(f.remarks))
		for m, r := range f.remarks {
			c.remarks[m] = r
		}
	}
	if f.requests != nil {
		c.requests = make(map[string]*Request, len(f.requests))
		for id, r := range f.requests {
			cp := *r
			cp.DeletedBy = slices.Clone(r.DeletedBy)
			c.requests[id] = &cp
		}
	}
	return c
}
