package commands

import (
	"context"
	"crypto/sha1"
	"fmt"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/friend"
)

// SendMessage sends a message to a friend or a group. The event id is derived from the
// sender, the chat and the client's uuid, so a retried send appends nothing
// and answers with the first send's id and time, for ever.
func (a *App) SendMessage(ctx context.Context, p Principal, r SendMessage) (SendResult, error) {
	return awaited(a.QueueSendMessage(ctx, p, r, nil))
}

// awaited answers a queued send once it is durable.
func awaited(wait func() (SendResult, error), err error) (SendResult, error) {
	if err != nil {
		return SendResult{}, err
	}
	return wait()
}

// QueueSendMessage checks a send and queues its message to the log: what
// is queued after it comes after it in the chat. wait, to be called once,
// answers the send once its message is durable. earlier, when not nil,
// waits until the caller's sends queued before this one are answered; a
// check that counts the member's own sends (a group's send rate) calls it
// first.
func (a *App) QueueSendMessage(ctx context.Context, p Principal, r SendMessage, earlier func()) (wait func() (SendResult, error), err error) {
	chatType, err := chat.ParseChatType(r.ChatType)
	if err != nil {
		return nil, err
	}
	msgType, err := chat.ParseSendableType(r.MsgType)
	if err != nil {
		return nil, err
	}
	return a.queueSend(ctx, p, chat.Outgoing{UUID: r.UUID, ChatType: chatType, From: p.MemberID, To: r.To, GroupID: r.GroupID,
		MsgType: msgType, Content: r.Content, Parent: r.ParentMessageID}, earlier)
}

// send validates, authorizes and appends one message.
func (a *App) send(ctx context.Context, p Principal, out chat.Outgoing) (SendResult, error) {
	return awaited(a.queueSend(ctx, p, out, nil))
}

// queueSend validates, authorizes and queues one message (see
// QueueSendMessage).
func (a *App) queueSend(ctx context.Context, p Principal, out chat.Outgoing, earlier func()) (func() (SendResult, error), error) {
	if err := out.Validate(); err != nil {
		return nil, err
	}
	if err := a.checkContent(ctx, p, out.MsgType, out.Content); err != nil {
		return nil, err
	}
	if err := a.checkMedia(ctx, p, out.MsgType, out.Content); err != nil {
		return nil, err
	}
	if out.ChatType == chat.Group {
		return retryOnConflict(ctx, func() (func() (SendResult, error), error) {
			return speakAndAppend(ctx, a, p, out.GroupID, earlier, func(at es.ExpectedRevision) (func() (SendResult, error), error) {
				return a.queueReply(ctx, p, out.GroupID, out, at)
			})
		})
	}
	pair, err := a.authorizeFriendChat(ctx, p, out.To, "send")
	if err != nil {
		return nil, err
	}
	return a.queueReply(ctx, p, pair, out, es.Any)
}

// queueReply checks that a reply's parent is in the chat and queues the
// message at the chat's revision at.
func (a *App) queueReply(ctx context.Context, p Principal, chatID string, out chat.Outgoing, at es.ExpectedRevision) (func() (SendResult, error), error) {
	if out.MsgType == chat.Reply {
		parents, err := a.Messages.SentMessages(ctx, p.Tenant, p.MemberID, []string{out.Parent})
		if err != nil {
			return nil, err
		}
		if len(parents) == 0 || parents[0].ChatID != chatID {
			return nil, fault.New(fault.Invalid, fault.MsgParentMissing)
		}
	} else {
		out.Parent = ""
	}
	return a.queueChecked(ctx, p, chatID, out, at)
}

// appendSend appends one checked message to the chat pair; a retried uuid
// answers the first send.
func (a *App) appendSend(ctx context.Context, p Principal, pair string, out chat.Outgoing) (SendResult, error) {
	return awaited(a.queueChecked(ctx, p, pair, out, es.Any))
}

// queueChecked queues one checked message to the chat pair at its revision
// at (see appendSend).
func (a *App) queueChecked(ctx context.Context, p Principal, pair string, out chat.Outgoing, at es.ExpectedRevision) (func() (SendResult, error), error) {
	stream := es.Stream(p.Tenant, es.CategoryChat, pair)
	eventID := messageEventID(p.Tenant, pair, p.MemberID, out.UUID)
	id, err := a.NewID()
	if err != nil {
		return nil, err
	}
	e := chat.Send(id, out, a.Now())
	data, err := a.encode(p, out.UUID, []es.Event{e}, eventID)
	if err != nil {
		return nil, err
	}
	appended, err := a.queueAppend(ctx, stream, at, data)
	if err != nil {
		return nil, err
	}
	return func() (SendResult, error) {
		res, err := appended()
		if err != nil {
			return SendResult{}, err
		}
		if res.Duplicate {
			return a.firstSend(ctx, stream, res)
		}
		sent := e.(*chat.MessageSent)
		return SendResult{ID: sent.MessageID, UUID: sent.UUID, ServerReceiveTime: sent.At, Position: res.Position}, nil
	}, nil
}

// firstSend reads back the message a retried send had appended.
func (a *App) firstSend(ctx context.Context, stream string, res es.WriteResult) (SendResult, error) {
	recs, err := a.Store.ReadStream(ctx, stream, es.Forwards, res.NextRevision, 1)
	if err != nil {
		return SendResult{}, err
	}
	if len(recs) == 0 {
		return SendResult{}, fmt.Errorf("send: duplicate at %s@%d not found", stream, res.NextRevision)
	}
	e, err := a.registry.Decode(recs[0].Type, recs[0].Data)
	if err != nil {
		return SendResult{}, err
	}
	sent, ok := e.(*chat.MessageSent)
	if !ok {
		return SendResult{}, fmt.Errorf("send: duplicate at %s@%d is a %s", stream, res.NextRevision, recs[0].Type)
	}
	return SendResult{ID: sent.MessageID, UUID: sent.UUID, ServerReceiveTime: sent.At, Position: recs[0].Position}, nil
}

// authorizeFriendChat asks the policy whether p may act on its chat with
// peer, and returns the chat's pair id.
func (a *App) authorizeFriendChat(ctx context.Context, p Principal, peer, action string) (string, error) {
	if peer == p.MemberID {
		return "", fault.New(fault.Invalid, fault.MsgFriendMissing)
	}
	pair := friend.PairID(p.MemberID, peer)
	f, _, err := a.friendship(ctx, p.Tenant, pair)
	if err != nil {
		return "", err
	}
	role, scope := RoleStranger, ScopeSameTenant
	if action != "read" && f.BlockedBy(peer) { // the blocked still read and ack what they have
		return "", fault.New(fault.Forbidden, fault.MsgBlockedByFriend)
	}
	if f.Friends() {
		role = RoleFriend
	} else if err := a.checkTarget(ctx, p, peer, "chat", "open"); err != nil {
		return "", err
	}
	if !a.Authz.Allowed(role, scope, "chat", action) {
		return "", fault.New(fault.Forbidden, fault.MsgNotFriend)
	}
	return pair, nil
}

// messageEventID is a name-based (version 5) UUID of the send's identity.
func messageEventID(tenant, chatID, from, clientUUID string) string {
	h := sha1.New()
	h.Write(messageNamespace[:])
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", tenant, chatID, from, clientUUID)
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = (u[6] & 0x0f) | 0x50
	u[8] = (u[8] & 0x3f) | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:])
}

// messageNamespace is the UUID namespace of message event ids.
var messageNamespace = [16]byte{0x6f, 0x1c, 0x2e, 0x3a, 0x91, 0x0b, 0x4d, 0x5e, 0x8a, 0x7c, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66}
