package httpapi

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/fault"
)

var _ = Describe("Uploads", func() {
	DescribeTable("take their type from their bytes, and the client's extension only where bytes cannot tell",
		func(head, clientName, ext string) { Expect(sniff([]byte(head), clientName)).To(Equal(ext)) },
		Entry("a png named jpg", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "photo.jpg", "png"),
		Entry("a jpeg", "\xff\xd8\xff\xe0\x00\x10JFIF", "x", "jpg"),
		Entry("a gif named png", "GIF89a\x01\x00", "a.png", "gif"),
		Entry("a pdf named exe", "%PDF-1.7\n", "run.exe", "pdf"),
		Entry("html named png", "<html><body>x</body></html>", "a.png", "bin"),
		Entry("svg", `<svg xmlns="http://www.w3.org/2000/svg"></svg>`, "a.svg", "txt"),
		Entry("plain text", "hello\n", "a.txt", "txt"),
		Entry("csv by its extension", "a,b\n1,2\n", "T.CSV", "csv"),
		Entry("text that is not utf-8", "caf\xe9 cr\xe8me", "a.txt", "bin"),
		Entry("a zip that is a docx", "PK\x03\x04rest", "letter.docx", "docx"),
		Entry("a zip", "PK\x03\x04rest", "letter.exe", "zip"),
		Entry("webm audio by its extension", "\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01webm", "voice.weba", "weba"),
		Entry("a bare mp3 frame", "\xff\xfb\x90\x44\x00\x00\x00", "song.mp3", "mp3"),
		Entry("a bare mp3 frame named otherwise", "\xff\xfb\x90\x44\x00\x00\x00", "song.bin", "bin"),
		Entry("random bytes", "\x00\x01\x02\x03", "a.png", "bin"),
	)

	It("stop a file past its cap, telling that apart from the client's failure", func() {
		c := &capReader{r: strings.NewReader("12345"), left: 5}
		got, err := io.ReadAll(c)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal("12345"))

		c = &capReader{r: strings.NewReader("123456"), left: 5}
		_, err = io.ReadAll(c)
		Expect(err).To(MatchError(errOverCap))
		Expect(c.failed).To(BeNil())

		broken := errors.New("reset")
		c = &capReader{r: io.MultiReader(strings.NewReader("12"), iotestErr{broken}), left: 5}
		_, err = io.ReadAll(c)
		Expect(err).To(MatchError(broken))
		Expect(c.failed).To(MatchError(broken))
	})

	It("answer 413 when the body passes its cap, and 400 for other read failures", func() {
		f, ok := fault.As(readFault(fmt.Errorf("part: %w", &http.MaxBytesError{Limit: 1})))
		Expect(ok).To(BeTrue())
		Expect(f.Kind).To(Equal(fault.TooLarge))
		Expect(fault.Is(readFault(io.ErrUnexpectedEOF), fault.Invalid)).To(BeTrue())
	})

	DescribeTable("show the client's file name without its path or control characters",
		func(clientName, want string) { Expect(displayName(clientName, "stored.png")).To(Equal(want)) },
		Entry("a plain name", "cat.png", "cat.png"),
		Entry("a path", "../../etc/cat.png", "cat.png"),
		Entry("a windows path", `C:\Users\me\cat.png`, "cat.png"),
		Entry("control characters", "c\x00a\nt.png", "cat.png"),
		Entry("nothing", "", "stored.png"),
		Entry("dots", "..", "stored.png"),
		Entry("a long name", strings.Repeat("é", 200), strings.Repeat("é", 127)),
	)
})

type iotestErr struct{ err error }

func (e iotestErr) Read([]byte) (int, error) { return 0, e.err }
