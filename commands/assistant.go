package commands

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/eventchat/eventchat/domain/assistant"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/tenant"
)

// Message keys of the assistant's switch and set-up.
const (
	MsgAssistantOff      = "the chat assistant is turned off on this server"
	MsgAssistantNotSetUp = "the chat assistant is not set up on this server"
)

// AssistantModel is an OpenAI-compatible chat-completions endpoint.
type AssistantModel interface {
	// Stream asks model for the next answer of turns and calls delta with
	// each piece of its text, in order, as it arrives. It returns when the
	// answer is whole, the provider fails or ctx ends.
	Stream(ctx context.Context, ep AssistantEndpoint, model string, turns []assistant.Turn, delta func(string)) error
}

// AssistantEndpoint is where a tenant's questions go.
type AssistantEndpoint struct {
	BaseURL string
	Key     string // "" : none (a local server)
}

// AssistantKeys keep the tenants' provider keys, which never enter the log.
type AssistantKeys interface {
	AssistantKey(tenant string) (string, error)
	// SetAssistantKey keeps key for tenant; "" forgets it.
	SetAssistantKey(tenant, key string) error
}

// AssistantStream pushes an answer's text to its member's connections, on
// every node, as it is written. The question and the whole answer reach
// them as events do.
type AssistantStream interface {
	PushAssistant(tenant, member string, d AssistantDelta)
}

// AssistantDelta is a piece of an answer being written (push 70, type
// "delta"); Seq counts the pieces of one answer from 1.
type AssistantDelta struct {
	Type       string `json:"type"`
	QuestionID string `json:"questionId"`
	Seq        int    `json:"seq"`
	Text       string `json:"text"`
}

// AssistantDeps wire the chat assistant. Without a Model every tenant's
// assistant is not set up.
type AssistantDeps struct {
	Model  AssistantModel
	Keys   AssistantKeys
	Stream AssistantStream
}

// AskAssistant is the body of POST /v1/assistant/ask; Model "" asks the
// member's model.
type AskAssistant struct {
	Model   string `json:"model"`
	Content string `json:"content"`
}

// AssistantAsked answers a question: its id, whose answer streams as push
// 70, and the model asked.
type AssistantAsked struct {
	QuestionID string `json:"questionId"`
	Model      string `json:"model"`
	Position   uint64 `json:"position"`
}

// StopAssistant is the body of PUT /v1/assistant/stop.
type StopAssistant struct {
	QuestionID string `json:"questionId"`
}

// AssistantStopped answers a stop; Position is 0 when the answer had ended
// or its stop was asked already.
type AssistantStopped struct {
	QuestionID string `json:"questionId"`
	Position   uint64 `json:"position"`
}

// ChooseAssistantModel is the body of PUT /v1/assistant/setting.
type ChooseAssistantModel struct {
	ModelGpt string `json:"modelGpt"`
}

// AssistantSetting is the spec's GPT settings of a member, and whether its
// tenant's assistant is on and set up.
type AssistantSetting struct {
	MemberID string   `json:"memberId"`
	ModelGpt string   `json:"modelGpt"`
	Models   []string `json:"models"`
	On       bool     `json:"on"`
	Ready    bool     `json:"ready"`
	Position uint64   `json:"position"`
}

// staleGrace is how long past its tenant's timeout a question may stay
// unanswered before it counts as interrupted (its node stopped).
const staleGrace = 30 * time.Second

// finishTimeout bounds the append of an answer.
const finishTimeout = 10 * time.Second

var questionID = regexp.MustCompile(`^[0-9]{1,32}$`)

// Why an answer's context ended.
var (
	errStopped  = errors.New("stopped by the member")
	errShutdown = errors.New("server shutting down")
	errTimeout  = errors.New("provider timed out")
)

func assistantStream(p Principal) string {
	return es.Stream(p.Tenant, es.CategoryAssistant, p.MemberID)
}

// assistantConfig is the tenant's assistant, refused when it is off; ready
// also requires it to be set up.
func (a *App) assistantConfig(ctx context.Context, p Principal, ready bool) (tenant.Assistant, error) {
	cfg, err := a.TenantConfig(ctx, p.Tenant)
	if err != nil {
		return tenant.Assistant{}, err
	}
	as := cfg.Assistant
	switch {
	case !as.On:
		return as, fault.New(fault.Forbidden, MsgAssistantOff)
	case ready && (as.BaseURL == "" || a.Assistant.Model == nil):
		return as, fault.New(fault.Forbidden, MsgAssistantNotSetUp)
	}
	return as, nil
}

