// Package notice holds a member's system notices: what other members' acts
// (a friend request, its answer, a group invitation, an ownership
// transfer) tell the member, each Unread until the member reads it. The
// notices themselves are derived from those acts' events; the member's own
// reading and deleting are events of its inbox stream.
package notice

import (
	"hash/fnv"
	"strconv"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// Kind says what a notice is about.
type Kind string

// The kinds of notices.
const (
	FriendRequest  Kind = "FriendRequest"  // a member asked to be the reader's friend
	FriendAccepted Kind = "FriendAccepted" // the reader's request was accepted
	FriendRefused  Kind = "FriendRefused"  // the reader's request was refused
	GroupInvite    Kind = "GroupInvite"    // the reader was brought into a group
	GroupOwner     Kind = "GroupOwner"     // the reader was made a group's owner
	// The reader's account was logged in from a device it never used, with
	// a code.
	Verification  Kind = "Verification"
	FeedbackReply Kind = "FeedbackReply" // a back-end administrator answered the reader's feedback
	// A Normal member invited someone into a group the reader manages: the
	// request waits for an answer.
	GroupJoinRequest Kind = "GroupJoinRequest"
)

// Tab is the tab of the notices view a notice is listed under, besides
// all.
type Tab string

// Tabs of the notices view.
const (
	TabAll     Tab = "all"
	TabFriends Tab = "friends"
	TabSystem  Tab = "system"
	TabGroups  Tab = "groups"
)

// TabOf returns the tab of a kind: system for kinds it does not know.
func TabOf(k Kind) Tab {
	switch k {
	case FriendRequest, FriendAccepted, FriendRefused:
		return TabFriends
	case GroupInvite, GroupOwner, GroupJoinRequest:
		return TabGroups
	}
	return TabSystem
}

// ParseTab reads a tab name; "" is all.
func ParseTab(s string) (Tab, error) {
	switch t := Tab(s); t {
	case "":
		return TabAll, nil
	case TabAll, TabFriends, TabSystem, TabGroups:
		return t, nil
	}
	return "", fault.New(fault.Invalid, fault.MsgNoticeTabInvalid)
}

// MaxIDsPerCall bounds the notices one call reads or deletes.
const MaxIDsPerCall = 100

// ID is the id of the notice an event with id eventID gives member: 19
// digits, the same however often the log is folded.
func ID(eventID, member string) string {
	h := fnv.New64a()
	h.Write([]byte(eventID))
	h.Write([]byte{0})
	h.Write([]byte(member))
	const low, span = 1_000_000_000_000_000_000, 9_000_000_000_000_000_000
	return strconv.FormatUint(low+h.Sum64()%span, 10)
}

// CheckIDs checks the ids of one call: 1 to MaxIDsPerCall of them, each
// of digits.
func CheckIDs(ids []string) error {
	switch {
	case len(ids) == 0:
		return fault.New(fault.Invalid, fault.MsgNoticesNone)
	case len(ids) > MaxIDsPerCall:
		return fault.New(fault.Invalid, fault.MsgNoticesTooMany)
	}
	for _, id := range ids {
		if !digits(id) {
			return fault.New(fault.Invalid, fault.MsgNoticeIDInvalid)
		}
	}
	return nil
}

func digits(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Read decides the reading of notices: the ones among ids still unread
// (unread tells which are) become Read. Reading read notices decides
// nothing.
func Read(member string, ids []string, unread map[string]bool, now time.Time) ([]es.Event, error) {
	if err := CheckIDs(ids); err != nil {
		return nil, err
	}
	var todo []string
	for _, id := range ids {
		if unread[id] {
			todo = append(todo, id)
		}
	}
	if len(todo) == 0 {
		return nil, nil
	}
	return []es.Event{&NoticesRead{Member: member, IDs: todo, At: now.UnixMilli()}}, nil
}

// ReadAll decides the reading of every notice of member given until now;
// with none unread it decides nothing.
func ReadAll(member string, unread int, now time.Time) []es.Event {
	if unread == 0 {
		return nil
	}
	return []es.Event{&NoticesRead{Member: member, All: true, At: now.UnixMilli()}}
}

// Delete decides the deletion of notices.
func Delete(member string, ids []string, now time.Time) ([]es.Event, error) {
	if err := CheckIDs(ids); err != nil {
		return nil, err
	}
	return []es.Event{&NoticesDeleted{Member: member, IDs: ids, At: now.UnixMilli()}}, nil
}
