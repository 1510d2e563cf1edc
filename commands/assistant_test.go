package commands_test

import (
	"context"
	"encoding/json"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/chatmodel"
	"github.com/eventchat/eventchat/adapters/chatmodel/chatmodeltest"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/assistant"
	"github.com/eventchat/eventchat/domain/es"
)

// pieces records the pieces of answers pushed to members.
type pieces struct {
	mu   sync.Mutex
	text []string
}

func (p *pieces) PushAssistant(_, _ string, d commands.AssistantDelta) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.text = append(p.text, d.Text)
}

func (p *pieces) all() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.text...)
}

var _ = Describe("Answers of the chat assistant", func() {
	var (
		w      *world
		pushed *pieces
		alice  commands.Principal
		ctx    = context.Background()
	)
	BeforeEach(func() {
		fake := chatmodeltest.Start()
		DeferCleanup(fake.Close)
		w = newWorld()
		pushed = &pieces{}
		w.app.Assistant = commands.AssistantDeps{Model: chatmodel.OpenAI{}, Stream: pushed}
		_, err := w.app.ConfigureTenant(ctx, commands.Operator{Name: "spec"}, "x0001", map[string]string{"assistantBaseURL": fake.URL + "/v1"})
		Expect(err).NotTo(HaveOccurred())
		alice = w.member("alice01")
	})

	// ended returns the answer appended for question, once there is one.
	ended := func(question string) func() *assistant.Answered {
		return func() *assistant.Answered {
			recs, err := w.events.ReadStream(ctx, es.Stream("x0001", es.CategoryAssistant, alice.MemberID), es.Forwards, 0, 100)
			Expect(err).NotTo(HaveOccurred())
			for _, r := range recs {
				if r.Type == assistant.TypeAnswered {
					var a assistant.Answered
					Expect(json.Unmarshal(r.Data, &a)).To(Succeed())
					if a.QuestionID == question {
						return &a
					}
				}
			}
			return nil
		}
	}

	It("is stopped by a stop asked through another node, which reaches the writing node through the log", func() {
		other := w.node()
		q, err := w.app.AskAssistant(ctx, alice, commands.AskAssistant{Content: chatmodeltest.AskSlow})
		Expect(err).NotTo(HaveOccurred())
		Eventually(pushed.all).Should(Equal([]string{"partial"}))
		stopped, err := other.StopAssistant(ctx, alice, commands.StopAssistant{QuestionID: q.QuestionID})
		Expect(err).NotTo(HaveOccurred())
		Expect(stopped.Position).NotTo(BeZero())
		Eventually(ended(q.QuestionID)).Should(Equal(&assistant.Answered{QuestionID: q.QuestionID, Member: alice.MemberID,
			Model: "gpt-4o-mini", Content: "partial", Outcome: assistant.Stopped, At: w.clock.Load()}))
	})

	It("ends the answers being written as interrupted when the server stops, keeping their text", func() {
		run, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); w.app.RunAssistant(run) }()
		q, err := w.app.AskAssistant(ctx, alice, commands.AskAssistant{Content: chatmodeltest.AskSlow})
		Expect(err).NotTo(HaveOccurred())
		Eventually(pushed.all).Should(Equal([]string{"partial"}))
		stop()
		Eventually(done).Should(BeClosed())
		a := ended(q.QuestionID)()
		Expect(a).NotTo(BeNil(), "appended before RunAssistant returned")
		Expect(a.Outcome).To(Equal(assistant.Failed))
		Expect(a.Reason).To(Equal(assistant.ReasonInterrupted))
		Expect(a.Content).To(Equal("partial"))
	})
})
