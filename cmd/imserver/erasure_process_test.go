package main

import (
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Erasing a member with two node processes on the production profile", Label("fault"), func() {
	It("reads the member as erased through the other node at once, after the erasing node is killed and after it restarts", func() {
		const name, text = "Ottoline Brackenwhistle", "the lantern code is 44-Vesper-Tern"
		bin := buildServer(GinkgoT().TempDir())
		profile := startProductionProfile()
		dataDir := filepath.Join(profile.dir, "data")
		start := func(node string) *process {
			return startProcess(bin, dataDir, "IM_EVENTSTORE="+profile.esdb, "IM_READSTORE="+profile.mongo, "IM_BUS="+profile.nats,
				"IM_NODE_NAME="+node)
		}
		one, two := start("node-1"), start("node-2")

		otto, phone := one.registerPhoneIn("x0001", "ottob001")
		bob := two.register("bobo0001")
		one.befriend(otto, bob)
		one.written("PUT", "/v1/member/memberInfo/modify", otto, map[string]string{"name": name})
		sent := two.send(otto, bob, "o-1", text) // node 2 seals it: it holds otto's key
		messages := url.Values{"tenant": {"x0001"}, "type": {"MessageSent"}}
		payloads := func(p *process) string {
			GinkgoHelper()
			var all strings.Builder
			for _, e := range p.auditAll(p.operator(), messages, 50) {
				all.Write(e.Data)
			}
			return all.String()
		}
		Expect(payloads(two)).To(ContainSubstring(text), "an auditor reads the message through node 2 before the erasure")

		erased := one.written("PUT", "/v1/admin/member/erase", one.operator(), map[string]string{"tenant": "x0001", "account": "ottob001", "request": "ticket 88"})
		Expect(erased).NotTo(BeZero())
		one.kill()

		By("node 2 reads the message as erased, though it held the key and the erasing node is gone")
		Eventually(func() string { return payloads(two) }, 30*time.Second, 200*time.Millisecond).ShouldNot(ContainSubstring(text))
		Eventually(func() []string {
			var h []message
			two.ok("GET", fmt.Sprintf("/v1/message/messagePush/history/list/page?friendMemberId=%s&after=%d", otto.ID, erased), bob.Token, nil, &h)
			var bodies []string
			for _, m := range h {
				bodies = append(bodies, m.ID+" "+m.Content)
			}
			return bodies
		}, 30*time.Second, 200*time.Millisecond).Should(Equal([]string{sent.ID + " " + projections.ErasedContent}))
		code, _ := two.call("GET", "/v1/message/sessionInfo/list", otto.Token, nil)
		Expect(code).To(Equal(http.StatusUnauthorized), "the member's sessions ended")
		var registered bool
		two.ok("GET", "/v1/member/memberInfo/isMobileRegister?tenantCode=x0001&phone="+phone, "", nil, &registered)
		Expect(registered).To(BeFalse(), "its phone is free again")

		By("node 1 restarted reads it as erased too")
		one = start("node-1")
		Expect(payloads(one)).NotTo(ContainSubstring(text))
		var ss []session
		one.ok("GET", "/v1/message/sessionInfo/list", one.login("bobo0001").Token, nil, &ss)
		Expect(ss).To(HaveLen(1))
		Expect(ss[0].Name).To(Equal(projections.ErasedName))
		Expect(ss[0].LastMessageContent).To(Equal(projections.ErasedContent))
	})
})
