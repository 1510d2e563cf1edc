package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
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
	"github.com/eventchat/eventchat/adapters/bus"
	"github.com/eventchat/eventchat/adapters/eventstore/esdb/esdbtest"
	"github.com/eventchat/eventchat/adapters/presence"
	"github.com/eventchat/eventchat/adapters/readstore/mongo/ferrettest"
	"github.com/eventchat/eventchat/adapters/ws/wsclient"
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

var _ = Describe("Presence on two nodes of the production profile", func() {
	const ttl = 900 * time.Millisecond
	var (
		profile  productionProfile
		one, two *testServer
		alice    member
		bob      member
		onOne    *wsclient.Client
		friends  uint64 // the position of their friendship
	)
	bobOnline := func() bool {
		GinkgoHelper()
		return one.friendOnline(alice, bob.ID, friends)
	}
	bobPushed := func() bool {
		GinkgoHelper()
		var st struct {
			MemberID string
			Online   bool
		}
		Expect(json.Unmarshal(next(onOne, 33).Data, &st)).To(Succeed())
		Expect(st.MemberID).To(Equal(bob.ID))
		return st.Online
	}

	BeforeEach(func() {
		profile = startProductionProfile()
		settings := map[string]string{"IM_PRESENCE_TTL": ttl.String()}
		one, _ = profile.nodeWith("node-1", settings)
		two, _ = profile.nodeWith("node-2", settings)
		alice, bob = one.register("alice001"), two.register("bob00001")
		friends = one.befriend(alice, bob)
		onOne = one.dial(alice)
		Expect(bobOnline()).To(BeFalse()) // and their friendship is in the read store
	})

	It("shows a friend connected to the other node online, and offline once his socket closes", func() {
		onTwo := two.dial(bob)
		Expect(bobPushed()).To(BeTrue())
		Expect(bobOnline()).To(BeTrue())

		onTwo.Close()
		Expect(bobPushed()).To(BeFalse())
		Expect(bobOnline()).To(BeFalse())
	})

	It("takes a node's members offline after the TTL once the node stops announcing them", func() {
		// a node whose bus connection dies with it, as after kill -9
		announcements, err := bus.NewAnnouncements(profile.nats, bus.DefaultAnnouncements, zap.NewNop())
		Expect(err).NotTo(HaveOccurred())
		ctx, cancel := context.WithCancel(context.Background())
		DeferCleanup(cancel)
		gone := presence.New("node-3", ttl, announcements, zap.NewNop())
		go func() { _ = gone.Run(ctx, connected{{Tenant: "x0001", ID: bob.ID}}) }()
		Expect(bobPushed()).To(BeTrue())
		Expect(bobOnline()).To(BeTrue())

		announcements.Close()
		silent := time.Now()
		Expect(bobPushed()).To(BeFalse())
		Expect(time.Since(silent)).To(BeNumerically(">", ttl*2/3))
		Expect(bobOnline()).To(BeFalse())
	})
})

// connected is a gateway whose members never change.
type connected []presence.Member

func (c connected) EachMember(f func(tenant, member string)) {
	for _, m := range c {
		f(m.Tenant, m.ID)
	}
}

func (connected) PresenceChanged(string, string) {}

var _ = Describe("Two nodes on the production profile, each on its own data directory", func() {
	It("serve through one node a picture uploaded through the other, and accept a picture message naming it there", func() {
		profile := startProductionProfile()
		dirOne, dirTwo := GinkgoT().TempDir(), GinkgoT().TempDir()
		one, _ := profile.nodeAt("node-1", dirOne, nil)
		two, _ := profile.nodeAt("node-2", dirTwo, nil)

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
		// The signing secret is the one in the read store, written to
		// each data directory for imctl.
		keyOne, err := os.ReadFile(filepath.Join(dirOne, authtoken.SecretFile))
		Expect(err).NotTo(HaveOccurred())
		Expect(os.ReadFile(filepath.Join(dirTwo, authtoken.SecretFile))).To(Equal(keyOne))
	})

	It("refuses a node whose data directory holds another signing secret than the nodes share", func() {
		profile := startProductionProfile()
		profile.nodeAt("node-1", GinkgoT().TempDir(), nil)
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, authtoken.SecretFile), bytes.Repeat([]byte{7}, 32), 0o600)).To(Succeed())
		env := map[string]string{"IM_DATA_DIR": dir, "IM_HTTP_ADDR": "127.0.0.1:0",
			"IM_EVENTSTORE": profile.esdb, "IM_READSTORE": profile.mongo, "IM_BUS": profile.nats, "IM_NODE_NAME": "node-2"}
		cfg, err := loadConfig(nil, func(k string) string { return env[k] })
		Expect(err).NotTo(HaveOccurred())
		err = run(ctxWithin(20*time.Second), cfg, zap.NewNop(), nil)
		Expect(err).To(MatchError(ContainSubstring("differs from the signing secret the nodes of the read store")))
	})
})

// friendOnline reports whether m's friend list, read once the read models
// hold position after, shows friendID online.
func (s *testServer) friendOnline(m member, friendID string, after uint64) bool {
	GinkgoHelper()
	var cats []struct {
		Friends []struct {
			FriendMemberID string
			IsOnline       bool
		}
	}
	s.ok("GET", fmt.Sprintf("/v1/chat/friendGroup/listFriendGroupByMemberId?after=%d", after), m.Token, nil, &cats)
	for _, c := range cats {
		for _, f := range c.Friends {
			if f.FriendMemberID == friendID {
				return f.IsOnline
			}
		}
	}
	Fail("the friend is not listed")
	return false
}

// productionProfile is an ESDB double, an embedded FerretDB and an embedded
// NATS, each stopped when the spec ends, for nodes sharing one data dir
// (one SMS outbox, as in compose.yaml) unless a spec gives each its own.
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
	return p.nodeWith(name, nil)
}

// nodeWith is node with more settings.
func (p productionProfile) nodeWith(name string, settings map[string]string) (*testServer, *observer.ObservedLogs) {
	return p.nodeAt(name, filepath.Join(p.dir, "data"), settings)
}

// nodeAt starts a server named name on the profile and dataDir, with more
// settings, its logs observed.
func (p productionProfile) nodeAt(name, dataDir string, settings map[string]string) (*testServer, *observer.ObservedLogs) {
	core, logs := observer.New(zap.InfoLevel)
	env := map[string]string{"IM_EVENTSTORE": p.esdb, "IM_READSTORE": p.mongo, "IM_BUS": p.nats, "IM_NODE_NAME": name}
	maps.Copy(env, settings)
	return startWith(dataDir, zap.New(core), env), logs
}
