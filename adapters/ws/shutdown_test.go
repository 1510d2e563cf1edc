package ws_test

import (
	"context"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws"
	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

var _ = Describe("Shutdown", func() {
	It("sends every connection a going-away close and waits for them", func() {
		h := startGateway(ws.Config{})
		a, b := h.connect("m1"), h.connect("m2")
		Eventually(h.gw.Connections).Should(Equal(2))

		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		Expect(h.gw.Shutdown(ctx)).To(Succeed())

		Expect(h.gw.Connections()).To(BeZero())
		for _, c := range []*wsclient.Client{a, b} {
			Expect(closedWith(c)).To(Equal(&wsclient.CloseError{Code: 1001, Reason: "going away"}))
		}
		token, key := h.login("m3", "s3")
		_, err := wsclient.Dial(context.Background(), h.url, token, key)
		Expect(err).To(Equal(&wsclient.HandshakeError{Status: http.StatusServiceUnavailable}))
	})
})
