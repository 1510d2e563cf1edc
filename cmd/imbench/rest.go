package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/eventchat/eventchat/adapters/smsoutbox"
)

// server is a running imserver, reached over its public REST API.
type server struct {
	base    string // http://host:port
	dataDir string // where its SMS outbox is
	client  *http.Client
}

func newServer(addr, dataDir string) *server {
	return &server{
		base:    "http://" + addr,
		dataDir: dataDir,
		client: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
			MaxIdleConnsPerHost: 16, IdleConnTimeout: 30 * time.Second,
		}},
	}
}

// socketURL is the websocket endpoint.
func (s *server) socketURL() string { return "ws" + strings.TrimPrefix(s.base, "http") + "/message-ws" }

// waitReady polls /readyz until the server answers 200, for at most limit.
func (s *server) waitReady(ctx context.Context, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/readyz", nil)
		if err != nil {
			return err
		}
		resp, err := s.client.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("server at %s not ready after %s (last: %v)", s.base, limit, err)
		}
		wait(ctx, 100*time.Millisecond, nil)
	}
}

// call makes one request and decodes the envelope's data into out; any
// answer other than code "200" is an error.
func (s *server) call(ctx context.Context, method, path, token string, body, out any) error {
	var r io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		r = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, r)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	var env struct {
		Code string          `json:"code"`
		Info string          `json:"info"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return fmt.Errorf("%s %s: HTTP %d, body is not an envelope: %w", method, path, resp.StatusCode, err)
	}
	if env.Code != "200" {
		return fmt.Errorf("%s %s: code %s: %s", method, path, env.Code, env.Info)
	}
	if out != nil {
		if err := json.Unmarshal(env.Data, out); err != nil {
			return fmt.Errorf("%s %s: data: %w", method, path, err)
		}
	}
	return nil
}

// member is a logged-in member: its token opens sockets.
type member struct {
	ID    string
	Token string
	Key   []byte
}

const benchPassword = "bench1234"

// register registers account with phone and logs it in.
func (s *server) register(ctx context.Context, account, phone string) (member, error) {
	if err := s.call(ctx, http.MethodGet, "/v1/member/sms/send?phone="+phone+"&type=register", "", nil, nil); err != nil {
		return member{}, err
	}
	code, err := s.smsCode(phone)
	if err != nil {
		return member{}, err
	}
	if err := s.call(ctx, http.MethodPost, "/v1/member/memberInfo/register", "", map[string]string{
		"phone": phone, "smsCode": code, "account": account, "password": benchPassword,
	}, nil); err != nil {
		return member{}, err
	}
	return s.login(ctx, account)
}

func (s *server) login(ctx context.Context, account string) (member, error) {
	var out struct {
		ID    string `json:"id"`
		Token string `json:"token"`
		WSKey []byte `json:"wsKey"`
	}
	err := s.call(ctx, http.MethodPost, "/v1/member/memberInfo/login", "",
		map[string]string{"account": account, "password": benchPassword}, &out)
	return member{ID: out.ID, Token: out.Token, Key: out.WSKey}, err
}

// smsCode finds the newest code sent to phone in the server's SMS outbox.
func (s *server) smsCode(phone string) (string, error) {
	return smsoutbox.LastCode(filepath.Join(s.dataDir, smsoutbox.FileName), phone)
}

// befriend has a ask b to be friends and b accept.
func (s *server) befriend(ctx context.Context, a, b member) error {
	var applied struct{ ID string }
	if err := s.call(ctx, http.MethodPost, "/v1/chat/applyInfo/build", a.Token,
		map[string]string{"friendMemberId": b.ID, "content": "hi"}, &applied); err != nil {
		return err
	}
	return s.call(ctx, http.MethodPut, "/v1/chat/applyInfo/modify", b.Token,
		map[string]string{"id": applied.ID, "status": "accepted"}, nil)
}

// historyPage is how many messages chatReader reads a page, and
// historyPages how many pages at most: a resync drops at most the socket's
// queue, and pushes follow it.
const (
	historyPage  = 100
	historyPages = 100
)

// chatReader reads reader's chat with peer back from the newest message,
// as a client told to resync does, handing each message's uuid to visit.
func (s *server) chatReader(reader member, peer string) func(ctx context.Context, visit func(uuid string)) error {
	return func(ctx context.Context, visit func(uuid string)) error {
		before := ""
		for range historyPages {
			path := fmt.Sprintf("/v1/message/messagePush/history/list/page?friendMemberId=%s&queryType=Up&pageSize=%d", peer, historyPage)
			if before != "" {
				path += "&messageId=" + before
			}
			var page []struct {
				ID   string `json:"id"`
				UUID string `json:"uuid"`
			}
			if err := s.call(ctx, http.MethodGet, path, reader.Token, nil, &page); err != nil {
				return err
			}
			for _, m := range page {
				visit(m.UUID)
			}
			if len(page) < historyPage {
				return nil
			}
			before = page[0].ID
		}
		return nil
	}
}
