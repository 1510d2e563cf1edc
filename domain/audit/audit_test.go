package audit_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/audit"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

var _ = Describe("Filters of a tenant's history", func() {
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	rec := func(stream, typ, actor string, t time.Time) es.RecordedEvent {
		return es.RecordedEvent{Stream: stream, Type: typ, Metadata: es.Metadata{Actor: actor, Time: t}}
	}
	msg := rec("x0001.chat-1_2", "MessageSent", "1", at)

	DescribeTable("select events",
		func(f audit.Filter, r es.RecordedEvent, want bool) {
			sel, err := audit.Select("x0001", f)
			Expect(err).NotTo(HaveOccurred())
			Expect(sel.Matches(r)).To(Equal(want))
		},
		Entry("no filter: every event of the tenant", audit.Filter{}, msg, true),
		Entry("never another tenant's", audit.Filter{}, rec("x0002.chat-1_2", "MessageSent", "1", at), false),
		Entry("nor a tenant whose code extends this one's", audit.Filter{}, rec("x00011.chat-1", "MessageSent", "1", at), false),
		Entry("from is inclusive", audit.Filter{From: at.Format(time.RFC3339)}, msg, true),
		Entry("to is exclusive", audit.Filter{To: "1795514400000"}, msg, false),
		Entry("before to", audit.Filter{To: at.Add(time.Millisecond).Format(time.RFC3339Nano)}, msg, true),
		Entry("a chat by its id", audit.Filter{Chat: "1_2"}, msg, true),
		Entry("another chat", audit.Filter{Chat: "1_3"}, msg, false),
		Entry("a stream by name", audit.Filter{Stream: "x0001.chat-1_2"}, msg, true),
		Entry("one of several types", audit.Filter{Type: "MessageEdited, MessageSent"}, msg, true),
		Entry("not one of them", audit.Filter{Type: "MessageEdited"}, msg, false),
		Entry("a type whatever its version", audit.Filter{Type: "GroupMemberMuted"}, rec("x0001.group-9", "GroupMemberMuted@v2", "1", at), true),
		Entry("a type's version 1", audit.Filter{Type: "GroupMemberMuted"}, rec("x0001.group-9", "GroupMemberMuted", "1", at), true),
		Entry("the acting member", audit.Filter{Actor: "1"}, msg, true),
		Entry("another member", audit.Filter{Actor: "2"}, msg, false),
	)

	DescribeTable("refuse malformed filters",
		func(f audit.Filter, key string) {
			_, err := audit.Select("x0001", f)
			e, ok := fault.As(err)
			Expect(ok).To(BeTrue(), "%v", err)
			Expect(e.Kind).To(Equal(fault.Invalid))
			Expect(e.Key).To(Equal(key))
		},
		Entry("a bad time", audit.Filter{From: "yesterday"}, audit.MsgBadTime),
		Entry("an empty range", audit.Filter{From: "2000", To: "1000"}, audit.MsgBadRange),
		Entry("a page too large", audit.Filter{Size: "501"}, audit.MsgBadSize),
		Entry("a page of none", audit.Filter{Size: "0"}, audit.MsgBadSize),
		Entry("a size that is no number", audit.Filter{Size: "ten"}, audit.MsgBadSize),
		Entry("a cursor that is no position", audit.Filter{After: "-1"}, audit.MsgBadPosition),
		Entry("another tenant's stream", audit.Filter{Stream: "x0002.chat-1_2"}, audit.MsgForeignStream),
		Entry("a stream that is no stream", audit.Filter{Stream: "x0001"}, audit.MsgForeignStream),
		Entry("stream and chat", audit.Filter{Stream: "x0001.chat-1_2", Chat: "1_2"}, audit.MsgStreamOrChat),
		Entry("an overlong actor", audit.Filter{Actor: strings.Repeat("1", 600)}, audit.MsgBadFilter),
	)

	It("reads records that held after and size as numbers", func() {
		var a audit.Accessed
		Expect(json.Unmarshal([]byte(`{"filter":{"after":12,"size":3,"type":"MessageSent"}}`), &a)).To(Succeed())
		Expect(a.Filter).To(Equal(audit.Filter{After: "12", Size: "3", Type: "MessageSent"}))
		b, err := json.Marshal(audit.Filter{After: "-1", Size: "0"})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal(`{"after":"-1","size":"0"}`))
	})

	It("pages 100 events by default", func() {
		sel, err := audit.Select("x0001", audit.Filter{})
		Expect(err).NotTo(HaveOccurred())
		Expect(sel.Size).To(Equal(audit.DefaultSize))
	})
})

