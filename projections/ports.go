package projections

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/eventchat/eventchat/domain/es"
)

// EventLog is the part of the event log the projections read. Positions
// are tokens the log gives out: they are compared, never computed with.
type EventLog interface {
	// ReadAll returns up to max events with a position above after.
	ReadAll(ctx context.Context, after uint64, max int) ([]es.RecordedEvent, error)
	// SubscribeAll delivers every event with a position above after, stored
	// ones first, then live ones as they commit.
	SubscribeAll(ctx context.Context, after uint64) (es.Subscription, error)
	// Head is the position of the last event in the log (0 when empty).
	Head(ctx context.Context) (uint64, error)
	// Last is the last event in the log, false when it is empty.
	Last(ctx context.Context) (es.RecordedEvent, bool, error)
}

// Publisher carries deltas to the real-time gateways.
type Publisher interface {
	Publish(ctx context.Context, deltas []Delta) error
}

// ReadStore holds the read models. Update runs fn in one transaction: the
// writes of a batch and the projectors' checkpoints commit together or not
// at all.
//
// Several server nodes may share one read store; its lease elects the one
// whose engine writes. Update commits only while the lease is free or held
// by the owner this store handle last took it for, and fails with
// ErrLeaseLost otherwise: a node that paused past its lease's end never
// writes over its successor.
type ReadStore interface {
	Update(ctx context.Context, fn func(tx Tx) error) error
	Checkpoints(ctx context.Context) (map[string]uint64, error)
	Leases
	Queries
	Resolvers
}

// TrailWriting is a read store that writes what the projectors an engine
// trails fold (Engine.Trail) on a writer of their own, so that the other
// projectors' batches never wait behind theirs. Trailing returns the store
// as that writer writes it.
type TrailWriting interface {
	Trailing() (ReadStore, error)
}

// Leases is the read store's one projection lease.
type Leases interface {
	// TakeLease gives the lease to owner until the time until when it is
	// free, has ended at now, or is owner's already (a renewal), and returns
	// who holds it afterwards. Once the lease is taken over, the store
	// completes any write its previous holder left half done before it
	// answers Checkpoints or commits an Update.
	TakeLease(ctx context.Context, owner string, now, until time.Time) (holder string, err error)
	// DropLease frees the lease if owner holds it.
	DropLease(ctx context.Context, owner string) error
}

// ErrLeaseLost is returned by Update once another owner holds the lease.
var ErrLeaseLost = errors.New("projections: another node holds the projection lease")

// ErrIDTaken is returned by InsertMessages for a message whose id a
// different message holds: ids are unique by construction, and keeping
// either message silently would lose the other.
var ErrIDTaken = errors.New("projections: a different message holds this id")

// IDTaken is ErrIDTaken for m, whose id the message at seq of chatID holds.
func IDTaken(m Message, chatID string, seq uint64) error {
	return fmt.Errorf("%w: message %s (chat %s, seq %d) is stored already as chat %s, seq %d",
		ErrIDTaken, m.ID, m.ChatID, m.Seq, chatID, seq)
}

