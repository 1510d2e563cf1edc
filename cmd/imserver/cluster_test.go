package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/eventchat/eventchat/adapters/authtoken"
	"github.com/eventchat/eventchat/adapters/blobstore"
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

var _ = Describe("Two nodes on the production profile, each on its own data directory", func() {
	It("serve through one node a picture uploaded through the other, and accept a picture message naming it there", func() {
		profile := startProductionProfile()
		dirOne, dirTwo := GinkgoT().TempDir(), GinkgoT().TempDir()
		one, _ := profile.nodeAt("node-1", dirOne)
		// The nodes share the signing secret, and nothing else of their
		// data directories.
		key, err := os.ReadFile(filepath.Join(dirOne, authtoken.SecretFile))
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(dirTwo, authtoken.SecretFile), key, 0o600)).To(Succeed())
		two, _ := profile.nodeAt("node-2", dirTwo)

		alice, bob := one.register("alice001"), one.register("bob00001")
		one.befriend(alice, bob)
		pic := pngOf(5, 4)
		status, up := one.upload(alice.Token, "", "file", "cat.png", pic)
		Expect(status).To(Equal(http.StatusOK))

		resp, body := two.fetch(up.Data.FilePath, bob.Token)
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		Expect(resp.Header.Get("Content-Type")).To(Equal("image/png"))
		Expect(resp.Header.Get("Last-Modified")).NotTo(BeEmpty())
		Expect(body).To(Equal(pic))
		resp, body = two.fetch(up.Data.FilePath, bob.Token, "Range", "bytes=8-")
		Expect(resp.StatusCode).To(Equal(http.StatusPartialContent))
		Expect(body).To(Equal(pic[8:]))

		content, err := json.Marshal(map[string]any{"filePath": up.Data.FilePath, "fileName": up.Data.FileName,
			"size": up.Data.Size, "contentType": up.Data.ContentType, "width": 5, "height": 4})
		Expect(err).NotTo(HaveOccurred())
		var sent sendResult
		two.ok("POST", "/v1/message/send", alice.Token, map[string]string{"uuid": "pic-on-two", "chatType": "Friend", "to": bob.ID,
			"msgType": "Picture", "content": string(content)}, &sent)
		var history []struct{ ID, MsgType, Content string }
		one.ok("GET", fmt.Sprintf("/v1/message/messagePush/history/list/page?friendMemberId=%s&after=%d", alice.ID, sent.Position), bob.Token, nil, &history)
		Expect(history).To(HaveLen(1))
		Expect(history[0].MsgType).To(Equal("Picture"))
		Expect(history[0].Content).To(MatchJSON(content))

		for _, dir := range []string{dirOne, dirTwo} {
			Expect(filepath.Join(dir, blobstore.Dir)).NotTo(BeAnExistingFile())
		}
	})
})

// productionProfile is an ESDB double, an embedded FerretDB and an embedded
// NATS, each stopped when the spec ends, for nodes sharing one data dir
// (they sign tokens with the same secret, as in compose.yaml) unless a spec
// gives each its own.
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

// node starts a server named name on the profile and its shared data dir,
// its logs observed.
func (p productionProfile) node(name string) (*testServer, *observer.ObservedLogs) {
	return p.nodeAt(name, filepath.Join(p.dir, "data"))
}

// nodeAt starts a server named name on the profile and dataDir, its logs
// observed.
func (p productionProfile) nodeAt(name, dataDir string) (*testServer, *observer.ObservedLogs) {
	core, logs := observer.New(zap.InfoLevel)
	return startWith(dataDir, zap.New(core), map[string]string{
		"IM_EVENTSTORE": p.esdb, "IM_READSTORE": p.mongo, "IM_BUS": p.nats, "IM_NODE_NAME": name,
	}), logs
}
