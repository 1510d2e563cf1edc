package projections

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/group"
)

// A group chat is ordered by the log, not by its chat stream: its event
// lines come from the group's stream, its messages from the chat's. A
// message's sequence is its position times linesPerEvent; the lines one
// group event makes follow one another from its position's sequence.
const linesPerEvent = 8

func groupSeq(position uint64, line int) uint64 { return position*linesPerEvent + uint64(line) }

// lineID names an event line by its sequence: 19 digits, zero-padded,
// where a snowflake id never starts with a zero.
func lineID(seq uint64) string { return fmt.Sprintf("%019d", seq) }

// Operation types of the event lines of a group chat.
const (
	OpCreate           = "Create"
	OpJoin             = "Join"
	OpRemove           = "Remove"
	OpLeave            = "Leave"
	OpSetMemberRole    = "SetMemberRole"
	OpCancelMemberRole = "CancelMemberRole"
	OpTransferOwner    = "TransferOwner"
	OpModifyName       = "ModifyName"
	OpModifyNotice     = "ModifyNotice"
	OpModifyHead       = "ModifyHead"
	OpMuteAll          = "MuteAll"
	OpUnmuteAll        = "UnmuteAll"
	OpMuteMember       = "MuteMember"
	OpUnmuteMember     = "UnmuteMember"
	OpPinMessage       = "AddTop"
	OpUnpinMessage     = "DelTop"
)

// The members of a group chat are the members with a session of it: the
// chats projector keeps them from the group's events itself, so that a
// message reaches exactly the members of its time, replayed or not.

// roster returns the members of a group chat as the batch sees them.
func (b *chatBatch) roster(ctx context.Context, groupID string) (map[string]bool, error) {
	if r, ok := b.rosters[groupID]; ok {
		return r, nil
	}
	ss, err := b.tx.GroupSessions(ctx, groupID)
	if err != nil {
		return nil, err
	}
	r := make(map[string]bool, len(ss))
	for _, s := range ss {
		k := s.Key()
		if b.gone[k] {
			continue
		}
		r[s.Member] = true
		if _, ok := b.sessions[k]; !ok {
			s := s
			b.sessions[k] = &s
		}
	}
	b.rosters[groupID] = r
	return r, nil
}

func sorted(r map[string]bool) []string {
	out := make([]string, 0, len(r))
	for m := range r {
		out = append(out, m)
	}
	slices.Sort(out)
	return out
}

// recipients are who a change of m is pushed to: the members of its chat.
func (b *chatBatch) recipients(ctx context.Context, m Message) ([]string, error) {
	if m.ChatType != string(chat.Group) {
		return []string{m.From, m.To}, nil
	}
	r, err := b.roster(ctx, m.ChatID)
	return sorted(r), err
}

// chatKeys are the sessions showing the chat of m.
func (b *chatBatch) chatKeys(ctx context.Context, m Message) ([]SessionKey, error) {
	if m.ChatType != string(chat.Group) {
		return []SessionKey{{Member: m.From, Peer: m.To}, {Member: m.To, Peer: m.From}}, nil
	}
	r, err := b.roster(ctx, m.ChatID)
	if err != nil {
		return nil, err
	}
	keys := make([]SessionKey, 0, len(r))
	for _, member := range sorted(r) {
		keys = append(keys, SessionKey{Member: member, Peer: m.ChatID})
	}
	return keys, nil
}

// join gives member a new session of the group chat.
func (b *chatBatch) join(ctx context.Context, env Envelope, groupID, member string) error {
	r, err := b.roster(ctx, groupID)
	if err != nil {
		return err
	}
	r[member] = true
	k := SessionKey{Member: member, Peer: groupID}
	delete(b.gone, k)
	b.sessions[k] = &Session{
		Tenant: env.Tenant, Member: member, Peer: groupID, ChatType: string(chat.Group), ChatID: groupID,
		JoinSeq: groupSeq(env.Position, 0),
	}
	b.session(env, k, string(chat.Group))
	return nil
}

