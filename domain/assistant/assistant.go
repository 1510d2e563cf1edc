// Package assistant holds each member's conversation with the chat
// assistant: the questions it asked, the answers a chat-completions model
// wrote (whole, stopped or failed) and the model it chose.
package assistant

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// Event type names: stored identifiers, never renamed.
const (
	TypeAsked         = "AssistantAsked"
	TypeAnswered      = "AssistantAnswered"
	TypeStopRequested = "AssistantStopRequested"
	TypeModelChosen   = "AssistantModelChosen"
)

// DefaultModel is the spec's model of a member that chose none.
const DefaultModel = "gpt-4o-mini"

// Limits of a question and of the context sent with it.
const (
	MaxQuestion = 4000 // characters
	MaxAnswer   = 32000
	// ContextTurns is how many earlier questions and answers go with a
	// question, so that the model can follow the conversation.
	ContextTurns = 10
)

// Outcomes of an answer.
const (
	Done    = "Done"
	Stopped = "Stopped" // the member stopped it; Content is what was written by then
	Failed  = "Failed"
)

// Reasons of a failed answer; the client words them in its language.
const (
	ReasonProvider    = "provider"    // the model's server failed or refused
	ReasonTimeout     = "timeout"     // it did not finish in the tenant's time
	ReasonInterrupted = "interrupted" // the server stopped while it was writing
)

// Message keys.
const (
	MsgQuestionEmpty   = "the question is empty"
	MsgQuestionTooLong = "the question is too long: at most 4000 characters"
	MsgModelNotOffered = "this model is not offered on this server"
	MsgStillAnswering  = "the assistant is still answering the last question"
)

// Asked is a member's question, in its stream <tenant>.assistant-<member>.
type Asked struct {
	ID      string `json:"id"`
	Member  string `json:"member"`
	Model   string `json:"model"`
	Content string `json:"content"`
	At      int64  `json:"at"`
}

// Answered ends a question: the text the model wrote and how it ended.
type Answered struct {
	QuestionID string `json:"questionId"`
	Member     string `json:"member"`
	Model      string `json:"model"`
	Content    string `json:"content"`
	Outcome    string `json:"outcome"`          // Done | Stopped | Failed
	Reason     string `json:"reason,omitempty"` // for Failed
	At         int64  `json:"at"`
}

// StopRequested asks the node writing an answer to stop it.
type StopRequested struct {
	QuestionID string `json:"questionId"`
	Member     string `json:"member"`
	At         int64  `json:"at"`
}

// ModelChosen saves the model a member asks by default (modelGpt).
type ModelChosen struct {
	Member string `json:"member"`
	Model  string `json:"model"`
	At     int64  `json:"at"`
}

func (*Asked) EventType() string         { return TypeAsked }
func (*Answered) EventType() string      { return TypeAnswered }
func (*StopRequested) EventType() string { return TypeStopRequested }
func (*ModelChosen) EventType() string   { return TypeModelChosen }

// PersonalFields: see es.Personal. The questions and their answers are the
// asking member's.
func (*Asked) PersonalFields() (string, []string)    { return "member", []string{"content"} }
func (*Answered) PersonalFields() (string, []string) { return "member", []string{"content"} }

// Events lists the constructors of this package's events.
func Events() []func() es.Event {
	return []func() es.Event{
		func() es.Event { return &Asked{} }, func() es.Event { return &Answered{} },
		func() es.Event { return &StopRequested{} }, func() es.Event { return &ModelChosen{} },
	}
}

// Turn is one side of an exchange as the model is shown it.
type Turn struct {
	Role    string // "user" | "assistant"
	Content string
}

// Conversation is a member's conversation with the assistant, folded from
// its stream.
type Conversation struct {
	model   string
	pending *Asked
	stop    bool // a stop of the pending question was requested
	ended   map[string]bool
	turns   []Turn
}

// Model is the member's chosen model, DefaultModel when none.
func (c *Conversation) Model() string {
	if c.model == "" {
		return DefaultModel
	}
	return c.model
}

// ModelOf is the member's model if allowed offers it, else the first of
// allowed: the model a question asks by default.
func (c *Conversation) ModelOf(allowed []string) string {
	if m := c.Model(); slices.Contains(allowed, m) || len(allowed) == 0 {
		return m
	}
	return allowed[0]
}

