package chat_test

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/fault"
)

var _ = Describe("Media content", func() {
	const name = "0123456789abcdef0123456789abcdef"
	picture := chat.Media{FilePath: chat.UploadPath("x0001", name+".png"), FileName: "cat.png", Size: 1234,
		ContentType: "image/png", Width: 640, Height: 480}
	encode := func(m chat.Media) string {
		raw, err := json.Marshal(m)
		Expect(err).NotTo(HaveOccurred())
		return string(raw)
	}

	DescribeTable("checking a media message of tenant x0001",
		func(t chat.MsgType, change func(*chat.Media), kind fault.Kind, key string) {
			m := picture
			change(&m)
			got, err := chat.ParseMedia(t, "x0001", encode(m))
			if kind == 0 {
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(m))
				return
			}
			f, isFault := fault.As(err)
			Expect(isFault).To(BeTrue(), "%v", err)
			Expect(f.Kind).To(Equal(kind))
			Expect(f.Key).To(Equal(key))
		},
		Entry("a picture", chat.Picture, func(*chat.Media) {}, fault.Kind(0), ""),
		Entry("a picture sent as a file", chat.File, func(*chat.Media) {}, fault.Kind(0), ""),
		Entry("a pdf file", chat.File, func(m *chat.Media) {
			m.FilePath, m.ContentType, m.Width, m.Height = chat.UploadPath("x0001", name+".pdf"), "application/pdf", 0, 0
		}, fault.Kind(0), ""),
		Entry("a video", chat.VideoMsg, func(m *chat.Media) {
			m.FilePath, m.ContentType, m.Duration = chat.UploadPath("x0001", name+".mp4"), "video/mp4", 12.5
		}, fault.Kind(0), ""),
		Entry("a voice recording in webm", chat.VoiceMsg, func(m *chat.Media) {
			m.FilePath, m.ContentType, m.Duration = chat.UploadPath("x0001", name+".webm"), "video/webm", 3
		}, fault.Kind(0), ""),
		Entry("a voice recording in mp3", chat.VoiceMsg, func(m *chat.Media) {
			m.FilePath, m.ContentType = chat.UploadPath("x0001", name+".mp3"), "audio/mpeg"
		}, fault.Kind(0), ""),
		Entry("another tenant's file", chat.Picture, func(m *chat.Media) { m.FilePath = chat.UploadPath("x0002", name+".png") },
			fault.Invalid, chat.MsgMediaPath),
		Entry("a path elsewhere", chat.Picture, func(m *chat.Media) { m.FilePath = "https://evil.example/cat.png" },
			fault.Invalid, chat.MsgMediaPath),
		Entry("a traversing path", chat.Picture, func(m *chat.Media) { m.FilePath = chat.UploadPathPrefix + "x0001/../../etc/passwd" },
			fault.Invalid, chat.MsgMediaPath),
		Entry("no path", chat.Picture, func(m *chat.Media) { m.FilePath = "" }, fault.Invalid, chat.MsgMediaPath),
		Entry("a content type other than the stored file's", chat.Picture, func(m *chat.Media) { m.ContentType = "image/gif" },
			fault.Invalid, chat.MsgMediaInvalid),
		Entry("a pdf as a picture", chat.Picture, func(m *chat.Media) {
			m.FilePath, m.ContentType = chat.UploadPath("x0001", name+".pdf"), "application/pdf"
		}, fault.Invalid, chat.MsgMediaNotPicture),
		Entry("a picture as a video", chat.VideoMsg, func(*chat.Media) {}, fault.Invalid, chat.MsgMediaNotVideo),
		Entry("a picture as a voice message", chat.VoiceMsg, func(*chat.Media) {}, fault.Invalid, chat.MsgMediaNotAudio),
		Entry("a picture of 5,000,000 bytes", chat.Picture, func(m *chat.Media) { m.Size = 5_000_000 },
			fault.TooLarge, chat.MsgPictureTooLarge),
		Entry("a picture just under 5 MB", chat.Picture, func(m *chat.Media) { m.Size = 4_999_999 }, fault.Kind(0), ""),
		Entry("a size of zero", chat.File, func(m *chat.Media) { m.Size = 0 }, fault.Invalid, chat.MsgMediaInvalid),
		Entry("a negative size", chat.File, func(m *chat.Media) { m.Size = -1 }, fault.Invalid, chat.MsgMediaInvalid),
		Entry("a size over the file cap", chat.File, func(m *chat.Media) { m.Size = chat.MaxFileBytes + 1 }, fault.Invalid, chat.MsgMediaInvalid),
		Entry("no file name", chat.File, func(m *chat.Media) { m.FileName = " " }, fault.Invalid, chat.MsgMediaFileName),
		Entry("a file name with a slash", chat.File, func(m *chat.Media) { m.FileName = "../x.png" }, fault.Invalid, chat.MsgMediaFileName),
		Entry("a file name over 255 bytes", chat.File, func(m *chat.Media) { m.FileName = strings.Repeat("a", 256) },
			fault.Invalid, chat.MsgMediaFileName),
		Entry("a negative width", chat.Picture, func(m *chat.Media) { m.Width = -5 }, fault.Invalid, chat.MsgMediaInvalid),
		Entry("a negative duration", chat.VoiceMsg, func(m *chat.Media) {
			m.FilePath, m.ContentType, m.Duration = chat.UploadPath("x0001", name+".mp3"), "audio/mpeg", -1
		}, fault.Invalid, chat.MsgMediaInvalid),
	)

	DescribeTable("content that is not a media JSON text",
		func(content string) {
			_, err := chat.ParseMedia(chat.Picture, "x0001", content)
			Expect(fault.Is(err, fault.Invalid)).To(BeTrue(), "%v", err)
		},
		Entry("plain text", "hello"),
		Entry("a JSON string", `"hello"`),
		Entry("an array", `[1]`),
		Entry("two objects", encode(picture)+encode(picture)),
		Entry("an unknown field", strings.Replace(encode(picture), "{", `{"evil":1,`, 1)),
		Entry("a size as text", strings.Replace(encode(picture), `"size":1234`, `"size":"1234"`, 1)),
	)

	It("builds and parses upload paths in one form", func() {
		tenant, stored, ok := chat.ParseUploadPath(chat.UploadPath("x0001", name+".jpg"))
		Expect(ok).To(BeTrue())
		Expect(tenant).To(Equal("x0001"))
		Expect(stored).To(Equal(name + ".jpg"))
		for _, p := range []string{chat.UploadPathPrefix + "x0001/" + name, chat.UploadPathPrefix + "x0001/" + name + ".jpg/x",
			chat.UploadPathPrefix + "../" + name + ".jpg", chat.UploadPathPrefix + name + ".jpg"} {
			_, _, ok := chat.ParseUploadPath(p)
			Expect(ok).To(BeFalse(), p)
		}
		Expect(chat.ContentTypeOf(name + ".jpg")).To(Equal("image/jpeg"))
		Expect(chat.ContentTypeOf(name + ".exe")).To(Equal("application/octet-stream"))
		ext, ok := chat.ExtensionOf("image/png")
		Expect(ok).To(BeTrue())
		Expect(ext).To(Equal("png"))
	})

	It("names a stored file after its uploader, and no other member", func() {
		stored := chat.StoredName("1866000000000000001", [8]byte{1, 2, 3, 4, 5, 6, 7, 8}, "png")
		Expect(chat.ValidStoredName(stored)).To(BeTrue())
		Expect(stored).To(HavePrefix("0102030405060708"))
		Expect(chat.UploadedBy(stored, "1866000000000000001")).To(BeTrue())
		Expect(chat.UploadedBy(stored, "1866000000000000002")).To(BeFalse())
		Expect(chat.UploadedBy(name+".png", "1866000000000000001")).To(BeFalse())
		Expect(chat.UploadedBy("../"+stored, "1866000000000000001")).To(BeFalse())
	})

	It("makes the media types sendable", func() {
		for _, t := range []string{"Picture", "VideoMsg", "VoiceMsg", "File"} {
			got, err := chat.ParseSendableType(t)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got)).To(Equal(t))
		}
	})
})
