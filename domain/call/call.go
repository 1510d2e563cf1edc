// Package call holds voice and video call signalling between two friends:
// a call rings, is answered, and ends with an outcome; its end leaves a call
// record in the chat. Call events live in the chat's stream.
package call

import (
	"encoding/json"
	"time"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// RingTimeout is how long a call rings before it ends as NoAnswer.
const RingTimeout = 60 * time.Second

// Media is what a call carries.
type Media string

const (
	Voice Media = "voice"
	Video Media = "video"
)

// ParseMedia accepts voice and video.
func ParseMedia(s string) (Media, error) {
	switch Media(s) {
	case Voice, Video:
		return Media(s), nil
	}
	return "", fault.New(fault.Invalid, fault.MsgCallMediaInvalid)
}

// RecordType is the message type of the call record of media m.
func (m Media) RecordType() chat.MsgType {
	if m == Video {
		return chat.VideoCall
	}
	return chat.VoiceCall
}

// Outcome is how a call ended.
type Outcome string

const (
	Cancelled Outcome = "cancelled"
	Completed Outcome = "completed"
	Rejected  Outcome = "rejected"
	NoAnswer  Outcome = "noAnswer"
	Busy      Outcome = "busy"
)

// Operation is a signal of the spec's operationType.
type Operation string

const (
	OpStart    Operation = "Start"
	OpAnswer   Operation = "Answer"
	OpReject   Operation = "Reject"
	OpCancel   Operation = "Cancel"
	OpComplete Operation = "Complete"
	OpNoAnswer Operation = "NoAnswer"
	OpBusy     Operation = "Busy"
)

var endings = map[Operation]Outcome{
	OpReject: Rejected, OpCancel: Cancelled, OpComplete: Completed, OpNoAnswer: NoAnswer, OpBusy: Busy,
}

// OperationOf is the signal that ends a call with outcome o.
func OperationOf(o Outcome) Operation {
	for op, out := range endings {
		if out == o {
			return op
		}
	}
	return ""
}

// State is where a call stands.
type State string

const (
	StateRinging State = "ringing"
	StateInCall  State = "inCall"
	StateEnded   State = "ended"
)

// Call is the state of one call, folded from its events.
type Call struct {
	ID         string
	Caller     string
	Callee     string
	Media      Media
	State      State
	Outcome    Outcome
	StartedAt  int64 // ms
	AnsweredAt int64
	EndedAt    int64
	Duration   int64 // seconds in call
}

// Has reports whether m is the caller or the callee.
func (c Call) Has(m string) bool { return m != "" && (m == c.Caller || m == c.Callee) }

// Peer is the other member of the call.
func (c Call) Peer(m string) string {
	if m == c.Caller {
		return c.Callee
	}
	return c.Caller
}

// Apply folds an event of this call; it never validates.
func (c *Call) Apply(e es.Event) {
	switch e := e.(type) {
	case *CallStarted:
		if c.ID != "" {
			return
		}
		*c = Call{ID: e.CallID, Caller: e.Caller, Callee: e.Callee, Media: Media(e.Media), State: StateRinging, StartedAt: e.At}
	case *CallAnswered:
		if c.State == StateRinging {
			c.State, c.AnsweredAt = StateInCall, e.At
		}
	case *CallEnded:
		if c.ID == "" {
			*c = Call{ID: e.CallID, Caller: e.Caller, Callee: e.Callee, Media: Media(e.Media), StartedAt: e.At}
		}
		if c.State != StateEnded {
			c.State, c.Outcome, c.EndedAt, c.Duration = StateEnded, Outcome(e.Outcome), e.At, e.Duration
		}
	}
}

// Start decides a call from caller to callee. A caller already in a call is
// refused; a call to a callee already in one never rings: it ends at once as
// Busy, with its record. recordID is the id of the record message.
func Start(callID, caller, callee string, media Media, callerBusy, calleeBusy bool, recordID string, now time.Time) ([]es.Event, error) {
	if callerBusy {
		return nil, fault.New(fault.Conflict, fault.MsgInCall)
	}
	started := &CallStarted{CallID: callID, Caller: caller, Callee: callee, Media: string(media), At: now.UnixMilli()}
	if !calleeBusy {
		return []es.Event{started}, nil
	}
	var c Call
	c.Apply(started)
	return c.end("", Busy, recordID, now), nil
}

// Answer decides the callee's answer of a ringing call.
func (c Call) Answer(by string, now time.Time) (es.Event, error) {
	if err := c.check(by, OpAnswer); err != nil {
		return nil, err
	}
	return &CallAnswered{CallID: c.ID, Caller: c.Caller, Callee: c.Callee, Media: string(c.Media), By: by, At: now.UnixMilli()}, nil
}

// End decides the end of the call by a member's signal: Reject and Busy by
// the callee and Cancel and NoAnswer by the caller while it rings, Complete
// by either once answered. The record message comes with the end.
func (c Call) End(by string, op Operation, recordID string, now time.Time) ([]es.Event, error) {
	outcome, ok := endings[op]
	if !ok {
		return nil, fault.New(fault.Invalid, fault.MsgBadRequest)
	}
	if err := c.check(by, op); err != nil {
		return nil, err
	}
	return c.end(by, outcome, recordID, now), nil
}

// Expire decides the end of a call that rang past timeout as NoAnswer; nil
// when it is not ringing or has not rung so long.
func (c Call) Expire(timeout time.Duration, recordID string, now time.Time) []es.Event {
	if c.State != StateRinging || now.Sub(time.UnixMilli(c.StartedAt)) < timeout {
		return nil
	}
	return c.end("", NoAnswer, recordID, now)
}

// check applies the rules of who may send op in which state.
func (c Call) check(by string, op Operation) error {
	if !c.Has(by) {
		return fault.New(fault.NotFound, fault.MsgCallNotFound)
	}
	if c.State == StateEnded {
		return fault.New(fault.Conflict, fault.MsgCallEnded)
	}
	switch op {
	case OpAnswer, OpReject, OpBusy:
		if by != c.Callee {
			return fault.New(fault.Forbidden, fault.MsgCallNotCallee)
		}
	case OpCancel, OpNoAnswer:
		if by != c.Caller {
			return fault.New(fault.Forbidden, fault.MsgCallNotCaller)
		}
	}
	switch {
	case op == OpComplete && c.State == StateRinging:
		return fault.New(fault.Conflict, fault.MsgCallNotAnswered)
	case op != OpComplete && c.State == StateInCall:
		return fault.New(fault.Conflict, fault.MsgCallAnswered)
	}
	return nil
}

// end returns the end event and the record message.
func (c Call) end(by string, outcome Outcome, recordID string, now time.Time) []es.Event {
	var duration int64
	if outcome == Completed && c.AnsweredAt != 0 {
		duration = max(0, (now.UnixMilli()-c.AnsweredAt)/1000)
	}
	content, _ := json.Marshal(Record{CallID: c.ID, Media: string(c.Media), Outcome: string(outcome), Duration: duration})
	return []es.Event{
		&CallEnded{CallID: c.ID, Caller: c.Caller, Callee: c.Callee, Media: string(c.Media), By: by,
			Outcome: string(outcome), Duration: duration, At: now.UnixMilli()},
		&chat.MessageSent{MessageID: recordID, UUID: "call-" + c.ID, ChatType: string(chat.Friend),
			From: c.Caller, To: c.Callee, MsgType: string(c.Media.RecordType()), Content: string(content), At: now.UnixMilli()},
	}
}

// Record is the content of a call record message, as JSON.
type Record struct {
	CallID   string `json:"callId"`
	Media    string `json:"media"`
	Outcome  string `json:"outcome"`
	Duration int64  `json:"duration"` // seconds
}
