// Package blobtest is the contract every blob store keeps: the local
// directory and GridFS run the same specs.
package blobtest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/blobstore"
	"github.com/eventchat/eventchat/domain/chat"
)

// Store is what the server asks of a blob store (httpapi.Blobs and
// commands.Uploads).
type Store interface {
	Save(ctx context.Context, tenant, uploader, ext string, src io.Reader) (string, int64, error)
	Open(ctx context.Context, tenant, name string) (io.ReadSeekCloser, time.Time, error)
	Size(ctx context.Context, tenant, name string) (int64, bool, error)
	DeleteUploads(ctx context.Context, tenant string, members []string) (int, error)
}

// Specs declares the contract's specs. store returns the store under
// test, new for each spec; kept counts what it keeps of files (whole or in
// parts), so that a spec can tell that nothing was left.
func Specs(store func() Store, kept func() int) {
	ctx := context.Background()
	read := func(tenant, name string, from int64) ([]byte, time.Time) {
		GinkgoHelper()
		f, mod, err := store().Open(ctx, tenant, name)
		Expect(err).NotTo(HaveOccurred())
		defer func() { Expect(f.Close()).To(Succeed()) }()
		_, err = f.Seek(from, io.SeekStart)
		Expect(err).NotTo(HaveOccurred())
		b, err := io.ReadAll(f)
		Expect(err).NotTo(HaveOccurred())
		return b, mod
	}

	It("stores a file under a new name of the uploader and reads it back, from any offset, with its time of storing", func() {
		before := time.Now().Add(-time.Second)
		name, size, err := store().Save(ctx, "x0001", "m1", "png", strings.NewReader("0123456789"))
		Expect(err).NotTo(HaveOccurred())
		Expect(size).To(Equal(int64(10)))
		Expect(name).To(MatchRegexp(`^[0-9a-f]{32}\.png$`))
		Expect(chat.UploadedBy(name, "m1")).To(BeTrue())

		other, _, err := store().Save(ctx, "x0001", "m1", "png", strings.NewReader("0123456789"))
		Expect(err).NotTo(HaveOccurred())
		Expect(other).NotTo(Equal(name))

		b, mod := read("x0001", name, 4)
		Expect(string(b)).To(Equal("456789"))
		Expect(mod).To(BeTemporally(">=", before))
		Expect(mod).To(BeTemporally("<=", time.Now().Add(time.Second)))

		n, found, err := store().Size(ctx, "x0001", name)
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeTrue())
		Expect(n).To(Equal(int64(10)))
	})

	It("streams a file of several megabytes and serves ranges of it", func() {
		data := make([]byte, 3<<20+12345)
		for i := range data {
			data[i] = byte(i * 7 / 3)
		}
		name, size, err := store().Save(ctx, "x0001", "m1", "bin", bytes.NewReader(data))
		Expect(err).NotTo(HaveOccurred())
		Expect(size).To(Equal(int64(len(data))))
		for _, from := range []int64{0, 1, 255 * 1024, 1<<20 + 3, int64(len(data)) - 1, int64(len(data))} {
			b, _ := read("x0001", name, from)
			Expect(bytes.Equal(b, data[from:])).To(BeTrue(), "from %d", from)
		}

		f, _, err := store().Open(ctx, "x0001", name)
		Expect(err).NotTo(HaveOccurred())
		defer func() { Expect(f.Close()).To(Succeed()) }()
		end, err := f.Seek(0, io.SeekEnd)
		Expect(err).NotTo(HaveOccurred())
		Expect(end).To(Equal(int64(len(data))))
		_, err = f.Seek(-10, io.SeekEnd)
		Expect(err).NotTo(HaveOccurred())
		head := make([]byte, 4)
		_, err = io.ReadFull(f, head)
		Expect(err).NotTo(HaveOccurred())
		Expect(head).To(Equal(data[len(data)-10 : len(data)-6]))
		at, err := f.Seek(2, io.SeekCurrent)
		Expect(err).NotTo(HaveOccurred())
		Expect(at).To(Equal(int64(len(data) - 4)))
		rest, err := io.ReadAll(f)
		Expect(err).NotTo(HaveOccurred())
		Expect(rest).To(Equal(data[len(data)-4:]))
	})

	It("keeps tenants apart and answers an unknown name as not existing", func() {
		name, _, err := store().Save(ctx, "x0001", "m1", "txt", strings.NewReader("a"))
		Expect(err).NotTo(HaveOccurred())
		unknown := strings.Repeat("0", 32) + ".txt"
		for _, c := range [][2]string{{"x0002", name}, {"x0001", unknown}, {"x0001", "../" + name}, {"x0001", "readme.txt"}} {
			_, _, err = store().Open(ctx, c[0], c[1])
			Expect(errors.Is(err, fs.ErrNotExist)).To(BeTrue(), "%q %q: %v", c[0], c[1], err)
			_, found, err := store().Size(ctx, c[0], c[1])
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeFalse(), "%q %q", c[0], c[1])
		}
	})

	It("stores nothing when the source fails or the context ends", func() {
		_, _, err := store().Save(ctx, "x0001", "m1", "bin", &failing{})
		Expect(err).To(MatchError(errBroken))
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		_, _, err = store().Save(cancelled, "x0001", "m1", "bin", bytes.NewReader(make([]byte, 1<<20)))
		Expect(err).To(MatchError(context.Canceled))
		Expect(kept()).To(BeZero())
	})

	It("deletes every file of a tenant the members named uploaded, whole, and keeps the others'", func() {
		save := func(tenant, uploader string, size int) string {
			GinkgoHelper()
			name, _, err := store().Save(ctx, tenant, uploader, "bin", bytes.NewReader(make([]byte, size)))
			Expect(err).NotTo(HaveOccurred())
			return name
		}
		stay := [][2]string{{"x0001", save("x0001", "m2", 10)}, {"x0002", save("x0002", "m1", 10)}}
		before := kept()
		gone := []string{save("x0001", "m1", 10), save("x0001", "m1", 600*1024), save("x0001", "m3", 1)}

		n, err := store().DeleteUploads(ctx, "x0001", []string{"m1", "m3"})
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(Equal(3))
		for _, name := range gone {
			_, _, err := store().Open(ctx, "x0001", name)
			Expect(errors.Is(err, fs.ErrNotExist)).To(BeTrue(), name)
		}
		for _, k := range stay {
			b, _ := read(k[0], k[1], 0)
			Expect(b).To(HaveLen(10))
		}
		Expect(kept()).To(Equal(before), "no part of a deleted file is left")

		n, err = store().DeleteUploads(ctx, "x0001", []string{"m1", "m3"})
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(BeZero(), "a second round finds nothing more")
		n, err = store().DeleteUploads(ctx, "x0009", []string{"m1"})
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(BeZero(), "a tenant without files")
		_, err = store().DeleteUploads(ctx, "../x0001", []string{"m1"})
		Expect(err).To(MatchError(blobstore.ErrInvalid))
	})

	It("refuses tenants and extensions not of the stored forms", func() {
		for _, c := range [][2]string{{"../x", "png"}, {"x0001/..", "png"}, {"", "png"}, {"x0001", "../png"}, {"x0001", ""}, {"X0001", "png"}} {
			_, _, err := store().Save(ctx, c[0], "m1", c[1], strings.NewReader("a"))
			Expect(err).To(MatchError(blobstore.ErrInvalid), "%q %q", c[0], c[1])
		}
		Expect(kept()).To(BeZero())
	})
}

// failing yields some bytes, then fails.
type failing struct{ sent bool }

var errBroken = errors.New("client went away")

func (f *failing) Read(p []byte) (int, error) {
	if !f.sent {
		f.sent = true
		return copy(p, "partial"), nil
	}
	return 0, errBroken
}
