package projections

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/friend"
)

// RecalledPreview is the last content a conversation shows for a recalled
// message.
const RecalledPreview = "[recalled]"

// The message life changes stored messages: the batch's pending messages
// are inserted first, so that the store holds every message these events
// may name.

// messageChange is the push of an edit, a recall or a deletion.
type messageChange struct {
	ID            string   `json:"id,omitempty"`
	MessageIDs    []string `json:"messageIds,omitempty"`
	ChatType      string   `json:"chatType"`
	From          string   `json:"from"`
	To            string   `json:"to"`
	GroupID       string   `json:"groupId,omitempty"`
	Content       *string  `json:"content,omitempty"`
	EditTime      int64    `json:"editTime,omitempty"`
	OperationType string   `json:"operationType"`
	Scope         string   `json:"scope,omitempty"`
	OperatorID    string   `json:"operatorId,omitempty"`
	Time          int64    `json:"time,omitempty"`
	Position      uint64   `json:"position"`
}

type chatCleared struct {
	ChatType       string `json:"chatType"`
	FriendMemberID string `json:"friendMemberId,omitempty"`
	GroupID        string `json:"groupId,omitempty"`
	UpTo           int64  `json:"upTo"`
	Position       uint64 `json:"position"`
}

// stored returns the messages of ids the store holds in chatID, in the
// order of ids, leaving out those deleted for everyone.
func (b *chatBatch) stored(ctx context.Context, chatID string, ids []string) ([]Message, error) {
	if err := b.flush(ctx); err != nil {
		return nil, err
	}
	found, err := b.tx.GetMessages(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Message, 0, len(ids))
	for _, id := range ids {
		if m, ok := found[id]; ok && m.ChatID == chatID && !m.Deleted {
			out = append(out, m)
		}
	}
	return out, nil
}

// mention records the mention of the receiver of a friend chat's AtText,
// by its id or by the mention of everyone.
func (b *chatBatch) mention(env Envelope, e *chat.MessageSent) {
	for _, id := range chat.Mentions(e.Content) {
		if id == e.To || id == chat.MentionAll {
			b.mentions = append(b.mentions, Mention{
				Tenant: env.Tenant, Member: e.To, MessageID: e.MessageID, SessionID: e.From, SessionType: e.ChatType, At: e.At,
			})
			return
		}
	}
}

func (b *chatBatch) mentionsAcked(ctx context.Context, e *chat.MentionsAcked) error {
	if err := b.flush(ctx); err != nil {
		return err
	}
	if e.SessionID != "" {
		return b.tx.DeleteSessionMentions(ctx, e.Member, e.SessionID)
	}
	return b.tx.DeleteMentions(ctx, e.Member, e.MessageIDs)
}

func (b *chatBatch) edited(ctx context.Context, env Envelope, e *chat.MessageEdited) error {
	ms, err := b.stored(ctx, env.Stream.ID, []string{e.MessageID})
	if err != nil || len(ms) == 0 || ms[0].RecallTime != 0 {
		return err
	}
	m := ms[0]
	m.Content, m.EditTime = erasedAs(e.Content, ErasedContent), e.At
	if err := b.tx.UpdateMessages(ctx, []Message{m}); err != nil {
		return err
	}
	if err := b.refreshPreviews(ctx, env, m); err != nil {
		return err
	}
	to, err := b.recipients(ctx, m)
	if err != nil {
		return err
	}
	b.deltas = append(b.deltas, delta(env, CmdEdit, messageChange{
		ID: m.ID, ChatType: m.ChatType, From: m.From, To: m.To, GroupID: m.GroupID, Content: &m.Content, EditTime: e.At,
		OperationType: "edit", Position: env.Position,
	}, to...))
	return nil
}

