package keystore_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/keystore"
	"github.com/eventchat/eventchat/adapters/keystore/keystoretest"
)

func TestKeyStore(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Key store")
}

var _ = keystoretest.DescribeKeys("SQLite", func(dir string) (keystoretest.Keys, func()) {
	k, err := keystore.Open(filepath.Join(dir, keystore.FileName))
	Expect(err).NotTo(HaveOccurred())
	return k, func() { Expect(k.Close()).To(Succeed()) }
})

var _ = Describe("the SQLite key store", func() {
	It("leaves no byte of a destroyed key in its directory", func() {
		ctx := context.Background()
		dir := GinkgoT().TempDir()
		k, err := keystore.Open(filepath.Join(dir, keystore.FileName))
		Expect(err).NotTo(HaveOccurred())
		random := func() ([]byte, error) {
			b := make([]byte, 32)
			_, err := rand.Read(b)
			return b, err
		}
		var destroyed [][]byte
		for _, m := range []string{"m1", "m2", "m3"} {
			key, _, err := k.Key(ctx, "x0001", m, random)
			Expect(err).NotTo(HaveOccurred())
			destroyed = append(destroyed, key)
		}
		kept, _, err := k.Key(ctx, "x0001", "m4", random)
		Expect(err).NotTo(HaveOccurred())
		for _, m := range []string{"m1", "m2", "m3"} {
			Expect(k.Destroy(ctx, "x0001", m)).To(Succeed())
		}
		Expect(k.Close()).To(Succeed())

		var all []byte
		entries, err := os.ReadDir(dir)
		Expect(err).NotTo(HaveOccurred())
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			Expect(err).NotTo(HaveOccurred())
			all = append(all, b...)
		}
		Expect(bytes.Contains(all, kept)).To(BeTrue(), "the kept key is in the file: the search can find keys")
		for _, key := range destroyed {
			Expect(bytes.Contains(all, key)).To(BeFalse())
		}
	})
})
