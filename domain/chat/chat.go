// Package chat holds messages: their kinds, the rules for sending them and the
// read acknowledgements that follow.
package chat

import (
	"regexp"
	"strings"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// ChatType says who a message goes to.
type ChatType string

const (
	Friend ChatType = "Friend"
	Group  ChatType = "Group"
)

// ParseChatType accepts Friend and Group.
func ParseChatType(s string) (ChatType, error) {
	switch ChatType(s) {
	case Friend, Group:
		return ChatType(s), nil
	}
	return "", fault.New(fault.Invalid, fault.MsgChatTypeInvalid)
}

// MsgType is the kind of a message.
type MsgType string

// The message types of the spec.
const (
	Text         MsgType = "Text"
	AtText       MsgType = "AtText"
	Picture      MsgType = "Picture"
	VoiceMsg     MsgType = "VoiceMsg"
	VideoMsg     MsgType = "VideoMsg"
	File         MsgType = "File"
	ShareContact MsgType = "ShareContact"
	Reply        MsgType = "Reply"
	Forward      MsgType = "Forward"
	Event        MsgType = "Event"
	VoiceCall    MsgType = "VoiceCall"
	VideoCall    MsgType = "VideoCall"
)

// sendable are the types a member may send directly besides the media
// types (see ParseMedia); contact cards, forwards, calls and system lines
// have calls of their own.
var sendable = map[MsgType]bool{Text: true, AtText: true, Reply: true}

// ParseSendableType accepts the types a member may send directly; no type
// means Text.
func ParseSendableType(s string) (MsgType, error) {
	if s == "" {
		return Text, nil
	}
	if sendable[MsgType(s)] || MsgType(s).IsMedia() {
		return MsgType(s), nil
	}
	return "", fault.New(fault.Invalid, fault.MsgMsgTypeUnsupported)
}

// MaxContentBytes caps one message's content.
const MaxContentBytes = 64 << 10

var uuidPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Outgoing is a message a member asks to send.
type Outgoing struct {
	UUID     string
	ChatType ChatType
	From     string
	To       string // friend member id for Friend chats
	GroupID  string // the group of Group chats
	MsgType  MsgType
	Content  string
	Parent   string // the message a Reply answers
}

// Validate checks the message on its own, before any state is consulted.
func (o Outgoing) Validate() error {
	switch {
	case o.UUID == "":
		return fault.New(fault.Invalid, fault.MsgUUIDRequired)
	case !uuidPattern.MatchString(o.UUID):
		return fault.New(fault.Invalid, fault.MsgUUIDInvalid)
	case o.ChatType == Group && o.GroupID == "":
		return fault.New(fault.Invalid, fault.MsgGroupIDMissing)
	case o.ChatType == Friend && o.To == "":
		return fault.New(fault.Invalid, fault.MsgFriendMissing)
	case o.MsgType == Reply && o.Parent == "":
		return fault.New(fault.Invalid, fault.MsgParentMissing)
	}
	return checkContent(o.Content)
}

// checkContent checks the text of a message.
func checkContent(content string) error {
	switch {
	case strings.TrimSpace(content) == "":
		return fault.New(fault.Invalid, fault.MsgContentEmpty)
	case len(content) > MaxContentBytes:
		return fault.New(fault.TooLarge, fault.MsgContentTooLong)
	}
	return nil
}

// Send decides the event of a validated message. The caller has checked that
// the sender may write to the chat.
func Send(messageID string, o Outgoing, now time.Time) es.Event {
	to := o.To
	if o.ChatType == Group {
		to = ""
	}
	return &MessageSent{
		MessageID: messageID,
		UUID:      o.UUID,
		ChatType:  string(o.ChatType),
		From:      o.From,
		To:        to,
		GroupID:   o.GroupID,
		MsgType:   string(o.MsgType),
		Content:   o.Content,
		Parent:    o.Parent,
		At:        now.UnixMilli(),
	}
}

// Ack decides a read acknowledgement by reader of the chat's messages up to
// and including messageID.
func Ack(reader, peer, messageID string, chatType ChatType, now time.Time) (es.Event, error) {
	if messageID == "" {
		return nil, fault.New(fault.Invalid, fault.MsgMessageNotFound)
	}
	return &ReadAcknowledged{Reader: reader, Peer: peer, ChatType: string(chatType), MessageID: messageID, At: now.UnixMilli()}, nil
}

// Preview is the last-content text a conversation list shows for a message.
func Preview(msgType, content string) string {
	switch MsgType(msgType) {
	case File:
		return "[file]"
	case Picture:
		return "[picture]"
	case VideoMsg:
		return "[video]"
	case VoiceMsg:
		return "[voice]"
	case Forward:
		return "[forward]"
	case VoiceCall:
		return "[voice call]"
	case VideoCall:
		return "[video call]"
	}
	const max = 200
	if r := []rune(content); len(r) > max {
		return string(r[:max])
	}
	return content
}
