package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// EditMessage is the body of PUT /v1/message/modify.
type EditMessage struct {
	ID      string `json:"id"`
	Content string `json:"content"`
}

// Edited answers an edit.
type Edited struct {
	ID       string `json:"id"`
	Content  string `json:"content"`
	EditTime int64  `json:"editTime"`
	Position uint64 `json:"position"`
}

// RecallMessage is the body of PUT /v1/message/recall.
type RecallMessage struct {
	ID string `json:"id"`
}

// Recalled answers a recall.
type Recalled struct {
	ID         string `json:"id"`
	RecallTime int64  `json:"recallTime"`
	Position   uint64 `json:"position"`
}

// DeleteMessages deletes messages for the member (Everyone false) or, in
// its chat with FriendMemberID, for both members.
type DeleteMessages struct {
	MessageIDs     []string
	Everyone       bool
	FriendMemberID string
	GroupID        string // for everyone in a group's chat, instead of a friend's
}

// Deleted answers a deletion with every id it deleted, forwarded batches
// included.
type Deleted struct {
	MessageIDs []string `json:"messageIds"`
	Position   uint64   `json:"position"`
}

// ClearHistory is the body of POST /v1/message/clearHistory.
type ClearHistory struct {
	ChatType       string `json:"chatType"`
	FriendMemberID string `json:"friendMemberId"`
	GroupID        string `json:"groupId"`
}

// Cleared answers a clear: the member's history up to UpTo (ms) is gone.
type Cleared struct {
	UpTo     int64  `json:"upTo"`
	Position uint64 `json:"position"`
}

// one finds the message id that p sees, in a chat p belongs to.
func (a *App) one(ctx context.Context, p Principal, id string) (chat.Stored, error) {
	ms, err := a.sentMessages(ctx, p, []string{id})
	if err != nil {
		return chat.Stored{}, err
	}
	return ms[0], nil
}

// sentMessages finds every message of ids that p sees in a chat it belongs
// to, in the order of ids, or fails with not found.
func (a *App) sentMessages(ctx context.Context, p Principal, ids []string) ([]chat.Stored, error) {
	return a.findSent(ctx, p, ids, a.Messages.SentMessages)
}

// findSent is sentMessages, looking the messages up with find.
func (a *App) findSent(ctx context.Context, p Principal, ids []string,
	find func(ctx context.Context, tenant, member string, ids []string) ([]chat.Stored, error)) ([]chat.Stored, error) {
	for _, id := range ids {
		if id == "" {
			return nil, fault.New(fault.Invalid, fault.MsgMessageNotFound)
		}
	}
	ms, err := find(ctx, p.Tenant, p.MemberID, ids)
	if err != nil {
		return nil, err
	}
	if len(ms) != len(ids) {
		return nil, fault.New(fault.NotFound, fault.MsgMessageNotFound)
	}
	member := map[string]bool{} // groups p is found a member of
	for _, m := range ms {
		switch {
		case m.ChatType == chat.Group && !member[m.ChatID]:
			// Not to tell a group's message from any other id p may not see.
			if _, err := a.groupMember(ctx, p, m.ChatID, "read"); fault.Is(err, fault.NotFound) {
				return nil, fault.New(fault.NotFound, fault.MsgMessageNotFound)
			} else if err != nil {
				return nil, err
			}
			member[m.ChatID] = true
		case m.ChatType == chat.Group:
		case m.ChatType != chat.Friend || (m.From != p.MemberID && m.To != p.MemberID):
			return nil, fault.New(fault.NotFound, fault.MsgMessageNotFound)
		}
	}
	return ms, nil
}

// peerOf is the other member of a friend chat message, or the group of a
// group chat message.
func peerOf(m chat.Stored, member string) string {
	switch {
	case m.ChatType == chat.Group:
		return m.ChatID
	case m.From == member:
		return m.To
	}
	return m.From
}

// authorizeChat asks the policy whether p may act on the chat of m.
func (a *App) authorizeChat(ctx context.Context, p Principal, m chat.Stored, action string) error {
	if m.ChatType == chat.Group {
		_, err := a.groupMember(ctx, p, m.ChatID, action)
		return err
	}
	_, err := a.authorizeFriendChat(ctx, p, peerOf(m, p.MemberID), action)
	return err
}

