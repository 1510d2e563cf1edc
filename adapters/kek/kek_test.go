package kek_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/kek"
	"github.com/eventchat/eventchat/adapters/kek/vaulttest"
	"github.com/eventchat/eventchat/adapters/sealing"
)

func TestKEK(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Key-encryption keys")
}

var ctx = context.Background()

// keyFile writes a key-encryption key file of content with mode.
func keyFile(content []byte, mode os.FileMode) string {
	GinkgoHelper()
	path := filepath.Join(GinkgoT().TempDir(), "kek")
	Expect(os.WriteFile(path, content, mode)).To(Succeed())
	return path
}

func randomKey() []byte {
	k := make([]byte, 32)
	for i := range k {
		k[i] = byte(i*7 + 3)
	}
	return k
}

// describeKEK is what every key-encryption key does: another of the same
// kind is made by other.
func describeKEK(name string, open func() sealing.KEK, other func() sealing.KEK) {
	Describe(name, func() {
		It("unwraps what it wrapped, and wraps the same key differently each time", func() {
			k := open()
			data := randomKey()
			w1, err := k.Wrap(ctx, data)
			Expect(err).NotTo(HaveOccurred())
			w2, err := k.Wrap(ctx, data)
			Expect(err).NotTo(HaveOccurred())
			Expect(w1).NotTo(Equal(w2))
			Expect(bytes.Contains(w1, data)).To(BeFalse())
			for _, w := range [][]byte{w1, w2} {
				got, err := k.Unwrap(ctx, w)
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(data))
			}
		})

		It("refuses a wrapped key it did not wrap, or one altered", func() {
			w, err := other().Wrap(ctx, randomKey())
			Expect(err).NotTo(HaveOccurred())
			_, err = open().Unwrap(ctx, w)
			Expect(err).To(HaveOccurred())

			mine, err := open().Wrap(ctx, randomKey())
			Expect(err).NotTo(HaveOccurred())
			mine[len(mine)-3] ^= 1
			_, err = open().Unwrap(ctx, mine)
			Expect(err).To(HaveOccurred())
			_, err = open().Unwrap(ctx, []byte("x"))
			Expect(err).To(HaveOccurred())
		})
	})
}

var _ = Describe("A key-encryption key", func() {
	key := randomKey()
	var path string
	BeforeEach(func() { path = keyFile(key, 0o600) })
	describeKEK("in a file",
		func() sealing.KEK {
			k, err := kek.OpenFile(path)
			Expect(err).NotTo(HaveOccurred())
			return k
		},
		func() sealing.KEK {
			k, err := kek.OpenFile(keyFile(bytes.Repeat([]byte{0xa7}, 32), 0o600))
			Expect(err).NotTo(HaveOccurred())
			return k
		})

	Describe("in a file", func() {
		It("reads 64 hexadecimal digits as the same key", func() {
			raw, err := kek.OpenFile(path)
			Expect(err).NotTo(HaveOccurred())
			hexed, err := kek.OpenFile(keyFile([]byte(hex.EncodeToString(key)+"\n"), 0o400))
			Expect(err).NotTo(HaveOccurred())
			w, err := raw.Wrap(ctx, randomKey())
			Expect(err).NotTo(HaveOccurred())
			Expect(hexed.Unwrap(ctx, w)).To(Equal(randomKey()))
		})

		It("refuses a file others may read, or of any other content", func() {
			_, err := kek.OpenFile(keyFile(key, 0o644))
			Expect(err).To(MatchError(ContainSubstring("chmod 600")))
			for _, content := range [][]byte{key[:31], []byte("not a key"), []byte(hex.EncodeToString(key[:16]))} {
				_, err := kek.OpenFile(keyFile(content, 0o600))
				Expect(err).To(MatchError(ContainSubstring("neither 32 bytes nor 64 hexadecimal digits")))
			}
			_, err = kek.OpenFile(filepath.Join(GinkgoT().TempDir(), "absent"))
			Expect(err).To(HaveOccurred())
		})
	})

	var vault *vaulttest.Server
	BeforeEach(func() {
		var err error
		vault, err = vaulttest.Start("eventchat")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(vault.Close)
	})
	describeKEK("in Vault's transit engine (a stand-in)",
		func() sealing.KEK {
			k, err := kek.NewVault(vault.Address, vault.Token)
			Expect(err).NotTo(HaveOccurred())
			return k
		},
		func() sealing.KEK {
			other, err := vaulttest.Start("eventchat")
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(other.Close)
			k, err := kek.NewVault(other.Address, other.Token)
			Expect(err).NotTo(HaveOccurred())
			return k
		})

	Describe("in Vault's transit engine (a stand-in)", func() {
		It("unwraps keys wrapped before Vault rotated its key", func() {
			k, err := kek.NewVault(vault.Address, vault.Token)
			Expect(err).NotTo(HaveOccurred())
			old, err := k.Wrap(ctx, randomKey())
			Expect(err).NotTo(HaveOccurred())
			vault.Rotate()
			fresh, err := k.Wrap(ctx, randomKey())
			Expect(err).NotTo(HaveOccurred())
			Expect(string(old)).To(HavePrefix("vault:v1:"))
			Expect(string(fresh)).To(HavePrefix("vault:v2:"))
			for _, w := range [][]byte{old, fresh} {
				Expect(k.Unwrap(ctx, w)).To(Equal(randomKey()))
			}
		})

		It("says what Vault refused: a wrong token, an unknown key", func() {
			k, err := kek.NewVault(vault.Address, "s.wrong")
			Expect(err).NotTo(HaveOccurred())
			_, err = k.Wrap(ctx, randomKey())
			Expect(err).To(MatchError(ContainSubstring("403 Forbidden: permission denied")))
			k, err = kek.NewVault(vault.Address+"-other", vault.Token)
			Expect(err).NotTo(HaveOccurred())
			_, err = k.Wrap(ctx, randomKey())
			Expect(err).To(MatchError(ContainSubstring("encryption key not found")))
		})

		It("refuses an address that names no transit key, or no token", func() {
			for _, address := range []string{"vault:8200/transit/x", "ftp://h/transit/x", "http://h:8200/transit", "http://h:8200/", "http://h:8200/a/b/c"} {
				_, err := kek.NewVault(address, "t")
				Expect(err).To(HaveOccurred(), address)
			}
			_, err := kek.NewVault(vault.Address, "")
			Expect(err).To(MatchError(ContainSubstring("VAULT_TOKEN")))
		})
	})
})