// Tx is one read-store transaction.
type Tx interface {
	SetCheckpoint(ctx context.Context, projector string, position uint64) error

	PutMembers(ctx context.Context, ms []Member) error
	// GetMembers returns the stored members among ids, by id.
	GetMembers(ctx context.Context, ids []string) (map[string]Member, error)

	// InsertMessages stores new messages. One whose id is stored already
	// is left as it is when it is the same message folded again (the same
	// chat and sequence); a different one fails with ErrIDTaken.
	InsertMessages(ctx context.Context, ms []Message) error
	// LookupMessage returns a stored message's chat and sequence.
	LookupMessage(ctx context.Context, messageID string) (chatID string, seq uint64, ok bool, err error)
	// MarkRead marks Read every message of chatID to reader with seq <= upTo
	// and returns the ids of the messages it changed.
	MarkRead(ctx context.Context, chatID, reader string, upTo uint64) ([]string, error)
	// CountUnread counts messages of chatID to reader still Unread.
	CountUnread(ctx context.Context, chatID, reader string) (int, error)
	// GetMessages returns the stored messages among ids, by id.
	GetMessages(ctx context.Context, ids []string) (map[string]Message, error)
	// UpdateMessages replaces stored messages by new states of them: their
	// id, chat and sequence are unchanged.
	UpdateMessages(ctx context.Context, ms []Message) error
	// IndexMessages puts the stored text of the messages of ids in the
	// search model in place of what it held of them: none once recalled
	// or deleted. An id of no stored message is passed over.
	IndexMessages(ctx context.Context, ids []string) error
	// SetClearFloor hides from member every message of chatID with a
	// sequence below seq; a floor never goes down.
	SetClearFloor(ctx context.Context, member, chatID string, seq uint64) error
	// MessagesAfter returns the stored messages of chatID with a sequence
	// above seq, in chat order, deleted ones too.
	MessagesAfter(ctx context.Context, chatID string, seq uint64) ([]Message, error)
	// MessagesFrom returns the stored messages member of tenant sent,
	// deleted ones too, in no particular order. It reads every message:
	// an erasure asks it once for each model that holds messages.
	MessagesFrom(ctx context.Context, tenant, member string) ([]Message, error)
	// LastVisible returns the newest message of chatID that member sees.
	LastVisible(ctx context.Context, chatID, member string) (Message, bool, error)

	GetGroups(ctx context.Context, ids []string) (map[string]Group, error)
	PutGroups(ctx context.Context, gs []Group) error
	// GetGroupMembers returns the members among ids of a group, or all of
	// them when ids is nil, by id.
	GetGroupMembers(ctx context.Context, groupID string, ids []string) (map[string]GroupMember, error)
	PutGroupMembers(ctx context.Context, ms []GroupMember) error
	DeleteGroupMembers(ctx context.Context, groupID string, ids []string) error
	// GroupsNoticedBy lists the groups of tenant whose notice member wrote.
	GroupsNoticedBy(ctx context.Context, tenant, member string) ([]Group, error)
	// GroupsOf lists member's places in the groups it is in.
	GroupsOf(ctx context.Context, member string) ([]GroupMember, error)

	PutMentions(ctx context.Context, ms []Mention) error
	// DeleteMentions drops member's mentions in messageIDs, or every
	// member's when member is "".
	DeleteMentions(ctx context.Context, member string, messageIDs []string) error
	// DeleteSessionMentions drops member's mentions in one conversation.
	DeleteSessionMentions(ctx context.Context, member, sessionID string) error

	GetSessions(ctx context.Context, keys []SessionKey) (map[SessionKey]Session, error)
	PutSessions(ctx context.Context, ss []Session) error
	DeleteSessions(ctx context.Context, keys []SessionKey) error
	// GroupSessions returns the sessions of the group chat groupID, one per
	// member, by member.
	GroupSessions(ctx context.Context, groupID string) ([]Session, error)

	GetApply(ctx context.Context, tenant, id string) (Apply, bool, error)
	// AppliesFrom lists the friend requests member sent, whoever deleted
	// them from a list.
	AppliesFrom(ctx context.Context, tenant, member string) ([]Apply, error)
	PutApplies(ctx context.Context, as []Apply) error
	PutFriends(ctx context.Context, fs []Friend) error
	PutGroupApplies(ctx context.Context, as []GroupApply) error
	GetGroupApply(ctx context.Context, tenant, id string) (GroupApply, bool, error)
	// GetFriends returns member's friends among ids, or all of them when
	// ids is nil, by id.
	GetFriends(ctx context.Context, member string, ids []string) (map[string]Friend, error)
	DeleteFriends(ctx context.Context, member string, ids []string) error

	PutAuthSessions(ctx context.Context, ss []AuthSession) error

	// PutPersonalItems stores items, replacing stored ones of the same key.
	PutPersonalItems(ctx context.Context, items []PersonalItem) error
	// GetPersonalItems returns all member's items of kind.
	GetPersonalItems(ctx context.Context, member, kind string) ([]PersonalItem, error)
	// DeletePersonalItems drops member's items of kind among ids, or all of
	// them when ids is nil.
	DeletePersonalItems(ctx context.Context, member, kind string, ids []string) error

	// GetNotices returns member's stored notices among ids, by id.
	GetNotices(ctx context.Context, member string, ids []string) (map[string]Notice, error)
	// UnreadNotices returns member's stored notices still unread.
	UnreadNotices(ctx context.Context, member string) ([]Notice, error)
	// PutNotices stores notices, replacing stored ones of the same member
	// and id.
	PutNotices(ctx context.Context, ns []Notice) error
	// DeleteNotices drops member's notices among ids.
	DeleteNotices(ctx context.Context, member string, ids []string) error
	// NoticesBy lists the notices of every member of tenant that tell of
	// an act of actor.
	NoticesBy(ctx context.Context, tenant, actor string) ([]Notice, error)
}

