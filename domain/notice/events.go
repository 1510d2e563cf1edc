package notice

import "github.com/eventchat/eventchat/domain/es"

// Event type names: stored identifiers, never renamed.
const (
	TypeRead    = "NoticesRead"
	TypeDeleted = "NoticesDeleted"
)

// NoticesRead marks Member's notices IDs Read or, with All, every notice
// it was given up to At; in the member's inbox stream.
type NoticesRead struct {
	Member string   `json:"member"`
	IDs    []string `json:"ids,omitempty"`
	All    bool     `json:"all,omitempty"`
	At     int64    `json:"at"`
}

// NoticesDeleted removes Member's notices IDs.
type NoticesDeleted struct {
	Member string   `json:"member"`
	IDs    []string `json:"ids"`
	At     int64    `json:"at"`
}

func (*NoticesRead) EventType() string    { return TypeRead }
func (*NoticesDeleted) EventType() string { return TypeDeleted }

// Events lists the constructors of this package's events.
func Events() []func() es.Event {
	return []func() es.Event{
		func() es.Event { return &NoticesRead{} },
		func() es.Event { return &NoticesDeleted{} },
	}
}
