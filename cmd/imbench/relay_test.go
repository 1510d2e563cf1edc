package main

import (
	"context"
	"encoding/json"
	"net"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("The bare relay", func() {
	It("answers a send and pushes it to its receiver, sealed as the server does", func(ctx SpecContext) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		relayCtx, stop := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- serveRelay(relayCtx, ln) }()
		DeferCleanup(func() {
			stop()
			Expect(<-done).To(Succeed())
		})

		r := newServer(ln.Addr().String(), "")
		Expect(r.waitReady(ctx, 5*time.Second)).To(Succeed())
		ms := relayMembers(2)
		cs, err := dialAll(ctx, func(int) *server { return r }, ms, 2, wsclient.WithHeartbeat(10*time.Millisecond))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(closeAll, cs)

		reply, err := cs[0].Request(ctx, projections.CmdMessage, commands.SendMessage{
			UUID: "u1", ChatType: "Friend", To: ms[1].ID, MsgType: "Text", Content: benchText})
		Expect(err).NotTo(HaveOccurred())
		Expect(reply.OK()).To(BeTrue())
		f, err := cs[1].Next(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Cmd).To(Equal(projections.CmdMessage))
		var m struct{ UUID, From, Content string }
		Expect(json.Unmarshal(f.Data, &m)).To(Succeed())
		Expect(m).To(Equal(struct{ UUID, From, Content string }{"u1", ms[0].ID, benchText}))
		Consistently(cs[0].Err).WithTimeout(50*time.Millisecond).Should(Succeed(), "heartbeats keep the socket")
	}, SpecTimeout(20*time.Second))
})
