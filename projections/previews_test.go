package projections_test

import (
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/projections"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// preview is what a conversation's preview is made of.
type preview struct{ Type, Content, FileName, ForwardFrom, ForwardType string }

func previewOf(store projections.ReadStore, member, peer string) preview {
	GinkgoHelper()
	s := sessionOf(store, member, peer)
	return preview{s.LastMessageType, s.LastMessageContent, s.LastMessageFileName, s.LastMessageForwardFrom, s.LastMessageForwardType}
}

func sentOf(id, msgType, content string) *chat.MessageSent {
	e := sent(id, "1", "2", content)
	e.MsgType = msgType
	return e
}

func forwarded(id, from, forwardType, content string) *chat.MessageSent {
	e := sentOf(id, "Forward", content)
	e.ForwardBatchID, e.ForwardBatch, e.ForwardFrom, e.ForwardType = id, []string{id}, from, forwardType
	return e
}

const reportPDF = `{"filePath":"/v1/sso/im/file/x0001/0123456789abcdef0123456789abcdef.pdf","fileName":"report.pdf","size":9,"contentType":"application/pdf"}`

var _ = Describe("The conversation list's previews", func() {
	DescribeTable("keep what a preview names, for both members",
		func(e *chat.MessageSent, want preview) {
			store := openStore()
			fold(store, projections.Chats{}, newLog().add(chatStream, e).envs, 0)
			Expect(previewOf(store, "1", "2")).To(Equal(want))
			Expect(previewOf(store, "2", "1")).To(Equal(want))
		},
		Entry("a text", sentOf("m", "Text", "hello"), preview{"Text", "hello", "", "", ""}),
		Entry("a photo", sentOf("m", "Picture", `{"fileName":"cat.png"}`), preview{"Picture", "[picture]", "", "", ""}),
		Entry("a video", sentOf("m", "VideoMsg", `{"fileName":"a.mp4"}`), preview{"VideoMsg", "[video]", "", "", ""}),
		Entry("a voice message", sentOf("m", "VoiceMsg", `{"fileName":"a.ogg"}`), preview{"VoiceMsg", "[voice]", "", "", ""}),
		Entry("a file, by its name", sentOf("m", "File", reportPDF), preview{"File", "[file]", "report.pdf", "", ""}),
		Entry("a file whose content names none", sentOf("m", "File", "not json"), preview{"File", "[file]", "", "", ""}),
		Entry("a call", sentOf("m", "VideoCall", "{}"), preview{"VideoCall", "[video call]", "", "", ""}),
		Entry("a forwarded text: the text and its sender", forwarded("m", "7", "Text", "look"), preview{"Forward", "look", "", "7", "Text"}),
		Entry("a forwarded photo", forwarded("m", "7", "Picture", "{}"), preview{"Forward", "[picture]", "", "7", "Picture"}),
		Entry("a forwarded file, by its name", forwarded("m", "7", "File", reportPDF), preview{"Forward", "[file]", "report.pdf", "7", "File"}),
		Entry("a forward of an older client, with no type", forwarded("m", "7", "", "look"), preview{"Forward", "[forward]", "", "7", ""}),
	)

	It("names the last message's sender, for both members", func() {
		store := openStore()
		fold(store, projections.Chats{}, newLog().add(chatStream, sent("m", "2", "1", "hi")).envs, 0)
		Expect(sessionOf(store, "1", "2").LastMessageFrom).To(Equal("2"))
		Expect(sessionOf(store, "2", "1").LastMessageFrom).To(Equal("2"))
	})

	It("leaves nothing of the message before, and falls back whole when the last message goes", func() {
		store := openStore()
		l := newLog().
			add(chatStream, forwarded("f", "7", "File", reportPDF)).
			add(chatStream, sent("t", "1", "2", "plain"))
		fold(store, projections.Chats{}, l.envs, 0)
		Expect(previewOf(store, "2", "1")).To(Equal(preview{"Text", "plain", "", "", ""}))

		fold(store, projections.Chats{}, newLog().add(chatStream, &chat.MessagesDeleted{MessageIDs: []string{"t"}, By: "1", At: 1500}).envs, 0)
		Expect(previewOf(store, "2", "1")).To(Equal(preview{"Forward", "[file]", "report.pdf", "7", "File"}))
	})

	It("shows a recalled or erased file by its placeholder, without its name", func() {
		store := openStore()
		fold(store, projections.Chats{}, newLog().
			add(chatStream, sentOf("f", "File", reportPDF)).
			add(chatStream, &chat.MessageRecalled{MessageID: "f", By: "1", At: 1500}).envs, 0)
		Expect(previewOf(store, "2", "1")).To(Equal(preview{"File", projections.RecalledPreview, "", "", ""}))

		erased := openStore()
		fold(erased, projections.Chats{}, newLog().
			add(chatStream, forwarded("f", "7", "File", reportPDF)).
			add("x0001.member-1", &member.Erased{At: 1500}).envs, 0)
		Expect(previewOf(erased, "2", "1")).To(Equal(preview{"Forward", projections.ErasedContent, "", "7", "File"}))
	})
})
