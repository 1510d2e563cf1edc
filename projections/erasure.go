package projections

import (
	"context"
	"encoding/json"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/personal"
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

// setNotice sets g's notice, written by writer.
func (g *Group) setNotice(notice, writer string) {
	g.Notice, g.NoticeBy = erasedAs(notice, ErasedContent), writer
	if notice == "" {
		g.NoticeBy = ""
	}
}

// erasedFavourite is f with the erased body when its copy was erased.
func erasedFavourite(f personal.Favourite) personal.Favourite {
	f.Content = erasedAs(f.Content, ErasedContent)
	return f
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

// erased replaces the notices the erased member wrote and its nickname in
// every group it is in, and tells each group's members.
func (b *groupBatch) erased(ctx context.Context, env Envelope) error {
	who := env.Stream.ID
	if err := b.flush(ctx); err != nil {
		return err
	}
	noticed, err := b.tx.GroupsNoticedBy(ctx, env.Tenant, who)
	if err != nil {
		return err
	}
	for _, n := range noticed {
		g, err := b.group(ctx, n.ID)
		if err != nil {
			return err
		}
		if g == nil || g.NoticeBy != who || g.Notice == "" || g.Notice == ErasedContent {
			continue
		}
		g.Notice = ErasedContent
		if err := b.pushAll(env, func() ([]string, error) { return b.memberIDs(ctx, g) }, CmdGroupChanged,
			groupChange{GroupID: g.ID, OperationType: "Modified", Position: env.Position}); err != nil {
			return err
		}
	}
	places, err := b.tx.GroupsOf(ctx, who)
	if err != nil {
		return err
	}
	for _, p := range places {
		if p.Nickname == "" || p.Nickname == ErasedName {
			continue
		}
		g, err := b.group(ctx, p.GroupID)
		if err != nil {
			return err
		}
		if g == nil {
			continue
		}
		if err := b.changeMember(ctx, env, g, who, "NicknameSet", func(m *GroupMember) { m.Nickname = ErasedName }); err != nil {
			return err
		}
	}
	return nil
}

// erasedApply replaces the texts of a friend request of an erased member,
// and reports whether it had any.
func erasedApply(a *Apply) bool {
	changed := false
	if a.Remark != "" && a.Remark != ErasedName {
		a.Remark, changed = ErasedName, true
	}
	if a.Content != "" && a.Content != ErasedContent {
		a.Content, changed = ErasedContent, true
	}
	return changed
}

// erased replaces the texts the erased member's acts carried (its friend
// requests' messages) on other members' notices, stored or in the batch.
func (b *noticeBatch) erased(ctx context.Context, env Envelope) error {
	who := env.Stream.ID
	stored, err := b.tx.NoticesBy(ctx, env.Tenant, who)
	if err != nil {
		return err
	}
	for _, n := range stored {
		if n.Content != "" && n.Content != ErasedContent {
			ns := b.of(env, n.Member)
			if _, inBatch := ns[n.ID]; !inBatch { // nil there: deleted
				ns[n.ID] = &n
			}
		}
	}
	for _, ns := range b.touched {
		for _, n := range ns {
			if n != nil && n.Actor == who && n.Content != "" {
				n.Content = ErasedContent
			}
		}
	}
	return nil
}

// erased replaces the remarks the erased member gave its friends, stored
// or in the batch.
func (f *friendRows) erased(ctx context.Context, who string) error {
	stored, err := f.tx.GetFriends(ctx, who, nil)
	if err != nil {
		return err
	}
	for id, row := range stored {
		k := friendKey{who, id}
		if _, inBatch := f.rows[k]; !inBatch && row.Remark != "" { // nil there: deleted
			f.set(k, &row)
		}
	}
	for k, row := range f.rows {
		if k.member == who && row != nil && row.Remark != "" {
			row.Remark = ErasedName
		}
	}
	return nil
}

// erasedFeedback replaces the text of the feedback the erased member sent.
func erasedFeedback(ctx context.Context, tx Tx, env Envelope) error {
	items, err := tx.GetPersonalItems(ctx, personal.FeedbackOwner(env.Tenant), personal.KindFeedback)
	if err != nil {
		return err
	}
	var changed []PersonalItem
	for _, it := range items {
		var f FeedbackDoc
		if err := json.Unmarshal(it.Doc, &f); err != nil {
			return err
		}
		if f.MemberID != env.Stream.ID || f.Content == "" || f.Content == ErasedContent {
			continue
		}
		f.Content = ErasedContent
		if it.Doc, err = json.Marshal(f); err != nil {
			return err
		}
		changed = append(changed, it)
	}
	return tx.PutPersonalItems(ctx, changed)
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
