package commands

import (
	"context"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
)

// AckRead records that p has read its chat with r.To up to r.MessageID and
// returns the event's position.
func (a *App) AckRead(ctx context.Context, p Principal, r AckRead) (uint64, error) {
	chatType, err := chat.ParseChatType(r.ChatType)
	if err != nil {
		return 0, err
	}
	if chatType == chat.Group {
		return a.ackGroupRead(ctx, p, r)
	}
	pair, err := a.authorizeFriendChat(ctx, p, r.To, "read")
	if err != nil {
		return 0, err
	}
	e, err := chat.Ack(p.MemberID, r.To, r.MessageID, chatType, a.Now())
	if err != nil {
		return 0, err
	}
	res, err := a.appendEvents(ctx, p, es.Stream(p.Tenant, es.CategoryChat, pair), es.Any, []es.Event{e})
	return res.Position, err
}

// ackGroupRead records that p has read a group's chat up to r.MessageID;
// the group is r.GroupID, or r.To.
func (a *App) ackGroupRead(ctx context.Context, p Principal, r AckRead) (uint64, error) {
	groupID := r.GroupID
	if groupID == "" {
		groupID = r.To
	}
	if _, err := a.groupMember(ctx, p, groupID, "read"); err != nil {
		return 0, err
	}
	e, err := chat.Ack(p.MemberID, groupID, r.MessageID, chat.Group, a.Now())
	if err != nil {
		return 0, err
	}
	res, err := a.appendEvents(ctx, p, es.Stream(p.Tenant, es.CategoryChat, groupID), es.Any, []es.Event{e})
	return res.Position, err
}