// AskAssistant appends the member's question and has the tenant's model
// answer it in the background: the text streams to the member's
// connections and the whole answer, or what was written before a stop, a
// failure or the tenant's timeout, is appended when it ends.
func (a *App) AskAssistant(ctx context.Context, p Principal, r AskAssistant) (AssistantAsked, error) {
	cfg, err := a.assistantConfig(ctx, p, true)
	if err != nil {
		return AssistantAsked{}, err
	}
	ep := AssistantEndpoint{BaseURL: cfg.BaseURL}
	if a.Assistant.Keys != nil {
		if ep.Key, err = a.Assistant.Keys.AssistantKey(p.Tenant); err != nil {
			return AssistantAsked{}, err
		}
	}
	id, err := a.NewID()
	if err != nil {
		return AssistantAsked{}, err
	}
	timeout := time.Duration(cfg.Timeout) * time.Second
	var q assistant.Asked
	var turns []assistant.Turn
	res, err := retryOnConflict(ctx, func() (AssistantAsked, error) {
		var c assistant.Conversation
		st, err := a.loadAll(ctx, assistantStream(p), c.Apply)
		if err != nil {
			return AssistantAsked{}, err
		}
		now := a.Now()
		events, err := c.Ask(id, p.MemberID, r.Model, r.Content, cfg.Models, now, now.Add(-timeout-staleGrace))
		if err != nil {
			return AssistantAsked{}, err
		}
		w, err := a.appendEvents(ctx, p, assistantStream(p), st.expected(), events)
		if err != nil {
			return AssistantAsked{}, err
		}
		q = *events[len(events)-1].(*assistant.Asked)
		turns = append(c.Context(), assistant.Turn{Role: "user", Content: q.Content})
		return AssistantAsked{QuestionID: id, Model: q.Model, Position: w.Position}, nil
	})
	if err != nil {
		return res, err
	}
	a.answers.start(p.Tenant+"/"+q.ID, timeout, func(ctx context.Context) {
		a.answer(ctx, p, q, ep, turns)
	})
	return res, nil
}

// answer streams the model's answer of q and appends it.
func (a *App) answer(ctx context.Context, p Principal, q assistant.Asked, ep AssistantEndpoint, turns []assistant.Turn) {
	var text strings.Builder
	seq := 0
	err := a.Assistant.Model.Stream(ctx, ep, q.Model, turns, func(d string) {
		if d == "" || text.Len() >= assistant.MaxAnswer {
			return
		}
		text.WriteString(d)
		seq++
		if a.Assistant.Stream != nil {
			a.Assistant.Stream.PushAssistant(p.Tenant, p.MemberID, AssistantDelta{Type: "delta", QuestionID: q.ID, Seq: seq, Text: d})
		}
	})
	outcome, reason := assistant.Done, ""
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errStopped):
		outcome = assistant.Stopped
	case errors.Is(cause, errTimeout):
		outcome, reason = assistant.Failed, assistant.ReasonTimeout
	case errors.Is(cause, errShutdown):
		outcome, reason = assistant.Failed, assistant.ReasonInterrupted
	case err != nil:
		outcome, reason = assistant.Failed, assistant.ReasonProvider
	}
	done, cancel := context.WithTimeout(context.Background(), finishTimeout)
	defer cancel()
	_, _ = retryOnConflict(done, func() (struct{}, error) {
		var c assistant.Conversation
		st, err := a.loadAll(done, assistantStream(p), c.Apply)
		if err != nil {
			return struct{}{}, err
		}
		events := c.Finish(q.ID, text.String(), outcome, reason, a.Now())
		if len(events) == 0 {
			return struct{}{}, nil
		}
		_, err = a.appendEvents(done, p, assistantStream(p), st.expected(), events)
		return struct{}{}, err
	})
}

// StopAssistant stops the answer of one of the member's questions: the
// node writing it keeps what was written, marked stopped. Another
// member's question is unknown.
func (a *App) StopAssistant(ctx context.Context, p Principal, r StopAssistant) (AssistantStopped, error) {
	if !questionID.MatchString(r.QuestionID) {
		return AssistantStopped{}, fault.New(fault.Invalid, fault.MsgBadRequest)
	}
	res, err := retryOnConflict(ctx, func() (AssistantStopped, error) {
		var c assistant.Conversation
		st, err := a.loadAll(ctx, assistantStream(p), c.Apply)
		if err != nil {
			return AssistantStopped{}, err
		}
		events, err := c.Stop(r.QuestionID, p.MemberID, a.Now())
		if err != nil || len(events) == 0 {
			return AssistantStopped{QuestionID: r.QuestionID}, err
		}
		w, err := a.appendEvents(ctx, p, assistantStream(p), st.expected(), events)
		if err != nil {
			return AssistantStopped{}, err
		}
		return AssistantStopped{QuestionID: r.QuestionID, Position: w.Position}, nil
	})
	if err == nil {
		a.answers.stop(p.Tenant + "/" + r.QuestionID)
	}
	return res, err
}

