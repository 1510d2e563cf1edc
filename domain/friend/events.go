package friend

import "github.com/eventchat/eventchat/domain/es"

// Event type names: stored identifiers, never renamed.
const (
	TypeRequested       = "FriendRequested"
	TypeRequestAccepted = "FriendRequestAccepted"
	TypeRequestRejected = "FriendRequestRejected"
)

// Requested records a friend request from From to To.
type Requested struct {
	ApplyID string `json:"applyId"`
	From    string `json:"from"`
	To      string `json:"to"`
	Remark  string `json:"remark,omitempty"`
	Content string `json:"content,omitempty"`
	At      int64  `json:"at"`
}

// RequestAccepted makes the pair friends.
type RequestAccepted struct {
	ApplyID string `json:"applyId"`
	By      string `json:"by"`
	At      int64  `json:"at"`
}

// RequestRejected closes a request without friendship.
type RequestRejected struct {
	ApplyID string `json:"applyId"`
	By      string `json:"by"`
	At      int64  `json:"at"`
}

func (*Requested) EventType() string       { return TypeRequested }
func (*RequestAccepted) EventType() string { return TypeRequestAccepted }
func (*RequestRejected) EventType() string { return TypeRequestRejected }

// Events lists the constructors of this package's events.
func Events() []func() es.Event {
	return []func() es.Event{
		func() es.Event { return &Requested{} },
		func() es.Event { return &RequestAccepted{} },
		func() es.Event { return &RequestRejected{} },
	}
}
