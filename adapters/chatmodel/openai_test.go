package chatmodel_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/chatmodel"
	"github.com/eventchat/eventchat/adapters/chatmodel/chatmodeltest"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/assistant"
)

var _ = Describe("The openai-go adapter against an OpenAI-compatible server", func() {
	var (
		fake *chatmodeltest.Server
		ep   commands.AssistantEndpoint
	)
	BeforeEach(func() {
		fake = chatmodeltest.Start()
		DeferCleanup(fake.Close)
		ep = commands.AssistantEndpoint{BaseURL: fake.URL + "/v1", Key: "sk-adapter"}
	})
	ask := func(ctx context.Context, question string) ([]string, error) {
		var pieces []string
		turns := []assistant.Turn{{Role: "user", Content: "before"}, {Role: "assistant", Content: "reply"}, {Role: "user", Content: question}}
		err := chatmodel.OpenAI{}.Stream(ctx, ep, "llama3", turns, func(d string) { pieces = append(pieces, d) })
		return pieces, err
	}

	It("streams the answer's pieces in order, asking with the key, the model and the turns", func() {
		pieces, err := ask(context.Background(), "hi")
		Expect(err).NotTo(HaveOccurred())
		Expect(pieces).To(Equal(chatmodeltest.Pieces))
		reqs := fake.Requests()
		Expect(reqs).To(HaveLen(1))
		Expect(reqs[0].Authorization).To(Equal("Bearer sk-adapter"))
		Expect(reqs[0].Model).To(Equal("llama3"))
		Expect(reqs[0].Stream).To(BeTrue())
		Expect(reqs[0].Messages).To(Equal([]chatmodeltest.Message{{Role: "user", Content: "before"}, {Role: "assistant", Content: "reply"}, {Role: "user", Content: "hi"}}))
	})

	It("fails once, without retrying, when the server fails", func() {
		pieces, err := ask(context.Background(), chatmodeltest.AskFail)
		Expect(err).To(MatchError("chat model llama3: HTTP 500 server_error"))
		Expect(pieces).To(BeEmpty())
		Expect(fake.Requests()).To(HaveLen(1))
	})

	It("returns when its context ends, with what was streamed by then", func() {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		pieces, err := ask(ctx, chatmodeltest.AskSlow)
		Expect(err).To(HaveOccurred())
		Expect(pieces).To(Equal([]string{"partial"}))
	})
})
