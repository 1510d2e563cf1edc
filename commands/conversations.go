package commands

import (
	"context"
	"time"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/domain/inbox"
)

// Conversation names one conversation of the acting member: the body of
// the topInfo and sessionInfo calls.
type Conversation struct {
	ChatType       string `json:"chatType"`
	FriendMemberID string `json:"friendMemberId"`
	GroupID        string `json:"groupId"`
}

// SetDoNotDisturb is the body of PUT /v1/message/sessionInfo/dnd.
type SetDoNotDisturb struct {
	Conversation
	On bool `json:"on"`
}

// SessionOperation is the body of socket command 49 from the client.
type SessionOperation struct {
	Type           string `json:"type"` // the chat type
	MemberID       string `json:"memberId"`
	FriendMemberID string `json:"friendMemberId"`
	GroupID        string `json:"groupId"`
	OperationType  string `json:"operationType"`
	UnreadCount    int    `json:"unreadCount"`
}

// Session operations of command 49.
const (
	OpAdd    = "Add"
	OpDel    = "Del"
	OpReport = "Report"
	OpAddTop = "AddTop"
	OpDelTop = "DelTop"
)

// Changed answers a conversation change with the position to read after.
type Changed struct {
	Position uint64 `json:"position"`
}

type inboxDecision func(x *inbox.Inbox, c inbox.Conversation, now time.Time) ([]es.Event, error)

func always(f func(x *inbox.Inbox, c inbox.Conversation, now time.Time) []es.Event) inboxDecision {
	return func(x *inbox.Inbox, c inbox.Conversation, now time.Time) ([]es.Event, error) {
		return f(x, c, now), nil
	}
}

// PinConversation pins a conversation; past inbox.MaxPinned it is refused
// with code 20065. Pinning a pinned conversation appends nothing.
func (a *App) PinConversation(ctx context.Context, p Principal, r Conversation) (Changed, error) {
	return a.changeInbox(ctx, p, r, (*inbox.Inbox).Pin)
}

// UnpinConversation unpins a conversation; an unpinned one appends nothing.
func (a *App) UnpinConversation(ctx context.Context, p Principal, r Conversation) (Changed, error) {
	return a.changeInbox(ctx, p, r, always((*inbox.Inbox).Unpin))
}

// SetDoNotDisturb turns do-not-disturb of a conversation on or off.
func (a *App) SetDoNotDisturb(ctx context.Context, p Principal, r SetDoNotDisturb) (Changed, error) {
	return a.changeInbox(ctx, p, r.Conversation, func(x *inbox.Inbox, c inbox.Conversation, now time.Time) ([]es.Event, error) {
		return x.SetDoNotDisturb(c, r.On, now), nil
	})
}

// MarkConversationUnread sets the unread marker of a conversation.
func (a *App) MarkConversationUnread(ctx context.Context, p Principal, r Conversation) (Changed, error) {
	return a.changeInbox(ctx, p, r, always((*inbox.Inbox).MarkUnread))
}

// MarkConversationRead clears the unread marker and acknowledges the
// chat's newest message, as a read acknowledgement (command 27) would.
func (a *App) MarkConversationRead(ctx context.Context, p Principal, r Conversation) (Changed, error) {
	res, err := a.changeInbox(ctx, p, r, always((*inbox.Inbox).MarkRead))
	if err != nil {
		return res, err
	}
	ack := AckRead{ChatType: string(chat.Friend), From: p.MemberID, To: r.FriendMemberID}
	chatID := friend.PairID(p.MemberID, r.FriendMemberID)
	if r.GroupID != "" {
		ack.ChatType, ack.To, ack.GroupID, chatID = string(chat.Group), r.GroupID, r.GroupID, r.GroupID
	}
	newest, found, err := a.newestMessage(ctx, es.Stream(p.Tenant, es.CategoryChat, chatID))
	if err != nil || !found {
		return res, err
	}
	ack.MessageID = newest
	pos, err := a.AckRead(ctx, p, ack)
	return Changed{Position: max(pos, res.Position)}, err
}