func (b *chatBatch) recalled(ctx context.Context, env Envelope, e *chat.MessageRecalled) error {
	ms, err := b.stored(ctx, env.Stream.ID, []string{e.MessageID})
	if err != nil || len(ms) == 0 || ms[0].RecallTime != 0 {
		return err
	}
	m := ms[0]
	to, err := b.recipients(ctx, m)
	if err != nil {
		return err
	}
	if m.ChatType == string(chat.Group) {
		if err := b.settleGroupUnread(ctx, env, m.ChatID, ms, to); err != nil {
			return err
		}
	}
	m.Content, m.RecallTime = "", e.At
	if err := b.tx.DeleteMentions(ctx, "", []string{m.ID}); err != nil {
		return err
	}
	if _, err := b.settleUnread(ctx, env, []*Message{&m}, m.To); err != nil {
		return err
	}
	if err := b.tx.UpdateMessages(ctx, []Message{m}); err != nil {
		return err
	}
	if err := b.refreshPreviews(ctx, env, m); err != nil {
		return err
	}
	b.deltas = append(b.deltas, delta(env, CmdRecall, messageChange{
		ID: m.ID, MessageIDs: []string{m.ID}, ChatType: m.ChatType, From: m.From, To: m.To, GroupID: m.GroupID,
		OperationType: "Recall", OperatorID: e.By, Time: e.At, Position: env.Position,
	}, to...))
	return nil
}

func (b *chatBatch) deleted(ctx context.Context, env Envelope, e *chat.MessagesDeleted) error {
	ms, err := b.stored(ctx, env.Stream.ID, e.MessageIDs)
	if err != nil || len(ms) == 0 {
		return err
	}
	to, err := b.recipients(ctx, ms[0])
	if err != nil {
		return err
	}
	if ms[0].ChatType == string(chat.Group) {
		if err := b.settleGroupUnread(ctx, env, ms[0].ChatID, ms, to); err != nil {
			return err
		}
	}
	ids := make([]string, len(ms))
	byReader := map[string][]*Message{}
	for i := range ms {
		m := &ms[i]
		ids[i] = m.ID
		m.Deleted, m.Content = true, ""
		byReader[m.To] = append(byReader[m.To], m)
	}
	if err := b.tx.DeleteMentions(ctx, "", ids); err != nil {
		return err
	}
	for reader, rms := range byReader {
		if _, err := b.settleUnread(ctx, env, rms, reader); err != nil {
			return err
		}
	}
	if err := b.tx.UpdateMessages(ctx, ms); err != nil {
		return err
	}
	first := ms[0]
	keys, err := b.chatKeys(ctx, first)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := b.refreshLast(ctx, env, k, ids); err != nil {
			return err
		}
	}
	b.deltas = append(b.deltas, delta(env, CmdRecall, messageChange{
		MessageIDs: ids, ChatType: first.ChatType, From: first.From, To: first.To, GroupID: first.GroupID,
		OperationType: "Delete", Scope: "Everyone", OperatorID: e.By, Time: e.At, Position: env.Position,
	}, to...))
	return nil
}

func (b *chatBatch) hidden(ctx context.Context, env Envelope, e *chat.MessagesHidden) error {
	group := e.ChatType == string(chat.Group)
	chatID := friend.PairID(e.Member, e.Peer)
	if group {
		chatID = e.Peer
	}
	ms, err := b.stored(ctx, chatID, e.MessageIDs)
	if err != nil {
		return err
	}
	ms = slices.DeleteFunc(ms, func(m Message) bool { return slices.Contains(m.HiddenFor, e.Member) })
	if len(ms) == 0 {
		return nil
	}
	if group {
		if err := b.settleGroupUnread(ctx, env, chatID, ms, []string{e.Member}); err != nil {
			return err
		}
	}
	ids := make([]string, len(ms))
	changed := make([]*Message, len(ms))
	for i := range ms {
		ids[i] = ms[i].ID
		ms[i].HiddenFor = append(slices.Clip(ms[i].HiddenFor), e.Member)
		changed[i] = &ms[i]
	}
	if err := b.tx.DeleteMentions(ctx, e.Member, ids); err != nil {
		return err
	}
	read, err := b.settleUnread(ctx, env, changed, e.Member)
	if err != nil {
		return err
	}
	if err := b.tx.UpdateMessages(ctx, ms); err != nil {
		return err
	}
	if err := b.refreshLast(ctx, env, SessionKey{Member: e.Member, Peer: e.Peer}, ids); err != nil {
		return err
	}
	if !group && len(read) > 0 {
		// The friend's messages hidden unread are settled as Read: the
		// friend sees them so at once. They need not be the newest, so
		// the 28 names them without a "read up to" messageId.
		b.deltas = append(b.deltas, delta(env, CmdReadAck, readAck{
			ChatType: e.ChatType, From: e.Member, To: e.Peer, MessageIDs: read,
		}, e.Peer))
	}
	change := messageChange{
		MessageIDs: ids, ChatType: e.ChatType, From: e.Member, To: e.Peer,
		OperationType: "Delete", Scope: "Me", OperatorID: e.Member, Time: e.At, Position: env.Position,
	}
	if group {
		change.To, change.GroupID = "", e.Peer
	}
	b.deltas = append(b.deltas, delta(env, CmdRecall, change, e.Member))
	return nil
}

