package chat

import "github.com/eventchat/eventchat/domain/es"

// Event type names: stored identifiers, never renamed.
const (
	TypeMessageSent      = "MessageSent"
	TypeReadAcknowledged = "ReadAcknowledged"
)

// MessageSent records a message in its chat's stream; the stream revision is
// its sequence in the chat.
type MessageSent struct {
	MessageID string `json:"messageId"`
	UUID      string `json:"uuid"`
	ChatType  string `json:"chatType"`
	From      string `json:"from"`
	To        string `json:"to,omitempty"`
	GroupID   string `json:"groupId,omitempty"`
	MsgType   string `json:"msgType"`
	Content   string `json:"content"`
	At        int64  `json:"at"` // server receive time, ms
}

// ReadAcknowledged records that Reader has read the chat up to MessageID.
type ReadAcknowledged struct {
	Reader    string `json:"reader"`
	Peer      string `json:"peer"` // the friend whose messages were read
	ChatType  string `json:"chatType"`
	MessageID string `json:"messageId"`
	At        int64  `json:"at"`
}

func (*MessageSent) EventType() string      { return TypeMessageSent }
func (*ReadAcknowledged) EventType() string { return TypeReadAcknowledged }

// Events lists the constructors of this package's events.
func Events() []func() es.Event {
	return []func() es.Event{
		func() es.Event { return &MessageSent{} },
		func() es.Event { return &ReadAcknowledged{} },
	}
}
