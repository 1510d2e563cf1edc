package projections

import (
	"context"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
)

// What the read models show of an erased member (member.Erased, or a
// personal field that reads as es.Erased): a placeholder name, no phone,
// account or avatar, and its messages' bodies replaced, while who spoke
// when stays.
const (
	ErasedName    = "[erased]"
	ErasedContent = "[message deleted]"
)

// erasedAs is v, or instead when v was erased.
func erasedAs(v, instead string) string {
	if v == es.Erased {
		return instead
	}
	return v
}

// erasedMember is m with its personal data erased.
func erasedMember(m Member) Member {
	m.Name, m.Account, m.Phone, m.HeadURL, m.LastIP = ErasedName, "", "", "", ""
	return m
}

// openedSent is e, or a copy with the erased body when its content was
// erased.
func openedSent(e *chat.MessageSent) *chat.MessageSent {
	if e.Content != es.Erased {
		return e
	}
	c := *e
	c.Content = ErasedContent
	return &c
}

// erased replaces the body of every message the erased member sent, stored
// or in the batch, and the previews that show one.
func (b *chatBatch) erased(ctx context.Context, env Envelope) error {
	who := env.Stream.ID
	stored, err := b.tx.MessagesFrom(ctx, env.Tenant, who)
	if err != nil {
		return err
	}
	var changed []Message
	for _, m := range stored {
		if m.Content != "" && m.Content != ErasedContent {
			m.Content = ErasedContent
			changed = append(changed, m)
		}
	}
	if err := b.tx.UpdateMessages(ctx, changed); err != nil {
		return err
	}
	for i := range b.pending {
		if m := &b.pending[i]; m.From == who && m.Content != "" {
			m.Content = ErasedContent
			changed = append(changed, *m)
		}
	}
	for _, m := range changed {
		if err := b.refreshPreviews(ctx, env, m); err != nil {
			return err
		}
	}
	return nil
}

// Opener opens the personal fields that events carry sealed (see
// es.Personal) where they are not read through the live log: in an
// imported export.
type Opener interface {
	Open(ctx context.Context, recs []es.RecordedEvent) ([]es.RecordedEvent, error)
}

// openedLog is a log whose events are opened as they are read.
type openedLog struct {
	EventLog
	opener Opener
}

func (l openedLog) ReadAll(ctx context.Context, after uint64, max int) ([]es.RecordedEvent, error) {
	recs, err := l.EventLog.ReadAll(ctx, after, max)
	if err != nil {
		return nil, err
	}
	return l.opener.Open(ctx, recs)
}

func (l openedLog) Last(ctx context.Context) (es.RecordedEvent, bool, error) {
	r, ok, err := l.EventLog.Last(ctx)
	if err != nil || !ok {
		return r, ok, err
	}
	recs, err := l.opener.Open(ctx, []es.RecordedEvent{r})
	if err != nil {
		return es.RecordedEvent{}, false, err
	}
	return recs[0], true, nil
}

func (l openedLog) SubscribeAll(ctx context.Context, after uint64) (es.Subscription, error) {
	sub, err := l.EventLog.SubscribeAll(ctx, after)
	if err != nil {
		return nil, err
	}
	return openedSub{Subscription: sub, opener: l.opener}, nil
}

type openedSub struct {
	es.Subscription
	opener Opener
}

func (s openedSub) Next(ctx context.Context) ([]es.RecordedEvent, error) {
	recs, err := s.Subscription.Next(ctx)
	if err != nil {
		return recs, err
	}
	return s.opener.Open(ctx, recs)
}