// appendToChat appends events decided by p to the chat of m.
func (a *App) appendToChat(ctx context.Context, p Principal, m chat.Stored, events ...es.Event) (es.WriteResult, error) {
	return a.appendEvents(ctx, p, es.Stream(p.Tenant, es.CategoryChat, m.ChatID), es.Any, events)
}

// EditMessage replaces the content of p's own message.
func (a *App) EditMessage(ctx context.Context, p Principal, r EditMessage) (Edited, error) {
	m, err := a.one(ctx, p, r.ID)
	if err != nil {
		return Edited{}, err
	}
	if err := a.authorizeChat(ctx, p, m, "send"); err != nil {
		return Edited{}, err
	}
	if err := a.checkContent(ctx, p, chat.Text, r.Content); err != nil {
		return Edited{}, err
	}
	e, err := chat.Edit(m, p.MemberID, r.Content, a.Now())
	if err != nil || e == nil {
		return Edited{ID: m.ID, Content: m.Content}, err
	}
	res, err := a.appendToChat(ctx, p, m, e)
	if err != nil {
		return Edited{}, err
	}
	edited := e.(*chat.MessageEdited)
	return Edited{ID: m.ID, Content: edited.Content, EditTime: edited.At, Position: res.Position}, nil
}

// RecallMessage withdraws p's own message for both members.
func (a *App) RecallMessage(ctx context.Context, p Principal, r RecallMessage) (Recalled, error) {
	m, err := a.one(ctx, p, r.ID)
	if err != nil {
		return Recalled{}, err
	}
	e, err := chat.Recall(m, p.MemberID, a.Now())
	if err != nil || e == nil {
		return Recalled{ID: m.ID}, err
	}
	res, err := a.appendToChat(ctx, p, m, e)
	if err != nil {
		return Recalled{}, err
	}
	return Recalled{ID: m.ID, RecallTime: e.(*chat.MessageRecalled).At, Position: res.Position}, nil
}

// DeleteMessages deletes messages, with the whole of any forwarded batch
// one of them belongs to.
func (a *App) DeleteMessages(ctx context.Context, p Principal, r DeleteMessages) (Deleted, error) {
	if err := chat.CheckIDs(r.MessageIDs); err != nil {
		return Deleted{}, err
	}
	find := a.Messages.SentMessages
	if !r.Everyone {
		// A message already deleted for oneself is found, so that a delete
		// repeated (a second click, a second device) is answered as done.
		find = a.Messages.SentMessagesHiddenToo
	}
	ms, err := a.findSent(ctx, p, r.MessageIDs, find)
	if err != nil {
		return Deleted{}, err
	}
	now := a.Now()
	if r.Everyone && r.GroupID != "" {
		g, err := a.groupMember(ctx, p, r.GroupID, "read")
		if err != nil {
			return Deleted{}, err
		}
		return a.deleteInGroup(ctx, p, g, ms)
	}
	if r.Everyone {
		return a.deleteForEveryone(ctx, p, r.FriendMemberID, ms)
	}
	if !slices.ContainsFunc(ms, func(m chat.Stored) bool { return !m.Hidden }) {
		return Deleted{MessageIDs: chat.WithBatches(ms)}, nil
	}
	// One event per chat, in the member's inbox, in one append.
	var events []es.Event
	var all []string
	byChat := map[string][]chat.Stored{}
	var order []string
	for _, m := range ms {
		if _, seen := byChat[m.ChatID]; !seen {
			order = append(order, m.ChatID)
		}
		byChat[m.ChatID] = append(byChat[m.ChatID], m)
	}
	for _, chatID := range order {
		chatMs := byChat[chatID]
		ids := chat.WithBatches(chatMs)
		all = append(all, ids...)
		events = append(events, chat.Hide(p.MemberID, peerOf(chatMs[0], p.MemberID), chatMs[0].ChatType, ids, now))
	}
	res, err := a.appendEvents(ctx, p, es.Stream(p.Tenant, es.CategoryInbox, p.MemberID), es.Any, events)
	if err != nil {
		return Deleted{}, err
	}
	return Deleted{MessageIDs: all, Position: res.Position}, nil
}

