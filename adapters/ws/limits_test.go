package ws_test

import (
	"bytes"
	"context"
	"crypto/cipher"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"syscall"
	"time"

	gobwas "github.com/gobwas/ws"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/ws"
	"github.com/eventchat/eventchat/adapters/ws/internal/wire"
	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Limits", func() {
	It("closes with 1009 on a frame declaring 2^40 bytes without allocating it", func() {
		h := startGateway(ws.Config{})
		bystander := h.connect("m2")
		token, _ := h.login("m1", "s1")
		raw := h.rawDial(token, gobwas.Dialer{})

		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		header := gobwas.Header{Fin: true, OpCode: gobwas.OpText, Masked: true, Mask: gobwas.NewMask(), Length: 1 << 40}
		Expect(gobwas.WriteHeader(raw, header)).To(Succeed())
		code, reason := closeCode(raw.readFrame())
		Expect(code).To(Equal(gobwas.StatusMessageTooBig))
		Expect(reason).To(Equal("message too big"))
		runtime.ReadMemStats(&after)

		Expect(after.TotalAlloc - before.TotalAlloc).To(BeNumerically("<", 16<<20))
		Eventually(func() []string { return h.closeReasons("m1") }).Should(Equal([]string{"message too big"}))
		Expect(request(bystander, 13, nil).Code).To(Equal("200"))
	})

	It("closes with 1009 when a message is over MaxFrameBytes", func() {
		h := startGateway(ws.Config{MaxFrameBytes: 4096})
		c := h.connect("m1")
		Expect(request(c, 13, nil).Code).To(Equal("200"))
		Expect(c.SendRaw(string(make([]byte, 4097)))).To(Succeed())
		Expect(closedWith(c).Code).To(Equal(1009))
	})

	It("closes with 1009 on a message over MaxFrameBytes behind sends still syncing, and releases the connection once they are answered", func() {
		h := startGateway(ws.Config{MaxFrameBytes: 4096})
		release := h.cmds.holdSends()
		c := h.connect("m1")
		for i := range 3 {
			Expect(c.Send(11, commands.SendMessage{UUID: fmt.Sprint("held-", i)})).To(Succeed())
		}
		Eventually(h.cmds.sent).Should(HaveLen(3))
		Expect(c.SendRaw(string(make([]byte, 4097)))).To(Succeed())
		Expect(closedWith(c).Code).To(Equal(1009))
		Consistently(h.gw.Connections, 100*time.Millisecond).Should(Equal(1), "released with sends unanswered")
		close(release)
		Eventually(h.gw.Connections).Should(BeZero())
		Expect(h.closeReasons("m1")).To(Equal([]string{"message too big"}))
	})

	Describe("fragmented messages", func() {
		var (
			h      *harness
			raw    rawConn
			sealed []byte
		)

		BeforeEach(func() {
			h = startGateway(ws.Config{MaxFrameBytes: 4096})
			token, key := h.login("m1", "s1")
			raw = h.rawDial(token, gobwas.Dialer{})
			aead, err := wire.NewAEAD(key)
			Expect(err).NotTo(HaveOccurred())
			sealed = wire.AppendSealed(nil, aead, []byte(`{"cmd":13,"id":"f1"}`))
		})

		It("are assembled, with control frames between the fragments", func() {
			raw.writeFrame(gobwas.OpText, false, sealed[:10])
			raw.writeFrame(gobwas.OpPing, true, []byte("are you there"))
			raw.writeFrame(gobwas.OpContinuation, true, sealed[10:])

			pong := raw.readFrame()
			Expect(pong.Header.OpCode).To(Equal(gobwas.OpPong))
			Expect(string(pong.Payload)).To(Equal("are you there"))
			Expect(raw.readFrame().Header.OpCode).To(Equal(gobwas.OpText))
		})

		It("count together against MaxFrameBytes", func() {
			raw.writeFrame(gobwas.OpText, false, make([]byte, 3000))
			raw.writeFrame(gobwas.OpContinuation, true, make([]byte, 3000))
			code, _ := closeCode(raw.readFrame())
			Expect(code).To(Equal(gobwas.StatusMessageTooBig))
		})
	})

	It("refuses binary messages with 1003", func() {
		h := startGateway(ws.Config{})
		token, _ := h.login("m1", "s1")
		raw := h.rawDial(token, gobwas.Dialer{})
		raw.writeFrame(gobwas.OpBinary, true, []byte{1, 2, 3})
		code, _ := closeCode(raw.readFrame())
		Expect(code).To(Equal(gobwas.StatusUnsupportedData))
	})

	It("answers a client's close with a close and releases the connection", func() {
		h := startGateway(ws.Config{})
		token, _ := h.login("m1", "s1")
		raw := h.rawDial(token, gobwas.Dialer{})
		raw.writeFrame(gobwas.OpClose, true, gobwas.NewCloseFrameBody(gobwas.StatusGoingAway, "bye"))
		code, _ := closeCode(raw.readFrame())
		Expect(code).To(Equal(gobwas.StatusGoingAway))
		_, err := raw.r.Read(make([]byte, 1))
		Expect(err).To(MatchError(io.EOF))
		Eventually(h.gw.Connections).Should(BeZero())
	})

	It("closes a consumer that does not read even its resync frame, while the others keep receiving", func() {
		h := startGateway(ws.Config{SendQueue: 8, WriteTimeout: 500 * time.Millisecond})
		fast := h.connect("fast")
		token, _ := h.login("slow", "s1")
		raw := h.rawDial(token, gobwas.Dialer{NetDial: smallWindowDial})
		Eventually(h.gw.Connections).Should(Equal(2))

		big := jsonString(32 << 10)
		for range 300 {
			h.push(projections.Delta{Tenant: "x0001", To: []string{"slow", "fast"}, Cmd: projections.CmdMessage, Data: big})
			Expect(next(fast).Data).To(HaveLen(len(big)))
		}
		Eventually(h.gw.Connections, 5*time.Second).Should(Equal(1))
		Expect(h.closeReasons("slow")).To(Equal([]string{"slow consumer"}))
		Expect(h.logs.FilterMessage("slow consumer told to resync").FilterField(zap.String("member", "slow")).Len()).To(BeNumerically(">=", 1))
		Expect(raw.SetReadDeadline(time.Now().Add(5 * time.Second))).To(Succeed())
		_, err := io.Copy(io.Discard, raw)
		Expect(errors.Is(err, os.ErrDeadlineExceeded)).To(BeFalse(), "the server should have closed the socket")

		h.push(projections.Delta{Tenant: "x0001", To: []string{"slow", "fast"}, Cmd: projections.CmdOnline, Data: jsonString(1)})
		Expect(next(fast).Cmd).To(Equal(projections.CmdOnline))
	})

	It("tells a consumer that fell behind to resync in place of the pushes it missed, and keeps it connected", func() {
		h := startGateway(ws.Config{SendQueue: 8, WriteTimeout: 5 * time.Second})
		raw, aead := stalledConsumer(h, "slow")
		// Eight fill the queue; the ninth finds it full and follows the
		// resync frame that replaces them.
		const pushes = 12
		for i := range pushes {
			h.push(projections.Delta{Tenant: "x0001", To: []string{"slow"}, Cmd: projections.CmdMessage, Data: numberedData(i)})
		}

		frames := readPushes(raw, aead, func(got []wsclient.Frame) bool { return len(got) == 6 })
		Expect(frames[0].Cmd).To(Equal(projections.CmdNotices))
		Expect(frames[1].Cmd).To(Equal(projections.CmdResync))
		Expect(frames[1].Data).To(MatchJSON(`{"reason":"slow consumer"}`))
		for i, f := range frames[2:] {
			Expect(f.Cmd).To(Equal(projections.CmdMessage))
			Expect(numberOf(f)).To(Equal(8+i), "the pushes after the resync all arrive")
		}

		h.push(projections.Delta{Tenant: "x0001", To: []string{"slow"}, Cmd: projections.CmdMessage, Data: numberedData(pushes)})
		after := readPushes(raw, aead, func(got []wsclient.Frame) bool { return len(got) == 1 })
		Expect(numberOf(after[0])).To(Equal(pushes))
		Expect(h.gw.Connections()).To(Equal(1))
		Expect(h.closeReasons("slow")).To(BeEmpty())
	})

	It("does not queue a second resync frame for a connection whose resync frame still waits", func() {
		h := startGateway(ws.Config{SendQueue: 8, WriteTimeout: 5 * time.Second})
		raw, aead := stalledConsumer(h, "slow")
		for i := range 9 {
			h.push(projections.Delta{Tenant: "x0001", To: []string{"slow"}, Cmd: projections.CmdMessage, Data: numberedData(i)})
		}

		h.push(projections.ResyncDelta(projections.ResyncBus))
		h.push(projections.Delta{Tenant: "x0001", To: []string{"slow"}, Cmd: projections.CmdMessage, Data: numberedData(9)})

		frames := readPushes(raw, aead, func(got []wsclient.Frame) bool { return len(got) == 4 })
		Expect([]int{frames[0].Cmd, frames[1].Cmd, frames[2].Cmd, frames[3].Cmd}).To(Equal(
			[]int{projections.CmdNotices, projections.CmdResync, projections.CmdMessage, projections.CmdMessage}))
		Expect([]int{numberOf(frames[2]), numberOf(frames[3])}).To(Equal([]int{8, 9}))
	})

	It("tells every connection of every tenant to resync on a resync delta, once", func() {
		h := startGateway(ws.Config{})
		a := h.connect("m1")
		token, key := h.loginIn("x0002", "m2", "s2")
		b := h.dial(token, key)
		Eventually(h.gw.Connections).Should(Equal(2))

		h.push(projections.ResyncDelta(projections.ResyncBus))
		for _, c := range []*wsclient.Client{a, b} {
			f := next(c)
			Expect(f.Cmd).To(Equal(projections.CmdResync))
			Expect(f.Data).To(MatchJSON(`{"reason":"bus"}`))
		}
		h.push(projections.Delta{Tenant: "x0001", To: []string{"m1"}, Cmd: projections.CmdOnline, Data: jsonString(1)})
		Expect(next(a).Cmd).To(Equal(projections.CmdOnline))
	})

	It("closes a connection silent for the idle timeout", func() {
		h := startGateway(ws.Config{IdleTimeout: 300 * time.Millisecond})
		silent := h.connect("m1")
		beating := h.connect("m2", wsclient.WithHeartbeat(100*time.Millisecond))

		Expect(closedWith(silent)).To(Equal(&wsclient.CloseError{Code: 1000, Reason: "idle timeout"}))
		Consistently(beating.Err, 500*time.Millisecond).Should(BeNil())
		Expect(h.gw.Connections()).To(Equal(1))
	})
})