func (b *chatBatch) cleared(ctx context.Context, env Envelope, e *chat.ChatCleared) error {
	if err := b.flush(ctx); err != nil {
		return err
	}
	group := e.ChatType == string(chat.Group)
	chatID, floor := friend.PairID(e.Member, e.Peer), e.UpToSeq+1
	if group {
		chatID, floor = e.Peer, groupSeq(env.Position, 0)
	}
	if err := b.tx.SetClearFloor(ctx, e.Member, chatID, floor); err != nil {
		return err
	}
	if err := b.tx.DeleteSessionMentions(ctx, e.Member, e.Peer); err != nil {
		return err
	}
	var read []string
	if !group {
		var err error
		if read, err = b.tx.MarkRead(ctx, chatID, e.Member, e.UpToSeq); err != nil {
			return err
		}
	}
	key := SessionKey{Member: e.Member, Peer: e.Peer}
	s, err := b.loadSession(ctx, key)
	if err != nil {
		return err
	}
	if s != nil {
		b.session(env, key, s.ChatType)
		s.UnreadCount = max(0, s.UnreadCount-len(read))
		if group {
			s.UnreadCount = 0
		}
		if err := b.resetLast(ctx, s); err != nil {
			return err
		}
		b.deltas = append(b.deltas, delta(env, CmdSessionChanged, s.View(), e.Member))
	}
	if group {
		b.deltas = append(b.deltas, delta(env, CmdClearGroup, chatCleared{
			ChatType: e.ChatType, GroupID: e.Peer, UpTo: e.At, Position: env.Position,
		}, e.Member))
		return nil
	}
	b.deltas = append(b.deltas, delta(env, CmdClearFriend, chatCleared{
		ChatType: e.ChatType, FriendMemberID: e.Peer, UpTo: e.At, Position: env.Position,
	}, e.Member))
	if len(read) > 0 {
		// The clear settled the friend's messages as Read: the friend sees
		// them so at once, not only once it reloads the chat. The member's
		// own connections have the clear (30) and its session (34); a 28
		// would also zero a badge that counts messages after the clear.
		b.deltas = append(b.deltas, delta(env, CmdReadAck, readAck{
			ChatType: e.ChatType, From: e.Member, To: e.Peer, MessageID: newestID(read), Seq: &e.UpToSeq, MessageIDs: read,
		}, e.Peer))
	}
	return nil
}

// newestID is the newest of message ids, which are snowflake digit strings:
// a longer id is newer, and ids of one length compare as text.
func newestID(ids []string) string {
	newest := ids[0]
	for _, id := range ids[1:] {
		if len(id) > len(newest) || (len(id) == len(newest) && id > newest) {
			newest = id
		}
	}
	return newest
}

