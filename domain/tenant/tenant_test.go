package tenant_test

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/tenant"
)

var now = time.UnixMilli(1_800_000_000_000)

func given(events ...es.Event) *tenant.Tenant {
	var t tenant.Tenant
	for _, e := range events {
		t.Apply(e)
	}
	return &t
}

func ptr[T any](v T) *T { return &v }

var created = &tenant.Created{Code: "x0002", Name: "Second"}

var _ = Describe("Tenant settings", func() {
	It("starts from the spec's defaults: illegal-words flag on, calls and group members shown", func() {
		c := given(created).Config()
		Expect(c.Code).To(Equal("x0002"))
		Expect(c.Name).To(Equal("Second"))
		Expect(c.IllegalWords).To(BeTrue())
		Expect(c.HasVoiceCall).To(BeTrue())
		Expect(c.ShowGroupMember).To(BeTrue())
		Expect(c.SendBatchMessage).To(BeTrue())
		Expect(c.SingleDevice).To(BeFalse())
		Expect(c.SensitiveWords).To(BeEmpty())
	})

	DescribeTable("Configure",
		func(past []es.Event, settings map[string]string, want []es.Event, key string) {
			events, err := given(append([]es.Event{created}, past...)...).Configure(settings, now)
			if key != "" {
				f, ok := fault.As(err)
				Expect(ok).To(BeTrue(), "%v", err)
				Expect(f.Kind).To(Equal(fault.Invalid))
				Expect(f.Key).To(Equal(key))
				Expect(events).To(BeEmpty())
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(events).To(Equal(want))
		},
		Entry("flags and pictures, by short or full names", nil,
			map[string]string{"icon": "https://cdn.example/i.png", "systemLogo": "/v1/logo.png", "hasVoiceCall": "false",
				"singleDevice": "Y", "illegalWords": "off", "sendBatchMessage": "Disable"},
			[]es.Event{&tenant.SettingsChanged{SystemIcon: ptr("https://cdn.example/i.png"), SystemLogo: ptr("/v1/logo.png"),
				HasVoiceCall: ptr(false), SingleDevice: ptr(true), IllegalWords: ptr(false), SendBatchMessage: ptr(false),
				At: now.UnixMilli()}}, ""),
		Entry("sensitive words per level, trimmed and without duplicates", nil,
			map[string]string{"sensitiveWords.Normal": " spam, scam ,spam,,"},
			[]es.Event{&tenant.SettingsChanged{SensitiveWords: map[string][]string{"Normal": {"spam", "scam"}}, At: now.UnixMilli()}}, ""),
		Entry("values as they are decide nothing", nil,
			map[string]string{"illegalWords": "true", "hasVoiceCall": "Y", "sensitiveWords.Admin": ""}, nil, ""),
		Entry("an emptied word list clears it",
			[]es.Event{&tenant.SettingsChanged{SensitiveWords: map[string][]string{"Normal": {"spam"}}}},
			map[string]string{"sensitiveWords.Normal": ""},
			[]es.Event{&tenant.SettingsChanged{SensitiveWords: map[string][]string{"Normal": {}}, At: now.UnixMilli()}}, ""),
		Entry("no setting", nil, map[string]string{}, nil, tenant.MsgSettingsEmpty),
		Entry("an unknown key", nil, map[string]string{"colour": "red"}, nil, tenant.MsgSettingUnknown),
		Entry("a flag that is not one", nil, map[string]string{"singleDevice": "maybe"}, nil, tenant.MsgSettingBool),
		Entry("sendBatchMessage not Enable or Disable", nil, map[string]string{"sendBatchMessage": "sometimes"}, nil, tenant.MsgSettingEnable),
		Entry("an icon with a space", nil, map[string]string{"icon": "https://x/a b.png"}, nil, tenant.MsgSettingURL),
		Entry("a logo that is no URL", nil, map[string]string{"logo": "javascript:alert(1)"}, nil, tenant.MsgSettingURL),
		Entry("words of an unknown level", nil, map[string]string{"sensitiveWords.Gold": "x"}, nil, tenant.MsgSettingLevel),
		Entry("words without a level", nil, map[string]string{"sensitiveWords": "x"}, nil, tenant.MsgSettingLevel),
		Entry("a word too long", nil, map[string]string{"sensitiveWords.Normal": strings.Repeat("x", 65)}, nil, tenant.MsgSettingWords),
		Entry("one setting named twice", nil, map[string]string{"icon": "/a.png", "systemIcon": "/b.png"}, nil, tenant.MsgSettingDuplicate),
	)

	It("folds changes: a level's words are replaced whole, other settings kept", func() {
		t := given(created,
			&tenant.SettingsChanged{SensitiveWords: map[string][]string{"Normal": {"a", "b"}, "System": {"c"}}, SingleDevice: ptr(true)},
			&tenant.SettingsChanged{SensitiveWords: map[string][]string{"Normal": {"d"}, "System": {}}},
		)
		c := t.Config()
		Expect(c.SensitiveWords).To(Equal(map[string][]string{"Normal": {"d"}}))
		Expect(c.SingleDevice).To(BeTrue())
	})

	It("refuses settings of a tenant that does not exist", func() {
		_, err := given().Configure(map[string]string{"singleDevice": "true"}, now)
		Expect(fault.Is(err, fault.NotFound)).To(BeTrue())
	})

	DescribeTable("the sensitive-word check (spec messaging.md section 5)",
		func(illegalWords bool, level, content string, want bool) {
			c := given(created, &tenant.SettingsChanged{IllegalWords: ptr(illegalWords),
				SensitiveWords: map[string][]string{"Normal": {"Spam"}, "Admin": {"spam"}}}).Config()
			Expect(c.ContainsSensitive(level, content)).To(Equal(want))
		},
		Entry("flag off: a Normal member's word is found, any case", false, "Normal", "buy SPAM now", true),
		Entry("flag off: content without a word passes", false, "Normal", "hello", false),
		Entry("flag off: the Admin level is exempt", false, "Admin", "spam", false),
		Entry("flag off: a level without words passes", false, "System", "spam", false),
		Entry("flag on (the default): nothing is filtered", true, "Normal", "spam", false),
	)
})

var _ = Describe("The chat assistant's settings", func() {
	It("starts on, not set up, with the spec's model and a minute to answer", func() {
		a := given(created).Config().Assistant
		Expect(a.On).To(BeTrue())
		Expect(a.Ready()).To(BeFalse())
		Expect(a.Models).To(Equal([]string{"gpt-4o-mini"}))
		Expect(a.Timeout).To(Equal(tenant.DefaultAssistantTimeout))
	})

	It("sets the endpoint, models, timeout and switch as one event, and nothing when they are unchanged", func() {
		t := given(created)
		settings := map[string]string{"assistantBaseURL": "http://127.0.0.1:11434/v1/", "assistantModels": "llama3, qwen,llama3",
			"assistantTimeout": "30", "chatgpt": "off"}
		events, err := t.Configure(settings, now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(HaveLen(1))
		t.Apply(events[0])
		a := t.Config().Assistant
		Expect(a).To(Equal(tenant.Assistant{On: false, BaseURL: "http://127.0.0.1:11434/v1", Models: []string{"llama3", "qwen"}, Timeout: 30}))
		Expect(t.Configure(settings, now)).To(BeEmpty())
	})

	DescribeTable("refuses a bad value and decides nothing",
		func(key, value string) {
			events, err := given(created).Configure(map[string]string{key: value, "hasVoiceCall": "false"}, now)
			Expect(events).To(BeNil())
			Expect(fault.Is(err, fault.Invalid)).To(BeTrue())
		},
		Entry("a URL that is not http(s)", "assistantBaseURL", "ftp://host/v1"),
		Entry("a URL with credentials", "assistantBaseURL", "https://user:pw@host/v1"),
		Entry("a URL without a host", "assistantBaseURL", "https:///v1"),
		Entry("no model", "assistantModels", " , "),
		Entry("a model with a space", "assistantModels", "gpt 4"),
		Entry("a timeout of 0", "assistantTimeout", "0"),
		Entry("a timeout over ten minutes", "assistantTimeout", "601"),
		Entry("a switch that is no flag", "assistant", "maybe"),
		Entry("the provider key, which is no event's", "assistantKey", "sk-1"),
	)
})