// HideConversation removes a conversation from the list until a newer
// message arrives in it; a pinned one is unpinned.
func (a *App) HideConversation(ctx context.Context, p Principal, r Conversation) (Changed, error) {
	return a.changeInbox(ctx, p, r, always((*inbox.Inbox).Hide))
}

// ShowConversation puts a conversation in the list, hidden or new.
func (a *App) ShowConversation(ctx context.Context, p Principal, r Conversation) (Changed, error) {
	return a.changeInbox(ctx, p, r, always((*inbox.Inbox).Show))
}

// OperateSession runs a command 49 of the client: AddTop and DelTop pin
// and unpin, Del hides, Add shows, Report changes nothing.
func (a *App) OperateSession(ctx context.Context, p Principal, r SessionOperation) (Changed, error) {
	c := Conversation{ChatType: r.Type, FriendMemberID: r.FriendMemberID, GroupID: r.GroupID}
	switch r.OperationType {
	case OpAddTop:
		return a.PinConversation(ctx, p, c)
	case OpDelTop:
		return a.UnpinConversation(ctx, p, c)
	case OpDel:
		return a.HideConversation(ctx, p, c)
	case OpAdd:
		return a.ShowConversation(ctx, p, c)
	case OpReport:
		_, err := a.conversation(ctx, p, c)
		return Changed{}, err
	}
	return Changed{}, fault.New(fault.Invalid, fault.MsgOperationInvalid)
}

// conversation checks that r names a conversation p may arrange: a
// friend's chat or a group's p belongs to.
func (a *App) conversation(ctx context.Context, p Principal, r Conversation) (inbox.Conversation, error) {
	c, err := inbox.Target(r.ChatType, r.FriendMemberID, r.GroupID)
	if err != nil {
		return c, err
	}
	if c.ChatType == string(chat.Group) {
		_, err := a.groupMember(ctx, p, c.Peer, "read")
		return c, err
	}
	if c.Peer == p.MemberID {
		return c, fault.New(fault.Invalid, fault.MsgFriendMissing)
	}
	f, _, err := a.friendship(ctx, p.Tenant, friend.PairID(p.MemberID, c.Peer))
	if err != nil {
		return c, err
	}
	if !f.Friends() || !a.Authz.Allowed(RoleFriend, ScopeSameTenant, "conversation", "arrange") {
		return c, fault.New(fault.NotFound, fault.MsgFriendMissing)
	}
	return c, nil
}

// changeInbox lets decide change p's inbox and appends what it decided
// with the inbox's expected revision, deciding again on a concurrent
// change: two pins at once cannot pass the cap together.
func (a *App) changeInbox(ctx context.Context, p Principal, r Conversation, decide inboxDecision) (Changed, error) {
	c, err := a.conversation(ctx, p, r)
	if err != nil {
		return Changed{}, err
	}
	stream := es.Stream(p.Tenant, es.CategoryInbox, p.MemberID)
	return retryOnConflict(ctx, func() (Changed, error) {
		x := inbox.New(p.MemberID)
		st, err := a.loadAll(ctx, stream, x.Apply)
		if err != nil {
			return Changed{}, err
		}
		events, err := decide(x, c, a.Now())
		if err != nil || len(events) == 0 {
			return Changed{Position: st.position}, err
		}
		res, err := a.appendEvents(ctx, p, stream, st.expected(), events)
		if err != nil {
			return Changed{}, err
		}
		return Changed{Position: res.Position}, nil
	})
}

// newestMessage finds the id of the last message of a chat stream.
func (a *App) newestMessage(ctx context.Context, stream string) (string, bool, error) {
	from := es.End
	for {
		recs, err := a.Store.ReadStream(ctx, stream, es.Backwards, from, readPage)
		if err != nil {
			return "", false, err
		}
		for _, r := range recs {
			if r.Type != chat.TypeMessageSent {
				continue
			}
			e, err := a.registry.Decode(r.Type, r.Data)
			if err != nil {
				return "", false, err
			}
			if sent, ok := e.(*chat.MessageSent); ok {
				return sent.MessageID, true, nil
			}
		}
		if len(recs) < readPage || recs[len(recs)-1].Revision == 0 {
			return "", false, nil
		}
		from = recs[len(recs)-1].Revision - 1
	}
}