func (a *App) deleteForEveryone(ctx context.Context, p Principal, peer string, ms []chat.Stored) (Deleted, error) {
	if peer == "" {
		return Deleted{}, fault.New(fault.Invalid, fault.MsgFriendMissing)
	}
	pair, err := a.authorizeFriendChat(ctx, p, peer, "send")
	if err != nil {
		return Deleted{}, err
	}
	for _, m := range ms {
		if m.ChatID != pair {
			return Deleted{}, fault.New(fault.NotFound, fault.MsgMessageNotFound)
		}
	}
	ids := chat.WithBatches(ms)
	e, err := chat.DeleteForEveryone(ms, p.MemberID, ids, false, a.Now())
	if err != nil {
		return Deleted{}, err
	}
	res, err := a.appendToChat(ctx, p, ms[0], e)
	if err != nil {
		return Deleted{}, err
	}
	return Deleted{MessageIDs: ids, Position: res.Position}, nil
}

// ClearHistory hides from p every message of its chat with a friend sent
// so far.
func (a *App) ClearHistory(ctx context.Context, p Principal, r ClearHistory) (Cleared, error) {
	chatType, err := chat.ParseChatType(r.ChatType)
	if err != nil {
		return Cleared{}, err
	}
	if chatType == chat.Group {
		return a.clearGroupHistory(ctx, p, r.GroupID)
	}
	if r.FriendMemberID == "" {
		return Cleared{}, fault.New(fault.Invalid, fault.MsgFriendMissing)
	}
	pair, err := a.authorizeFriendChat(ctx, p, r.FriendMemberID, "read")
	if err != nil {
		return Cleared{}, err
	}
	now := a.Now()
	last, err := a.Store.ReadStream(ctx, es.Stream(p.Tenant, es.CategoryChat, pair), es.Backwards, es.End, 1)
	if err != nil {
		return Cleared{}, err
	}
	if len(last) == 0 {
		return Cleared{UpTo: now.UnixMilli()}, nil
	}
	e := chat.Clear(p.MemberID, r.FriendMemberID, chatType, last[0].Revision, now)
	res, err := a.appendEvents(ctx, p, es.Stream(p.Tenant, es.CategoryInbox, p.MemberID), es.Any, []es.Event{e})
	if err != nil {
		return Cleared{}, err
	}
	return Cleared{UpTo: now.UnixMilli(), Position: res.Position}, nil
}

// clearGroupHistory hides from p every message of a group's chat so far.
func (a *App) clearGroupHistory(ctx context.Context, p Principal, groupID string) (Cleared, error) {
	if _, err := a.groupMember(ctx, p, groupID, "read"); err != nil {
		return Cleared{}, err
	}
	now := a.Now()
	e := chat.Clear(p.MemberID, groupID, chat.Group, 0, now)
	res, err := a.appendEvents(ctx, p, es.Stream(p.Tenant, es.CategoryInbox, p.MemberID), es.Any, []es.Event{e})
	if err != nil {
		return Cleared{}, err
	}
	return Cleared{UpTo: now.UnixMilli(), Position: res.Position}, nil
}

// ForwardTarget is one chat a forward goes to: a friend, or a group by its
// id.
type ForwardTarget struct {
	ChatType string `json:"chatType"`
	To       string `json:"to"`
}

// ForwardMessages is the body of POST /v1/message/forward.
type ForwardMessages struct {
	UUID       string          `json:"uuid"`
	MessageIDs []string        `json:"messageIds"`
	Targets    []ForwardTarget `json:"targets"`
}

// ForwardedMessage is one message a forward sent.
type ForwardedMessage struct {
	SendResult
	To string `json:"to"`
}

// Forwarded answers a forward.
type Forwarded struct {
	Messages []ForwardedMessage `json:"messages"`
}

// ForwardMessages sends copies of messages p sees to each target, one
// append per target; the same uuid again answers the first result.
func (a *App) ForwardMessages(ctx context.Context, p Principal, r ForwardMessages) (Forwarded, error) {
	if err := checkForward(r.UUID, r.MessageIDs, r.Targets); err != nil {
		return Forwarded{}, err
	}
	records, err := a.sentMessages(ctx, p, r.MessageIDs)
	if err != nil {
		return Forwarded{}, err
	}
	return a.forward(ctx, p, r.UUID, records, r.Targets)
}

