// Package keystoretest is the contract every key store keeps.
package keystoretest

import (
	"context"
	"crypto/rand"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Keys is a key store as the sealing of events uses it.
type Keys interface {
	Key(ctx context.Context, tenant, member string, mk func() ([]byte, error)) ([]byte, bool, error)
	Destroy(ctx context.Context, tenant, member string) error
}

// Factory opens the key store kept in dir (a new directory per spec) and
// returns it with a function that closes it. Called again with the same
// dir, it opens another handle on the same keys, as a second server node
// would.
type Factory func(dir string) (keys Keys, closeKeys func())

// DescribeKeys declares the contract specs of a key store. Call it at the
// top level of the adapter's test package.
func DescribeKeys(name string, factory Factory) bool {
	return Describe(name+" key store contract", func() {
		ctx := context.Background()
		var dir string
		open := func() Keys {
			k, closeKeys := factory(dir)
			DeferCleanup(closeKeys)
			return k
		}
		BeforeEach(func() { dir = GinkgoT().TempDir() })
		// fresh makes what the store keeps for a member: opaque to it.
		fresh := func() ([]byte, error) {
			b := make([]byte, 45)
			_, err := rand.Read(b)
			return b, err
		}
		key := func(k Keys, tenant, member string, create bool) ([]byte, bool) {
			GinkgoHelper()
			var mk func() ([]byte, error)
			if create {
				mk = fresh
			}
			key, ok, err := k.Key(ctx, tenant, member, mk)
			Expect(err).NotTo(HaveOccurred())
			return key, ok
		}

		It("keeps what it is given for a member once, when asked to, and gives every handle the same", func() {
			a, b := open(), open()
			_, ok := key(a, "x0001", "m1", false)
			Expect(ok).To(BeFalse())

			made, ok := key(a, "x0001", "m1", true)
			Expect(ok).To(BeTrue())
			Expect(made).To(HaveLen(45))
			again, _ := key(a, "x0001", "m1", true)
			Expect(again).To(Equal(made))
			other, ok := key(b, "x0001", "m1", false)
			Expect(ok).To(BeTrue())
			Expect(other).To(Equal(made))

			second, _ := key(b, "x0001", "m2", true)
			otherTenant, _ := key(b, "x0002", "m1", true)
			Expect(second).NotTo(Equal(made))
			Expect(otherTenant).NotTo(Equal(made))
		})

		It("destroys a key for ever: no handle gets it, or a new one, again", func() {
			a, b := open(), open()
			key(a, "x0001", "m1", true)
			kept, _ := key(a, "x0001", "m2", true)

			Expect(a.Destroy(ctx, "x0001", "m1")).To(Succeed())
			Expect(a.Destroy(ctx, "x0001", "m1")).To(Succeed())
			for _, k := range []Keys{a, b} {
				gone, ok := key(k, "x0001", "m1", true)
				Expect(ok).To(BeFalse())
				Expect(gone).To(BeEmpty())
			}
			still, ok := key(b, "x0001", "m2", false)
			Expect(ok).To(BeTrue())
			Expect(still).To(Equal(kept))
		})

		It("keeps nothing when what it is given fails", func() {
			k := open()
			_, _, err := k.Key(ctx, "x0001", "m1", func() ([]byte, error) { return nil, errors.New("the KMS is down") })
			Expect(err).To(MatchError("the KMS is down"))
			_, ok := key(k, "x0001", "m1", false)
			Expect(ok).To(BeFalse())
			made, ok := key(k, "x0001", "m1", true)
			Expect(ok).To(BeTrue())
			Expect(made).NotTo(BeEmpty())
		})

		It("destroys the key of a member that never had one, so that none is made later", func() {
			k := open()
			Expect(k.Destroy(ctx, "x0001", "m9")).To(Succeed())
			_, ok := key(k, "x0001", "m9", true)
			Expect(ok).To(BeFalse())
		})
	})
}
