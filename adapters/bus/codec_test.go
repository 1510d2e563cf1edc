package bus_test

import (
	"encoding/binary"
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/bus"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("A batch on the in-process bus", func() {
	batch := []projections.Delta{
		{Tenant: "x0001", To: []string{"m1", "m2"}, Session: "s1", Cmd: projections.CmdMessage,
			Data: json.RawMessage(`{"id": "42", "text": "héllo \"there\""}`), Position: 7},
		{Tenant: "x0001", To: []string{}, Cmd: projections.CmdFriendAdded, Data: json.RawMessage(`null`), Position: 1<<64 - 1},
		{Tenant: "", To: nil, Cmd: -3},
	}

	It("comes out as it went in, Data byte for byte", func() {
		p, err := bus.PackDeltas(batch)
		Expect(err).NotTo(HaveOccurred())
		got, err := bus.UnpackDeltas(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(batch))
		none, err := bus.PackDeltas(nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(bus.UnpackDeltas(none)).To(BeEmpty())
	})

	It("is still read as JSON, the form NATS carries", func() {
		p, err := json.Marshal(batch[:2])
		Expect(err).NotTo(HaveOccurred())
		got, err := bus.UnpackDeltas(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(got[1]).To(Equal(batch[1]))
		Expect(got[0].Data).To(MatchJSON(batch[0].Data))
	})

	It("refuses every cut, a trailing byte and an impossible count without reading past its end", func() {
		p, err := bus.PackDeltas(batch)
		Expect(err).NotTo(HaveOccurred())
		for n := range len(p) {
			_, err := bus.UnpackDeltas(p[:n])
			Expect(err).To(HaveOccurred(), "cut at %d of %d", n, len(p))
		}
		_, err = bus.UnpackDeltas(append(p[:len(p):len(p)], 0))
		Expect(err).To(HaveOccurred())
		huge := binary.AppendUvarint([]byte{p[0]}, 1<<62)
		_, err = bus.UnpackDeltas(huge)
		Expect(err).To(HaveOccurred())
		for i := 1; i < len(p); i++ {
			flipped := append([]byte(nil), p...)
			flipped[i] ^= 0xff
			_, _ = bus.UnpackDeltas(flipped) // an error or other deltas, never a panic
		}
	})
})
