package chat_test

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/fault"
)

var _ = Describe("Sending", func() {
	ok := chat.Outgoing{UUID: "u-1", ChatType: chat.Friend, From: "1", To: "2", MsgType: chat.Text, Content: "hello"}

	DescribeTable("validation",
		func(change func(*chat.Outgoing), kind fault.Kind, key string) {
			o := ok
			change(&o)
			err := o.Validate()
			if kind == 0 {
				Expect(err).NotTo(HaveOccurred())
				return
			}
			f, isFault := fault.As(err)
			Expect(isFault).To(BeTrue())
			Expect(f.Kind).To(Equal(kind))
			Expect(f.Key).To(Equal(key))
		},
		Entry("a text to a friend", func(*chat.Outgoing) {}, fault.Kind(0), ""),
		Entry("no uuid", func(o *chat.Outgoing) { o.UUID = "" }, fault.Invalid, fault.MsgUUIDRequired),
		Entry("a uuid with spaces", func(o *chat.Outgoing) { o.UUID = "a b" }, fault.Invalid, fault.MsgUUIDInvalid),
		Entry("a uuid over 64", func(o *chat.Outgoing) { o.UUID = strings.Repeat("a", 65) }, fault.Invalid, fault.MsgUUIDInvalid),
		Entry("no recipient", func(o *chat.Outgoing) { o.To = "" }, fault.Invalid, fault.MsgFriendMissing),
		Entry("a text to a group", func(o *chat.Outgoing) { o.ChatType, o.To, o.GroupID = chat.Group, "", "g1" }, fault.Kind(0), ""),
		Entry("a group chat without its group", func(o *chat.Outgoing) { o.ChatType, o.To = chat.Group, "" }, fault.Invalid, fault.MsgGroupIDMissing),
		Entry("blank content", func(o *chat.Outgoing) { o.Content = " \n" }, fault.Invalid, fault.MsgContentEmpty),
		Entry("content over the cap", func(o *chat.Outgoing) { o.Content = strings.Repeat("x", chat.MaxContentBytes+1) }, fault.TooLarge, fault.MsgContentTooLong),
		Entry("content at the cap", func(o *chat.Outgoing) { o.Content = strings.Repeat("x", chat.MaxContentBytes) }, fault.Kind(0), ""),
	)

	It("sends to a group's chat by its group id, to no member", func() {
		e := chat.Send("m1", chat.Outgoing{UUID: "u", ChatType: chat.Group, From: "1", To: "2", GroupID: "g1", MsgType: chat.Text, Content: "hi"}, time.UnixMilli(5))
		sent := e.(*chat.MessageSent)
		Expect([]string{sent.ChatType, sent.GroupID, sent.To}).To(Equal([]string{"Group", "g1", ""}))
	})

	It("parses the chat types and sendable message types", func() {
		_, err := chat.ParseChatType("Friend")
		Expect(err).NotTo(HaveOccurred())
		_, err = chat.ParseChatType("friend")
		Expect(fault.Is(err, fault.Invalid)).To(BeTrue())
		t, err := chat.ParseSendableType("")
		Expect(err).NotTo(HaveOccurred())
		Expect(t).To(Equal(chat.Text))
		_, err = chat.ParseSendableType("VoiceCall")
		Expect(fault.Is(err, fault.Invalid)).To(BeTrue())
	})
})

var _ = Describe("Previews", func() {
	DescribeTable("last-content text of spec/messaging.md section 4",
		func(msgType, content, want string) { Expect(chat.Preview(msgType, content)).To(Equal(want)) },
		Entry("text", "Text", "hi", "hi"),
		Entry("event", "Event", "Alice joined", "Alice joined"),
		Entry("file", "File", "x", "[file]"),
		Entry("picture", "Picture", "x", "[picture]"),
		Entry("video", "VideoMsg", "x", "[video]"),
		Entry("voice", "VoiceMsg", "x", "[voice]"),
		Entry("forward", "Forward", "x", "[forward]"),
	)
})
