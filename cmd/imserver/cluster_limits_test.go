package main

import (
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Issue 14: the rate limits are counted in the read store both nodes
// share, so that they do not multiply with the nodes.
var _ = Describe("Rate limits on two nodes of the production profile", Ordered, func() {
	var nodes [2]*testServer
	BeforeAll(func() {
		profile := startProductionProfile()
		nodes[0], _ = profile.node("node-1")
		nodes[1], _ = profile.node("node-2")
		nodes[0].register("alice001")
	})

	// from calls a node as a client at address, as a proxy tells it.
	from := func(node int, address, method, path string, body any) (int, envelope) {
		return nodes[node].call(method, path, "", body, "X-Forwarded-For", address)
	}
	login := func(node int, address string) (int, envelope) {
		return from(node, address, "POST", "/v1/member/memberInfo/login", map[string]string{"account": "alice001", "password": "pass1234"})
	}
	phone := 0
	sms := func(node int, address string) (int, envelope) {
		phone++
		return from(node, address, "GET", fmt.Sprintf("/v1/member/sms/send?phone=137%08d&type=register", phone), nil)
	}
	allowed := func(call func(int, string) (int, envelope), node int, address string) {
		GinkgoHelper()
		status, env := call(node, address)
		Expect(status).To(Equal(http.StatusOK), env.Info)
	}
	refused := func(call func(int, string) (int, envelope), node int, address, info string) {
		GinkgoHelper()
		status, env := call(node, address)
		Expect(status).To(Equal(http.StatusTooManyRequests))
		Expect(env.Info).To(Equal(info))
	}
	const tooManyAttempts = "too many attempts, please try again later"
	const tooManyCodes = "too many verification codes, please try again later"

	// A limit allows n calls per address and window, and tells info after.
	type limit struct {
		call func(int, string) (int, envelope)
		n    int
		info string
	}
	logins := limit{login, 20, tooManyAttempts}
	codes := limit{sms, 10, tooManyCodes}
	// alternating spends the limit of address through both nodes in turn:
	// both refuse the next call, and another address is allowed through
	// node.
	alternating := func(l limit, address, other string, node int) {
		GinkgoHelper()
		for i := range l.n {
			allowed(l.call, i%2, address)
		}
		refused(l.call, 0, address, l.info)
		refused(l.call, 1, address, l.info)
		allowed(l.call, node, other)
	}
	// throughOne spends the limit of address through node alone: the other
	// node refuses the next call, and allows another address.
	throughOne := func(l limit, node int, address, other string) {
		GinkgoHelper()
		for range l.n {
			allowed(l.call, node, address)
		}
		refused(l.call, 1-node, address, l.info)
		allowed(l.call, 1-node, other)
	}

	It("refuse the 21st login of an address within a minute when the logins alternate between the nodes", func() {
		alternating(logins, "198.51.100.1", "198.51.100.2", 1)
	})

	It("refuse the 21st login of an address within a minute on the node that counted none of the first 20", func() {
		throughOne(logins, 0, "198.51.100.3", "198.51.100.4")
	})

	It("lock an account nobody holds out after 10 wrong passwords, whichever nodes they came through", func() {
		wrong := func(node int) (int, envelope) {
			return nodes[node].call("POST", "/v1/member/memberInfo/login", "", map[string]string{"account": "nobody01", "password": "wrong123"})
		}
		for i := range 10 {
			status, env := wrong(i % 2)
			Expect(status).To(Equal(http.StatusBadRequest), env.Info)
		}
		for node := range 2 {
			status, env := wrong(node)
			Expect(status).To(Equal(http.StatusTooManyRequests))
			Expect(env.Info).To(Equal(tooManyAttempts))
		}
	})

	It("refuse the 11th SMS code of an address within 10 minutes when the requests alternate between the nodes", func() {
		alternating(codes, "198.51.100.5", "198.51.100.6", 0)
	})

	It("refuse the 11th SMS code of an address within 10 minutes on the node that counted none of the first 10", func() {
		throughOne(codes, 1, "198.51.100.7", "198.51.100.8")
	})
})
