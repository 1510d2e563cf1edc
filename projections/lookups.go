package projections

import (
	"context"
	"slices"
	"time"

	"github.com/eventchat/eventchat/domain/chat"
)

// Lookups answers the commands' questions about sent messages and members
// from the read models. A message may be in the log and not yet in the
// read models, or not yet in its latest state (a client acting on a message
// it has just sent or recalled): Lookups first waits for the read models to
// reach the head of the log, at most catchUpWait.
type Lookups struct {
	Q   Queries
	Log interface {
		Head(ctx context.Context) (uint64, error)
	}
	Wait func(ctx context.Context, position uint64) bool
}

// catchUpWait bounds the wait for the read models to reach the log's head.
const catchUpWait = 2 * time.Second

// SentMessages returns the messages among ids that member of tenant sees.
func (l Lookups) SentMessages(ctx context.Context, tenant, member string, ids []string) ([]chat.Stored, error) {
	return l.sent(ctx, Viewer{Tenant: tenant, Member: member}, ids)
}

// SentMessagesHiddenToo is SentMessages with the messages member deleted
// for itself too, marked Hidden.
func (l Lookups) SentMessagesHiddenToo(ctx context.Context, tenant, member string, ids []string) ([]chat.Stored, error) {
	return l.sent(ctx, Viewer{Tenant: tenant, Member: member}.HiddenToo(), ids)
}

func (l Lookups) sent(ctx context.Context, v Viewer, ids []string) ([]chat.Stored, error) {
	l.caughtUp(ctx)
	ms, err := l.Q.VisibleMessages(ctx, v, ids)
	if err != nil {
		return nil, err
	}
	out := make([]chat.Stored, len(ms))
	for i, m := range ms {
		out[i] = chat.Stored{
			ID: m.ID, ChatID: m.ChatID, ChatType: chat.ChatType(m.ChatType), From: m.From, To: m.To, GroupID: m.GroupID,
			MsgType: chat.MsgType(m.MsgType), Content: m.Content, SentAt: m.ServerReceiveTime,
			Recalled: m.RecallTime != 0, ForwardBatch: m.ForwardBatch, ForwardType: chat.MsgType(m.ForwardType),
			Hidden: slices.Contains(m.HiddenFor, v.Member),
		}
	}
	return out, nil
}

// Card returns the contact card of a member of tenant.
func (l Lookups) Card(ctx context.Context, tenant, memberID string) (chat.Card, bool, error) {
	ms, err := l.Q.MembersByID(ctx, Viewer{Tenant: tenant}, []string{memberID})
	if err != nil {
		return chat.Card{}, false, err
	}
	m, ok := ms[memberID]
	return chat.Card{MemberID: m.ID, Name: m.Name, HeadURL: m.HeadURL, Account: m.Account}, ok, nil
}

// caughtUp waits until the read models hold the whole log as it is now,
// at most catchUpWait.
func (l Lookups) caughtUp(ctx context.Context) {
	if l.Log == nil || l.Wait == nil {
		return
	}
	head, err := l.Log.Head(ctx)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, catchUpWait)
	defer cancel()
	l.Wait(ctx, head)
}
