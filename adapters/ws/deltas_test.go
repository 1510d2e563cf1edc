package ws_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws"
	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Deltas", func() {
	var h *harness

	BeforeEach(func() {
		h = startGateway(ws.Config{})
	})

	message := json.RawMessage(`{"id":"5","content":"hi"}`)
	marker := projections.Delta{Tenant: "x0001", Cmd: projections.CmdOnline, Data: json.RawMessage(`"marker"`)}

	// expectOnlyMarker proves c got nothing before a marker delta sent to member.
	expectOnlyMarker := func(c *wsclient.Client, member string) {
		d := marker
		d.To = []string{member}
		h.push(d)
		Expect(next(c)).To(Equal(wsclient.Frame{Cmd: projections.CmdOnline, Data: d.Data}))
	}

	It("reaches every connection of the members it names and no one else", func() {
		t1, k1 := h.login("m1", "s1")
		t2, k2 := h.login("m1", "s2")
		phone, laptop := h.dial(t1, k1), h.dial(t2, k2)
		bystander := h.connect("m2")
		tOther, kOther := h.loginIn("x0002", "m1", "s1")
		otherTenant := h.dial(tOther, kOther)
		Eventually(h.gw.Connections).Should(Equal(4))

		h.push(projections.Delta{Tenant: "x0001", To: []string{"m1"}, Cmd: projections.CmdMessage, Data: message})
		want := wsclient.Frame{Cmd: projections.CmdMessage, Data: message}
		Expect(next(phone)).To(Equal(want))
		Expect(next(laptop)).To(Equal(want))
		expectOnlyMarker(bystander, "m2")
		d := marker
		d.Tenant, d.To = "x0002", []string{"m1"}
		h.push(d)
		Expect(next(otherTenant).Cmd).To(Equal(projections.CmdOnline))
	})

	It("reaches only the named login's connections when it is session-scoped", func() {
		t1, k1 := h.login("m1", "s1")
		t2, k2 := h.login("m1", "s2")
		s1, s2 := h.dial(t1, k1), h.dial(t2, k2)

		h.push(projections.Delta{Tenant: "x0001", To: []string{"m1"}, Session: "s2", Cmd: projections.CmdSessionChanged, Data: json.RawMessage(`{}`)})
		Expect(next(s2).Cmd).To(Equal(projections.CmdSessionChanged))
		expectOnlyMarker(s1, "m1")
	})

	It("closes the connection after pushing a session end", func() {
		t1, k1 := h.login("m1", "s1")
		t2, k2 := h.login("m1", "s2")
		kicked, kept := h.dial(t1, k1), h.dial(t2, k2)

		h.push(projections.Delta{Tenant: "x0001", To: []string{"m1"}, Session: "s1", Cmd: projections.CmdSessionEnd, Data: json.RawMessage(`{"type":"KickOut"}`)})
		Expect(next(kicked)).To(Equal(wsclient.Frame{Cmd: projections.CmdSessionEnd, Data: json.RawMessage(`{"type":"KickOut"}`)}))
		Expect(closedWith(kicked)).To(Equal(&wsclient.CloseError{Code: 1000, Reason: "session end"}))
		Eventually(h.gw.Connections).Should(Equal(1))
		Expect(request(kept, 13, nil).Code).To(Equal("200"))
	})

	It("pushes null when a delta has no data", func() {
		c := h.connect("m1")
		h.push(projections.Delta{Tenant: "x0001", To: []string{"m1"}, Cmd: projections.CmdApplyRefresh})
		Expect(next(c)).To(Equal(wsclient.Frame{Cmd: projections.CmdApplyRefresh, Data: json.RawMessage("null")}))
	})
})
