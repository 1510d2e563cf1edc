package chat_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
)

// decodeBoth decodes input into a copy of into, once quickly and once by
// encoding/json: when the quick read takes the input, encoding/json reads
// it too, to the same value; when it does not, it changes nothing.
func decodeBoth(input string, into chat.MessageSent) {
	GinkgoHelper()
	quick, slow := into, into
	if !quick.DecodeQuick([]byte(input)) {
		Expect(quick).To(Equal(into), "input %q", input)
		return
	}
	Expect(json.Unmarshal([]byte(input), &slow)).To(Succeed(), "input %q", input)
	Expect(quick).To(Equal(slow), "input %q", input)
}

var _ = Describe("Decoding a MessageSent", func() {
	// awkward are strings that json.Marshal escapes, or that hold what
	// encoding/json reads in its own way.
	awkward := []string{"", "on my way", `say "hi"`, `back\slash`, "line\nbreak", "tab\t", "<b>&amp;</b>",
		"héllo 你好 👋", "\u2028\u2029", "bad \xff utf-8", "nul \x00", "\x7f", "0", "-1"}
	plain := []rune("abcxyz AZ09-_.:/+=你好👋é")
	pick := func(r *rand.Rand) string {
		switch r.IntN(40) {
		case 0:
			return awkward[r.IntN(len(awkward))]
		case 1:
			b := make([]byte, r.IntN(24))
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
			return string(b)
		}
		s := make([]rune, r.IntN(24))
		for i := range s {
			s[i] = plain[r.IntN(len(plain))]
		}
		return string(s)
	}

	It("reads what json.Marshal writes, quickly unless a string needs an escape, as encoding/json does", func() {
		quick := 0
		r := rand.New(rand.NewPCG(15, 27))
		for range 20000 {
			m := chat.MessageSent{MessageID: pick(r), UUID: pick(r), ChatType: pick(r), From: pick(r), To: pick(r),
				GroupID: pick(r), MsgType: pick(r), Content: pick(r), At: r.Int64() - r.Int64(), Parent: pick(r)}
			if r.IntN(2) == 0 {
				m.ForwardBatchID, m.ForwardFrom, m.ForwardType = pick(r), pick(r), pick(r)
				m.ForwardBatch = make([]string, r.IntN(4))
				for i := range m.ForwardBatch {
					m.ForwardBatch[i] = pick(r)
				}
			}
			b, err := json.Marshal(&m)
			Expect(err).NotTo(HaveOccurred())
			decodeBoth(string(b), chat.MessageSent{})
			var plain chat.MessageSent
			if plain.DecodeQuick(b) {
				quick++
			} else {
				Expect(string(b)).To(ContainSubstring(`\`), "only escapes are left to encoding/json")
			}
		}
		Expect(quick).To(BeNumerically(">", 1000))
	})

	It("is read quickly through the registry, and otherwise as before", func() {
		for _, input := range []string{`{"messageId":"1","content":"hi","at":5}`, `{"messageId":"1","content":"h\u00e9","at":5}`} {
			e, err := es.Registry{chat.TypeMessageSent: func() es.Event { return &chat.MessageSent{} }}.Decode(chat.TypeMessageSent, []byte(input))
			Expect(err).NotTo(HaveOccurred())
			var want chat.MessageSent
			Expect(json.Unmarshal([]byte(input), &want)).To(Succeed())
			Expect(e).To(Equal(&want))
		}
	})

	DescribeTable("reads any other input as encoding/json does",
		decodeBoth,
		Entry("spaces", ` { "messageId" : "1" , "at" : 5 } `, chat.MessageSent{}),
		Entry("keys in another case", `{"MessageID":"1","AT":5,"Content":"x"}`, chat.MessageSent{}),
		Entry("a key twice", `{"content":"a","content":"b","forwardBatch":["x"],"forwardBatch":[]}`, chat.MessageSent{}),
		Entry("nulls over set fields", `{"content":null,"at":null,"forwardBatch":null}`,
			chat.MessageSent{Content: "kept", At: 9, ForwardBatch: []string{"kept"}}),
		Entry("absent fields over set fields", `{"messageId":"2"}`, chat.MessageSent{Content: "kept", At: 9}),
		Entry("an empty object", `{}`, chat.MessageSent{Content: "kept"}),
		Entry("escapes", `{"content":"a\"b\\c\/d\u00e9\ud83d\udc4b\ud800"}`, chat.MessageSent{}),
		Entry("unknown keys with any value", `{"messageId":"1","extra":{"a":[1,{"b":null}]},"more":[],"n":1e9}`, chat.MessageSent{}),
		Entry("at as a fraction", `{"at":1.5}`, chat.MessageSent{}),
		Entry("at with an exponent", `{"at":1e3}`, chat.MessageSent{}),
		Entry("at past int64", `{"at":9223372036854775808}`, chat.MessageSent{}),
		Entry("at as the smallest int64", `{"at":-9223372036854775808}`, chat.MessageSent{}),
		Entry("at as a string", `{"at":"5"}`, chat.MessageSent{}),
		Entry("at minus zero", `{"at":-0}`, chat.MessageSent{}),
		Entry("a number for a string", `{"content":5}`, chat.MessageSent{}),
		Entry("a forward batch of numbers", `{"forwardBatch":[1,2]}`, chat.MessageSent{}),
		Entry("a forward batch with spaces", `{"forwardBatch":[ "a" , "b" ]}`, chat.MessageSent{}),
		Entry("a string for the forward batch", `{"forwardBatch":"a"}`, chat.MessageSent{}),
		Entry("raw invalid UTF-8", "{\"content\":\"a\xffb\"}", chat.MessageSent{}),
		Entry("a raw control character", "{\"content\":\"a\x01b\"}", chat.MessageSent{}),
		Entry("a cut object", `{"messageId":"1"`, chat.MessageSent{}),
		Entry("a trailing comma", `{"messageId":"1",}`, chat.MessageSent{}),
		Entry("trailing bytes", `{"messageId":"1"}x`, chat.MessageSent{}),
		Entry("an array", `["messageId"]`, chat.MessageSent{}),
		Entry("null", `null`, chat.MessageSent{Content: "kept"}),
		Entry("a leading zero", `{"at":01}`, chat.MessageSent{}),
		Entry("a long content", `{"content":"`+strings.Repeat("ab", 5000)+`"}`, chat.MessageSent{}),
	)
})

func BenchmarkMessageSentDecode(b *testing.B) {
	data, err := json.Marshal(&chat.MessageSent{MessageID: "7100000000000000001", UUID: "0b6f4f3e-9d1c-4c55-8a43-2f1c9e7d5a10",
		ChatType: string(chat.Friend), From: "7000000000000000001", To: "7000000000000000002", MsgType: string(chat.Text),
		Content: "on my way", At: 1764230400000})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("quick", func(b *testing.B) {
		for range b.N {
			var m chat.MessageSent
			if !m.DecodeQuick(data) {
				b.Fatal("not read")
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for range b.N {
			var m chat.MessageSent
			if err := json.Unmarshal(data, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
