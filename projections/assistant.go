package projections

import (
	"context"
	"encoding/json"

	"github.com/eventchat/eventchat/domain/assistant"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/member"
)

// CmdAssistant is the push of the chat assistant (70): "asked" and
// "answered" carry an item of the conversation; the command side pushes
// the "delta"s of an answer being written.
const CmdAssistant = 70

// KindAssistant is the personal-item kind of the assistant conversation.
const KindAssistant = "assistant"

// AssistantItem is one side of an exchange with the assistant: the member's
// question (role user, id the question's) or the answer (role assistant,
// id the question's followed by ":answer").
type AssistantItem struct {
	ID         string `json:"id"`
	QuestionID string `json:"questionId"`
	Role       string `json:"role"` // user | assistant
	Model      string `json:"model"`
	Content    string `json:"content"`
	Outcome    string `json:"outcome,omitempty"` // answers: Done | Stopped | Failed
	Reason     string `json:"reason,omitempty"`  // Failed: provider | timeout | interrupted
	CreateTime int64  `json:"createTime"`
	Position   uint64 `json:"position"`
}

// assistantPush is the data of push 70 for events.
type assistantPush struct {
	Type string        `json:"type"` // asked | answered
	Item AssistantItem `json:"item"`
}

// Assistant keeps each member's conversation with the chat assistant as
// personal items, and pushes its questions and answers to the member.
type Assistant struct{}

// Name is the persisted checkpoint key.
func (Assistant) Name() string { return "assistant.v1" }

// Project folds the assistant's questions and answers.
func (Assistant) Project(ctx context.Context, tx Tx, events []Envelope) ([]Delta, error) {
	var deltas []Delta
	for _, env := range events {
		var item AssistantItem
		var kind, asker string
		switch e := env.Event.(type) {
		case *assistant.Asked:
			kind, asker = "asked", e.Member
			item = AssistantItem{ID: e.ID, QuestionID: e.ID, Role: "user", Model: e.Model, Content: erasedAs(e.Content, ErasedContent), CreateTime: e.At}
		case *assistant.Answered:
			kind, asker = "answered", e.Member
			item = AssistantItem{ID: e.QuestionID + ":answer", QuestionID: e.QuestionID, Role: "assistant", Model: e.Model,
				Content: erasedAs(e.Content, ErasedContent), Outcome: e.Outcome, Reason: e.Reason, CreateTime: e.At}
		case *member.Erased:
			// Its conversation, which nobody else sees, goes with it.
			if env.Stream.Category == es.CategoryMember {
				if err := tx.DeletePersonalItems(ctx, env.Stream.ID, KindAssistant, nil); err != nil {
					return nil, err
				}
			}
			continue
		default:
			continue
		}
		item.Position = env.Position
		doc, err := json.Marshal(item)
		if err != nil {
			return nil, err
		}
		if err := tx.PutPersonalItems(ctx, []PersonalItem{{Tenant: env.Tenant, Member: asker, Kind: KindAssistant,
			ID: item.ID, At: item.CreateTime, Doc: doc}}); err != nil {
			return nil, err
		}
		deltas = append(deltas, delta(env, CmdAssistant, assistantPush{Type: kind, Item: item}, asker))
	}
	return deltas, nil
}
