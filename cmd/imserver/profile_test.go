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

	"github.com/eventchat/eventchat/adapters/eventstore/esdb/esdbtest"
	"github.com/eventchat/eventchat/adapters/readstore/mongo/ferrettest"
)

var _ = Describe("The MongoDB profile", func() {
	It("serves members from read models in MongoDB (an embedded FerretDB)", func() {
		dir := GinkgoT().TempDir()
		ferret, err := ferrettest.Start(GinkgoT().TempDir(), io.Discard)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(ferret.Stop)
		s := startWith(filepath.Join(dir, "data"), zap.NewNop(), map[string]string{"IM_READSTORE": ferret.URI})

		alice, bob := s.register("alice001"), s.register("bob00001")
		s.befriend(alice, bob)
		b := s.dial(bob)
		sent := s.send(alice, bob, "mongo-1", "hello over mongo")
		var m message
		Expect(json.Unmarshal(next(b, 11).Data, &m)).To(Succeed())
		Expect(m.ID).To(Equal(sent.ID))
		var sessions []session
		s.ok("GET", fmt.Sprintf("/v1/message/sessionInfo/list?after=%d", sent.Position), bob.Token, nil, &sessions)
		Expect(sessions).To(HaveLen(1))
		Expect(sessions[0].UnreadCount).To(Equal(1))
		Expect(sessions[0].LastMessageContent).To(Equal("hello over mongo"))
	})
})

var _ = Describe("The NATS profile", func() {
	It("pushes deltas through NATS JetStream (an embedded nats-server)", func() {
		dir := GinkgoT().TempDir()
		ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: filepath.Join(dir, "js"), NoSigs: true})
		Expect(err).NotTo(HaveOccurred())
		ns.Start()
		DeferCleanup(ns.Shutdown)
		Expect(ns.ReadyForConnections(5 * time.Second)).To(BeTrue())
		s := startWith(filepath.Join(dir, "data"), zap.NewNop(), map[string]string{"IM_BUS": ns.ClientURL()})

		alice, bob := s.register("alice001"), s.register("bob00001")
		s.befriend(alice, bob)
		b := s.dial(bob)
		sent := s.send(alice, bob, "nats-1", "hello over nats")
		var m message
		Expect(json.Unmarshal(next(b, 11).Data, &m)).To(Succeed())
		Expect(m.ID).To(Equal(sent.ID))
	})
})

var _ = Describe("The EventStoreDB profile", func() {
	It("serves members end to end through the adapter, the official client and gRPC (the esdbtest double)", func() {
		dir := GinkgoT().TempDir()
		double, err := esdbtest.Start(filepath.Join(dir, "double.db"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(double.Close)
		s := startWith(filepath.Join(dir, "data"), zap.NewNop(), map[string]string{"IM_EVENTSTORE": double.ConnectionString()})

		alice, bob := s.register("alice001"), s.register("bob00001")
		s.befriend(alice, bob)
		b := s.dial(bob)
		first := s.send(alice, bob, "esdb-1", "hello over esdb")
		Expect(s.send(alice, bob, "esdb-1", "hello over esdb")).To(Equal(first))
		var m message
		Expect(json.Unmarshal(next(b, 11).Data, &m)).To(Succeed())
		Expect(m.ID).To(Equal(first.ID))

		var history []message
		s.ok("GET", fmt.Sprintf("/v1/message/messagePush/history/list/page?friendMemberId=%s&after=%d", alice.ID, first.Position), bob.Token, nil, &history)
		Expect(history).To(HaveLen(1))
		Expect(history[0].Content).To(Equal("hello over esdb"))
	})
})
