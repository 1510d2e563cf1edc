package nodes_test

import (
	"context"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/nodes"
)

// memClaims are claims in memory, as the read stores keep them.
type memClaims struct {
	mu     sync.Mutex
	claims map[string]nodes.Claim
	down   bool
}

func (m *memClaims) TakeClaim(_ context.Context, name, owner string, now, until time.Time) (nodes.Claim, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return nodes.Claim{}, context.DeadlineExceeded
	}
	if c, ok := m.claims[name]; !ok || c.Owner == owner || !c.Until.After(now) {
		m.claims[name] = nodes.Claim{Owner: owner, Until: until}
	}
	return m.claims[name], nil
}

func (m *memClaims) DropClaim(_ context.Context, name, owner string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.claims[name].Owner == owner {
		delete(m.claims, name)
	}
	return nil
}

func (m *memClaims) set(down bool) {
	m.mu.Lock()
	m.down = down
	m.mu.Unlock()
}

var _ = Describe("a node joining the nodes sharing the stores", func() {
	const ttl = 500 * time.Millisecond
	ctx := context.Background()
	var claims *memClaims
	BeforeEach(func() { claims = &memClaims{claims: map[string]nodes.Claim{}} })

	join := func(name string, workers int) (*nodes.Node, error) {
		return nodes.Join(ctx, claims, name, workers, ttl)
	}
	// keep keeps n until the spec ends, and returns what Keep returned.
	keep := func(n *nodes.Node) chan error {
		c, cancel := context.WithCancel(ctx)
		out := make(chan error, 1)
		go func() { out <- n.Keep(c, func(error) {}) }()
		DeferCleanup(cancel)
		return out
	}

	It("gets a worker id no other live node has", func() {
		seen := map[int64]bool{}
		for _, name := range []string{"n1", "n2", "n3", "n4"} {
			n, err := join(name, 4)
			Expect(err).NotTo(HaveOccurred())
			Expect(seen).NotTo(HaveKey(n.Worker))
			seen[n.Worker] = true
			Expect(n.IDsUntil()).To(BeTemporally("~", time.Now().Add(ttl*2/3), ttl/5))
		}

		_, err := join("n5", 4)
		Expect(err).To(MatchError(nodes.ErrNoWorker))
	})

	It("is refused the name of a live node, naming the conflict", func() {
		live, err := join("n1", 1024)
		Expect(err).NotTo(HaveOccurred())
		keep(live)

		start := time.Now()
		_, err = join("n1", 1024)
		Expect(err).To(MatchError(nodes.ErrNameInUse))
		Expect(err.Error()).To(ContainSubstring(`"n1" is held by ` + live.Owner()))
		Expect(time.Since(start)).To(BeNumerically("<", ttl))
	})

	It("takes the name back once the claim of an instance that died has ended", func() {
		dead, err := join("n1", 1)
		Expect(err).NotTo(HaveOccurred())

		start := time.Now()
		again, err := join("n1", 2)
		Expect(err).NotTo(HaveOccurred())
		Expect(time.Since(start)).To(BeNumerically("~", ttl, ttl/4))
		Expect(again.Instance).NotTo(Equal(dead.Instance))
	})

	It("keeps its claims while it lives, frees its name when it stops, and keeps its worker id claimed until its end", func() {
		n, err := join("n1", 1)
		Expect(err).NotTo(HaveOccurred())
		c, cancel := context.WithCancel(ctx)
		kept := make(chan error, 1)
		go func() { kept <- n.Keep(c, func(error) {}) }()

		time.Sleep(2 * ttl)
		Expect(n.IDsUntil()).To(BeTemporally(">", time.Now()))
		_, err = join("n2", 1)
		Expect(err).To(MatchError(nodes.ErrNoWorker))

		cancel()
		Expect(<-kept).To(Succeed())
		again, err := join("n1", 2)
		Expect(err).NotTo(HaveOccurred())
		Expect(again.Worker).To(BeEquivalentTo(1))
	})

	It("stops its ids while the claims cannot be renewed, and resumes once they are", func() {
		n, err := join("n1", 1)
		Expect(err).NotTo(HaveOccurred())
		failures := make(chan error, 100)
		c, cancel := context.WithCancel(ctx)
		DeferCleanup(cancel)
		go func() { _ = n.Keep(c, func(err error) { failures <- err }) }()

		claims.set(true)
		Eventually(failures).Should(Receive())
		idsFlow := func() bool { return n.IDsUntil().After(time.Now()) }
		Eventually(idsFlow).WithTimeout(ttl).Should(BeFalse())
		claims.set(false)
		Eventually(idsFlow).WithTimeout(ttl).Should(BeTrue())
	})

	It("stops when another instance took its claim while it paused", func() {
		n, err := join("n1", 1)
		Expect(err).NotTo(HaveOccurred())
		claims.set(true)
		time.Sleep(ttl)
		claims.set(false)
		other, err := join("n1", 1)
		Expect(err).NotTo(HaveOccurred())

		Eventually(keep(n)).WithTimeout(ttl).Should(Receive(MatchError(ContainSubstring(other.Owner() + " holds it now"))))
		Expect(n.IDsUntil()).To(BeTemporally("<", time.Now()))
	})
})