var _ = Describe("Exports", func() {
	entries := []audit.Entry{
		{Stream: "x0001.chat-1_2", Position: 3, Type: "MessageSent", Time: 1, Actor: "1", Data: []byte(`{"content":"hi"}`)},
		{Stream: "x0001.audit-auditor:alice", Position: 9, Type: audit.TypeAccessed, Time: 2, Actor: "auditor:alice", Data: []byte(`{}`)},
	}
	export := func() []byte {
		var b bytes.Buffer
		x := audit.NewExportWriter(&b)
		for _, e := range entries {
			Expect(x.Write(e)).To(Succeed())
		}
		Expect(x.Close("x0001", 12)).To(Succeed())
		return b.Bytes()
	}

	It("show stored payloads as they are, but for password and SMS code hashes", func() {
		stored := func(typ, data string) es.RecordedEvent {
			return es.RecordedEvent{Stream: "x0001.member-1", Type: typ, Data: []byte(data)}
		}
		Expect(audit.EntryOf(stored("MessageSent", `{"content":"AAEC-cipher","passwordHash":1}`)).Data).
			To(MatchJSON(`{"content":"AAEC-cipher","passwordHash":"[redacted]"}`))
		Expect(string(audit.EntryOf(stored("MessageSent", `{"content":"kept   as stored"}`)).Data)).
			To(Equal(`{"content":"kept   as stored"}`))
		Expect(audit.EntryOf(stored("MemberRegistered", `{"account":"alice","passwordHash":"$2a$10$abc"}`)).Data).
			To(MatchJSON(`{"account":"alice","passwordHash":"[redacted]"}`))
		Expect(audit.EntryOf(stored("SMSCodeIssued", `{"phone":"13800000000","codeHash":"x"}`)).Data).
			To(MatchJSON(`{"phone":"13800000000","codeHash":"[redacted]"}`))
	})

	It("read back with their checksum", func() {
		var got []audit.Entry
		t, err := audit.ReadExport(bytes.NewReader(export()), func(e audit.Entry) error { got = append(got, e); return nil })
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(entries))
		Expect(t.Count).To(Equal(2))
		Expect(t.Tenant).To(Equal("x0001"))
		Expect(t.Head).To(Equal(uint64(12)))
		Expect(t.Checksum).To(MatchRegexp(`^sha256:[0-9a-f]{64}$`))
	})

	DescribeTable("refuse a changed file",
		func(change func([]byte) []byte) {
			_, err := audit.ReadExport(bytes.NewReader(change(export())), func(audit.Entry) error { return nil })
			Expect(fault.Is(err, fault.Invalid)).To(BeTrue(), "%v", err)
		},
		Entry("an edited event", func(b []byte) []byte { return bytes.Replace(b, []byte("hi"), []byte("ho"), 1) }),
		Entry("a dropped event", func(b []byte) []byte { _, rest, _ := bytes.Cut(b, []byte("\n")); return rest }),
		Entry("no checksum line", func(b []byte) []byte {
			lines := bytes.SplitAfter(b, []byte("\n"))
			return bytes.Join(lines[:2], nil)
		}),
		Entry("a line after the checksum", func(b []byte) []byte { return append(b, b[:bytes.IndexByte(b, '\n')+1]...) }),
		Entry("a line that is no event", func(b []byte) []byte { return append([]byte("nonsense\n"), b...) }),
	)
})