// settleUnread marks Read those of ms that are Unread to reader, as nobody
// will read them any more, takes them off reader's unread count and returns
// their ids.
func (b *chatBatch) settleUnread(ctx context.Context, env Envelope, ms []*Message, reader string) ([]string, error) {
	var read []string
	for _, m := range ms {
		if m.To == reader && m.Status == StatusUnread {
			m.Status = StatusRead
			read = append(read, m.ID)
		}
	}
	if len(read) == 0 {
		return nil, nil
	}
	key := SessionKey{Member: reader, Peer: ms[0].From}
	s, err := b.loadSession(ctx, key)
	if err != nil || s == nil {
		return read, err
	}
	b.session(env, key, s.ChatType)
	s.UnreadCount = max(0, s.UnreadCount-len(read))
	return read, nil
}

// refreshPreviews shows m's content, as it is now, in the sessions whose
// last message is m.
func (b *chatBatch) refreshPreviews(ctx context.Context, env Envelope, m Message) error {
	keys, err := b.chatKeys(ctx, m)
	if err != nil {
		return err
	}
	for _, k := range keys {
		s, err := b.loadSession(ctx, k)
		if err != nil {
			return err
		}
		if s == nil || s.LastMessageID != m.ID {
			continue
		}
		b.session(env, k, s.ChatType)
		s.showContent(m)
		b.deltas = append(b.deltas, delta(env, CmdSessionChanged, s.View(), k.Member))
	}
	return nil
}

// refreshLast falls the session of k back to its newest visible message
// when its last message is among gone, and pushes the session when that or
// its unread count changed.
func (b *chatBatch) refreshLast(ctx context.Context, env Envelope, k SessionKey, gone []string) error {
	s, err := b.loadSession(ctx, k)
	if err != nil || s == nil {
		return err
	}
	lastGone := slices.Contains(gone, s.LastMessageID)
	if !lastGone && !b.isDirty[k] {
		return nil
	}
	b.session(env, k, s.ChatType)
	if lastGone {
		if err := b.resetLast(ctx, s); err != nil {
			return err
		}
	}
	b.deltas = append(b.deltas, delta(env, CmdSessionChanged, s.View(), k.Member))
	return nil
}

// resetLast shows the newest message s's member still sees, or nothing.
func (b *chatBatch) resetLast(ctx context.Context, s *Session) error {
	m, ok, err := b.tx.LastVisible(ctx, s.ChatID, s.Member)
	if err != nil {
		return err
	}
	if ok {
		s.showLast(m)
		return nil
	}
	at := s.LastMessageTime
	s.showLast(Message{})
	s.LastMessageTime = at
	return nil
}

// showLast makes m the last message s shows.
func (s *Session) showLast(m Message) {
	s.LastMessageID, s.LastMessageType, s.LastMessageTime, s.LastMessageFrom = m.ID, m.MsgType, m.ServerReceiveTime, m.From
	s.LastMessageForwardFrom, s.LastMessageForwardType = m.ForwardFrom, m.ForwardType
	s.showContent(m)
}

// showContent shows m's content as the last of s: a recalled or erased
// message its placeholder, a forward what it forwarded, a file its name.
func (s *Session) showContent(m Message) {
	s.LastMessageFileName = ""
	kind := m.MsgType
	if kind == string(chat.Forward) && m.ForwardType != "" {
		kind = m.ForwardType
	}
	switch {
	case m.RecallTime != 0:
		s.LastMessageContent = RecalledPreview
	case m.Content == ErasedContent:
		s.LastMessageContent = ErasedContent
	default:
		s.LastMessageContent = chat.Preview(kind, m.Content)
		if kind == string(chat.File) {
			var media chat.Media
			if json.Unmarshal([]byte(m.Content), &media) == nil {
				s.LastMessageFileName = media.FileName
			}
		}
	}
}

// loadSession returns the session of k, fetching it when the batch has not
// yet; nil when the member has no such conversation.
func (b *chatBatch) loadSession(ctx context.Context, k SessionKey) (*Session, error) {
	if s, ok := b.sessions[k]; ok {
		return s, nil
	}
	if b.gone[k] {
		return nil, nil
	}
	found, err := b.tx.GetSessions(ctx, []SessionKey{k})
	if err != nil {
		return nil, err
	}
	s, ok := found[k]
	if !ok {
		return nil, nil
	}
	b.sessions[k] = &s
	return &s, nil
}
