package chat

import (
	"strings"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// Limits of the message life.
const (
	RecallWindow        = 24 * time.Hour
	MaxMessagesPerCall  = 100
	MaxForwardRecords   = 10
	MaxForwardTargets   = 100
	MinForwardableIDLen = 5 // of a local id after its last '_'
)

// Stored is what the rules need to know of a message already sent.
type Stored struct {
	ID           string
	ChatID       string
	ChatType     ChatType
	From         string
	To           string
	GroupID      string
	MsgType      MsgType
	Content      string
	SentAt       int64 // ms
	Recalled     bool
	ForwardBatch []string // every message of its forwarded batch, itself included
	ForwardType  MsgType  // of a Forward: the type of the message forwarded
	Hidden       bool     // deleted for itself by the member who looked it up
}

// editable are the types whose content is text the sender may change.
var editable = map[MsgType]bool{Text: true, AtText: true, Reply: true}

// Edit decides the edit of m by editor; nil when the content is unchanged.
func Edit(m Stored, editor, content string, now time.Time) (es.Event, error) {
	switch {
	case m.From != editor:
		return nil, fault.New(fault.Forbidden, fault.MsgNotYourMessage)
	case m.Recalled:
		return nil, fault.New(fault.Conflict, fault.MsgMessageRecalled)
	case !editable[m.MsgType]:
		return nil, fault.New(fault.Invalid, fault.MsgNotEditable)
	}
	if err := checkContent(content); err != nil {
		return nil, err
	}
	if content == m.Content {
		return nil, nil
	}
	return &MessageEdited{MessageID: m.ID, Editor: editor, Content: content, At: now.UnixMilli()}, nil
}

// Recall decides the recall of m by its sender; nil when already recalled.
func Recall(m Stored, by string, now time.Time) (es.Event, error) {
	switch {
	case m.From != by:
		return nil, fault.New(fault.Forbidden, fault.MsgNotYourMessage)
	case m.Recalled:
		return nil, nil
	case now.Sub(time.UnixMilli(m.SentAt)) > RecallWindow:
		return nil, fault.New(fault.Conflict, fault.MsgRecallExpired)
	}
	return &MessageRecalled{MessageID: m.ID, By: by, At: now.UnixMilli()}, nil
}

// CheckIDs checks the size of a list of message ids given in one call.
func CheckIDs(ids []string) error {
	switch {
	case len(ids) == 0:
		return fault.New(fault.Invalid, fault.MsgNoMessages)
	case len(ids) > MaxMessagesPerCall:
		return fault.New(fault.Invalid, fault.MsgTooManyMessages)
	}
	return nil
}

// WithBatches returns the ids of ms and of every message of their forwarded
// batches, each once, in the order first met: deleting one message of a
// forwarded batch deletes the batch.
func WithBatches(ms []Stored) []string {
	seen := map[string]bool{}
	var out []string
	add := func(id string) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, m := range ms {
		add(m.ID)
		for _, id := range m.ForwardBatch {
			add(id)
		}
	}
	return out
}

// DeleteForEveryone decides the deletion of ms, all of one chat, for every
// member of it: only the sender's own messages, unless others' may be
// deleted too (a group's owner and admins).
func DeleteForEveryone(ms []Stored, by string, ids []string, others bool, now time.Time) (es.Event, error) {
	for _, m := range ms {
		if m.From != by && !others {
			return nil, fault.New(fault.Forbidden, fault.MsgNotYourMessage)
		}
	}
	return &MessagesDeleted{MessageIDs: ids, By: by, At: now.UnixMilli()}, nil
}

// Hide decides the deletion of messages of one chat for member only.
func Hide(member, peer string, chatType ChatType, ids []string, now time.Time) es.Event {
	return &MessagesHidden{Member: member, Peer: peer, ChatType: string(chatType), MessageIDs: ids, At: now.UnixMilli()}
}

// Clear decides the clearing of member's history of a chat up to the
// chat's sequence upTo; a group chat is cleared up to the event itself
// (upTo 0), as its lines come from the group's stream too.
func Clear(member, peer string, chatType ChatType, upTo uint64, now time.Time) es.Event {
	return &ChatCleared{Member: member, Peer: peer, ChatType: string(chatType), UpToSeq: upTo, At: now.UnixMilli()}
}

// unforwardable are the types a forward refuses.
var unforwardable = map[MsgType]bool{Event: true, VoiceCall: true, VideoCall: true}

// CheckForward checks the records of one forward, in the order given.
func CheckForward(records []Stored) error {
	switch {
	case len(records) == 0:
		return fault.New(fault.Invalid, fault.MsgForwardNone)
	case len(records) > MaxForwardRecords:
		return fault.New(fault.Invalid, fault.MsgForwardTooMany)
	}
	for _, m := range records {
		if m.Recalled || unforwardable[m.MsgType] {
			return fault.New(fault.Invalid, fault.MsgForwardUnsupported)
		}
	}
	return nil
}

// CheckForwardIDs refuses ids that cannot name a sent message: a client's
// local id is "<prefix>_<n>" with a short n until the server answers.
func CheckForwardIDs(ids []string) error {
	switch {
	case len(ids) == 0:
		return fault.New(fault.Invalid, fault.MsgForwardNone)
	case len(ids) > MaxForwardRecords:
		return fault.New(fault.Invalid, fault.MsgForwardTooMany)
	}
	for _, id := range ids {
		if i := strings.LastIndexByte(id, '_'); i >= 0 && len(id)-i-1 < MinForwardableIDLen {
			return fault.New(fault.Invalid, fault.MsgForwardUnsupported)
		}
	}
	return nil
}

// ForwardTo decides the messages that forward records to one chat, a
// friend's (to) or a group's (to is the group id): one Forward message per
// record, in order, sharing the batch's ids.
func ForwardTo(records []Stored, ids []string, uuids []string, from string, chatType ChatType, to string, now time.Time) []es.Event {
	groupID := ""
	if chatType == Group {
		groupID, to = to, ""
	}
	out := make([]es.Event, len(records))
	for i, m := range records {
		typ := m.MsgType
		if typ == Forward && m.ForwardType != "" {
			typ = m.ForwardType
		}
		out[i] = &MessageSent{
			MessageID: ids[i], UUID: uuids[i], ChatType: string(chatType), From: from, To: to, GroupID: groupID,
			MsgType: string(Forward), Content: m.Content, At: now.UnixMilli(),
			ForwardBatchID: ids[0], ForwardBatch: ids, ForwardFrom: m.From, ForwardType: string(typ),
		}
	}
	return out
}

// Card is what a shared contact card shows; it is the content of a
// ShareContact message, as JSON.
type Card struct {
	MemberID string `json:"memberId"`
	Name     string `json:"name"`
	HeadURL  string `json:"headUrl"`
	Account  string `json:"account"`
}

// CheckContent checks a text the way a sent message's content is checked.
func CheckContent(content string) error { return checkContent(content) }
