package personal_test

import (
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/personal"
)

var _ = Describe("Personal spaces", func() {
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	sent := chat.Stored{ID: "m1", ChatID: "c", ChatType: chat.Friend, From: "b", To: "a", MsgType: chat.Text,
		Content: "hi", SentAt: now.Add(-time.Hour).UnixMilli()}
	expectFault := func(err error, kind fault.Kind, key string) {
		GinkgoHelper()
		f, ok := fault.As(err)
		Expect(ok).To(BeTrue(), "%v", err)
		Expect(f.Kind).To(Equal(kind))
		Expect(f.Key).To(Equal(key))
	}

	Describe("AddFavourite", func() {
		It("keeps a snapshot of the message with the friend of its chat", func() {
			e, err := personal.AddFavourite("f1", "a", sent, now)
			Expect(err).NotTo(HaveOccurred())
			Expect(e).To(Equal(&personal.FavouriteAdded{Member: "a", Favourite: personal.Favourite{
				ID: "f1", MessageID: "m1", ChatType: "Friend", From: "b", Peer: "b", MsgType: "Text", Content: "hi",
				SentAt: sent.SentAt, At: now.UnixMilli()}}))
		})
		It("keeps a forwarded message as the type it forwarded", func() {
			m := sent
			m.MsgType, m.ForwardType = chat.Forward, chat.Picture
			e, err := personal.AddFavourite("f1", "b", m, now)
			Expect(err).NotTo(HaveOccurred())
			Expect(e.(*personal.FavouriteAdded).Favourite.MsgType).To(Equal("Picture"))
			Expect(e.(*personal.FavouriteAdded).Favourite.Peer).To(Equal("a"))
		})
		DescribeTable("refuses what cannot be kept",
			func(change func(*chat.Stored)) {
				m := sent
				change(&m)
				_, err := personal.AddFavourite("f1", "a", m, now)
				expectFault(err, fault.Invalid, personal.MsgFavouriteUnsupported)
			},
			Entry("a recalled message", func(m *chat.Stored) { m.Recalled = true }),
			Entry("a system line", func(m *chat.Stored) { m.MsgType = chat.Event }),
			Entry("a call record", func(m *chat.Stored) { m.MsgType = chat.VoiceCall }),
		)
	})

	Describe("EditFavourite", func() {
		f := personal.Favourite{ID: "f1", MsgType: "Text", Content: "hi", At: 5}
		It("replaces the text and keeps the rest", func() {
			e, err := personal.EditFavourite("a", f, "hello", now)
			Expect(err).NotTo(HaveOccurred())
			Expect(e).To(Equal(&personal.FavouriteEdited{Member: "a", Favourite: personal.Favourite{
				ID: "f1", MsgType: "Text", Content: "hello", At: 5, EditTime: now.UnixMilli()}}))
		})
		It("decides nothing for the same text", func() {
			e, err := personal.EditFavourite("a", f, "hi", now)
			Expect(err).NotTo(HaveOccurred())
			Expect(e).To(BeNil())
		})
		It("refuses a picture and an empty text", func() {
			pic := f
			pic.MsgType = "Picture"
			_, err := personal.EditFavourite("a", pic, "x", now)
			expectFault(err, fault.Invalid, personal.MsgFavouriteNotText)
			_, err = personal.EditFavourite("a", f, "  ", now)
			expectFault(err, fault.Invalid, fault.MsgContentEmpty)
		})
	})

	It("checks the ids of one call", func() {
		expectFault(personal.CheckIDs(nil), fault.Invalid, personal.MsgSelectRecords)
		expectFault(personal.CheckIDs([]string{""}), fault.Invalid, personal.MsgSelectRecords)
		many := make([]string, 101)
		for i := range many {
			many[i] = fmt.Sprint(i)
		}
		expectFault(personal.CheckIDs(many), fault.Invalid, personal.MsgTooManyRecords)
		Expect(personal.CheckIDs(many[:100])).To(Succeed())
	})

	It("turns favourites into forward records of the kept message", func() {
		rs := personal.Records([]personal.Favourite{{ID: "f1", MessageID: "m1", ChatType: "Friend", From: "b", MsgType: "Text", Content: "hi", SentAt: 7}})
		Expect(rs).To(Equal([]chat.Stored{{ID: "m1", ChatType: chat.Friend, From: "b", MsgType: chat.Text, Content: "hi", SentAt: 7}}))
		Expect(chat.CheckForward(rs)).To(Succeed())
	})

	Describe("AddSticker", func() {
		pic := chat.Media{FilePath: "/v1/sso/im/file/x0001/0123.png"}
		It("adds a picture", func() {
			e, err := personal.AddSticker("s1", "a", pic, `{"filePath":"..."}`, 3, now)
			Expect(err).NotTo(HaveOccurred())
			Expect(e).To(Equal(&personal.StickerAdded{Member: "a", Sticker: personal.Sticker{
				ID: "s1", FilePath: pic.FilePath, Content: `{"filePath":"..."}`, At: now.UnixMilli()}}))
		})
		It("refuses past the cap", func() {
			_, err := personal.AddSticker("s1", "a", pic, "{}", personal.MaxStickers, now)
			expectFault(err, fault.Conflict, personal.MsgStickersFull)
		})
	})

	Describe("mass messages", func() {
		It("takes 1 to 100 recipients, each once", func() {
			rs, err := personal.Recipients([]string{"b", " c ", "b", ""})
			Expect(err).NotTo(HaveOccurred())
			Expect(rs).To(Equal([]string{"b", "c"}))
			_, err = personal.Recipients([]string{" "})
			expectFault(err, fault.Invalid, personal.MsgBatchNoRecipients)
			many := make([]string, 101)
			for i := range many {
				many[i] = fmt.Sprint(i)
			}
			_, err = personal.Recipients(many)
			expectFault(err, fault.Invalid, personal.MsgBatchTooMany)
			rs, err = personal.Recipients(many[:100])
			Expect(err).NotTo(HaveOccurred())
			Expect(rs).To(HaveLen(100))
		})
		It("is a text or a media message", func() {
			for in, want := range map[string]chat.MsgType{"": chat.Text, "Text": chat.Text, "Picture": chat.Picture, "File": chat.File} {
				Expect(personal.BatchType(in)).To(Equal(want))
			}
			for _, in := range []string{"Forward", "Reply", "Event", strings.Repeat("x", 3)} {
				_, err := personal.BatchType(in)
				expectFault(err, fault.Invalid, personal.MsgBatchType)
			}
		})
		It("is allowed unless the setting is Disable", func() {
			Expect(personal.CheckBatchSend("")).To(Succeed())
			Expect(personal.CheckBatchSend(personal.Enable)).To(Succeed())
			expectFault(personal.CheckBatchSend(personal.Disable), fault.Forbidden, personal.MsgBatchDisabled)
		})
		It("sets Enable or Disable only", func() {
			e, err := personal.SetBatchSend("a", personal.Disable, now)
			Expect(err).NotTo(HaveOccurred())
			Expect(e).To(Equal(&personal.BatchSendSet{Member: "a", Setting: "Disable", At: now.UnixMilli()}))
			_, err = personal.SetBatchSend("a", "on", now)
			expectFault(err, fault.Invalid, personal.MsgBatchSettingInvalid)
		})
	})
})