// leaveChat drops member's session of the group chat and its mentions
// there: the chat leaves its recents (21).
func (b *chatBatch) leaveChat(ctx context.Context, groupID, member string) error {
	r, err := b.roster(ctx, groupID)
	if err != nil {
		return err
	}
	delete(r, member)
	k := SessionKey{Member: member, Peer: groupID}
	delete(b.sessions, k)
	if _, listed := b.isDirty[k]; listed {
		b.isDirty[k] = false
	}
	if !b.gone[k] {
		b.gone[k] = true
		b.goneOrder = append(b.goneOrder, k)
	}
	if err := b.flush(ctx); err != nil {
		return err
	}
	return b.tx.DeleteSessionMentions(ctx, member, groupID)
}

// countable reports whether m counts as unread for member until read.
func countable(m Message, member string) bool {
	return !m.Deleted && m.RecallTime == 0 && m.MsgType != string(chat.Event) && m.From != member &&
		!slices.Contains(m.HiddenFor, member)
}

// after returns the messages of chatID after seq, pending ones included.
func (b *chatBatch) after(ctx context.Context, chatID string, seq uint64) ([]Message, error) {
	if err := b.flush(ctx); err != nil {
		return nil, err
	}
	return b.tx.MessagesAfter(ctx, chatID, seq)
}

func (b *chatBatch) groupSent(ctx context.Context, env Envelope, e *chat.MessageSent) error {
	chatID := env.Stream.ID
	r, err := b.roster(ctx, chatID)
	if err != nil {
		return err
	}
	m := Message{
		ID: e.MessageID, UUID: e.UUID, Tenant: env.Tenant, ChatID: chatID, Seq: groupSeq(env.Position, 0),
		Position: env.Position, ChatType: e.ChatType, From: e.From, GroupID: e.GroupID,
		MsgType: e.MsgType, Content: e.Content, ServerReceiveTime: e.At, Status: StatusRead,
		ParentMessageID: e.Parent, ForwardBatchID: e.ForwardBatchID, ForwardBatch: e.ForwardBatch,
		ForwardFrom: e.ForwardFrom, ForwardType: e.ForwardType,
	}
	b.pendingIndex[m.ID] = len(b.pending)
	b.pending = append(b.pending, m)
	members := sorted(r)
	if e.MsgType == string(chat.AtText) {
		mentioned := chat.Mentions(e.Content)
		all := slices.Contains(mentioned, chat.MentionAll)
		for _, member := range members {
			if member != e.From && (all || slices.Contains(mentioned, member)) {
				b.mentions = append(b.mentions, Mention{
					Tenant: env.Tenant, Member: member, MessageID: m.ID, SessionID: chatID, SessionType: e.ChatType, At: e.At,
				})
			}
		}
	}
	for _, member := range members {
		s := b.session(env, SessionKey{Member: member, Peer: chatID}, e.ChatType)
		s.showLast(m)
		s.Hidden = false
		if member != e.From {
			s.UnreadCount++
		}
	}
	b.deltas = append(b.deltas, delta(env, CmdMessage, m, members...))
	// A member has read the chat up to what it says in it, as if it had
	// acknowledged its own message.
	return b.groupRead(ctx, env, &chat.ReadAcknowledged{Reader: e.From, Peer: chatID, ChatType: e.ChatType, MessageID: m.ID, At: e.At})
}

// groupRead moves the reader's read position up to the message read, never
// back, recounts its unread messages as those after it (loading a group
// chat reads it), and tells the senders of the messages it newly read (28).
func (b *chatBatch) groupRead(ctx context.Context, env Envelope, e *chat.ReadAcknowledged) error {
	chatID := env.Stream.ID
	seq, ok, err := b.seqOf(ctx, chatID, e.MessageID)
	if err != nil || !ok {
		return err
	}
	b.clearMark(env, e)
	key := SessionKey{Member: e.Reader, Peer: e.Peer}
	s, err := b.loadSession(ctx, key)
	if err != nil || s == nil {
		return err
	}
	from := max(s.ReadSeq, s.JoinSeq)
	if seq > s.ReadSeq {
		b.session(env, key, s.ChatType)
		s.ReadSeq = seq
	}
	// A read reaches only unread messages of others: with none, there is
	// nothing to recount or tell.
	if s.UnreadCount == 0 {
		return nil
	}
	after, err := b.after(ctx, chatID, min(from, seq))
	if err != nil {
		return err
	}
	n := 0
	senders := map[string]bool{}
	for _, m := range after {
		switch {
		case !countable(m, e.Reader):
		case m.Seq > seq:
			n++
		case m.Seq > from:
			senders[m.From] = true
		}
	}
	if err := b.readBy(ctx, env, e, seq, senders); err != nil {
		return err
	}
	if n >= s.UnreadCount {
		return nil
	}
	b.session(env, key, s.ChatType)
	s.UnreadCount = n
	b.deltas = append(b.deltas,
		delta(env, CmdSessionChanged, s.View(), e.Reader),
		delta(env, CmdReadAck, readAck{ChatType: e.ChatType, From: e.Reader, To: e.Peer, MessageID: e.MessageID, Seq: &seq}, e.Reader))
	return nil
}

