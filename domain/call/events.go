package call

import "github.com/eventchat/eventchat/domain/es"

// Event type names: stored identifiers, never renamed.
const (
	TypeStarted  = "CallStarted"
	TypeAnswered = "CallAnswered"
	TypeEnded    = "CallEnded"
)

// CallStarted raises an incoming call at the callee; in the chat's stream.
// Every call event names the call's members and media, so that a signal can
// be pushed without the call's earlier events.
type CallStarted struct {
	CallID string `json:"callId"`
	Caller string `json:"caller"`
	Callee string `json:"callee"`
	Media  string `json:"media"`
	At     int64  `json:"at"`
}

// CallAnswered puts the call in call.
type CallAnswered struct {
	CallID string `json:"callId"`
	Caller string `json:"caller"`
	Callee string `json:"callee"`
	Media  string `json:"media"`
	By     string `json:"by"`
	At     int64  `json:"at"`
}

// CallEnded ends the call with an outcome. By is the member whose signal ended
// it, empty when the server did (Busy at start, NoAnswer after the timeout).
type CallEnded struct {
	CallID   string `json:"callId"`
	Caller   string `json:"caller"`
	Callee   string `json:"callee"`
	Media    string `json:"media"`
	By       string `json:"by,omitempty"`
	Outcome  string `json:"outcome"`
	Duration int64  `json:"duration"`
	At       int64  `json:"at"`
}

func (*CallStarted) EventType() string  { return TypeStarted }
func (*CallAnswered) EventType() string { return TypeAnswered }
func (*CallEnded) EventType() string    { return TypeEnded }

// IsCallEvent reports whether a stored event type is one of this package's.
func IsCallEvent(typ string) bool {
	return typ == TypeStarted || typ == TypeAnswered || typ == TypeEnded
}

// CallID is the call an event of this package belongs to.
func CallID(e es.Event) string {
	switch e := e.(type) {
	case *CallStarted:
		return e.CallID
	case *CallAnswered:
		return e.CallID
	case *CallEnded:
		return e.CallID
	}
	return ""
}

// Events lists the constructors of this package's events.
func Events() []func() es.Event {
	return []func() es.Event{
		func() es.Event { return &CallStarted{} },
		func() es.Event { return &CallAnswered{} },
		func() es.Event { return &CallEnded{} },
	}
}
