package readstoretest

import (
	"context"
	"fmt"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/nodes"
)

// ClaimsFactory opens the nodes' claims kept with the read store in dir (a
// new directory per spec) and returns them with a function that closes
// them. Called again with the same dir, it opens another handle on the
// same claims, as a second server node would.
type ClaimsFactory func(dir string) (claims nodes.Claims, closeClaims func())

// DescribeClaims declares the contract specs of the nodes' claims. Call it
// at the top level of the adapter's test package.
func DescribeClaims(name string, factory ClaimsFactory) bool {
	return Describe(name+" node claims contract", func() {
		var dir string
		open := func() nodes.Claims {
			c, closeClaims := factory(dir)
			DeferCleanup(closeClaims)
			return c
		}
		BeforeEach(func() { dir = GinkgoT().TempDir() })

		t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
		at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
		take := func(c nodes.Claims, name, owner string, now, until int) nodes.Claim {
			GinkgoHelper()
			claim, err := c.TakeClaim(ctx, name, owner, at(now), at(until))
			Expect(err).NotTo(HaveOccurred())
			return claim
		}
		held := func(owner string, until int) nodes.Claim {
			return nodes.Claim{Owner: owner, Until: at(until)}
		}

		It("goes to the first owner, and to nobody else until it ends", func() {
			a, b := open(), open()

			Expect(take(a, "worker/7", "n1#a", 0, 10)).To(BeComparableTo(held("n1#a", 10)))
			Expect(take(b, "worker/7", "n2#b", 1, 11)).To(BeComparableTo(held("n1#a", 10)))
			Expect(take(b, "worker/7", "n2#b", 9, 19)).To(BeComparableTo(held("n1#a", 10)))
			Expect(take(b, "worker/7", "n2#b", 10, 20)).To(BeComparableTo(held("n2#b", 20)))
			Expect(take(a, "worker/7", "n1#a", 11, 21)).To(BeComparableTo(held("n2#b", 20)))
		})

		It("lasts as long as its owner renews it, also after its end while nobody took it", func() {
			a, b := open(), open()
			take(a, "node/n1", "n1#a", 0, 10)

			Expect(take(a, "node/n1", "n1#a", 8, 18)).To(BeComparableTo(held("n1#a", 18)))
			Expect(take(b, "node/n1", "n1#b", 12, 22)).To(BeComparableTo(held("n1#a", 18)))
			Expect(take(a, "node/n1", "n1#a", 30, 40)).To(BeComparableTo(held("n1#a", 40)))
		})

		It("keeps claims of different names apart", func() {
			a, b := open(), open()

			Expect(take(a, "worker/1", "n1#a", 0, 10).Owner).To(Equal("n1#a"))
			Expect(take(b, "worker/2", "n2#b", 0, 10).Owner).To(Equal("n2#b"))
			Expect(take(b, "worker/1", "n2#b", 1, 11).Owner).To(Equal("n1#a"))
			Expect(take(a, "node/n1", "n1#a", 1, 11).Owner).To(Equal("n1#a"))
		})

		It("is freed by its owner only", func() {
			a, b := open(), open()
			take(a, "node/n1", "n1#a", 0, 10)

			Expect(b.DropClaim(ctx, "node/n1", "n1#b")).To(Succeed())
			Expect(take(b, "node/n1", "n1#b", 1, 11).Owner).To(Equal("n1#a"))

			Expect(a.DropClaim(ctx, "node/n1", "n1#a")).To(Succeed())
			Expect(take(b, "node/n1", "n1#b", 1, 11).Owner).To(Equal("n1#b"))
			Expect(a.DropClaim(ctx, "never/taken", "n1#a")).To(Succeed())
		})

		It("goes to exactly one of several owners taking it at once", func() {
			handles := []nodes.Claims{open(), open(), open()}
			// Each handle takes it three times at once.
			won := atOnce(3*len(handles), func(i int) string {
				owner := fmt.Sprintf("n%d#%d", i/3, i%3)
				claim, err := handles[i/3].TakeClaim(context.Background(), "worker/0", owner, at(0), at(10))
				Expect(err).NotTo(HaveOccurred())
				if claim.Owner == owner {
					return owner
				}
				return ""
			})
			won = slices.DeleteFunc(won, func(w string) bool { return w == "" })
			Expect(won).To(HaveLen(1))
			Expect(take(handles[0], "worker/0", "late", 1, 11).Owner).To(Equal(won[0]))
		})
	})
}
