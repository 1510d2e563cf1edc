package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/eventchat/eventchat/adapters/eventstore/esdb/esdbtest"
	"github.com/eventchat/eventchat/adapters/readstore/mongo/ferrettest"
)

var _ = Describe("Two nodes on the production profile", func() {
	It("project once through the node holding the lease, push deltas from both, and hand over when it stops", func() {
		profile := startProductionProfile()
		leading := func(logs *observer.ObservedLogs) int {
			return logs.FilterMessage("this node runs the projections").Len()
		}
		node := profile.node
		one, logsOne := node("node-1")
		Eventually(func() int { return leading(logsOne) }).Should(Equal(1))
		two, logsTwo := node("node-2")
		Eventually(func() int { return logsTwo.FilterMessage("another node runs the projections").Len() }).Should(Equal(1))

		alice, bob := one.register("alice001"), two.register("bob00001")
		one.befriend(alice, bob)
		onTwo := two.dial(bob)
		var last sendResult
		for i := range 20 {
			last = one.send(alice, bob, fmt.Sprint("cluster-", i), fmt.Sprint("message ", i))
		}
		for i := range 20 {
			var m message
			Expect(json.Unmarshal(next(onTwo, 11).Data, &m)).To(Succeed())
			Expect(m.Content).To(Equal(fmt.Sprint("message ", i)))
		}
		for _, s := range []*testServer{one, two} {
			var sessions []session
			s.ok("GET", fmt.Sprintf("/v1/message/sessionInfo/list?after=%d", last.Position), bob.Token, nil, &sessions)
			Expect(sessions).To(HaveLen(1))
			Expect(sessions[0].UnreadCount).To(Equal(20))
		}
		Expect(leading(logsOne) + leading(logsTwo)).To(Equal(1))

		Expect(one.stop()).To(Succeed())
		Eventually(func() int { return leading(logsTwo) }, 10*time.Second).Should(Equal(1))
		last = two.send(alice, bob, "cluster-20", "after the hand-over")
		var m message
		Expect(json.Unmarshal(next(onTwo, 11).Data, &m)).To(Succeed())
		Expect(m.Content).To(Equal("after the hand-over"))
		var sessions []session
		two.ok("GET", fmt.Sprintf("/v1/message/sessionInfo/list?after=%d", last.Position), bob.Token, nil, &sessions)
		Expect(sessions[0].UnreadCount).To(Equal(21))
	})
})

// productionProfile is an ESDB double, an embedded FerretDB and an embedded
// NATS, each stopped when the spec ends, for nodes sharing one data dir
// (they sign tokens with the same secret, as in compose.yaml).
type productionProfile struct {
	dir               string
	esdb, mongo, nats string
}

func startProductionProfile() productionProfile {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	double, err := esdbtest.Start(filepath.Join(dir, "double.db"))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(double.Close)
	ferret, err := ferrettest.Start(GinkgoT().TempDir(), io.Discard)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(ferret.Stop)
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: filepath.Join(dir, "js"), NoSigs: true})
	Expect(err).NotTo(HaveOccurred())
	ns.Start()
	DeferCleanup(ns.Shutdown)
	Expect(ns.ReadyForConnections(5 * time.Second)).To(BeTrue())
	return productionProfile{dir: dir, esdb: double.ConnectionString(), mongo: ferret.URI, nats: ns.ClientURL()}
}

// node starts a server named name on the profile, its logs observed.
func (p productionProfile) node(name string) (*testServer, *observer.ObservedLogs) {
	core, logs := observer.New(zap.InfoLevel)
	return startWith(filepath.Join(p.dir, "data"), zap.New(core), map[string]string{
		"IM_EVENTSTORE": p.esdb, "IM_READSTORE": p.mongo, "IM_BUS": p.nats, "IM_NODE_NAME": name,
	}), logs
}
