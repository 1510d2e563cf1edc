package commands

import (
	"context"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/eventchat/eventchat/domain/call"
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// callsReadyWait bounds how long a call signal waits for the call registry
// to finish reading the log after a start.
const callsReadyWait = 5 * time.Second

// MediaProvider issues what a client needs to carry a call's voice or video
// (an RTC token of a provider such as Agora). No provider is configured by
// default: signalling works, media does not.
type MediaProvider interface {
	Token(ctx context.Context, tenant, memberID string, media call.Media) (MediaToken, error)
}

// MediaToken is a media provider's grant to one member.
type MediaToken struct {
	Provider   string `json:"provider"`
	AppID      string `json:"appId"`
	Token      string `json:"token"`
	ExpireTime int64  `json:"expireTime"` // ms
}

// StartCall is the body of POST /v1/message/call/start.
type StartCall struct {
	UUID     string `json:"uuid"`
	ChatType string `json:"chatType"`
	To       string `json:"to"`
	Media    string `json:"media"` // voice | video
}

// CallSignal is the body of the other call signals.
type CallSignal struct {
	CallID string `json:"callId"`
}

// CallResult answers a call signal with the call as it stands after it.
type CallResult struct {
	CallID    string `json:"callId"`
	ChatType  string `json:"chatType"`
	From      string `json:"from"` // the caller
	To        string `json:"to"`   // the callee
	Media     string `json:"media"`
	State     string `json:"state"`             // ringing | inCall | ended
	Outcome   string `json:"outcome,omitempty"` // once ended
	Duration  int64  `json:"duration"`          // seconds in call, once ended
	StartTime int64  `json:"startTime"`
	Position  uint64 `json:"position"`
}

func callResult(c call.Call, position uint64) CallResult {
	return CallResult{CallID: c.ID, ChatType: string(chat.Friend), From: c.Caller, To: c.Callee, Media: string(c.Media),
		State: string(c.State), Outcome: string(c.Outcome), Duration: c.Duration, StartTime: c.StartedAt, Position: position}
}

// StartCall rings a friend. The call id follows from the caller, the chat
// and the client's uuid: the same uuid again answers the same call and
// appends nothing. A caller in a call is refused; a callee in one makes the
// call end at once as Busy.
func (a *App) StartCall(ctx context.Context, p Principal, r StartCall) (CallResult, error) {
	chatType, err := chat.ParseChatType(r.ChatType)
	if err != nil {
		return CallResult{}, err
	}
	if chatType == chat.Group {
		return CallResult{}, fault.New(fault.Invalid, fault.MsgGroupNotSupported)
	}
	if err := (chat.Outgoing{UUID: r.UUID, ChatType: chatType, To: r.To, Content: "-"}).Validate(); err != nil {
		return CallResult{}, err
	}
	if err := a.checkCalls(ctx, p); err != nil {
		return CallResult{}, err
	}
	media, err := call.ParseMedia(r.Media)
	if err != nil {
		return CallResult{}, err
	}
	pair, err := a.authorizeFriendChat(ctx, p, r.To, "call")
	if err != nil {
		return CallResult{}, err
	}
	if !a.calls.wait(ctx) {
		return CallResult{}, fault.New(fault.Conflict, fault.MsgCallsStarting)
	}
	id := callID(p.Tenant, pair, p.MemberID, r.UUID)
	if known, ok := a.calls.get(p.Tenant, id); ok {
		return callResult(known.c, 0), nil
	}
	eventID, err := a.NewID()
	if err != nil {
		return CallResult{}, err
	}
	events, err := call.Start(id, p.MemberID, r.To, media,
		a.calls.busy(p.Tenant, p.MemberID), a.calls.busy(p.Tenant, r.To), eventID, a.Now())
	if err != nil {
		return CallResult{}, err
	}
	res, err := a.appendCall(ctx, p, r.UUID, pair, es.Any, events)
	if errors.Is(err, errCallRepeated) { // a retry racing its first start
		var c call.Call
		for _, e := range events {
			c.Apply(e)
		}
		return callResult(c, 0), nil
	}
	return res, err
}

// AnswerCall puts a ringing call in call; only the callee answers.
func (a *App) AnswerCall(ctx context.Context, p Principal, r CallSignal) (CallResult, error) {
	return a.signalCall(ctx, p, r.CallID, call.OpAnswer)
}

// RejectCall ends a ringing call as rejected; only the callee rejects.
func (a *App) RejectCall(ctx context.Context, p Principal, r CallSignal) (CallResult, error) {
	return a.signalCall(ctx, p, r.CallID, call.OpReject)
}

// CancelCall ends a ringing call as cancelled; only the caller cancels.
func (a *App) CancelCall(ctx context.Context, p Principal, r CallSignal) (CallResult, error) {
	return a.signalCall(ctx, p, r.CallID, call.OpCancel)
}

// CompleteCall hangs up an answered call; either member does.
func (a *App) CompleteCall(ctx context.Context, p Principal, r CallSignal) (CallResult, error) {
	return a.signalCall(ctx, p, r.CallID, call.OpComplete)
}

// NoAnswerCall ends a ringing call as unanswered; the caller's client sends
// it when it stops ringing, and the server does so itself after the ring
// timeout (ExpireCalls).
func (a *App) NoAnswerCall(ctx context.Context, p Principal, r CallSignal) (CallResult, error) {
	return a.signalCall(ctx, p, r.CallID, call.OpNoAnswer)
}

// BusyCall ends a ringing call as busy; the callee's client sends it when
// its member is already in a call.
func (a *App) BusyCall(ctx context.Context, p Principal, r CallSignal) (CallResult, error) {
	return a.signalCall(ctx, p, r.CallID, call.OpBusy)
}

func (a *App) signalCall(ctx context.Context, p Principal, id string, op call.Operation) (CallResult, error) {
	if id == "" {
		return CallResult{}, fault.New(fault.Invalid, fault.MsgCallIDRequired)
	}
	if !a.calls.wait(ctx) {
		return CallResult{}, fault.New(fault.Conflict, fault.MsgCallsStarting)
	}
	known, ok := a.calls.get(p.Tenant, id)
	if !ok || !known.c.Has(p.MemberID) {
		return CallResult{}, fault.New(fault.NotFound, fault.MsgCallNotFound)
	}
	res, err := a.decideCall(ctx, p, known, func(c call.Call) ([]es.Event, error) {
		if op == call.OpAnswer {
			e, err := c.Answer(p.MemberID, a.Now())
			return []es.Event{e}, err
		}
		eventID, err := a.NewID()
		if err != nil {
			return nil, err
		}
		return c.End(p.MemberID, op, eventID, a.Now())
	})
	if errors.Is(err, errCallRepeated) {
		if op == call.OpAnswer {
			return CallResult{}, fault.New(fault.Conflict, fault.MsgCallAnswered)
		}
		return CallResult{}, fault.New(fault.Conflict, fault.MsgCallEnded)
	}
	return res, err
}

// decideCall lets decide choose the next events of a known call from its
// state as the chat stream holds it now, and appends them at the revision
// it read: a signal decided on another node meanwhile makes it decide
// again, so that no node ends a call another has answered. decide returns
// no events to append none.
func (a *App) decideCall(ctx context.Context, p Principal, known callEntry, decide func(call.Call) ([]es.Event, error)) (CallResult, error) {
	return retryOnConflict(ctx, func() (CallResult, error) {
		c, rev, err := a.readCall(ctx, known)
		if err != nil {
			return CallResult{}, err
		}
		events, err := decide(c)
		if err != nil || len(events) == 0 {
			return CallResult{}, err
		}
		return a.appendCall(ctx, p, "", known.chatID, es.Exact(rev), events)
	})
}

// readCall folds the call of known from its chat stream, from the call's
// first event to the stream's end, and returns it with the stream's
// revision. The registry learns what it read.
func (a *App) readCall(ctx context.Context, known callEntry) (call.Call, uint64, error) {
	const page = 256
	stream := es.Stream(known.tenant, es.CategoryChat, known.chatID)
	c, rev := call.Call{}, known.since
	for from := known.since; ; from += page {
		recs, err := a.Store.ReadStream(ctx, stream, es.Forwards, from, page)
		if err != nil {
			return call.Call{}, 0, err
		}
		for _, r := range recs {
			rev = r.Revision
			if !call.IsCallEvent(r.Type) {
				continue
			}
			e, err := a.registry.Decode(r.Type, r.Data)
			if err != nil {
				return call.Call{}, 0, err
			}
			if call.CallID(e) == known.c.ID {
				c.Apply(e)
				a.calls.apply(known.tenant, known.chatID, r.Revision, e)
			}
		}
		if len(recs) < page {
			return c, rev, nil
		}
	}
}

// errCallRepeated says that another signal of the same kind (an answer, or
// any end) was appended first, on this node or another.
var errCallRepeated = errors.New("call signal already appended")

// appendCall appends decided call events to the chat pairID of p's tenant,
// under event ids named after the call and the kind of event, so that a
// call starts, is answered and ends once whichever node decides it.
func (a *App) appendCall(ctx context.Context, p Principal, clientUUID, pairID string, expected es.ExpectedRevision, events []es.Event) (CallResult, error) {
	ids := make([]string, len(events))
	id := call.CallID(events[0])
	for i, e := range events {
		kind := e.EventType()
		if _, record := e.(*chat.MessageSent); record {
			kind = "record"
		}
		ids[i] = callEventID(p.Tenant, id, kind)
	}
	data, err := a.encode(p, clientUUID, events, ids...)
	if err != nil {
		return CallResult{}, err
	}
	res, err := a.Store.Append(ctx, es.Stream(p.Tenant, es.CategoryChat, pairID), expected, data)
	if errors.Is(err, es.ErrPartialDuplicate) || err == nil && res.Duplicate {
		return CallResult{}, errCallRepeated
	}
	if err != nil {
		return CallResult{}, err
	}
	first := res.NextRevision + 1 - uint64(len(events))
	for i, e := range events {
		a.calls.apply(p.Tenant, pairID, first+uint64(i), e)
	}
	known, _ := a.calls.get(p.Tenant, id)
	return callResult(known.c, res.Position), nil
}

// ExpireCalls ends as NoAnswer every call that has rung past the ring
// timeout. Several nodes may do so at once: the end's event ids are named
// after the call, so it is appended once.
func (a *App) ExpireCalls(ctx context.Context) error {
	if !a.calls.wait(ctx) {
		return nil
	}
	timeout := a.CallRingTimeout
	if timeout <= 0 {
		timeout = call.RingTimeout
	}
	var errs []error
	for _, entry := range a.calls.ringing() {
		if entry.c.Expire(timeout, "", a.Now()) == nil {
			continue
		}
		_, err := a.decideCall(ctx, Principal{Tenant: entry.tenant}, entry, func(c call.Call) ([]es.Event, error) {
			eventID, err := a.NewID()
			if err != nil {
				return nil, err
			}
			return c.Expire(timeout, eventID, a.Now()), nil
		})
		if err != nil && !errors.Is(err, errCallRepeated) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// EndUnansweredCalls runs ExpireCalls a few times per ring timeout until
// ctx ends.
func (a *App) EndUnansweredCalls(ctx context.Context) error {
	timeout := a.CallRingTimeout
	if timeout <= 0 {
		timeout = call.RingTimeout
	}
	return every(ctx, min(max(timeout/4, 10*time.Millisecond), time.Second), a.ExpireCalls)
}

// MediaToken returns the media grant of p for a call of media, from the
// configured provider.
func (a *App) MediaToken(ctx context.Context, p Principal, media string) (MediaToken, error) {
	m, err := call.ParseMedia(media)
	if err != nil {
		return MediaToken{}, err
	}
	if err := a.checkCalls(ctx, p); err != nil {
		return MediaToken{}, err
	}
	if a.Media == nil {
		return MediaToken{}, fault.New(fault.Conflict, fault.MsgCallsNotConfigured)
	}
	return a.Media.Token(ctx, p.Tenant, p.MemberID, m)
}

// callID is the call a start of clientUUID by caller in chat pairID makes:
// nineteen digits named after them.
func callID(tenant, pairID, caller, clientUUID string) string {
	h := sha1.Sum([]byte(tenant + "\x00" + pairID + "\x00" + caller + "\x00" + clientUUID))
	n := binary.BigEndian.Uint64(h[:8])%9_000_000_000_000_000_000 + 1_000_000_000_000_000_000
	return fmt.Sprintf("%d", n)
}

// callEventID is a name-based (version 5) UUID of one event of a call.
func callEventID(tenant, callID, kind string) string {
	return messageEventID(tenant, "call", callID, kind)
}
