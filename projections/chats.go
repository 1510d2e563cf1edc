package projections

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/domain/member"
)

// Chats keeps history pages and conversation lists with their unread
// counts. They are one projector because a read acknowledgement's recount
// must see exactly the messages before it in the log.
type Chats struct{}

// Name is the persisted checkpoint key.
// Version 2 keeps, in the sessions, the last message's sender, its file
// name and the origin of a forward; version 3 how far each member of a
// group has read its chat; version 4 reads a group's chat for its member
// when it sends there (its unread count and the senders told, 28).
func (Chats) Name() string { return "chats.v4" }

// Project folds messages and read acknowledgements. The batch's messages are
// inserted together at its end; acknowledgements mark pending ones in memory.
func (Chats) Project(ctx context.Context, tx Tx, events []Envelope) ([]Delta, error) {
	// Most events of a batch are messages: room for all of them saves
	// growing large slices of large structs step by step.
	b := chatBatch{
		tx: tx, pending: make([]Message, 0, len(events)), deltas: make([]Delta, 0, len(events)),
		sessions: map[SessionKey]*Session{}, isDirty: map[SessionKey]bool{},
		pendingIndex: map[string]int{}, unreadPending: map[SessionKey][]int{},
		rosters: map[string]map[string]bool{}, gone: map[SessionKey]bool{},
	}
	if err := b.loadSessions(ctx, events); err != nil {
		return nil, err
	}
	for _, env := range events {
		var err error
		if env.Stream.Category == es.CategoryGroup {
			if err := b.groupEvent(ctx, env); err != nil {
				return nil, err
			}
			continue
		}
		switch e := env.Event.(type) {
		case *chat.MessageSent:
			e = openedSent(e)
			if e.ChatType == string(chat.Group) {
				err = b.groupSent(ctx, env, e)
			} else {
				b.sent(env, e)
			}
		case *chat.ReadAcknowledged:
			if e.ChatType == string(chat.Group) {
				err = b.groupRead(ctx, env, e)
			} else {
				err = b.read(ctx, env, e)
			}
		case *chat.MessageEdited:
			err = b.edited(ctx, env, e)
		case *member.Erased:
			err = b.erased(ctx, env)
		case *chat.MessageRecalled:
			err = b.recalled(ctx, env, e)
		case *chat.MessagesDeleted:
			err = b.deleted(ctx, env, e)
		case *chat.MessagesHidden:
			err = b.hidden(ctx, env, e)
		case *chat.ChatCleared:
			err = b.cleared(ctx, env, e)
		case *chat.MentionsAcked:
			err = b.mentionsAcked(ctx, e)
		case *friend.Removed:
			b.unfriended(env)
		default:
			err = b.inbox(ctx, env)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := b.flush(ctx); err != nil {
		return nil, err
	}
	if len(b.goneOrder) > 0 {
		gone := slices.DeleteFunc(b.goneOrder, func(k SessionKey) bool { return !b.gone[k] })
		if err := tx.DeleteSessions(ctx, gone); err != nil {
			return nil, err
		}
	}
	var ss []Session
	for _, k := range b.dirty {
		if b.isDirty[k] {
			ss = append(ss, *b.sessions[k])
		}
	}
	if len(ss) > 0 {
		if err := tx.PutSessions(ctx, ss); err != nil {
			return nil, err
		}
	}
	return b.deltas, nil
}

type chatBatch struct {
	tx       Tx
	pending  []Message // messages of the batch, inserted at its end
	mentions []Mention // mentions of the pending messages
	// pendingIndex finds a pending message by id; unreadPending lists, per
	// reader's session, the pending messages to the reader still Unread.
	pendingIndex  map[string]int
	unreadPending map[SessionKey][]int
	sessions      map[SessionKey]*Session
	dirty         []SessionKey
	isDirty       map[SessionKey]bool
	deltas        []Delta
	// rosters are the members of the group chats the batch touched; gone
	// the sessions of members who left one, deleted at the batch's end.
	rosters   map[string]map[string]bool
	gone      map[SessionKey]bool
	goneOrder []SessionKey
}

// loadSessions fetches, in one call, every session the batch touches.
func (b *chatBatch) loadSessions(ctx context.Context, events []Envelope) error {
	seen := map[SessionKey]bool{}
	var keys []SessionKey
	add := func(k SessionKey) {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for _, env := range events {
		switch e := env.Event.(type) {
		case *chat.MessageSent:
			if e.ChatType != string(chat.Group) {
				add(SessionKey{Member: e.From, Peer: e.To})
				add(SessionKey{Member: e.To, Peer: e.From})
			}
		case *chat.ReadAcknowledged:
			add(SessionKey{Member: e.Reader, Peer: e.Peer})
		case *chat.MessagesHidden:
			add(SessionKey{Member: e.Member, Peer: e.Peer})
		case *chat.ChatCleared:
			add(SessionKey{Member: e.Member, Peer: e.Peer})
		case *friend.Removed:
			a, b := friend.Members(env.Stream.ID)
			add(SessionKey{Member: a, Peer: b})
			add(SessionKey{Member: b, Peer: a})
		default:
			if k, ok := inboxKey(env); ok {
				add(k)
			}
		}
	}
	if len(keys) == 0 {
		return nil
	}
	found, err := b.tx.GetSessions(ctx, keys)
	if err != nil {
		return err
	}
	for k, s := range found {
		s := s
		b.sessions[k] = &s
	}
	return nil
}

func (b *chatBatch) session(env Envelope, k SessionKey, chatType string) *Session {
	s, ok := b.sessions[k]
	if !ok {
		s = &Session{Tenant: env.Tenant, Member: k.Member, Peer: k.Peer, ChatType: chatType, ChatID: env.Stream.ID}
		b.sessions[k] = s
	}
	if !b.isDirty[k] {
		if _, listed := b.isDirty[k]; !listed {
			b.dirty = append(b.dirty, k)
		}
		b.isDirty[k] = true
	}
	return s
}

// unfriended hides the conversation of a deleted friendship from both
// members; the friend-deleted push (25) tells their clients.
func (b *chatBatch) unfriended(env Envelope) {
	x, y := friend.Members(env.Stream.ID)
	for _, k := range []SessionKey{{Member: x, Peer: y}, {Member: y, Peer: x}} {
		if _, ok := b.sessions[k]; ok {
			b.session(env, k, string(chat.Friend)).Hidden = true
		}
	}
}

func (b *chatBatch) sent(env Envelope, e *chat.MessageSent) {
	m := Message{
		ID: e.MessageID, UUID: e.UUID, Tenant: env.Tenant, ChatID: env.Stream.ID, Seq: env.Revision,
		Position: env.Position, ChatType: e.ChatType, From: e.From, To: e.To, GroupID: e.GroupID,
		MsgType: e.MsgType, Content: e.Content, ServerReceiveTime: e.At, Status: StatusUnread,
		ParentMessageID: e.Parent, ForwardBatchID: e.ForwardBatchID, ForwardBatch: e.ForwardBatch,
		ForwardFrom: e.ForwardFrom, ForwardType: e.ForwardType,
	}
	incoming := SessionKey{Member: e.To, Peer: e.From}
	b.pendingIndex[m.ID] = len(b.pending)
	b.unreadPending[incoming] = append(b.unreadPending[incoming], len(b.pending))
	b.pending = append(b.pending, m)
	if e.MsgType == string(chat.AtText) {
		b.mention(env, e)
	}
	for _, k := range [...]SessionKey{{Member: e.From, Peer: e.To}, incoming} {
		s := b.session(env, k, e.ChatType)
		s.showLast(m)
		s.Hidden = false // a newer message shows a hidden conversation again
		if k == incoming {
			s.UnreadCount++
		}
	}
	b.deltas = append(b.deltas, delta(env, CmdMessage, m, e.From, e.To))
}

func (b *chatBatch) read(ctx context.Context, env Envelope, e *chat.ReadAcknowledged) error {
	chatID := env.Stream.ID
	seq, ok, err := b.seqOf(ctx, chatID, e.MessageID)
	if err != nil || !ok {
		return err
	}
	b.clearMark(env, e)
	key := SessionKey{Member: e.Reader, Peer: e.Peer}
	s := b.session(env, key, e.ChatType)
	var changed []string
	// Stored messages are all older than this batch's pending ones: mark
	// them first, and only when the session counts more unread messages
	// than are pending.
	pending := b.unreadPending[key]
	if s.UnreadCount > len(pending) {
		if changed, err = b.tx.MarkRead(ctx, chatID, e.Reader, seq); err != nil {
			return err
		}
	}
	kept := pending[:0]
	for _, i := range pending {
		if m := &b.pending[i]; m.Seq <= seq {
			m.Status = StatusRead
			changed = append(changed, m.ID)
		} else {
			kept = append(kept, i)
		}
	}
	b.unreadPending[key] = kept
	if len(changed) == 0 {
		return nil
	}
	s.UnreadCount = max(0, s.UnreadCount-len(changed))
	b.deltas = append(b.deltas,
		delta(env, CmdSessionChanged, s.View(), e.Reader),
		delta(env, CmdReadAck, readAck{
			ChatType: e.ChatType, From: e.Reader, To: e.Peer, MessageID: e.MessageID, Seq: &seq, MessageIDs: changed,
		}, e.Peer, e.Reader))
	return nil
}

// seqOf finds an acknowledged message's sequence in this batch or the store;
// a message of another chat is not found, and its acknowledgement changes
// nothing.
func (b *chatBatch) seqOf(ctx context.Context, chatID, messageID string) (uint64, bool, error) {
	if i, ok := b.pendingIndex[messageID]; ok {
		m := b.pending[i]
		return m.Seq, m.ChatID == chatID, nil
	}
	stored, seq, ok, err := b.tx.LookupMessage(ctx, messageID)
	return seq, ok && stored == chatID, err
}

// flush inserts the pending messages, so that the store holds every
// message seen so far.
func (b *chatBatch) flush(ctx context.Context) error {
	if len(b.pending) == 0 {
		return nil
	}
	if err := b.tx.InsertMessages(ctx, b.pending); err != nil {
		return err
	}
	if len(b.mentions) > 0 {
		if err := b.tx.PutMentions(ctx, b.mentions); err != nil {
			return err
		}
		b.mentions = b.mentions[:0]
	}
	b.pending = b.pending[:0]
	clear(b.pendingIndex)
	clear(b.unreadPending)
	return nil
}

type readAck struct {
	ChatType  string `json:"chatType"`
	From      string `json:"from"`
	To        string `json:"to"`
	MessageID string `json:"messageId"`
	// Seq is the place in the chat up to which From read (MessageID's,
	// but for a clear): ids drawn at once can be out of the chat's order,
	// so a client compares read marks by it.
	Seq        *uint64  `json:"seq,omitempty"`
	MessageIDs []string `json:"messageIds"`
}

// MarshalJSON adds createTime, the name the client gives the receive time,
// and the edited and recalled flags.
func (m Message) MarshalJSON() ([]byte, error) {
	type plain Message
	return json.Marshal(struct {
		plain
		CreateTime int64 `json:"createTime"`
		Edited     bool  `json:"edited,omitempty"`
		Recalled   bool  `json:"recalled,omitempty"`
	}{plain(m), m.ServerReceiveTime, m.EditTime != 0, m.RecallTime != 0})
}
