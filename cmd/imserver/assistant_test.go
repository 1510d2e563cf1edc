package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/assistantkeys"
	"github.com/eventchat/eventchat/adapters/chatmodel/chatmodeltest"
	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

// assistantPush is push 70.
type assistantPush struct {
	Type       string `json:"type"`
	QuestionID string `json:"questionId"`
	Seq        int    `json:"seq"`
	Text       string `json:"text"`
	Item       struct {
		ID, QuestionID, Role, Model, Content, Outcome, Reason string
		Position                                              uint64
	} `json:"item"`
}

type asked struct {
	QuestionID string `json:"questionId"`
	Model      string `json:"model"`
	Position   uint64 `json:"position"`
}

const providerKey = "sk-test-a1b2c3d4e5f6"

// nextAssistant returns the next push 70.
func nextAssistant(c *wsclient.Client) assistantPush {
	GinkgoHelper()
	f := next(c, 70)
	var p assistantPush
	Expect(json.Unmarshal(f.Data, &p)).To(Succeed())
	return p
}

// answerOf reads pushes 70 until the answer of question ends, and returns
// the pieces streamed before it and the end.
func answerOf(c *wsclient.Client, question string) ([]string, assistantPush) {
	GinkgoHelper()
	var pieces []string
	for {
		p := nextAssistant(c)
		switch {
		case p.Type == "delta" && p.QuestionID == question:
			Expect(p.Seq).To(Equal(len(pieces)+1), "pieces in order")
			pieces = append(pieces, p.Text)
		case p.Type == "answered" && p.Item.QuestionID == question:
			return pieces, p
		}
	}
}

// setUpAssistant points x0001's assistant at the fake with a key.
func setUpAssistant(s *testServer, fake *chatmodeltest.Server, more map[string]string) {
	GinkgoHelper()
	settings := map[string]string{"assistantBaseURL": fake.URL + "/v1", "assistantModels": "gpt-4o-mini,llama3", "assistantKey": providerKey}
	for k, v := range more {
		settings[k] = v
	}
	s.configure(settings)
}

func (s *testServer) ask(m member, content string) asked {
	GinkgoHelper()
	var a asked
	s.ok("POST", "/v1/assistant/ask", m.Token, map[string]string{"content": content}, &a)
	return a
}