// Queries are the reads the API serves from the read models. A query that
// takes ids takes the viewer too, and answers only what it may see (see
// Viewer): another's ids answer as unknown ones do. The others take the
// member whose own lists they read.
type Queries interface {
	// MembersByID returns the cards of the members among ids, by id.
	MembersByID(ctx context.Context, v Viewer, ids []string) (map[string]Member, error)
	// FindMember finds a member of tenant by exact account or phone.
	FindMember(ctx context.Context, tenant, keyword string) (Member, bool, error)
	// Sessions lists member's conversations but the hidden ones: pinned
	// first, latest pinned first, then newest first.
	Sessions(ctx context.Context, member string) ([]Session, error)
	// HistoryPage returns up to size messages of chatID v sees, in chat
	// order: the newest when anchor is nil, else those before (Up) or after
	// (Down) the anchor's sequence.
	HistoryPage(ctx context.Context, v Viewer, chatID string, anchor *uint64, dir PageDirection, size int) ([]Message, error)
	// MessageSeq returns the chat and sequence of a message of a chat v
	// reads.
	MessageSeq(ctx context.Context, v Viewer, messageID string) (chatID string, seq uint64, ok bool, err error)
	Group(ctx context.Context, v Viewer, id string) (Group, bool, error)
	// GroupMembers lists a group's members: the owner, the admins, then
	// the others, each by the time they joined.
	GroupMembers(ctx context.Context, v Viewer, groupID string) ([]GroupMember, error)
	// GroupReads lists how far each current member of a group has read
	// its chat, by member id.
	GroupReads(ctx context.Context, v Viewer, groupID string) ([]GroupRead, error)
	// MemberGroups lists member's memberships, oldest first.
	MemberGroups(ctx context.Context, member string) ([]GroupMember, error)
	// Mentions lists member's unacknowledged mentions, oldest first.
	Mentions(ctx context.Context, member string) ([]Mention, error)
	// VisibleMessages returns the messages among ids that v sees, in the
	// order of ids.
	VisibleMessages(ctx context.Context, v Viewer, ids []string) ([]Message, error)
	Friends(ctx context.Context, member string) ([]Friend, error)
	// Applies pages the requests member sent or received, newest first.
	Applies(ctx context.Context, member string, page, size int) ([]Apply, int, error)
	// GroupApplies pages the join requests of the groups v manages, newest
	// first, and counts them.
	GroupApplies(ctx context.Context, v Viewer, page, size int) ([]GroupApply, int, error)
	// PersonalItems pages member's items of kind, newest first, and counts
	// them; size <= 0 lists all.
	PersonalItems(ctx context.Context, member, kind string, page, size int) ([]PersonalItem, int, error)
	// PersonalItemsByID returns v's items of kind among ids, in the order
	// of ids.
	PersonalItemsByID(ctx context.Context, v Viewer, kind string, ids []string) ([]PersonalItem, error)
	// Notices pages member's notices of tab ("" or all: every tab), the
	// newest first, and counts them.
	Notices(ctx context.Context, member, tab string, page, size int) ([]Notice, int, error)
	// NoticesByID returns v's notices among ids, in the order of ids.
	NoticesByID(ctx context.Context, v Viewer, ids []string) ([]Notice, error)
	// NoticeCounts counts member's unread notices.
	NoticeCounts(ctx context.Context, member string) (NoticeCounts, error)
	// SearchMessages returns up to q.Size messages v sees whose text
	// holds q.Text (see SearchQuery), the newest first: none recalled or
	// deleted, none below v's clear floor of its chat (a group's starts
	// where v joined), none of a group v is not in.
	SearchMessages(ctx context.Context, v Viewer, q SearchQuery) ([]Message, error)
}

// Resolvers are the reads that come before a principal: the token check
// finds the login session of a signed token, the commands find what a
// request id of the principal's tenant belongs to, and decide on the
// aggregates. The API never answers with them.
type Resolvers interface {
	AuthSession(ctx context.Context, sessionID string) (AuthSession, bool, error)
	PairOfApply(ctx context.Context, tenant, applyID string) (string, bool, error)
	GroupOfApply(ctx context.Context, tenant, applyID string) (string, bool, error)
}

// PageDirection of a history page.
type PageDirection uint8

const (
	Up   PageDirection = iota // older than the anchor
	Down                      // newer than the anchor
)
