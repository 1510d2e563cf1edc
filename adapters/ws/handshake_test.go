package ws_test

import (
	"context"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/ws"
	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

var _ = Describe("Handshake", func() {
	var h *harness

	BeforeEach(func() {
		h = startGateway(ws.Config{AllowedOrigins: []string{"https://app.example"}})
	})

	It("answers a missing token with 401 and the envelope before upgrading", func() {
		resp := h.upgradeRequest("", nil)
		Expect(resp.StatusCode).To(Equal(http.StatusUnauthorized))
		Expect(resp.Header.Get("Upgrade")).To(BeEmpty())
		Expect(envelopeOf(resp)).To(Equal(map[string]any{
			"code": "401", "data": nil, "info": "login expired, please log in again",
		}))
	})

	It("answers an unknown token with 401 in the asked language", func() {
		resp := h.upgradeRequest("token=nope", http.Header{"Accept-Language": {"zh-CN"}})
		Expect(resp.StatusCode).To(Equal(http.StatusUnauthorized))
		Expect(envelopeOf(resp)).To(HaveKeyWithValue("info", "登录已过期，请重新登录"))

		_, err := wsclient.Dial(context.Background(), h.url, "nope", make([]byte, 32))
		Expect(err).To(Equal(&wsclient.HandshakeError{Status: http.StatusUnauthorized}))
		Expect(h.gw.Connections()).To(BeZero())
	})

	It("refuses a request that is not a websocket handshake and keeps no connection", func() {
		token, _ := h.login("m1", "s1")
		resp, err := http.Get(h.srv.URL + "/message-ws?token=" + token)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Body.Close()).To(Succeed())
		Expect(resp.StatusCode).To(Equal(http.StatusBadRequest))
		Eventually(h.gw.Connections).Should(BeZero())
	})

	It("refuses a foreign origin with 403 before upgrading", func() {
		token, _ := h.login("m1", "s1")
		resp := h.upgradeRequest("token="+token, http.Header{"Origin": {"https://evil.example"}})
		Expect(resp.StatusCode).To(Equal(http.StatusForbidden))
		Expect(envelopeOf(resp)).To(HaveKeyWithValue("code", "403"))
		Expect(h.gw.Connections()).To(BeZero())
	})

	It("accepts a listed origin, the server's own host and no origin", func() {
		for _, origin := range []string{"https://app.example", "http://" + h.srv.Listener.Addr().String(), ""} {
			token, key := h.login("m1", "s1")
			c := h.dial(token, key, wsclient.WithOrigin(origin))
			Expect(request(c, 13, nil).Code).To(Equal("200"))
		}
		Expect(h.gw.Connections()).To(Equal(3))
	})

	It("accepts every origin only when told to with *", func() {
		open := startGateway(ws.Config{AllowedOrigins: []string{"*"}})
		token, key := open.login("m1", "s1")
		c, err := wsclient.Dial(context.Background(), open.url, token, key, wsclient.WithOrigin("https://evil.example"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Close()).To(Succeed())

		token, key = h.login("m1", "s1")
		_, err = wsclient.Dial(context.Background(), h.url, token, key, wsclient.WithOrigin("https://evil.example"))
		Expect(err).To(Equal(&wsclient.HandshakeError{Status: http.StatusForbidden}))
	})

	It("logs opening and closing with the member, never the token", func() {
		token, key := h.login("m7", "s1")
		c := h.dial(token, key)
		Expect(c.Close()).To(Succeed())
		Eventually(func() []string { return h.closeReasons("m7") }).Should(Equal([]string{"closed by client"}))
		for _, e := range h.logs.All() {
			for _, v := range e.ContextMap() {
				Expect(v).NotTo(Equal(token))
			}
		}
		Expect(h.logs.FilterMessage("ws connection opened").FilterField(zap.String("member", "m7")).Len()).To(Equal(1))
	})
})