// Pending is the question being answered, if any.
func (c *Conversation) Pending() (Asked, bool) {
	if c.pending == nil {
		return Asked{}, false
	}
	return *c.pending, true
}

// Context is the last exchanges, oldest first, to send with a question.
func (c *Conversation) Context() []Turn { return slices.Clone(c.turns) }

// Apply folds one event into the state. It never validates.
func (c *Conversation) Apply(e es.Event) {
	switch e := e.(type) {
	case *ModelChosen:
		c.model = e.Model
	case *Asked:
		q := *e
		c.pending, c.stop = &q, false
	case *StopRequested:
		if c.pending != nil && c.pending.ID == e.QuestionID {
			c.stop = true
		}
	case *Answered:
		if c.ended == nil {
			c.ended = map[string]bool{}
		}
		c.ended[e.QuestionID] = true
		if c.pending != nil && c.pending.ID == e.QuestionID {
			if e.Content != "" {
				c.turns = append(c.turns, Turn{"user", c.pending.Content}, Turn{"assistant", e.Content})
				if n := len(c.turns); n > 2*ContextTurns {
					c.turns = slices.Clone(c.turns[n-2*ContextTurns:])
				}
			}
			c.pending, c.stop = nil, false
		}
	}
}

// Ask decides a question. model "" asks the member's model; allowed are the
// tenant's models. A question still being answered refuses another unless
// it was asked before staleBefore: its server stopped without ending it, so
// it ends as interrupted first.
func (c *Conversation) Ask(id, member, model, content string, allowed []string, now, staleBefore time.Time) ([]es.Event, error) {
	content = strings.TrimSpace(content)
	switch {
	case content == "" || !utf8.ValidString(content):
		return nil, fault.New(fault.Invalid, MsgQuestionEmpty)
	case utf8.RuneCountInString(content) > MaxQuestion:
		return nil, fault.New(fault.TooLarge, MsgQuestionTooLong)
	}
	if model == "" {
		model = c.ModelOf(allowed)
	}
	if !slices.Contains(allowed, model) {
		return nil, fault.New(fault.Invalid, MsgModelNotOffered)
	}
	var out []es.Event
	if q, ok := c.Pending(); ok {
		if q.At >= staleBefore.UnixMilli() {
			return nil, fault.New(fault.Conflict, MsgStillAnswering)
		}
		out = append(out, &Answered{QuestionID: q.ID, Member: member, Model: q.Model, Outcome: Failed,
			Reason: ReasonInterrupted, At: now.UnixMilli()})
	}
	return append(out, &Asked{ID: id, Member: member, Model: model, Content: content, At: now.UnixMilli()}), nil
}

// Stop decides stopping the answer of question id: nothing when it has
// ended or its stop was asked already.
func (c *Conversation) Stop(id, member string, now time.Time) ([]es.Event, error) {
	if c.pending != nil && c.pending.ID == id {
		if c.stop {
			return nil, nil
		}
		return []es.Event{&StopRequested{QuestionID: id, Member: member, At: now.UnixMilli()}}, nil
	}
	if c.ended[id] {
		return nil, nil
	}
	return nil, fault.New(fault.NotFound, fault.MsgNotFound)
}

// Finish decides the end of the pending question id: nothing when it has
// ended already.
func (c *Conversation) Finish(id, content, outcome, reason string, now time.Time) []es.Event {
	if c.pending == nil || c.pending.ID != id {
		return nil
	}
	if r := []rune(content); len(r) > MaxAnswer {
		content = string(r[:MaxAnswer])
	}
	return []es.Event{&Answered{QuestionID: id, Member: c.pending.Member, Model: c.pending.Model, Content: content,
		Outcome: outcome, Reason: reason, At: now.UnixMilli()}}
}

// ChooseModel decides the member's model among the tenant's.
func (c *Conversation) ChooseModel(member, model string, allowed []string, now time.Time) ([]es.Event, error) {
	if !slices.Contains(allowed, model) {
		return nil, fault.New(fault.Invalid, MsgModelNotOffered)
	}
	if model == c.model {
		return nil, nil
	}
	return []es.Event{&ModelChosen{Member: member, Model: model, At: now.UnixMilli()}}, nil
}