// readBy tells the senders, still members, of messages a member has just
// read that it read them: their readers lists are out of date.
func (b *chatBatch) readBy(ctx context.Context, env Envelope, e *chat.ReadAcknowledged, seq uint64, senders map[string]bool) error {
	if len(senders) == 0 {
		return nil
	}
	r, err := b.roster(ctx, env.Stream.ID)
	if err != nil {
		return err
	}
	for m := range senders {
		if !r[m] {
			delete(senders, m)
		}
	}
	if len(senders) > 0 {
		b.deltas = append(b.deltas, delta(env, CmdReadAck,
			readAck{ChatType: e.ChatType, From: e.Reader, To: e.Peer, MessageID: e.MessageID, Seq: &seq}, sorted(senders)...))
	}
	return nil
}

// settleGroupUnread takes the messages gone (as they were before they went)
// off the unread counts of members that had not read them. A member's
// unread messages are the last of its countable ones, as a read ack reads
// all before the message read.
func (b *chatBatch) settleGroupUnread(ctx context.Context, env Envelope, chatID string, gone []Message, members []string) error {
	first := gone[0].Seq
	for _, m := range gone {
		first = min(first, m.Seq)
	}
	after, err := b.after(ctx, chatID, first-1)
	if err != nil {
		return err
	}
	for _, member := range members {
		key := SessionKey{Member: member, Peer: chatID}
		s, err := b.loadSession(ctx, key)
		if err != nil {
			return err
		}
		if s == nil || s.UnreadCount == 0 {
			continue
		}
		n := 0
		for _, g := range gone {
			if !countable(g, member) {
				continue
			}
			later := 0
			for _, m := range after {
				if m.Seq > g.Seq && countable(m, member) {
					later++
				}
			}
			if later < s.UnreadCount {
				n++
			}
		}
		if n > 0 {
			b.session(env, key, s.ChatType)
			s.UnreadCount = max(0, s.UnreadCount-n)
		}
	}
	return nil
}

// line is one event line a group event adds to the group's chat.
type line struct {
	op, operator, target, content string
}

// mention writes a member as the chat writes mentions; previews resolve it
// to the member's name.
func mention(id string) string { return "@[" + id + "]" }

func mentions(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = mention(id)
	}
	return strings.Join(out, ", ")
}

