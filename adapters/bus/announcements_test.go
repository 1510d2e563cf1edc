package bus_test

import (
	"context"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/bus"
)

var _ = Describe("NATS announcements", func() {
	It("reach every node listening, its own included, in the order each node sent them", func() {
		url, _ := embeddedNATS()
		var nodes []*bus.Announcements
		var heard []<-chan []byte
		for range 2 {
			a, err := bus.NewAnnouncements(url, bus.DefaultAnnouncements, zap.NewNop())
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(a.Close)
			ctx, cancel := context.WithCancel(context.Background())
			DeferCleanup(cancel)
			in, err := a.Announcements(ctx)
			Expect(err).NotTo(HaveOccurred())
			nodes, heard = append(nodes, a), append(heard, in)
		}
		for i := range 50 {
			Expect(nodes[0].Announce(context.Background(), []byte(fmt.Sprint(i)))).To(Succeed())
		}
		for _, in := range heard {
			for i := range 50 {
				Eventually(in).Should(Receive(Equal([]byte(fmt.Sprint(i)))))
			}
		}
	})

})
