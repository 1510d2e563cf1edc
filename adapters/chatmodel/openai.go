// Package chatmodel asks OpenAI-compatible chat-completions endpoints
// (OpenAI, llama.cpp, Ollama, vLLM…) through the openai-go client, and
// streams their answers.
package chatmodel

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/assistant"
)

// OpenAI is the chat-completions adapter of commands.AssistantModel.
type OpenAI struct {
	HTTP *http.Client // nil: http.DefaultClient
}

// Stream asks ep's model for the answer of turns and streams its text.
// Nothing is retried: a question is asked once, within the caller's time.
func (o OpenAI) Stream(ctx context.Context, ep commands.AssistantEndpoint, model string, turns []assistant.Turn, delta func(string)) error {
	hc := o.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	client := openai.NewClient(option.WithBaseURL(ep.BaseURL+"/"), option.WithAPIKey(ep.Key),
		option.WithHTTPClient(hc), option.WithMaxRetries(0))
	msgs := make([]openai.ChatCompletionMessageParamUnion, 0, len(turns))
	for _, t := range turns {
		if t.Role == "assistant" {
			msgs = append(msgs, openai.AssistantMessage(t.Content))
		} else {
			msgs = append(msgs, openai.UserMessage(t.Content))
		}
	}
	stream := client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{Model: model, Messages: msgs})
	defer stream.Close()
	for stream.Next() {
		for _, c := range stream.Current().Choices {
			if c.Index == 0 && c.Delta.Content != "" {
				delta(c.Delta.Content)
			}
		}
	}
	if err := stream.Err(); err != nil {
		// The provider's own message may quote part of the key: keep its
		// status and kind only.
		var api *openai.Error
		if errors.As(err, &api) {
			return fmt.Errorf("chat model %s: HTTP %d %s", model, api.StatusCode, strings.TrimSpace(api.Type+" "+api.Code))
		}
		return fmt.Errorf("chat model %s: %w", model, err)
	}
	return nil
}