// smallWindowDial connects with a 4 KiB receive buffer, so that a client that
// never reads stalls the server's writes quickly.
func smallWindowDial(ctx context.Context, network, addr string) (net.Conn, error) {
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var err error
		ctlErr := c.Control(func(fd uintptr) {
			err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
		if ctlErr != nil {
			return ctlErr
		}
		return err
	}}
	return d.DialContext(ctx, network, addr)
}

// stalledConsumer connects member, which then reads nothing, and pushes it
// a frame the writer gets stuck in; it returns once the first bytes of that
// frame arrived, which tells that the writer took it alone.
func stalledConsumer(h *harness, member string) (rawConn, cipher.AEAD) {
	GinkgoHelper()
	token, key := h.login(member, "s1")
	raw := h.rawDial(token, gobwas.Dialer{NetDial: smallWindowDial})
	aead, err := wire.NewAEAD(key)
	Expect(err).NotTo(HaveOccurred())
	Eventually(h.gw.Connections).Should(Equal(1))
	h.push(projections.Delta{Tenant: "x0001", To: []string{member}, Cmd: projections.CmdNotices, Data: jsonString(8 << 20)})
	head := make([]byte, 1024)
	Expect(raw.SetReadDeadline(time.Now().Add(5 * time.Second))).To(Succeed())
	_, err = io.ReadFull(raw.r, head)
	Expect(err).NotTo(HaveOccurred())
	raw.r = io.MultiReader(bytes.NewReader(head), raw.r)
	return raw, aead
}

func numberedData(n int) json.RawMessage { return json.RawMessage(fmt.Sprintf(`{"n":%d}`, n)) }

func numberOf(f wsclient.Frame) int {
	GinkgoHelper()
	var d struct{ N int }
	Expect(json.Unmarshal(f.Data, &d)).To(Succeed())
	return d.N
}

// readPushes reads and opens the text frames of raw until done holds for
// what was read.
func readPushes(raw rawConn, aead cipher.AEAD, done func([]wsclient.Frame) bool) []wsclient.Frame {
	GinkgoHelper()
	var got []wsclient.Frame
	for !done(got) {
		f := raw.readFrame()
		Expect(f.Header.OpCode).To(Equal(gobwas.OpText), "read %d pushes before this frame", len(got))
		plain, err := wire.Open(nil, f.Payload, aead)
		Expect(err).NotTo(HaveOccurred())
		var push wsclient.Frame
		Expect(json.Unmarshal(plain, &push)).To(Succeed())
		got = append(got, push)
	}
	return got
}
