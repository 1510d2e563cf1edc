package blobstore_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/blobstore"
)

func TestBlobStore(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Blob store")
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

var _ = Describe("The blob store", func() {
	var root string
	var store *blobstore.Store
	ctx := context.Background()
	BeforeEach(func() {
		root = filepath.Join(GinkgoT().TempDir(), blobstore.Dir)
		var err error
		store, err = blobstore.New(root)
		Expect(err).NotTo(HaveOccurred())
	})

	// files lists the regular files below root.
	files := func() []string {
		var out []string
		Expect(filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				out = append(out, p)
			}
			return err
		})).To(Succeed())
		return out
	}

	It("stores a file under its tenant with a random name and reads it back with seeking", func() {
		name, size, err := store.Save(ctx, "x0001", "m1", "png", strings.NewReader("0123456789"))
		Expect(err).NotTo(HaveOccurred())
		Expect(size).To(Equal(int64(10)))
		Expect(name).To(MatchRegexp(`^[0-9a-f]{32}\.png$`))
		Expect(files()).To(ConsistOf(filepath.Join(root, "x0001", name[:2], name)))

		other, _, err := store.Save(ctx, "x0001", "m1", "png", strings.NewReader("0123456789"))
		Expect(err).NotTo(HaveOccurred())
		Expect(other).NotTo(Equal(name))

		f, mod, err := store.Open(ctx, "x0001", name)
		Expect(err).NotTo(HaveOccurred())
		defer f.Close()
		Expect(mod).NotTo(BeZero())
		_, err = f.Seek(4, io.SeekStart)
		Expect(err).NotTo(HaveOccurred())
		rest, err := io.ReadAll(f)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(rest)).To(Equal("456789"))

		n, found, err := store.Size(ctx, "x0001", name)
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeTrue())
		Expect(n).To(Equal(int64(10)))
	})

	It("keeps tenants apart", func() {
		name, _, err := store.Save(ctx, "x0001", "m1", "txt", strings.NewReader("a"))
		Expect(err).NotTo(HaveOccurred())
		_, _, err = store.Open(ctx, "x0002", name)
		Expect(errors.Is(err, fs.ErrNotExist)).To(BeTrue())
		_, found, err := store.Size(ctx, "x0002", name)
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeFalse())
	})

	It("stores nothing when the source fails or the context ends", func() {
		_, _, err := store.Save(ctx, "x0001", "m1", "bin", &failing{})
		Expect(err).To(MatchError(errBroken))
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		_, _, err = store.Save(cancelled, "x0001", "m1", "bin", bytes.NewReader(make([]byte, 1<<20)))
		Expect(err).To(MatchError(context.Canceled))
		Expect(files()).To(BeEmpty())
	})

	It("removes the temporary files of interrupted uploads when it opens, and keeps the stored ones", func() {
		name, _, err := store.Save(ctx, "x0001", "m1", "png", strings.NewReader("kept"))
		Expect(err).NotTo(HaveOccurred())
		left := filepath.Join(root, "x0001", name[:2], ".upload-123")
		Expect(os.WriteFile(left, []byte("half"), 0o600)).To(Succeed())
		_, err = blobstore.New(root)
		Expect(err).NotTo(HaveOccurred())
		Expect(files()).To(ConsistOf(filepath.Join(root, "x0001", name[:2], name)))
	})

	It("refuses tenants and extensions that could leave its directory", func() {
		for _, c := range [][2]string{{"../x", "png"}, {"x0001/..", "png"}, {"", "png"}, {"x0001", "../png"}, {"x0001", ""}, {"X0001", "png"}} {
			_, _, err := store.Save(ctx, c[0], "m1", c[1], strings.NewReader("a"))
			Expect(err).To(MatchError(blobstore.ErrInvalid), "%q %q", c[0], c[1])
		}
		Expect(files()).To(BeEmpty())
	})

	It("finds nothing for names that are not its own, whatever they hold", func() {
		outside := filepath.Join(filepath.Dir(root), "secret.txt")
		Expect(os.WriteFile(outside, []byte("secret"), 0o600)).To(Succeed())
		name, _, err := store.Save(ctx, "x0001", "m1", "txt", strings.NewReader("a"))
		Expect(err).NotTo(HaveOccurred())
		for _, c := range [][2]string{
			{"x0001", "../../secret.txt"}, {"..", "secret.txt"}, {"x0001", name[:2] + "/" + name},
			{"x0001", strings.ToUpper(name)}, {"x0001", name + "/"}, {"x0001", ""}, {"x0001/../x0001", name},
			{"x0001", "00000000000000000000000000000000.txt"},
		} {
			_, _, err := store.Open(ctx, c[0], c[1])
			Expect(errors.Is(err, fs.ErrNotExist)).To(BeTrue(), "%q %q", c[0], c[1])
			_, found, err := store.Size(ctx, c[0], c[1])
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeFalse())
		}
	})
})
