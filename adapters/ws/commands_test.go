package ws_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/idgen"
	"github.com/eventchat/eventchat/adapters/ws"
	"github.com/eventchat/eventchat/adapters/ws/internal/wire"
	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Client commands", func() {
	var (
		h   *harness
		c   *wsclient.Client
		key []byte
	)

	BeforeEach(func() {
		h = startGateway(ws.Config{})
		var token string
		token, key = h.login("m1", "s1")
		c = h.dial(token, key)
	})

	// nextIsMarker proves nothing was pushed to c before a marker delta.
	nextIsMarker := func() {
		h.push(projections.Delta{Tenant: "x0001", To: []string{"m1"}, Cmd: projections.CmdOnline, Data: json.RawMessage(`"marker"`)})
		Expect(next(c)).To(Equal(wsclient.Frame{Cmd: projections.CmdOnline, Data: json.RawMessage(`"marker"`)}))
	}

	It("answers a heartbeat", func() {
		Expect(c.Send(13, nil)).To(Succeed())
		Expect(next(c)).To(Equal(wsclient.Frame{Cmd: 13}))

		r := request(c, 13, nil)
		Expect(r.Cmd).To(Equal(13))
		Expect(r.Code).To(Equal("200"))
	})

	It("sends a message and replies with the send result", func() {
		msg := commands.SendMessage{UUID: "u-1", ChatType: "Friend", To: "m2", MsgType: "Text", Content: "hi"}
		r := request(c, 11, msg)
		Expect(r.Cmd).To(Equal(11))
		Expect(r.Code).To(Equal("200"))
		Expect(r.Info).To(Equal("success"))
		var res commands.SendResult
		Expect(json.Unmarshal(r.Data, &res)).To(Succeed())
		Expect(res).To(Equal(commands.SendResult{ID: "1001", UUID: "u-1", ServerReceiveTime: 1700000000000, Position: 1}))
		Expect(h.cmds.sent()).To(Equal([]sent{{commands.Principal{Tenant: "x0001", MemberID: "m1", SessionID: "s1"}, msg}}))
	})

	It("reads a socket's next sends while the first wait to be durable, queues them in frame order and answers each once durable", func() {
		release := h.cmds.holdSends()
		uuids := func(ss []sent) []string {
			var out []string
			for _, s := range ss {
				out = append(out, s.req.UUID)
			}
			return out
		}
		for i := range 5 {
			Expect(c.Send(11, commands.SendMessage{UUID: fmt.Sprint("q-", i)})).To(Succeed())
		}
		Eventually(func() []string { return uuids(h.cmds.sent()) }).Should(Equal([]string{"q-0", "q-1", "q-2", "q-3", "q-4"}))

		replies := make(chan wsclient.Reply, 40)
		for i := range 40 {
			go func() {
				r, _ := c.Request(ctxWithin(10*time.Second), 11, commands.SendMessage{UUID: fmt.Sprint("r-", i)})
				replies <- r
			}()
		}
		Eventually(func() int { return len(h.cmds.sent()) }).Should(Equal(32), "at most 32 unanswered commands a socket")
		Consistently(func() int { return len(h.cmds.sent()) }, 200*time.Millisecond).Should(Equal(32))
		Expect(replies).NotTo(Receive(), "answered before durable")

		close(release)
		for range 40 {
			var r wsclient.Reply
			Eventually(replies, 5*time.Second).Should(Receive(&r))
			Expect(r.Code).To(Equal("200"))
		}
		Expect(h.cmds.sent()).To(HaveLen(45))
	})

	It("lets a send whose check counts the member's own sends wait for the earlier ones to be durable", func() {
		release := h.cmds.holdSends()
		Expect(c.Send(11, commands.SendMessage{UUID: "a"})).To(Succeed())
		Expect(c.Send(11, commands.SendMessage{UUID: "b"})).To(Succeed())
		Expect(c.Send(11, commands.SendMessage{UUID: "rated", GroupID: "rated"})).To(Succeed())
		Eventually(h.cmds.sent).Should(HaveLen(2))
		Consistently(h.cmds.sent, 200*time.Millisecond).Should(HaveLen(2))
		close(release)
		Eventually(h.cmds.sent).Should(HaveLen(3))
		Expect(h.cmds.sent()[2].req.UUID).To(Equal("rated"))
	})

	It("runs a session operation (49) for the socket's member and replies with its position", func() {
		r := request(c, 49, commands.SessionOperation{Type: "Friend", MemberID: "someone-else", FriendMemberID: "m2", OperationType: "AddTop"})
		Expect(r.Cmd).To(Equal(49))
		Expect(r.Code).To(Equal("200"))
		Expect(r.Data).To(MatchJSON(`{"position":77}`))
		Expect(h.cmds.operated()).To(Equal([]commands.SessionOperation{
			{Type: "Friend", MemberID: "m1", FriendMemberID: "m2", OperationType: "AddTop"}}))

		r = request(c, 49, commands.SessionOperation{Type: "Friend", FriendMemberID: "m2", OperationType: "Sideways"})
		Expect(r.Code).To(Equal("400"))
		Expect(r.Info).To(Equal(fault.MsgOperationInvalid))
		r = request(c, 49, "not an object")
		Expect(r.Code).To(Equal("400"))
		Expect(h.cmds.operated()).To(HaveLen(1))
	})

	It("answers a refusal with the code and text REST gives", func() {
		h.cmds.failSends(fault.WithCode(fault.Forbidden, "30021", "You have been muted in this group"))
		r := request(c, 11, commands.SendMessage{UUID: "u-1"})
		Expect(r).To(Equal(wsclient.Reply{Cmd: 11, ID: r.ID, Code: "30021", Info: "You have been muted in this group", Data: json.RawMessage("null")}))
	})

	It("translates refusals into the connection's language", func() {
		token, key := h.login("m9", "s9")
		zh, err := wsclient.Dial(ctxWithin(5*time.Second), h.url+"?lang=zh_CN", token, key)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(zh.Close)
		h.cmds.failSends(fault.New(fault.Forbidden, fault.MsgNotFriend))
		Expect(request(zh, 11, commands.SendMessage{}).Info).To(Equal("您还不是好友，请先添加"))
	})

	It("hides internal failures behind a 500 and keeps the connection", func() {
		h.cmds.failSends(errors.New("disk on fire"))
		r := request(c, 11, commands.SendMessage{UUID: "u-1"})
		Expect(r.Code).To(Equal("500"))
		Expect(r.Info).To(Equal("server error, try later"))
		Expect(request(c, 13, nil).Code).To(Equal("200"))
	})

	It("answers a send refused by a lapsed worker-id hold 503 'the server is busy' and keeps the connection", func() {
		ids := idgen.New(7, func() time.Time { return time.Now().Add(-time.Second) })
		_, lapsed := ids.Next()
		Expect(lapsed).To(HaveOccurred())
		h.cmds.failSends(lapsed)
		r := request(c, 11, commands.SendMessage{UUID: "u-1"})
		Expect(r).To(Equal(wsclient.Reply{Cmd: 11, ID: r.ID, Code: "503", Info: fault.MsgBusy, Data: json.RawMessage("null")}))
		Expect(h.logs.FilterMessage("ws command failed").Len()).To(BeZero(), "a refusal, not a server error")
		Expect(request(c, 13, nil).Code).To(Equal("200"))
	})

	It("refuses a resync frame (60) sent by a client, telling no other connection to resync", func() {
		other := h.connect("m2")
		Eventually(h.gw.Connections).Should(Equal(2))
		Expect(request(c, projections.CmdResync, map[string]string{"reason": "bus"})).To(Equal(
			wsclient.Reply{Cmd: projections.CmdResync, ID: "1", Code: "400", Info: "invalid request", Data: json.RawMessage("null")}))
		Expect(c.Send(projections.CmdResync, nil)).To(Succeed())
		Expect(next(c)).To(Equal(wsclient.Frame{Cmd: projections.CmdResync, Code: "400", Info: "invalid request", Data: json.RawMessage("null")}))
		h.push(projections.Delta{Tenant: "x0001", To: []string{"m2"}, Cmd: projections.CmdOnline, Data: json.RawMessage(`"marker"`)})
		Expect(next(other)).To(Equal(wsclient.Frame{Cmd: projections.CmdOnline, Data: json.RawMessage(`"marker"`)}), "no resync before the marker")
		nextIsMarker()
	})

	It("answers failures of frames without id, but not their successes", func() {
		Expect(c.Send(11, commands.SendMessage{UUID: "u-1"})).To(Succeed())
		Eventually(h.cmds.sent).Should(HaveLen(1))
		nextIsMarker()

		h.cmds.failSends(fault.New(fault.Invalid, fault.MsgContentEmpty))
		Expect(c.Send(11, commands.SendMessage{UUID: "u-2"})).To(Succeed())
		Expect(next(c)).To(Equal(wsclient.Frame{Cmd: 11, Code: "400", Info: "Conversation content empty", Data: json.RawMessage("null")}))
	})

	It("runs one connection's commands in order", func() {
		for i := range 50 {
			Expect(c.Send(11, commands.SendMessage{UUID: fmt.Sprint(i)})).To(Succeed())
		}
		Eventually(h.cmds.sent).Should(HaveLen(50))
		for i, s := range h.cmds.sent() {
			Expect(s.req.UUID).To(Equal(fmt.Sprint(i)))
		}
	})

	It("forwards a read acknowledgement with the socket's member as the reader", func() {
		r := request(c, 27, commands.AckRead{ChatType: "Friend", From: "m666", To: "m2", MessageID: "77", UnreadCount: 0})
		Expect(r.Code).To(Equal("200"))
		Expect(r.Data).To(MatchJSON(`{"position":42}`))
		Expect(h.cmds.acked()).To(Equal([]acked{{
			commands.Principal{Tenant: "x0001", MemberID: "m1", SessionID: "s1"},
			commands.AckRead{ChatType: "Friend", From: "m1", To: "m2", MessageID: "77"},
		}}))
	})

	It("refuses an unknown command and a malformed body", func() {
		Expect(request(c, 99, nil)).To(Equal(wsclient.Reply{Cmd: 99, ID: "1", Code: "400", Info: "invalid request", Data: json.RawMessage("null")}))
		r := request(c, 11, "not a message")
		Expect(r.Code).To(Equal("400"))
		Expect(h.cmds.sent()).To(BeEmpty())
	})

	It("answers an undecryptable frame with an error frame and stays usable", func() {
		Expect(c.SendRaw("this is not base64!")).To(Succeed())
		Expect(next(c)).To(Equal(wsclient.Frame{Code: "400", Info: "data decryption error", Data: json.RawMessage("null")}))

		other := make([]byte, wire.KeySize)
		aead, err := wire.NewAEAD(other)
		Expect(err).NotTo(HaveOccurred())
		Expect(c.SendRaw(string(wire.AppendSealed(nil, aead, []byte(`{"cmd":13}`))))).To(Succeed())
		Expect(next(c).Info).To(Equal("data decryption error"))

		Expect(request(c, 13, nil).Code).To(Equal("200"))
	})

	It("answers a frame that is not JSON with an error frame and stays usable", func() {
		aead, err := wire.NewAEAD(key)
		Expect(err).NotTo(HaveOccurred())
		Expect(c.SendRaw(string(wire.AppendSealed(nil, aead, []byte(`{"cmd":`))))).To(Succeed())
		Expect(next(c)).To(Equal(wsclient.Frame{Code: "400", Info: "invalid request", Data: json.RawMessage("null")}))
		Expect(request(c, 13, nil).Code).To(Equal("200"))
	})
})
