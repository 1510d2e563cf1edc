package blobstore_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/blobstore"
	"github.com/eventchat/eventchat/adapters/blobstore/blobtest"
)

func TestBlobStore(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Blob store")
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

	blobtest.Specs(func() blobtest.Store { return store }, func() int { return len(files()) })

	It("keeps a file at <root>/<tenant>/<first two letters of its name>/<name>", func() {
		name, _, err := store.Save(ctx, "x0001", "m1", "png", strings.NewReader("0123456789"))
		Expect(err).NotTo(HaveOccurred())
		Expect(files()).To(ConsistOf(filepath.Join(root, "x0001", name[:2], name)))
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
