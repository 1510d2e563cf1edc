// Package inbox holds a member's settings of their conversations: pins,
// do-not-disturb, the unread marker and hiding. One stream per member.
package inbox

import (
	"time"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// MaxPinned caps the conversations one member may pin; a pin past it is
// refused with the spec's code 20065.
const MaxPinned = 10

// CodePinLimit is the spec's business code of a refused pin.
const CodePinLimit = "20065"

// Conversation is one conversation of a member: a friend chat or a group.
type Conversation struct {
	ChatType string
	Peer     string // friend member id or group id
}

// Target names the conversation a request means: by friendMemberId or by
// groupId, with chatType Friend, Group or empty (then taken from which id
// is given).
func Target(chatType, friendMemberID, groupID string) (Conversation, error) {
	if (friendMemberID == "") == (groupID == "") {
		return Conversation{}, fault.New(fault.Invalid, fault.MsgConversationTarget)
	}
	want := chat.Friend
	peer := friendMemberID
	if groupID != "" {
		want, peer = chat.Group, groupID
	}
	if chatType != "" {
		t, err := chat.ParseChatType(chatType)
		if err != nil {
			return Conversation{}, err
		}
		if t != want {
			return Conversation{}, fault.New(fault.Invalid, fault.MsgConversationTarget)
		}
	}
	return Conversation{ChatType: string(want), Peer: peer}, nil
}

type setting struct {
	pinned bool
	dnd    bool
}

// Inbox is the state of one member's conversation settings.
type Inbox struct {
	member   string
	settings map[Conversation]setting
	pins     int
}

// New returns the empty inbox of member.
func New(member string) *Inbox { return &Inbox{member: member} }

// Pinned counts the pinned conversations.
func (x *Inbox) Pinned() int { return x.pins }

// IsPinned reports whether c is pinned.
func (x *Inbox) IsPinned(c Conversation) bool { return x.settings[c].pinned }

// DoNotDisturb reports whether c has do-not-disturb on.
func (x *Inbox) DoNotDisturb(c Conversation) bool { return x.settings[c].dnd }

// Apply folds a past event; it never validates.
func (x *Inbox) Apply(e es.Event) {
	r, ok := RefOf(e)
	if !ok {
		return
	}
	c := r.Conversation()
	s := x.settings[c]
	switch e := e.(type) {
	case *Pinned:
		if !s.pinned {
			x.pins++
		}
		s.pinned = true
	case *Unpinned:
		if s.pinned {
			x.pins--
		}
		s.pinned = false
	case *Hidden:
		if s.pinned {
			x.pins--
		}
		s.pinned = false
	case *DoNotDisturbSet:
		s.dnd = e.On
	}
	if x.settings == nil {
		x.settings = map[Conversation]setting{}
	}
	x.settings[c] = s
}

func (x *Inbox) ref(c Conversation, now time.Time) Ref {
	return Ref{Member: x.member, ChatType: c.ChatType, Peer: c.Peer, At: now.UnixMilli()}
}

// Pin decides pinning c: nothing when it is pinned already, a refusal with
// code 20065 when MaxPinned conversations are pinned.
func (x *Inbox) Pin(c Conversation, now time.Time) ([]es.Event, error) {
	if x.IsPinned(c) {
		return nil, nil
	}
	if x.pins >= MaxPinned {
		return nil, fault.WithCode(fault.Conflict, CodePinLimit, fault.MsgPinLimit)
	}
	return []es.Event{&Pinned{x.ref(c, now)}}, nil
}

// Unpin decides unpinning c: nothing when it is not pinned.
func (x *Inbox) Unpin(c Conversation, now time.Time) []es.Event {
	if !x.IsPinned(c) {
		return nil
	}
	return []es.Event{&Unpinned{x.ref(c, now)}}
}

// SetDoNotDisturb decides turning do-not-disturb of c on or off: nothing
// when it is so already.
func (x *Inbox) SetDoNotDisturb(c Conversation, on bool, now time.Time) []es.Event {
	if x.DoNotDisturb(c) == on {
		return nil
	}
	return []es.Event{&DoNotDisturbSet{Ref: x.ref(c, now), On: on}}
}

// MarkUnread decides setting the unread marker of c. The marker is also
// cleared by reading the chat, which the inbox does not see, so the
// decision does not depend on its state.
func (x *Inbox) MarkUnread(c Conversation, now time.Time) []es.Event {
	return []es.Event{&MarkedUnread{x.ref(c, now)}}
}

// MarkRead decides clearing the unread marker of c.
func (x *Inbox) MarkRead(c Conversation, now time.Time) []es.Event {
	return []es.Event{&MarkedRead{x.ref(c, now)}}
}

// Hide decides removing c from the list; a pinned conversation is unpinned
// first, so that it stops counting against MaxPinned. A newer message shows
// it again, which the inbox does not see, so hiding is always decided.
func (x *Inbox) Hide(c Conversation, now time.Time) []es.Event {
	return append(x.Unpin(c, now), &Hidden{x.ref(c, now)})
}

// Show decides putting c in the list.
func (x *Inbox) Show(c Conversation, now time.Time) []es.Event {
	return []es.Event{&Shown{x.ref(c, now)}}
}
