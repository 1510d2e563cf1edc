package main

import (
	"context"
	"encoding/json"
	"path/filepath"

	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/assistantkeys"
	"github.com/eventchat/eventchat/adapters/chatmodel"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/assistant"
	"github.com/eventchat/eventchat/projections"
)

// openAssistant wires the chat assistant: the chat-completions adapter,
// the key file of the data directory, and the answers' text pushed on the
// delta bus (its publisher is set once the bus has one).
func openAssistant(cfg config, log *zap.Logger) (commands.AssistantDeps, *deltaPush, error) {
	keys, err := assistantkeys.Open(filepath.Join(cfg.DataDir, assistantkeys.FileName))
	if err != nil {
		return commands.AssistantDeps{}, nil, err
	}
	push := &deltaPush{}
	return commands.AssistantDeps{Model: loggedModel{chatmodel.OpenAI{}, log}, Keys: keys, Stream: push}, push, nil
}

// loggedModel logs the provider's failures for operators; the members
// see only the reason. The errors name the endpoint and model, never the
// key or the text.
type loggedModel struct {
	next commands.AssistantModel
	log  *zap.Logger
}

func (m loggedModel) Stream(ctx context.Context, ep commands.AssistantEndpoint, model string, turns []assistant.Turn, delta func(string)) error {
	err := m.next.Stream(ctx, ep, model, turns, delta)
	if err != nil && ctx.Err() == nil {
		m.log.Warn("chat model failed", zap.String("model", model), zap.Error(err))
	}
	return err
}

// deltaPush publishes an answer's pieces as deltas, so that every node's
// gateway pushes them to the member's connections.
type deltaPush struct {
	pub interface {
		Publish(ctx context.Context, deltas []projections.Delta) error
	}
}

func (d *deltaPush) PushAssistant(tenant, member string, v commands.AssistantDelta) {
	data, err := json.Marshal(v)
	if err != nil || d.pub == nil {
		return
	}
	_ = d.pub.Publish(context.Background(), []projections.Delta{{Tenant: tenant, To: []string{member},
		Cmd: projections.CmdAssistant, Data: data}})
}
