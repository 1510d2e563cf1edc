package friend

import "github.com/eventchat/eventchat/domain/es"

// Event type names: stored identifiers, never renamed.
const (
	TypeRequested       = "FriendRequested"
	TypeRequestAccepted = "FriendRequestAccepted"
	TypeRequestRejected = "FriendRequestRejected"
	TypeRemarked        = "FriendRemarked"
	TypeBlocked         = "FriendBlocked"
	TypeUnblocked       = "FriendUnblocked"
	TypeRemoved         = "FriendRemoved"
	TypeRequestDeleted  = "FriendRequestDeleted"
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

// RequestDeleted drops a request from By's list of requests; the other
// member still has it.
type RequestDeleted struct {
	ApplyID string `json:"applyId"`
	By      string `json:"by"`
	At      int64  `json:"at"`
}

// Remarked sets the remark By gives the other member of the pair.
type Remarked struct {
	By     string `json:"by"`
	Remark string `json:"remark"`
	At     int64  `json:"at"`
}

// Blocked stops the other member of the pair from messaging By.
type Blocked struct {
	By string `json:"by"`
	At int64  `json:"at"`
}

// Unblocked lets the other member of the pair message By again.
type Unblocked struct {
	By string `json:"by"`
	At int64  `json:"at"`
}

// Removed ends the friendship, for both members; By deleted the friend.
type Removed struct {
	By string `json:"by"`
	At int64  `json:"at"`
}

func (*Requested) EventType() string       { return TypeRequested }
func (*RequestAccepted) EventType() string { return TypeRequestAccepted }
func (*RequestRejected) EventType() string { return TypeRequestRejected }
func (*RequestDeleted) EventType() string  { return TypeRequestDeleted }
func (*Remarked) EventType() string        { return TypeRemarked }
func (*Blocked) EventType() string         { return TypeBlocked }
func (*Unblocked) EventType() string       { return TypeUnblocked }
func (*Removed) EventType() string         { return TypeRemoved }

// PersonalFields: see es.Personal. A request's texts are its requester's.
func (*Requested) PersonalFields() (string, []string) { return "from", []string{"remark", "content"} }

// A remark is its author's.
func (*Remarked) PersonalFields() (string, []string) { return "by", []string{"remark"} }

// Events lists the constructors of this package's events.
func Events() []func() es.Event {
	return []func() es.Event{
		func() es.Event { return &Requested{} },
		func() es.Event { return &RequestAccepted{} },
		func() es.Event { return &RequestRejected{} },
		func() es.Event { return &RequestDeleted{} },
		func() es.Event { return &Remarked{} },
		func() es.Event { return &Blocked{} },
		func() es.Event { return &Unblocked{} },
		func() es.Event { return &Removed{} },
	}
}