// groupEvent keeps the members of a group chat and adds the event lines
// of what happened in the group.
func (b *chatBatch) groupEvent(ctx context.Context, env Envelope) error {
	groupID := env.Stream.ID
	var lines []line
	var at int64
	switch e := env.Event.(type) {
	case *group.Created:
		for _, m := range append([]string{e.Owner}, e.Members...) {
			if err := b.join(ctx, env, groupID, m); err != nil {
				return err
			}
		}
		at, lines = e.At, []line{{OpCreate, e.Owner, "", mention(e.Owner) + " created the group"}}
	case *group.MembersAdded:
		for _, m := range e.Members {
			if err := b.join(ctx, env, groupID, m); err != nil {
				return err
			}
			// A new member sees the chat from its joining on.
			if err := b.tx.SetClearFloor(ctx, m, groupID, groupSeq(env.Position, 0)); err != nil {
				return err
			}
		}
		at, lines = e.At, []line{{OpJoin, e.By, strings.Join(e.Members, ","), mention(e.By) + " invited " + mentions(e.Members) + " to the group"}}
	case *group.MemberRemoved:
		if err := b.lines(ctx, env, e.At, line{OpRemove, e.By, e.Member, mention(e.By) + " removed " + mention(e.Member) + " from the group"}); err != nil {
			return err
		}
		return b.leaveChat(ctx, groupID, e.Member)
	case *group.MemberLeft:
		if err := b.leaveChat(ctx, groupID, e.Member); err != nil {
			return err
		}
		at, lines = e.At, []line{{OpLeave, e.Member, e.Member, mention(e.Member) + " left the group"}}
	case *group.MemberRoleChanged:
		l := line{OpSetMemberRole, e.By, e.Member, mention(e.By) + " made " + mention(e.Member) + " an admin"}
		if e.Role != group.Admin {
			l = line{OpCancelMemberRole, e.By, e.Member, mention(e.By) + " removed " + mention(e.Member) + " as an admin"}
		}
		at, lines = e.At, []line{l}
	case *group.OwnershipTransferred:
		at, lines = e.At, []line{{OpTransferOwner, e.From, e.To, mention(e.From) + " made " + mention(e.To) + " the group owner"}}
	case *group.Modified:
		at, lines = e.At, modifiedLines(e)
	case *group.MemberMuted:
		l := line{OpMuteMember, e.By, e.Member, mention(e.By) + " muted " + mention(e.Member)}
		if !e.Muted {
			l = line{OpUnmuteMember, e.By, e.Member, mention(e.By) + " let " + mention(e.Member) + " speak again"}
		}
		at, lines = e.At, []line{l}
	case *group.MessagePinned:
		at, lines = e.At, []line{{OpPinMessage, e.By, e.MessageID, mention(e.By) + " pinned a message"}}
	case *group.MessageUnpinned:
		at, lines = e.At, []line{{OpUnpinMessage, e.By, e.MessageID, mention(e.By) + " unpinned a message"}}
	case *group.Dissolved:
		r, err := b.roster(ctx, groupID)
		if err != nil {
			return err
		}
		for _, m := range sorted(r) {
			if err := b.leaveChat(ctx, groupID, m); err != nil {
				return err
			}
		}
	}
	return b.lines(ctx, env, at, lines...)
}

func modifiedLines(e *group.Modified) []line {
	var out []line
	by := mention(e.By)
	if e.Name != nil {
		out = append(out, line{OpModifyName, e.By, "", by + " changed the group name to " + *e.Name})
	}
	if e.Notice != nil {
		out = append(out, line{OpModifyNotice, e.By, "", by + " changed the group notice"})
	}
	if e.HeadURL != nil {
		out = append(out, line{OpModifyHead, e.By, "", by + " changed the group avatar"})
	}
	if e.MuteAll != nil && *e.MuteAll {
		out = append(out, line{OpMuteAll, e.By, "", by + " muted all members"})
	} else if e.MuteAll != nil {
		out = append(out, line{OpUnmuteAll, e.By, "", by + " let all members speak"})
	}
	return out
}

// lines adds event lines to the group chat: every member's conversation
// shows the last as its last content, and none counts as unread.
func (b *chatBatch) lines(ctx context.Context, env Envelope, at int64, lines ...line) error {
	if len(lines) == 0 {
		return nil
	}
	groupID := env.Stream.ID
	r, err := b.roster(ctx, groupID)
	if err != nil {
		return err
	}
	members := sorted(r)
	for i, l := range lines {
		seq := groupSeq(env.Position, i)
		m := Message{
			ID: lineID(seq), UUID: lineID(seq), Tenant: env.Tenant, ChatID: groupID, Seq: seq, Position: env.Position,
			ChatType: string(chat.Group), GroupID: groupID, MsgType: string(chat.Event), Content: l.content,
			ServerReceiveTime: at, Status: StatusRead, OperationType: l.op, OperatorID: l.operator, TargetID: l.target,
		}
		b.pendingIndex[m.ID] = len(b.pending)
		b.pending = append(b.pending, m)
		for _, member := range members {
			s := b.session(env, SessionKey{Member: member, Peer: groupID}, string(chat.Group))
			s.showLast(m)
			s.LastMessageContent = l.content // a line is shown whole
		}
		b.deltas = append(b.deltas, delta(env, CmdMessage, m, members...))
	}
	return nil
}
