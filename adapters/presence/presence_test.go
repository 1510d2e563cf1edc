package presence_test

import (
	"context"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/presence"
)

const ttl = 300 * time.Millisecond

var _ = Describe("Presence shared by the nodes", func() {
	var (
		wire     *hub
		one, two *node
	)
	BeforeEach(func() {
		wire = &hub{}
		one, two = start(wire, "node-1"), start(wire, "node-2")
	})

	It("shows a member online on the other nodes while its socket is open", func() {
		two.open("x0001", "bob")
		Eventually(func() bool { return one.cluster.Online("x0001", "bob") }).Should(BeTrue())
		Expect(one.cluster.Online("x0002", "bob")).To(BeFalse())
		Expect(two.cluster.Online("x0001", "bob")).To(BeFalse(), "a node's own members are the gateway's to tell")
		Eventually(one.told).Should(ContainElement("x0001/bob"))

		two.close("x0001", "bob")
		Eventually(func() bool { return one.cluster.Online("x0001", "bob") }).Should(BeFalse())
		Eventually(one.toldTimes("x0001/bob")).Should(Equal(2))
	})

	It("shows the members open before a node joined once their node announces them all", func() {
		two.open("x0001", "bob")
		three := start(wire, "node-3")
		Eventually(func() bool { return three.cluster.Online("x0001", "bob") }, 2*ttl).Should(BeTrue())
	})

	It("takes a node's members offline after the TTL once it stops announcing", func() {
		two.open("x0001", "bob")
		Eventually(func() bool { return one.cluster.Online("x0001", "bob") }).Should(BeTrue())
		wire.mute("node-2")
		Consistently(func() bool { return one.cluster.Online("x0001", "bob") }, ttl/2).Should(BeTrue())
		Eventually(func() bool { return one.cluster.Online("x0001", "bob") }, 2*ttl).Should(BeFalse())
		Eventually(one.toldTimes("x0001/bob")).Should(Equal(2))
	})

	It("takes a stopped node's members offline at once", func() {
		two.open("x0001", "bob")
		Eventually(func() bool { return one.cluster.Online("x0001", "bob") }).Should(BeTrue())
		two.stop()
		Eventually(func() bool { return one.cluster.Online("x0001", "bob") }, ttl/2).Should(BeFalse())
	})
})

// node is one node's presence over a fake gateway.
type node struct {
	cluster *presence.Cluster
	stop    context.CancelFunc

	mu      sync.Mutex
	members map[presence.Member]bool
	changes []string
}

func start(h *hub, name string) *node {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	n := &node{cluster: presence.New(name, ttl, h.port(name), zap.NewNop()), members: map[presence.Member]bool{}}
	n.stop = func() {
		cancel()
		<-done
	}
	go func() {
		defer close(done)
		defer GinkgoRecover()
		Expect(n.cluster.Run(ctx, n)).To(Succeed())
	}()
	DeferCleanup(n.stop)
	return n
}

func (n *node) open(tenant, member string) {
	n.mu.Lock()
	n.members[presence.Member{Tenant: tenant, ID: member}] = true
	n.mu.Unlock()
	n.cluster.Announce(tenant, member, true)
}

func (n *node) close(tenant, member string) {
	n.mu.Lock()
	delete(n.members, presence.Member{Tenant: tenant, ID: member})
	n.mu.Unlock()
	n.cluster.Announce(tenant, member, false)
}

func (n *node) EachMember(f func(tenant, member string)) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for m := range n.members {
		f(m.Tenant, m.ID)
	}
}

func (n *node) PresenceChanged(tenant, member string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.changes = append(n.changes, tenant+"/"+member)
}

func (n *node) told() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.changes...)
}

func (n *node) toldTimes(who string) func() int {
	return func() int {
		count := 0
		for _, c := range n.told() {
			if c == who {
				count++
			}
		}
		return count
	}
}

// hub hands every announcement to every listener, in order, unless its
// sender is muted.
type hub struct {
	mu        sync.Mutex
	listeners []chan []byte
	muted     map[string]bool
}

func (h *hub) mute(node string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.muted == nil {
		h.muted = map[string]bool{}
	}
	h.muted[node] = true
}

func (h *hub) port(node string) port { return port{h, node} }

type port struct {
	h    *hub
	node string
}

func (p port) Announce(_ context.Context, payload []byte) error {
	p.h.mu.Lock()
	defer p.h.mu.Unlock()
	if p.h.muted[p.node] {
		return nil
	}
	for _, l := range p.h.listeners {
		select {
		case l <- payload:
		default:
		}
	}
	return nil
}

func (p port) Announcements(context.Context) (<-chan []byte, error) {
	p.h.mu.Lock()
	defer p.h.mu.Unlock()
	l := make(chan []byte, 1024)
	p.h.listeners = append(p.h.listeners, l)
	return l, nil
}
