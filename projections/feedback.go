package projections

import (
	"context"
	"encoding/json"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/personal"
)

// Feedback keeps, per tenant, the feedback its members sent and the back-end
// administrators' replies, for operators to list. Both are personal items
// of the tenant's feedback owner (personal.FeedbackOwner): a feedback and its
// latest reply under the feedback's id.
type Feedback struct{}

// Name is the persisted checkpoint key.
func (Feedback) Name() string { return "feedback.v1" }

// FeedbackDoc is a member's feedback as the list keeps it.
type FeedbackDoc struct {
	ID         string   `json:"id"`
	MemberID   string   `json:"memberId"`
	Type       string   `json:"type"`
	Content    string   `json:"content"`
	Images     []string `json:"images"`
	CreateTime int64    `json:"createTime"`
}

// FeedbackReplyDoc is the latest reply to a feedback.
type FeedbackReplyDoc struct {
	Reply     string `json:"reply"`
	By        string `json:"repliedBy"` // the operator, as the event's actor
	ReplyTime int64  `json:"replyTime"`
}

// Project folds feedback and replies in log order.
func (Feedback) Project(ctx context.Context, tx Tx, events []Envelope) ([]Delta, error) {
	put := func(env Envelope, kind, id string, at int64, v any) error {
		doc, err := json.Marshal(v)
		if err != nil {
			return err
		}
		return tx.PutPersonalItems(ctx, []PersonalItem{{Tenant: env.Tenant, Member: personal.FeedbackOwner(env.Tenant), Kind: kind, ID: id, At: at, Doc: doc}})
	}
	for _, env := range events {
		if env.Stream.Category != es.CategoryMember {
			continue
		}
		var err error
		switch e := env.Event.(type) {
		case *member.FeedbackSubmitted:
			images := e.Images
			if images == nil {
				images = []string{}
			}
			err = put(env, personal.KindFeedback, e.ID, e.At, FeedbackDoc{ID: e.ID, MemberID: env.Stream.ID, Type: e.Type,
				Content: erasedAs(e.Content, ErasedContent), Images: images, CreateTime: e.At})
		case *member.FeedbackReplied:
			err = put(env, personal.KindFeedbackReply, e.ID, e.At, FeedbackReplyDoc{Reply: e.Reply, By: env.Metadata.Actor, ReplyTime: e.At})
		case *member.Erased:
			err = erasedFeedback(ctx, tx, env)
		}
		if err != nil {
			return nil, err
		}
	}
	return nil, nil
}
