package chat

import "github.com/eventchat/eventchat/domain/es"

// Event type names: stored identifiers, never renamed.
const (
	TypeMessageSent      = "MessageSent"
	TypeReadAcknowledged = "ReadAcknowledged"
	TypeMessageEdited    = "MessageEdited"
	TypeMessageRecalled  = "MessageRecalled"
	TypeMessagesDeleted  = "MessagesDeleted"
	TypeMessagesHidden   = "MessagesHidden"
	TypeChatCleared      = "ChatCleared"
	TypeMentionsAcked    = "MentionsAcknowledged"
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

	Parent string `json:"parent,omitempty"` // the message a Reply answers
	// A Forward: the batch it was forwarded in (the id of its first message
	// and every id), the original sender and the original type.
	ForwardBatchID string   `json:"forwardBatchId,omitempty"`
	ForwardBatch   []string `json:"forwardBatch,omitempty"`
	ForwardFrom    string   `json:"forwardFrom,omitempty"`
	ForwardType    string   `json:"forwardType,omitempty"`
}

// MessageEdited replaces a message's content; in the chat's stream.
type MessageEdited struct {
	MessageID string `json:"messageId"`
	Editor    string `json:"editor"`
	Content   string `json:"content"`
	At        int64  `json:"at"`
}

// MessageRecalled withdraws a message: both members see that it was
// recalled, not what it said; in the chat's stream.
type MessageRecalled struct {
	MessageID string `json:"messageId"`
	By        string `json:"by"`
	At        int64  `json:"at"`
}

// MessagesDeleted removes messages for everyone; in the chat's stream.
type MessagesDeleted struct {
	MessageIDs []string `json:"messageIds"`
	By         string   `json:"by"`
	At         int64    `json:"at"`
}

// MessagesHidden removes messages of one chat for Member only; in the
// member's inbox stream.
type MessagesHidden struct {
	Member     string   `json:"member"`
	Peer       string   `json:"peer"` // the friend, or the group
	ChatType   string   `json:"chatType"`
	MessageIDs []string `json:"messageIds"`
	At         int64    `json:"at"`
}

// ChatCleared removes, for Member only, every message of a chat up to the
// chat's sequence UpToSeq; in the member's inbox stream.
type ChatCleared struct {
	Member   string `json:"member"`
	Peer     string `json:"peer"`
	ChatType string `json:"chatType"`
	UpToSeq  uint64 `json:"upToSeq"`
	At       int64  `json:"at"`
}

// ReadAcknowledged records that Reader has read the chat up to MessageID.
type ReadAcknowledged struct {
	Reader    string `json:"reader"`
	Peer      string `json:"peer"` // the friend whose messages were read
	ChatType  string `json:"chatType"`
	MessageID string `json:"messageId"`
	At        int64  `json:"at"`
}

// MentionsAcked records that Member has seen its mentions: those of
// MessageIDs, or every one in the conversation SessionID (a friend or a
// group id); in the member's inbox stream.
type MentionsAcked struct {
	Member     string   `json:"member"`
	MessageIDs []string `json:"messageIds,omitempty"`
	SessionID  string   `json:"sessionId,omitempty"`
	At         int64    `json:"at"`
}

func (*MessageSent) EventType() string      { return TypeMessageSent }
func (*ReadAcknowledged) EventType() string { return TypeReadAcknowledged }
func (*MessageEdited) EventType() string    { return TypeMessageEdited }
func (*MessageRecalled) EventType() string  { return TypeMessageRecalled }
func (*MessagesDeleted) EventType() string  { return TypeMessagesDeleted }
func (*MessagesHidden) EventType() string   { return TypeMessagesHidden }
func (*ChatCleared) EventType() string      { return TypeChatCleared }
func (*MentionsAcked) EventType() string    { return TypeMentionsAcked }

// PersonalFields: see es.Personal. A message is its sender's, an edit its
// editor's.
func (*MessageSent) PersonalFields() (string, []string)   { return "from", []string{"content"} }
func (*MessageEdited) PersonalFields() (string, []string) { return "editor", []string{"content"} }

// Events lists the constructors of this package's events.
func Events() []func() es.Event {
	return []func() es.Event{
		func() es.Event { return &MessageSent{} },
		func() es.Event { return &ReadAcknowledged{} },
		func() es.Event { return &MessageEdited{} },
		func() es.Event { return &MessageRecalled{} },
		func() es.Event { return &MessagesDeleted{} },
		func() es.Event { return &MessagesHidden{} },
		func() es.Event { return &ChatCleared{} },
		func() es.Event { return &MentionsAcked{} },
	}
}
