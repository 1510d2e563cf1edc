package assistant_test

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/assistant"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

var (
	now     = time.UnixMilli(1_800_000_000_000)
	allowed = []string{"gpt-4o-mini", "llama3"}
	long    = now.Add(-time.Hour) // staleBefore far in the past: nothing is stale
)

func given(events ...es.Event) *assistant.Conversation {
	var c assistant.Conversation
	for _, e := range events {
		c.Apply(e)
	}
	return &c
}

func asked(id, content string) *assistant.Asked {
	return &assistant.Asked{ID: id, Member: "m1", Model: "gpt-4o-mini", Content: content, At: now.Add(-time.Minute).UnixMilli()}
}

func answered(id, content, outcome string) *assistant.Answered {
	return &assistant.Answered{QuestionID: id, Member: "m1", Model: "gpt-4o-mini", Content: content, Outcome: outcome, At: now.UnixMilli()}
}

func kindOf(err error) fault.Kind {
	f, ok := fault.As(err)
	Expect(ok).To(BeTrue(), "%v", err)
	return f.Kind
}

var _ = Describe("A member's conversation with the assistant", func() {
	DescribeTable("refuses a question that breaks a rule and decides nothing",
		func(past []es.Event, model, content string, kind fault.Kind, key string) {
			events, err := given(past...).Ask("q9", "m1", model, content, allowed, now, long)
			Expect(events).To(BeNil())
			Expect(kindOf(err)).To(Equal(kind))
			f, _ := fault.As(err)
			Expect(f.Key).To(Equal(key))
		},
		Entry("empty", nil, "", " \n ", fault.Invalid, assistant.MsgQuestionEmpty),
		Entry("over 4000 characters", nil, "", strings.Repeat("字", 4001), fault.TooLarge, assistant.MsgQuestionTooLong),
		Entry("a model the tenant does not offer", nil, "gpt-5", "hi", fault.Invalid, assistant.MsgModelNotOffered),
		Entry("while the last is being answered", []es.Event{asked("q1", "first")}, "", "hi", fault.Conflict, assistant.MsgStillAnswering),
	)

	It("asks the member's model, else the tenant's first when the member's is not offered", func() {
		events, err := given().Ask("q1", "m1", "", "  hi  ", allowed, now, long)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(Equal([]es.Event{&assistant.Asked{ID: "q1", Member: "m1", Model: "gpt-4o-mini", Content: "hi", At: now.UnixMilli()}}))

		chose := &assistant.ModelChosen{Member: "m1", Model: "llama3"}
		events, _ = given(chose).Ask("q1", "m1", "", "hi", allowed, now, long)
		Expect(events[0].(*assistant.Asked).Model).To(Equal("llama3"))
		events, _ = given(chose).Ask("q1", "m1", "", "hi", []string{"qwen"}, now, long)
		Expect(events[0].(*assistant.Asked).Model).To(Equal("qwen"))
	})

	It("ends a question whose server stopped before the next one, as interrupted", func() {
		events, err := given(asked("q1", "first")).Ask("q2", "m1", "", "second", allowed, now, now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(HaveLen(2))
		Expect(events[0]).To(Equal(&assistant.Answered{QuestionID: "q1", Member: "m1", Model: "gpt-4o-mini",
			Outcome: assistant.Failed, Reason: assistant.ReasonInterrupted, At: now.UnixMilli()}))
		Expect(events[1].(*assistant.Asked).ID).To(Equal("q2"))
	})

	It("stops the pending answer once; an ended answer's stop decides nothing; an unknown one is not found", func() {
		c := given(asked("q1", "first"))
		events, err := c.Stop("q1", "m1", now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(Equal([]es.Event{&assistant.StopRequested{QuestionID: "q1", Member: "m1", At: now.UnixMilli()}}))
		c.Apply(events[0])
		Expect(c.Stop("q1", "m1", now)).To(BeEmpty())
		c.Apply(answered("q1", "part", assistant.Stopped))
		Expect(c.Stop("q1", "m1", now)).To(BeEmpty())
		_, err = c.Stop("q7", "m1", now)
		Expect(kindOf(err)).To(Equal(fault.NotFound))
	})

	It("finishes only the pending question, once, and keeps its exchange as context", func() {
		c := given(asked("q1", "first"))
		Expect(c.Finish("q2", "x", assistant.Done, "", now)).To(BeEmpty())
		events := c.Finish("q1", "answer", assistant.Done, "", now)
		Expect(events).To(Equal([]es.Event{answered("q1", "answer", assistant.Done)}))
		c.Apply(events[0])
		Expect(c.Finish("q1", "again", assistant.Done, "", now)).To(BeEmpty())
		_, pending := c.Pending()
		Expect(pending).To(BeFalse())
		Expect(c.Context()).To(Equal([]assistant.Turn{{Role: "user", Content: "first"}, {Role: "assistant", Content: "answer"}}))
	})

	It("sends only the last ten exchanges with text as context", func() {
		var past []es.Event
		for i := range 12 {
			id := string(rune('a' + i))
			past = append(past, asked(id, "q"+id), answered(id, "a"+id, assistant.Done))
		}
		past = append(past, asked("z", "failed"), answered("z", "", assistant.Failed))
		turns := given(past...).Context()
		Expect(turns).To(HaveLen(20))
		Expect(turns[0]).To(Equal(assistant.Turn{Role: "user", Content: "qc"}))
		Expect(turns[19]).To(Equal(assistant.Turn{Role: "assistant", Content: "al"}))
	})

	It("saves a model the tenant offers, and nothing when it is the member's already", func() {
		events, err := given().ChooseModel("m1", "llama3", allowed, now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(Equal([]es.Event{&assistant.ModelChosen{Member: "m1", Model: "llama3", At: now.UnixMilli()}}))
		Expect(given(events...).ChooseModel("m1", "llama3", allowed, now)).To(BeEmpty())
		_, err = given().ChooseModel("m1", "gpt-5", allowed, now)
		Expect(kindOf(err)).To(Equal(fault.Invalid))
	})
})
