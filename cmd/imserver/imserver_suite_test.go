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
	"sync/atomic"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/smsoutbox"
	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

func TestImserver(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "imserver component")
}

// testServer is the real server on 127.0.0.1 over a temp data dir.
type testServer struct {
	base    string
	dataDir string
	stop    func() error
}

func startServer(dataDir string) *testServer { return startLogged(dataDir, zap.NewNop()) }

// startLogged starts the server logging to log.
func startLogged(dataDir string, log *zap.Logger) *testServer {
	return startWith(dataDir, log, nil)
}

// startWith starts the server with more environment settings.
func startWith(dataDir string, log *zap.Logger, env map[string]string) *testServer {
	cfg, err := loadConfig(nil, func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		return map[string]string{"IM_HTTP_ADDR": "127.0.0.1:0", "IM_DATA_DIR": dataDir}[k]
	})
	Expect(err).NotTo(HaveOccurred())
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, log, func(a string) { addr <- a }) }()
	var a string
	select {
	case a = <-addr:
	case err := <-done:
		Fail(fmt.Sprintf("server did not start: %v", err))
	case <-time.After(20 * time.Second):
		Fail("server did not start in 20 s")
	}
	s := &testServer{base: "http://" + a, dataDir: dataDir}
	var once atomic.Bool
	s.stop = func() error {
		if !once.CompareAndSwap(false, true) {
			return nil
		}
		cancel()
		return <-done
	}
	DeferCleanup(func() { Expect(s.stop()).To(Succeed()) })
	return s
}

type envelope struct {
	Code string          `json:"code"`
	Data json.RawMessage `json:"data"`
	Info string          `json:"info"`
}

// call makes a request and decodes the envelope; it returns the status too.
func (s *testServer) call(method, path, token string, body any, headers ...string) (int, envelope) {
	GinkgoHelper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	case io.Reader: // of no known length: sent chunked
		r = b
	default:
		raw, err := json.Marshal(b)
		Expect(err).NotTo(HaveOccurred())
		r = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.base+path, r)
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	var env envelope
	Expect(json.NewDecoder(resp.Body).Decode(&env)).To(Succeed(), "%s %s: body is not an envelope", method, path)
	return resp.StatusCode, env
}

// ok makes a call that must succeed and decodes its data into out.
func (s *testServer) ok(method, path, token string, body, out any) {
	GinkgoHelper()
	status, env := s.call(method, path, token, body)
	Expect(status).To(Equal(http.StatusOK), "%s %s: %s", method, path, env.Info)
	Expect(env.Code).To(Equal("200"))
	if out != nil {
		Expect(json.Unmarshal(env.Data, out)).To(Succeed())
	}
}

// written makes a write that must succeed and returns its position.
func (s *testServer) written(method, path string, m member, body any) uint64 {
	GinkgoHelper()
	var out struct{ Position uint64 }
	s.ok(method, path, m.Token, body, &out)
	return out.Position
}

// refused makes a call that must fail with status and the text info.
func (s *testServer) refused(method, path string, m member, body any, status int, info string) {
	GinkgoHelper()
	code, env := s.call(method, path, m.Token, body)
	Expect(code).To(Equal(status), env.Info)
	Expect(env.Code).To(Equal(fmt.Sprint(status)))
	Expect(env.Info).To(Equal(info))
}

type member struct {
	ID      string
	Account string
	Token   string
	Key     []byte
}

var phones atomic.Int64

func (s *testServer) smsCode(phone string) string {
	GinkgoHelper()
	code, err := smsoutbox.LastCode(filepath.Join(s.dataDir, smsoutbox.FileName), phone)
	Expect(err).NotTo(HaveOccurred())
	return code
}

func (s *testServer) register(account string) member {
	GinkgoHelper()
	phone := fmt.Sprintf("136%08d", phones.Add(1))
	s.ok("GET", "/v1/member/sms/send?phone="+phone+"&type=register", "", nil, nil)
	s.ok("POST", "/v1/member/memberInfo/register", "", map[string]string{
		"phone": phone, "smsCode": s.smsCode(phone), "account": account, "password": "pass1234", "tenantCode": "x0001"}, nil)
	return s.login(account)
}

func (s *testServer) login(account string) member {
	GinkgoHelper()
	var out struct {
		ID    string `json:"id"`
		Token string `json:"token"`
		WSKey []byte `json:"wsKey"`
	}
	s.ok("POST", "/v1/member/memberInfo/login", "", map[string]string{"account": account, "password": "pass1234"}, &out)
	Expect(out.WSKey).To(HaveLen(32))
	return member{ID: out.ID, Account: account, Token: out.Token, Key: out.WSKey}
}

// befriend makes a and b friends and returns the acceptance's position.
func (s *testServer) befriend(a, b member) uint64 {
	GinkgoHelper()
	var applied struct{ ID string }
	s.ok("POST", "/v1/chat/applyInfo/build", a.Token, map[string]string{"friendMemberId": b.ID, "content": "hi"}, &applied)
	return s.written("PUT", "/v1/chat/applyInfo/modify", b, map[string]string{"id": applied.ID, "status": "accepted"})
}

type sendResult struct {
	ID                string `json:"id"`
	UUID              string `json:"uuid"`
	ServerReceiveTime int64  `json:"serverReceiveTime"`
	Position          uint64 `json:"position"`
}

func (s *testServer) send(from, to member, uuid, content string) sendResult {
	GinkgoHelper()
	var r sendResult
	s.ok("POST", "/v1/message/send", from.Token, map[string]string{"uuid": uuid, "chatType": "Friend", "to": to.ID, "msgType": "Text", "content": content}, &r)
	return r
}

func (s *testServer) dial(m member, opts ...wsclient.Option) *wsclient.Client {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := wsclient.Dial(ctx, "ws"+strings.TrimPrefix(s.base, "http")+"/message-ws", m.Token, m.Key, opts...)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(c.Close)
	return c
}

// next returns the next pushed frame of cmd, skipping others.
func next(c *wsclient.Client, cmd int) wsclient.Frame {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		f, err := c.Next(ctx)
		Expect(err).NotTo(HaveOccurred(), "waiting for cmd %d", cmd)
		if f.Cmd == cmd {
			return f
		}
	}
}