// AssistantSetting returns the member's model and its tenant's models.
func (a *App) AssistantSetting(ctx context.Context, p Principal) (AssistantSetting, error) {
	cfg, err := a.TenantConfig(ctx, p.Tenant)
	if err != nil {
		return AssistantSetting{}, err
	}
	var c assistant.Conversation
	if _, err := a.loadAll(ctx, assistantStream(p), c.Apply); err != nil {
		return AssistantSetting{}, err
	}
	return a.assistantSetting(p, cfg.Assistant, &c, 0), nil
}

func (a *App) assistantSetting(p Principal, cfg tenant.Assistant, c *assistant.Conversation, pos uint64) AssistantSetting {
	return AssistantSetting{MemberID: p.MemberID, ModelGpt: c.ModelOf(cfg.Models), Models: cfg.Models,
		On: cfg.On, Ready: cfg.Ready() && a.Assistant.Model != nil, Position: pos}
}

// ChooseAssistantModel saves the member's model (modelGpt), one of its
// tenant's.
func (a *App) ChooseAssistantModel(ctx context.Context, p Principal, r ChooseAssistantModel) (AssistantSetting, error) {
	cfg, err := a.assistantConfig(ctx, p, false)
	if err != nil {
		return AssistantSetting{}, err
	}
	return retryOnConflict(ctx, func() (AssistantSetting, error) {
		var c assistant.Conversation
		st, err := a.loadAll(ctx, assistantStream(p), c.Apply)
		if err != nil {
			return AssistantSetting{}, err
		}
		events, err := c.ChooseModel(p.MemberID, r.ModelGpt, cfg.Models, a.Now())
		if err != nil || len(events) == 0 {
			return a.assistantSetting(p, cfg, &c, 0), err
		}
		w, err := a.appendEvents(ctx, p, assistantStream(p), st.expected(), events)
		if err != nil {
			return AssistantSetting{}, err
		}
		for _, e := range events {
			c.Apply(e)
		}
		return a.assistantSetting(p, cfg, &c, w.Position), nil
	})
}

// AssistantModels lists the models of the member's tenant; another
// tenant's list is unknown.
func (a *App) AssistantModels(ctx context.Context, p Principal, tenantID string) ([]string, error) {
	if tenantID != p.Tenant {
		return nil, fault.New(fault.NotFound, fault.MsgNotFound)
	}
	cfg, err := a.assistantConfig(ctx, p, false)
	if err != nil {
		return nil, err
	}
	return cfg.Models, nil
}

// RunAssistant lets answers be written until ctx ends, then stops those
// being written (each is appended as interrupted) and waits for them.
func (a *App) RunAssistant(ctx context.Context) {
	a.answers.open(ctx)
	<-ctx.Done()
	a.answers.close()
}

// answerRuns are the answers this node is writing, by tenant/question.
type answerRuns struct {
	mu     sync.Mutex
	base   context.Context
	cancel map[string]context.CancelCauseFunc
	wg     sync.WaitGroup
}

func (r *answerRuns) open(ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	base, cancel := context.WithCancelCause(context.Background())
	context.AfterFunc(ctx, func() { cancel(errShutdown) })
	r.base = base
}

func (r *answerRuns) close() {
	r.wg.Wait()
}

// start runs write in the background with a context that ends after
// timeout, at a stop or at shutdown.
func (r *answerRuns) start(key string, timeout time.Duration, write func(ctx context.Context)) {
	r.mu.Lock()
	base := r.base
	if base == nil {
		base = context.Background()
	}
	ctx, stop := context.WithCancelCause(base)
	ctx, cancelTimeout := context.WithTimeoutCause(ctx, timeout, errTimeout)
	if r.cancel == nil {
		r.cancel = map[string]context.CancelCauseFunc{}
	}
	r.cancel[key] = stop
	r.wg.Add(1)
	r.mu.Unlock()
	go func() {
		defer r.wg.Done()
		defer cancelTimeout()
		defer stop(nil)
		write(ctx)
		r.mu.Lock()
		delete(r.cancel, key)
		r.mu.Unlock()
	}()
}

// stop ends the answer of key if this node writes it.
func (r *answerRuns) stop(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cancel, ok := r.cancel[key]; ok {
		cancel(errStopped)
	}
}