// checkForward checks a forward's uuid, the number of its records and of
// its targets, before any is looked up.
func checkForward(uuid string, ids []string, targets []ForwardTarget) error {
	if err := (chat.Outgoing{UUID: uuid, ChatType: chat.Friend, To: "-", Content: "-"}).Validate(); err != nil {
		return err
	}
	if err := chat.CheckForwardIDs(ids); err != nil {
		return err
	}
	switch {
	case len(targets) == 0:
		return fault.New(fault.Invalid, fault.MsgForwardNoTarget)
	case len(targets) > chat.MaxForwardTargets:
		return fault.New(fault.Invalid, fault.MsgTooManyTargets)
	}
	return nil
}

// forward checks records and targets, then sends the copies of records to
// each target, one append per target. A group target refusing a retried
// forward answers it with its first copies (orRetried) while checking.
func (a *App) forward(ctx context.Context, p Principal, uuid string, records []chat.Stored, targets []ForwardTarget) (Forwarded, error) {
	if err := chat.CheckForward(records); err != nil {
		return Forwarded{}, err
	}
	pairs := make([]string, len(targets))
	types := make([]chat.ChatType, len(targets))
	answered := make([][]ForwardedMessage, len(targets))
	for i, t := range targets {
		chatType, err := chat.ParseChatType(t.ChatType)
		if err != nil {
			return Forwarded{}, err
		}
		types[i] = chatType
		if chatType == chat.Group {
			pairs[i] = t.To
			if _, err = a.speakInGroup(ctx, p, t.To, nil); err != nil {
				answered[i], err = orRetried(err, func(at es.ExpectedRevision) ([]ForwardedMessage, error) {
					return a.forwardTo(ctx, p, uuid, t.To, chat.Group, t.To, records, at)
				})
			}
		} else {
			pairs[i], err = a.authorizeFriendChat(ctx, p, t.To, "send")
		}
		if err != nil {
			return Forwarded{}, err
		}
	}
	var out Forwarded
	for i, t := range targets {
		sent, err := answered[i], error(nil)
		if sent == nil {
			sent, err = retryOnConflict(ctx, func() ([]ForwardedMessage, error) {
				appendAt := func(at es.ExpectedRevision) ([]ForwardedMessage, error) {
					return a.forwardTo(ctx, p, uuid, pairs[i], types[i], t.To, records, at)
				}
				if types[i] == chat.Group {
					// Counted against the group's send rate as a send is.
					return speakAndAppend(ctx, a, p, t.To, nil, appendAt)
				}
				return appendAt(es.Any)
			})
		}
		if err != nil {
			return Forwarded{}, err
		}
		out.Messages = append(out.Messages, sent...)
	}
	return out, nil
}

// forwardUUID is the uuid of the i-th copy of a forward.
func forwardUUID(uuid string, i int) string { return fmt.Sprintf("%s-%d", uuid, i) }

// forwardEventID is the event id of the i-th copy of a forward to chat.
func forwardEventID(p Principal, chat, uuid string, i int) string {
	return messageEventID(p.Tenant, chat, p.MemberID, forwardUUID(uuid, i))
}

// forwardTo appends the forwarded copies of records to one chat at its
// revision at.
func (a *App) forwardTo(ctx context.Context, p Principal, uuid, pair string, chatType chat.ChatType, to string, records []chat.Stored, at es.ExpectedRevision) ([]ForwardedMessage, error) {
	n := len(records)
	ids, uuids, eventIDs := make([]string, n), make([]string, n), make([]string, n)
	for i := range records {
		var err error
		if ids[i], err = a.NewID(); err != nil {
			return nil, err
		}
		uuids[i], eventIDs[i] = forwardUUID(uuid, i), forwardEventID(p, pair, uuid, i)
	}
	events := chat.ForwardTo(records, ids, uuids, p.MemberID, chatType, to, a.Now())
	data, err := a.encode(p, uuid, events, eventIDs...)
	if err != nil {
		return nil, err
	}
	stream := es.Stream(p.Tenant, es.CategoryChat, pair)
	res, err := a.Store.Append(ctx, stream, at, data)
	if err != nil {
		return nil, err
	}
	first := res.NextRevision + 1 - uint64(n)
	if res.Duplicate {
		return a.firstForward(ctx, stream, first, n, to)
	}
	out := make([]ForwardedMessage, n)
	for i, e := range events {
		sent := e.(*chat.MessageSent)
		out[i] = ForwardedMessage{SendResult: SendResult{ID: sent.MessageID, UUID: sent.UUID,
			ServerReceiveTime: sent.At, Position: res.Position}, To: to}
	}
	return out, nil
}

