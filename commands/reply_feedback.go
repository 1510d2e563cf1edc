package commands

import (
	"context"
	"encoding/json"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/personal"
	"github.com/eventchat/eventchat/domain/tenant"
)

// FeedbackReplied answers an operator's reply to a member's feedback.
type FeedbackReplied struct {
	ID       string `json:"id"`
	MemberID string `json:"memberId"`
	Position uint64 `json:"position"`
}

// ReplyFeedback records an operator's reply to the feedback id a member of
// tenantCode sent; the member gets a notice of it.
func (a *App) ReplyFeedback(ctx context.Context, op Operator, tenantCode, id, reply string) (FeedbackReplied, error) {
	if err := a.operatorMay(op, "member", "reply-feedback"); err != nil {
		return FeedbackReplied{}, err
	}
	if err := tenant.ValidateCode(tenantCode); err != nil {
		return FeedbackReplied{}, err
	}
	if id == "" || len(id) > 20 {
		return FeedbackReplied{}, fault.New(fault.NotFound, fault.MsgFeedbackNotFound)
	}
	docs, err := a.Personal.PersonalDocs(ctx, tenantCode, personal.FeedbackOwner(tenantCode), personal.KindFeedback, []string{id})
	if err != nil {
		return FeedbackReplied{}, err
	}
	if len(docs) == 0 {
		return FeedbackReplied{}, fault.New(fault.NotFound, fault.MsgFeedbackNotFound)
	}
	var f struct {
		MemberID string `json:"memberId"`
	}
	if err := json.Unmarshal(docs[0], &f); err != nil {
		return FeedbackReplied{}, err
	}
	state, err := a.operateMember(ctx, op, tenantCode, f.MemberID, "reply-feedback", func(m *member.Member, now time.Time) ([]es.Event, error) {
		return m.ReplyFeedback(id, reply, now)
	})
	if err != nil {
		return FeedbackReplied{}, err
	}
	return FeedbackReplied{ID: id, MemberID: f.MemberID, Position: state.Position}, nil
}

// MayListFeedback tells whether op may list the feedback the members of
// tenantCode sent; the edge reads the list from the read model.
func (a *App) MayListFeedback(op Operator, tenantCode string) error {
	if err := a.operatorMay(op, "feedback", "list"); err != nil {
		return err
	}
	return tenant.ValidateCode(tenantCode)
}
