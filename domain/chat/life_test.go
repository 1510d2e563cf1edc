package chat_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/fault"
)

var _ = Describe("The message life", func() {
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	sent := chat.Stored{ID: "m1", ChatID: "c", ChatType: chat.Friend, From: "a", To: "b", MsgType: chat.Text,
		Content: "hi", SentAt: now.Add(-time.Hour).UnixMilli()}
	expectFault := func(err error, kind fault.Kind, key string) {
		GinkgoHelper()
		f, ok := fault.As(err)
		Expect(ok).To(BeTrue(), "%v", err)
		Expect(f.Kind).To(Equal(kind))
		Expect(f.Key).To(Equal(key))
	}

	Describe("Edit", func() {
		It("lets the sender change a text", func() {
			e, err := chat.Edit(sent, "a", "hello", now)
			Expect(err).NotTo(HaveOccurred())
			Expect(e).To(Equal(&chat.MessageEdited{MessageID: "m1", Editor: "a", Content: "hello", At: now.UnixMilli()}))
		})
		It("decides nothing when the content is the same", func() {
			e, err := chat.Edit(sent, "a", "hi", now)
			Expect(err).NotTo(HaveOccurred())
			Expect(e).To(BeNil())
		})
		DescribeTable("refusals",
			func(change func(*chat.Stored), editor, content string, kind fault.Kind, key string) {
				m := sent
				change(&m)
				_, err := chat.Edit(m, editor, content, now)
				expectFault(err, kind, key)
			},
			Entry("not the sender", func(*chat.Stored) {}, "b", "x", fault.Forbidden, fault.MsgNotYourMessage),
			Entry("recalled", func(m *chat.Stored) { m.Recalled = true }, "a", "x", fault.Conflict, fault.MsgMessageRecalled),
			Entry("a picture", func(m *chat.Stored) { m.MsgType = chat.Picture }, "a", "x", fault.Invalid, fault.MsgNotEditable),
			Entry("a forward", func(m *chat.Stored) { m.MsgType = chat.Forward }, "a", "x", fault.Invalid, fault.MsgNotEditable),
			Entry("blank", func(*chat.Stored) {}, "a", " ", fault.Invalid, fault.MsgContentEmpty),
		)
	})

	Describe("Recall", func() {
		It("lets the sender recall within 24 hours, once", func() {
			e, err := chat.Recall(sent, "a", now)
			Expect(err).NotTo(HaveOccurred())
			Expect(e).To(Equal(&chat.MessageRecalled{MessageID: "m1", By: "a", At: now.UnixMilli()}))
			recalled := sent
			recalled.Recalled = true
			e, err = chat.Recall(recalled, "a", now)
			Expect(err).NotTo(HaveOccurred())
			Expect(e).To(BeNil())
		})
		It("refuses others and late recalls", func() {
			_, err := chat.Recall(sent, "b", now)
			expectFault(err, fault.Forbidden, fault.MsgNotYourMessage)
			_, err = chat.Recall(sent, "a", now.Add(chat.RecallWindow))
			expectFault(err, fault.Conflict, fault.MsgRecallExpired)
		})
	})

	Describe("deletion", func() {
		It("takes whole forwarded batches, each id once", func() {
			batch := []string{"f1", "f2", "f3"}
			ids := chat.WithBatches([]chat.Stored{{ID: "x"}, {ID: "f2", ForwardBatch: batch}, {ID: "f3", ForwardBatch: batch}})
			Expect(ids).To(Equal([]string{"x", "f2", "f1", "f3"}))
		})
		It("deletes for everyone only one's own messages", func() {
			_, err := chat.DeleteForEveryone([]chat.Stored{sent}, "b", []string{"m1"}, false, now)
			expectFault(err, fault.Forbidden, fault.MsgNotYourMessage)
			e, err := chat.DeleteForEveryone([]chat.Stored{sent}, "a", []string{"m1"}, false, now)
			Expect(err).NotTo(HaveOccurred())
			Expect(e.(*chat.MessagesDeleted).MessageIDs).To(Equal([]string{"m1"}))
		})
		It("deletes others' messages for everyone when allowed to, as a group's owner and admins are", func() {
			e, err := chat.DeleteForEveryone([]chat.Stored{sent}, "b", []string{"m1"}, true, now)
			Expect(err).NotTo(HaveOccurred())
			Expect(e.(*chat.MessagesDeleted).By).To(Equal("b"))
		})
		It("takes 1 to 100 ids a call", func() {
			expectFault(chat.CheckIDs(nil), fault.Invalid, fault.MsgNoMessages)
			expectFault(chat.CheckIDs(make([]string, 101)), fault.Invalid, fault.MsgTooManyMessages)
			Expect(chat.CheckIDs(make([]string, 100))).To(Succeed())
		})
	})

	Describe("Forward", func() {
		It("checks the records: 1 to 10, no recalled message, call record or system line", func() {
			expectFault(chat.CheckForward(nil), fault.Invalid, fault.MsgForwardNone)
			expectFault(chat.CheckForward(make([]chat.Stored, 11)), fault.Invalid, fault.MsgForwardTooMany)
			for _, bad := range []chat.Stored{{Recalled: true, MsgType: chat.Text}, {MsgType: chat.VoiceCall}, {MsgType: chat.VideoCall}, {MsgType: chat.Event}} {
				expectFault(chat.CheckForward([]chat.Stored{sent, bad}), fault.Invalid, fault.MsgForwardUnsupported)
			}
			Expect(chat.CheckForward([]chat.Stored{sent})).To(Succeed())
		})
		It("refuses a client's local id, short after its last underscore", func() {
			expectFault(chat.CheckForwardIDs([]string{"local_1234"}), fault.Invalid, fault.MsgForwardUnsupported)
			Expect(chat.CheckForwardIDs([]string{"local_12345", "1866000000000000001"})).To(Succeed())
		})
		It("makes one Forward message per record sharing the batch, keeping the original type", func() {
			picture := chat.Stored{ID: "p", From: "c", MsgType: chat.Picture, Content: "{}"}
			again := chat.Stored{ID: "f", From: "d", MsgType: chat.Forward, ForwardType: chat.File, Content: "{}"}
			es := chat.ForwardTo([]chat.Stored{sent, picture, again}, []string{"n1", "n2", "n3"}, []string{"u-0", "u-1", "u-2"}, "a", chat.Friend, "e", now)
			Expect(es).To(HaveLen(3))
			second := es[1].(*chat.MessageSent)
			Expect(second.MsgType).To(Equal(string(chat.Forward)))
			Expect([]string{second.ForwardBatchID, second.ForwardFrom, second.ForwardType, second.To}).To(Equal([]string{"n1", "c", "Picture", "e"}))
			Expect(second.ForwardBatch).To(Equal([]string{"n1", "n2", "n3"}))
			Expect(es[2].(*chat.MessageSent).ForwardType).To(Equal("File"))
		})
		It("forwards into a group's chat by its group id", func() {
			es := chat.ForwardTo([]chat.Stored{sent}, []string{"n1"}, []string{"u-0"}, "a", chat.Group, "g1", now)
			m := es[0].(*chat.MessageSent)
			Expect([]string{m.ChatType, m.GroupID, m.To}).To(Equal([]string{"Group", "g1", ""}))
		})
	})

	It("needs a parent for a reply", func() {
		o := chat.Outgoing{UUID: "u", ChatType: chat.Friend, From: "a", To: "b", MsgType: chat.Reply, Content: "yes"}
		expectFault(o.Validate(), fault.Invalid, fault.MsgParentMissing)
		o.Parent = "m1"
		Expect(o.Validate()).To(Succeed())
	})
})

var _ = Describe("Mentions", func() {
	It("lists the mentioned ids once, in order", func() {
		Expect(chat.Mentions("@[12] hi @[3] and @[12] @[abc] @[" + chat.MentionAll + "]")).To(Equal([]string{"12", "3", chat.MentionAll}))
		Expect(chat.Mentions("no one")).To(BeEmpty())
	})
	It("resolves mentions to names, leaving unknown ones", func() {
		names := map[string]string{"12": "Bob", chat.MentionAll: "all"}
		got := chat.ResolveMentions("@[12] and @["+chat.MentionAll+"], not @[9]", func(id string) (string, bool) {
			n, ok := names[id]
			return n, ok
		})
		Expect(got).To(Equal("@Bob and @all, not @[9]"))
	})
})
