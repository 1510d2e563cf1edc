// Package chatmodeltest is an OpenAI-compatible chat-completions server on
// 127.0.0.1 for tests: it streams its answers as server-sent events, and
// the last question chooses how it behaves.
package chatmodeltest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Questions that make the fake misbehave; any other is answered with
// Pieces, one event each.
const (
	AskSlow = "slow" // one piece, then nothing until the client leaves
	AskHang = "hang" // no answer at all until the client leaves
	AskFail = "fail" // 500 with an OpenAI error body
)

// Pieces are the pieces of a normal answer.
var Pieces = []string{"Hello", ", ", "world", "!"}

// Request is what the fake was asked.
type Request struct {
	Authorization string
	Model         string
	Stream        bool
	Messages      []Message
}

// Message is one message of a request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Server is the fake.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	requests []Request
}

// Start starts a fake; Close stops it.
func Start() *Server {
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Requests returns what the fake was asked, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, `{"error":{"message":"not found","type":"invalid_request_error"}}`, http.StatusNotFound)
		return
	}
	var body struct {
		Model    string    `json:"model"`
		Stream   bool      `json:"stream"`
		Messages []Message `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, `{"error":{"message":"bad body","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Authorization: r.Header.Get("Authorization"), Model: body.Model, Stream: body.Stream, Messages: body.Messages})
	s.mu.Unlock()
	last := ""
	if n := len(body.Messages); n > 0 {
		last = body.Messages[n-1].Content
	}
	switch last {
	case AskFail:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"error":{"message":"the model is overloaded","type":"server_error"}}`)
		return
	case AskHang:
		<-r.Context().Done()
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	flusher, _ := w.(http.Flusher)
	piece := func(text string) {
		chunk := map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1, "model": body.Model,
			"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"role": "assistant", "content": text}, "finish_reason": nil}}}
		b, _ := json.Marshal(chunk)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	switch last {
	case AskSlow:
		piece("partial")
		<-r.Context().Done()
		return
	}
	for _, p := range Pieces {
		piece(p)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}