// firstForward reads back the messages a retried forward had appended.
func (a *App) firstForward(ctx context.Context, stream string, from uint64, n int, to string) ([]ForwardedMessage, error) {
	recs, err := a.Store.ReadStream(ctx, stream, es.Forwards, from, n)
	if err != nil {
		return nil, err
	}
	out := make([]ForwardedMessage, 0, n)
	for _, rec := range recs {
		e, err := a.registry.Decode(rec.Type, rec.Data)
		if err != nil {
			return nil, err
		}
		sent, ok := e.(*chat.MessageSent)
		if !ok {
			return nil, fmt.Errorf("forward: duplicate at %s@%d is a %s", stream, rec.Revision, rec.Type)
		}
		out = append(out, ForwardedMessage{SendResult: SendResult{ID: sent.MessageID, UUID: sent.UUID,
			ServerReceiveTime: sent.At, Position: rec.Position}, To: to})
	}
	return out, nil
}

// ShareContact is the body of POST /v1/message/shareContact.
type ShareContact struct {
	UUID     string `json:"uuid"`
	ChatType string `json:"chatType"`
	To       string `json:"to"`
	MemberID string `json:"memberId"`
}

// ShareContact sends the card of a member of p's tenant to a friend.
func (a *App) ShareContact(ctx context.Context, p Principal, r ShareContact) (SendResult, error) {
	if r.MemberID == "" {
		return SendResult{}, fault.New(fault.Invalid, fault.MsgMemberNotFound)
	}
	ok, err := a.memberExists(ctx, p.Tenant, r.MemberID)
	if err != nil {
		return SendResult{}, err
	}
	if !ok {
		return SendResult{}, fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	card, found, err := a.Messages.Card(ctx, p.Tenant, r.MemberID)
	if err != nil {
		return SendResult{}, err
	}
	if !found {
		card = chat.Card{MemberID: r.MemberID}
	}
	content, err := json.Marshal(card)
	if err != nil {
		return SendResult{}, err
	}
	chatType, err := chat.ParseChatType(r.ChatType)
	if err != nil {
		return SendResult{}, err
	}
	return a.send(ctx, p, chat.Outgoing{UUID: r.UUID, ChatType: chatType, From: p.MemberID, To: r.To,
		MsgType: chat.ShareContact, Content: string(content)})
}

// AckMentions is the body of the mention acknowledgements: MessageIDs for
// at/ack/messageIds, SessionID for at/ack/sessionId.
type AckMentions struct {
	MessageIDs []string `json:"messageIds"`
	SessionID  string   `json:"sessionId"`
}

// AckMentions records that p has seen its mentions in the messages given,
// or in one conversation, and returns the event's position.
func (a *App) AckMentions(ctx context.Context, p Principal, r AckMentions) (uint64, error) {
	if r.SessionID == "" {
		if err := chat.CheckIDs(r.MessageIDs); err != nil {
			return 0, err
		}
	} else if len(r.MessageIDs) > 0 {
		return 0, fault.New(fault.Invalid, fault.MsgBadRequest)
	}
	e := &chat.MentionsAcked{Member: p.MemberID, MessageIDs: r.MessageIDs, SessionID: r.SessionID, At: a.Now().UnixMilli()}
	res, err := a.appendEvents(ctx, p, es.Stream(p.Tenant, es.CategoryInbox, p.MemberID), es.Any, []es.Event{e})
	return res.Position, err
}
