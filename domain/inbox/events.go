package inbox

import "github.com/eventchat/eventchat/domain/es"

// Event type names: stored identifiers, never renamed.
const (
	TypePinned          = "ConversationPinned"
	TypeUnpinned        = "ConversationUnpinned"
	TypeDoNotDisturbSet = "ConversationDoNotDisturbSet"
	TypeMarkedUnread    = "ConversationMarkedUnread"
	TypeMarkedRead      = "ConversationMarkedRead"
	TypeHidden          = "ConversationHidden"
	TypeShown           = "ConversationShown"
)

// Ref names the conversation an inbox event is about; Member owns the
// inbox (the stream's id).
type Ref struct {
	Member   string `json:"member"`
	ChatType string `json:"chatType"`
	Peer     string `json:"peer"` // friend member id or group id
	At       int64  `json:"at"`
}

// Conversation returns the conversation r names.
func (r Ref) Conversation() Conversation {
	return Conversation{ChatType: r.ChatType, Peer: r.Peer}
}

// Pinned puts the conversation at the top of the member's list.
type Pinned struct{ Ref }

// Unpinned returns it to its place by time.
type Unpinned struct{ Ref }

// DoNotDisturbSet turns notifications of the conversation off (On) or back on.
type DoNotDisturbSet struct {
	Ref
	On bool `json:"on"`
}

// MarkedUnread sets the unread marker on the conversation.
type MarkedUnread struct{ Ref }

// MarkedRead clears the unread marker.
type MarkedRead struct{ Ref }

// Hidden removes the conversation from the list until a newer message
// arrives in it; its history is kept.
type Hidden struct{ Ref }

// Shown puts the conversation in the list again, or for the first time.
type Shown struct{ Ref }

func (*Pinned) EventType() string          { return TypePinned }
func (*Unpinned) EventType() string        { return TypeUnpinned }
func (*DoNotDisturbSet) EventType() string { return TypeDoNotDisturbSet }
func (*MarkedUnread) EventType() string    { return TypeMarkedUnread }
func (*MarkedRead) EventType() string      { return TypeMarkedRead }
func (*Hidden) EventType() string          { return TypeHidden }
func (*Shown) EventType() string           { return TypeShown }

// RefOf returns the conversation reference of an inbox event.
func RefOf(e es.Event) (Ref, bool) {
	switch e := e.(type) {
	case *Pinned:
		return e.Ref, true
	case *Unpinned:
		return e.Ref, true
	case *DoNotDisturbSet:
		return e.Ref, true
	case *MarkedUnread:
		return e.Ref, true
	case *MarkedRead:
		return e.Ref, true
	case *Hidden:
		return e.Ref, true
	case *Shown:
		return e.Ref, true
	}
	return Ref{}, false
}

// Events lists the constructors of this package's events.
func Events() []func() es.Event {
	return []func() es.Event{
		func() es.Event { return &Pinned{} },
		func() es.Event { return &Unpinned{} },
		func() es.Event { return &DoNotDisturbSet{} },
		func() es.Event { return &MarkedUnread{} },
		func() es.Event { return &MarkedRead{} },
		func() es.Event { return &Hidden{} },
		func() es.Event { return &Shown{} },
	}
}
