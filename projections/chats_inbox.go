package projections

import (
	"context"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/domain/inbox"
)

// Operation types of a pushed session item (command 49): those of the
// spec, and the names of the other conversation settings.
const (
	OpAddTop     = "AddTop"
	OpDelTop     = "DelTop"
	OpAdd        = "Add"
	OpDel        = "Del"
	OpDndOn      = "DndOn"
	OpDndOff     = "DndOff"
	OpMarkUnread = "MarkUnread"
	OpMarkRead   = "MarkRead"
)

// inboxKey returns the session an inbox event changes.
func inboxKey(env Envelope) (SessionKey, bool) {
	r, ok := inbox.RefOf(env.Event)
	return SessionKey{Member: r.Member, Peer: r.Peer}, ok
}

// chatIDOf names the chat of a member's conversation.
func chatIDOf(r inbox.Ref) string {
	if r.ChatType == string(chat.Group) {
		return r.Peer
	}
	return friend.PairID(r.Member, r.Peer)
}

// inbox folds a conversation setting of a member into its session, which
// it creates when the member had none, and pushes the item to all the
// member's connections.
func (b *chatBatch) inbox(ctx context.Context, env Envelope) error {
	k, ok := inboxKey(env)
	if !ok {
		return nil
	}
	r, _ := inbox.RefOf(env.Event)
	if r.ChatType == string(chat.Group) {
		// Only a member has a group's conversation.
		roster, err := b.roster(ctx, r.Peer)
		if err != nil || !roster[r.Member] {
			return err
		}
	}
	_, known := b.sessions[k]
	s := b.session(env, k, r.ChatType)
	if !known {
		s.ChatID = chatIDOf(r)
	}
	var op string
	switch e := env.Event.(type) {
	case *inbox.Pinned:
		s.Top, s.TopTime, s.Hidden, op = true, r.At, false, OpAddTop
	case *inbox.Unpinned:
		s.Top, s.TopTime, op = false, 0, OpDelTop
	case *inbox.DoNotDisturbSet:
		s.DoNotDisturb, op = e.On, OpDndOff
		if e.On {
			op = OpDndOn
		}
	case *inbox.MarkedUnread:
		s.MarkedUnread, op = true, OpMarkUnread
	case *inbox.MarkedRead:
		s.MarkedUnread, op = false, OpMarkRead
	case *inbox.Hidden:
		s.Hidden, op = true, OpDel
	case *inbox.Shown:
		s.Hidden, op = false, OpAdd
	}
	v := s.View()
	v.OperationType = op
	b.deltas = append(b.deltas, delta(env, CmdSessionChanged, v, r.Member))
	return nil
}

// clearMark clears the reader's unread marker on a read acknowledgement:
// reading a conversation, as opening it does, reads the mark too.
func (b *chatBatch) clearMark(env Envelope, e *chat.ReadAcknowledged) {
	k := SessionKey{Member: e.Reader, Peer: e.Peer}
	if s, ok := b.sessions[k]; !ok || !s.MarkedUnread {
		return
	}
	s := b.session(env, k, e.ChatType)
	s.MarkedUnread = false
	v := s.View()
	v.OperationType = OpMarkRead
	b.deltas = append(b.deltas, delta(env, CmdSessionChanged, v, e.Reader))
}