var _ = Describe("Chat assistant", func() {
	var (
		s     *testServer
		fake  *chatmodeltest.Server
		alice member
	)
	BeforeEach(func() {
		fake = chatmodeltest.Start()
		DeferCleanup(fake.Close)
		dir := GinkgoT().TempDir()
		secondTenant(dir)
		s = startWith(dir, zap.NewNop(), nil)
		alice = s.register("alice" + randomHex(3))
	})

	It("streams the answer's pieces over the websocket, appends it whole and keeps both in the history", func() {
		setUpAssistant(s, fake, nil)
		c := s.dial(alice)
		q := s.ask(alice, "say hello")
		Expect(q.Model).To(Equal("gpt-4o-mini"))
		pieces, end := answerOf(c, q.QuestionID)
		Expect(pieces).To(Equal(chatmodeltest.Pieces))
		Expect(end.Item.Content).To(Equal("Hello, world!"))
		Expect(end.Item.Outcome).To(Equal("Done"))
		Expect(end.Item.Role).To(Equal("assistant"))

		reqs := fake.Requests()
		Expect(reqs).To(HaveLen(1))
		Expect(reqs[0].Authorization).To(Equal("Bearer " + providerKey))
		Expect(reqs[0].Stream).To(BeTrue())
		Expect(reqs[0].Model).To(Equal("gpt-4o-mini"))
		Expect(reqs[0].Messages).To(Equal([]chatmodeltest.Message{{Role: "user", Content: "say hello"}}))

		var page struct {
			Records []struct{ Role, Content, Outcome, QuestionID string }
			Total   int
		}
		s.ok("GET", fmt.Sprintf("/v1/assistant/history?after=%d", end.Item.Position), alice.Token, nil, &page)
		Expect(page.Total).To(Equal(2))
		Expect(page.Records[0].Role).To(Equal("assistant"))
		Expect(page.Records[0].Content).To(Equal("Hello, world!"))
		Expect(page.Records[1].Role).To(Equal("user"))
		Expect(page.Records[1].Content).To(Equal("say hello"))

		By("the next question goes with the conversation so far, to the member's chosen model")
		s.ok("PUT", "/v1/assistant/setting", alice.Token, map[string]string{"modelGpt": "llama3"}, nil)
		var setting struct {
			MemberID, ModelGpt string
			Models             []string
			On, Ready          bool
		}
		s.ok("GET", "/v1/assistant/setting", alice.Token, nil, &setting)
		Expect(setting.MemberID).To(Equal(alice.ID))
		Expect(setting.ModelGpt).To(Equal("llama3"))
		Expect(setting.Models).To(Equal([]string{"gpt-4o-mini", "llama3"}))
		Expect(setting.On && setting.Ready).To(BeTrue())
		q2 := s.ask(alice, "again")
		Expect(q2.Model).To(Equal("llama3"))
		answerOf(c, q2.QuestionID)
		reqs = fake.Requests()
		Expect(reqs[1].Model).To(Equal("llama3"))
		Expect(reqs[1].Messages).To(Equal([]chatmodeltest.Message{
			{Role: "user", Content: "say hello"}, {Role: "assistant", Content: "Hello, world!"}, {Role: "user", Content: "again"}}))
	})

	It("stops an answer being written and keeps what was written, marked Stopped", func() {
		setUpAssistant(s, fake, nil)
		c := s.dial(alice)
		q := s.ask(alice, chatmodeltest.AskSlow)
		first := nextAssistant(c)
		for first.Type != "delta" {
			first = nextAssistant(c)
		}
		Expect(first.Text).To(Equal("partial"))
		var stopped struct{ Position uint64 }
		s.ok("PUT", "/v1/assistant/stop", alice.Token, map[string]string{"questionId": q.QuestionID}, &stopped)
		Expect(stopped.Position).NotTo(BeZero())
		_, end := answerOf(c, q.QuestionID)
		Expect(end.Item.Outcome).To(Equal("Stopped"))
		Expect(end.Item.Content).To(Equal("partial"))

		By("a stop of an answer that ended appends nothing")
		s.ok("PUT", "/v1/assistant/stop", alice.Token, map[string]string{"questionId": q.QuestionID}, &stopped)
		Expect(stopped.Position).To(BeZero())
	})

	It("ends the answer as Failed when the provider fails, and takes the next question", func() {
		setUpAssistant(s, fake, nil)
		c := s.dial(alice)
		q := s.ask(alice, chatmodeltest.AskFail)
		pieces, end := answerOf(c, q.QuestionID)
		Expect(pieces).To(BeEmpty())
		Expect(end.Item.Outcome).To(Equal("Failed"))
		Expect(end.Item.Reason).To(Equal("provider"))
		q2 := s.ask(alice, "hi")
		_, end = answerOf(c, q2.QuestionID)
		Expect(end.Item.Outcome).To(Equal("Done"))
	})

	It("ends the answer as Failed with reason timeout when the provider is slower than the tenant's timeout", func() {
		setUpAssistant(s, fake, map[string]string{"assistantTimeout": "1"})
		c := s.dial(alice)
		q := s.ask(alice, chatmodeltest.AskHang)
		_, end := answerOf(c, q.QuestionID)
		Expect(end.Item.Outcome).To(Equal("Failed"))
		Expect(end.Item.Reason).To(Equal("timeout"))
	})

	It("says the assistant is not set up while no provider is configured, in the page's language", func() {
		var info struct{ HasChatGpt, ChatGptReady bool }
		s.ok("GET", "/v1/member/memberInfo/getSystemInfo", alice.Token, nil, &info)
		Expect(info.HasChatGpt).To(BeTrue())
		Expect(info.ChatGptReady).To(BeFalse())
		s.refused("POST", "/v1/assistant/ask", alice, map[string]string{"content": "hi"}, 403, "the chat assistant is not set up on this server")
		status, env := s.call("POST", "/v1/assistant/ask", alice.Token, map[string]string{"content": "hi"}, "Accept-Language", "zh_CN")
		Expect(status).To(Equal(403))
		Expect(env.Info).To(Equal("此服务器尚未设置聊天助手"))
		var models []string
		s.ok("GET", "/v1/api/model-list/x0001", alice.Token, nil, &models)
		Expect(models).To(Equal([]string{"gpt-4o-mini"}))
		Expect(fake.Requests()).To(BeEmpty())
	})

	It("refuses every question while the tenant's switch is off, and getSystemInfo says so", func() {
		setUpAssistant(s, fake, map[string]string{"assistant": "off"})
		var info struct{ HasChatGpt, ChatGptReady bool }
		s.ok("GET", "/v1/member/memberInfo/getSystemInfo", alice.Token, nil, &info)
		Expect(info.HasChatGpt || info.ChatGptReady).To(BeFalse())
		s.refused("POST", "/v1/assistant/ask", alice, map[string]string{"content": "hi"}, 403, "the chat assistant is turned off on this server")
		s.refused("PUT", "/v1/assistant/setting", alice, map[string]string{"modelGpt": "llama3"}, 403, "the chat assistant is turned off on this server")
		s.refused("GET", "/v1/api/model-list/x0001", alice, nil, 403, "the chat assistant is turned off on this server")
		Expect(fake.Requests()).To(BeEmpty())
	})

	It("limits a member to 20 questions a minute, refused ones too, and another member is not limited by it", func() {
		setUpAssistant(s, fake, nil)
		s.ask(alice, chatmodeltest.AskSlow)
		for i := 0; i < 19; i++ {
			s.refused("POST", "/v1/assistant/ask", alice, map[string]string{"content": "more"}, 409, "the assistant is still answering the last question")
		}
		s.refused("POST", "/v1/assistant/ask", alice, map[string]string{"content": "more"}, 429, "too many questions, please try again in a minute")
		bob := s.register("bob" + randomHex(3))
		s.ask(bob, "hi")
	})

	It("answers 401 to every assistant call without a token", func() {
		for _, r := range [][2]string{{"POST", "/v1/assistant/ask"}, {"PUT", "/v1/assistant/stop"}, {"GET", "/v1/assistant/history"},
			{"GET", "/v1/assistant/setting"}, {"PUT", "/v1/assistant/setting"}, {"GET", "/v1/api/model-list/x0001"}} {
			status, env := s.call(r[0], r[1], "", map[string]string{"content": "hi"})
			Expect(status).To(Equal(401), r[1])
			Expect(env.Code).To(Equal("401"))
		}
	})

	It("keeps each member's conversation its own: another tenant's member can neither read nor stop it, nor list the tenant's models", func() {
		setUpAssistant(s, fake, nil)
		c := s.dial(alice)
		q := s.ask(alice, chatmodeltest.AskSlow)
		mallory := s.registerIn("x0002", "mallory"+randomHex(3))
		bob := s.register("bob" + randomHex(3))
		for _, m := range []member{mallory, bob} {
			s.refused("PUT", "/v1/assistant/stop", m, map[string]string{"questionId": q.QuestionID}, 404, "not found")
			var page struct{ Total int }
			s.ok("GET", fmt.Sprintf("/v1/assistant/history?after=%d", q.Position), m.Token, nil, &page)
			Expect(page.Total).To(BeZero())
		}
		s.refused("GET", "/v1/api/model-list/x0001", mallory, nil, 404, "not found")
		s.refused("GET", "/v1/api/model-list/x0002", alice, nil, 404, "not found")
		By("mallory's own tenant has no assistant set up")
		s.refused("POST", "/v1/assistant/ask", mallory, map[string]string{"content": "hi"}, 403, "the chat assistant is not set up on this server")

		s.ok("PUT", "/v1/assistant/stop", alice.Token, map[string]string{"questionId": q.QuestionID}, nil)
		_, end := answerOf(c, q.QuestionID)
		Expect(end.Item.Outcome).To(Equal("Stopped"))
	})

	It("refuses hostile bodies with 400 in the envelope and appends nothing", func() {
		setUpAssistant(s, fake, nil)
		h0 := s.head()
		long := strings.Repeat("長", 4001)
		for _, b := range []struct {
			path   string
			method string
			body   any
			status int
			info   string
		}{
			{"/v1/assistant/ask", "POST", "{not json", 400, "invalid request"},
			{"/v1/assistant/ask", "POST", `{"content": 5}`, 400, "invalid request"},
			{"/v1/assistant/ask", "POST", `[]`, 400, "invalid request"},
			{"/v1/assistant/ask", "POST", map[string]string{"content": "  "}, 400, "the question is empty"},
			{"/v1/assistant/ask", "POST", map[string]string{"content": "hi", "model": "gpt-5-secret"}, 400, "this model is not offered on this server"},
			{"/v1/assistant/ask", "POST", map[string]string{"content": long}, 413, "the question is too long: at most 4000 characters"},
			{"/v1/assistant/stop", "PUT", map[string]string{"questionId": "../../x0002"}, 400, "invalid request"},
			{"/v1/assistant/stop", "PUT", map[string]any{"questionId": 12}, 400, "invalid request"},
			{"/v1/assistant/stop", "PUT", map[string]string{"questionId": "1234567890"}, 404, "not found"},
			{"/v1/assistant/setting", "PUT", map[string]string{"modelGpt": "nope"}, 400, "this model is not offered on this server"},
			{"/v1/assistant/setting", "PUT", `{"modelGpt": null}`, 400, "this model is not offered on this server"},
		} {
			s.refused(b.method, b.path, alice, b.body, b.status, b.info)
		}
		status, env := s.call("PUT", "/v1/admin/tenant/settings", s.operator().Token,
			map[string]any{"code": "x0001", "settings": map[string]string{"assistantBaseURL": "ftp://x", "assistantModels": "a b"}})
		Expect(status).To(Equal(400), env.Info)
		Expect(s.head()).To(Equal(h0))
		Expect(fake.Requests()).To(BeEmpty())
	})

	It("takes one of two questions sent at once and refuses the other with 409, never a 5xx", func() {
		setUpAssistant(s, fake, nil)
		var wg sync.WaitGroup
		statuses := make([]int, 2)
		for i := range statuses {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				statuses[i], _ = s.call("POST", "/v1/assistant/ask", alice.Token, map[string]string{"content": chatmodeltest.AskSlow})
			}()
		}
		wg.Wait()
		Expect(statuses).To(ConsistOf(200, 409))
	})

	It("never shows the provider's key: not in API answers, the log's export or the websocket", func() {
		c := s.dial(alice)
		op := s.operator()
		var answers []string
		record := func(method, path, token string, body any) {
			_, env := s.call(method, path, token, body)
			raw, err := json.Marshal(env)
			Expect(err).NotTo(HaveOccurred())
			answers = append(answers, string(raw))
		}
		record("PUT", "/v1/admin/tenant/settings", op.Token, map[string]any{"code": "x0001", "settings": map[string]string{
			"assistantBaseURL": fake.URL + "/v1", "assistantKey": providerKey}})
		record("PUT", "/v1/admin/tenant/settings", op.Token, map[string]any{"code": "x0001", "settings": map[string]string{"assistantKey": providerKey}})
		record("GET", "/v1/admin/tenant/show?code=x0001", op.Token, nil)
		record("GET", "/v1/member/memberInfo/getSystemInfo", alice.Token, nil)
		record("GET", "/v1/assistant/setting", alice.Token, nil)
		q := s.ask(alice, "hi")
		_, end := answerOf(c, q.QuestionID)
		raw, err := json.Marshal(end)
		Expect(err).NotTo(HaveOccurred())
		answers = append(answers, string(raw))
		record("GET", fmt.Sprintf("/v1/assistant/history?after=%d", end.Item.Position), alice.Token, nil)
		status, _, export := s.exportOf(op, url.Values{"tenant": {"x0001"}})
		Expect(status).To(Equal(http.StatusOK))
		Expect(string(export)).To(ContainSubstring("AssistantAnswered"))
		answers = append(answers, string(export))
		Expect(fake.Requests()[0].Authorization).To(Equal("Bearer " + providerKey))
		for _, a := range answers {
			Expect(a).NotTo(ContainSubstring(providerKey))
		}
	})

	It("is set up by operators with imctl tenant set, the key going to the data directory's key file only", func() {
		code, out, errOut := s.imctl("tenant", "set", "x0001", "assistantBaseURL="+fake.URL+"/v1", "assistantModels=llama3",
			"assistantTimeout=20", "assistantKey="+providerKey)
		Expect(code).To(Equal(0), errOut)
		Expect(out).NotTo(ContainSubstring(providerKey))
		code, out, _ = s.imctl("--json", "tenant", "show", "x0001")
		Expect(code).To(Equal(0))
		Expect(out).To(ContainSubstring(`"assistantModels": "llama3"`))
		Expect(out).NotTo(ContainSubstring(providerKey))
		keys, err := os.ReadFile(filepath.Join(s.dataDir, assistantkeys.FileName))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(keys)).To(ContainSubstring(providerKey))

		c := s.dial(alice)
		q := s.ask(alice, "hi")
		Expect(q.Model).To(Equal("llama3"))
		answerOf(c, q.QuestionID)
		Expect(fake.Requests()[0].Authorization).To(Equal("Bearer " + providerKey))

		By("an empty key forgets it")
		code, _, errOut = s.imctl("tenant", "set", "x0001", "assistantKey=")
		Expect(code).To(Equal(0), errOut)
		keys, err = os.ReadFile(filepath.Join(s.dataDir, assistantkeys.FileName))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(keys)).NotTo(ContainSubstring(providerKey))
	})
})
