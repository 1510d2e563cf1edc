package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"

	"github.com/eventchat/eventchat/cmd/internal/imctl"
	"github.com/eventchat/eventchat/projections"
)

// imctl runs imctl with the server's data dir and address from the
// environment, as an operator on the same host would, and returns its exit
// code, stdout and stderr.
// projectionStatus is `imctl projections status --json` against s.
func (s *testServer) projectionStatus() projections.Report {
	GinkgoHelper()
	code, out, errOut := s.imctl("--json", "projections", "status")
	Expect(code).To(Equal(0), errOut)
	var r projections.Report
	Expect(json.Unmarshal([]byte(out), &r)).To(Succeed())
	return r
}

func (s *testServer) imctl(args ...string) (int, string, string) {
	GinkgoHelper()
	var out, errOut bytes.Buffer
	env := map[string]string{"IM_DATA_DIR": s.dataDir, "IM_SERVER_URL": s.base}
	code := imctl.Run(context.Background(), args, func(k string) string { return env[k] }, &out, &errOut)
	return code, out.String(), errOut.String()
}

var _ = Describe("imctl against a running server's data directory", func() {
	var s *testServer
	BeforeEach(func() { s = startServer(GinkgoT().TempDir()) })

	ctl := func(args ...string) (int, string, string) {
		GinkgoHelper()
		return s.imctl(args...)
	}

	done := func(args ...string) {
		GinkgoHelper()
		code, _, errOut := ctl(args...)
		Expect(code).To(Equal(0), errOut)
	}

	It("creates, shows and sets tenants, in human and JSON output", func() {
		code, out, errOut := ctl("tenant", "create", "x0002", "--name", "Second brand")
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(MatchRegexp(`name:\s+Second brand`))
		done("tenant", "create", "x0003", "Third")
		_, out, _ = ctl("tenant", "show", "x0003")
		Expect(out).To(MatchRegexp(`name:\s+Third`))
		_, out, _ = ctl("tenant", "create", "x0004", "--name=Fourth")
		Expect(out).To(MatchRegexp(`name:\s+Fourth`))
		Expect(out).To(MatchRegexp(`illegalWords:\s+true`))

		code, out, errOut = ctl("--json", "tenant", "set", "x0002", "icon=/v1/i.png", "singleDevice=true",
			"sensitiveWords.Normal=spam,scam", "illegalWords=false", "hasVoiceCall=false", "sendBatchMessage=Disable", "showGroupMember=false")
		Expect(code).To(Equal(0), errOut)
		var t struct {
			Code, SystemIcon, SendBatchMessage                        string
			SingleDevice, IllegalWords, HasVoiceCall, ShowGroupMember bool
			SensitiveWords                                            map[string]string
			Position                                                  uint64
		}
		Expect(json.Unmarshal([]byte(out), &t)).To(Succeed())
		Expect(t.Code).To(Equal("x0002"))
		Expect(t.SystemIcon).To(Equal("/v1/i.png"))
		Expect(t.SingleDevice).To(BeTrue())
		Expect(t.IllegalWords || t.HasVoiceCall || t.ShowGroupMember).To(BeFalse())
		Expect(t.SendBatchMessage).To(Equal("Disable"))
		Expect(t.SensitiveWords).To(Equal(map[string]string{"Normal": "spam,scam"}))
		Expect(t.Position).NotTo(BeZero())

		code, out, _ = ctl("tenant", "show", "x0002")
		Expect(code).To(Equal(0))
		Expect(out).To(MatchRegexp(`sensitiveWords.Normal:\s+spam,scam`))

		var info systemInfo
		s.ok("GET", "/v1/member/memberInfo/getSystemInfo?tenantCode=x0002", "", nil, &info)
		Expect(info.HasVoiceCall).To(BeFalse())
	})

	It("bans, unbans, signs out and grades a member", func() {
		alice := s.register("alice001")
		a := s.dial(alice)
		code, out, errOut := ctl("member", "ban", "x0001", "alice001")
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(MatchRegexp(`banned:\s+true`))
		Expect(out).To(MatchRegexp(`sessionsEnded:\s+1`))
		var end struct{ Type string }
		Expect(json.Unmarshal(next(a, 31).Data, &end)).To(Succeed())
		Expect(end.Type).To(Equal("Disable"))

		done("member", "unban", "x0001", alice.ID)
		code, out, _ = ctl("--json", "member", "level", "x0001", "alice001", "Admin")
		Expect(code).To(Equal(0))
		Expect(out).To(ContainSubstring(`"memberLevelCode": "Admin"`))
		code, out, _ = ctl("member", "show", "x0001", "alice001")
		Expect(code).To(Equal(0))
		Expect(out).To(MatchRegexp(`banned:\s+false`))

		again := s.login("alice001")
		b := s.dial(again)
		done("member", "offline", "x0001", "alice001")
		Expect(json.Unmarshal(next(b, 31).Data, &end)).To(Succeed())
		Expect(end.Type).To(Equal("Offline"))
	})

	DescribeTable("refusals: exit 1 with the server's text, 2 for misuse, and nothing changed",
		func(args []string, want int, text string) {
			s.register("alice001")
			code, out, errOut := ctl(args...)
			Expect(code).To(Equal(want))
			Expect(out).To(BeEmpty())
			Expect(errOut).To(ContainSubstring(text))
			_, shown, _ := ctl("--json", "tenant", "show", "x0001")
			Expect(shown).To(ContainSubstring(`"singleDevice": false`))
		},
		Entry("a bad value", []string{"tenant", "set", "x0001", "singleDevice=perhaps"}, 1, "singleDevice must be true or false (400)"),
		Entry("an unknown key", []string{"tenant", "set", "x0001", "colour=red", "singleDevice=true"}, 1, "unknown setting colour (400)"),
		Entry("no key=value", []string{"tenant", "set", "x0001", "singleDevice"}, 2, `"singleDevice" is not key=value`),
		Entry("an unknown tenant", []string{"tenant", "set", "zz9999", "singleDevice=true"}, 1, "tenant number invalid (404)"),
		Entry("an existing tenant", []string{"tenant", "create", "x0001"}, 1, "already exists (409)"),
		Entry("an unknown member", []string{"member", "ban", "x0001", "nobody00"}, 1, "member not found (404)"),
		Entry("an unknown level", []string{"member", "level", "x0001", "alice001", "Gold"}, 1, "unknown member level Gold"),
		Entry("an unknown command", []string{"tenant", "drop", "x0001"}, 2, `unknown command "tenant drop"`),
		Entry("missing arguments", []string{"member", "ban", "x0001"}, 2, "member ban takes 2 arguments"),
		Entry("--name without a value", []string{"tenant", "create", "x0009", "--name"}, 2, "--name needs a value"),
	)

	It("lists a tenant's feedback and replies to one, in human and JSON output", func() {
		alice := s.register("alice001")
		var built struct{ ID string }
		s.ok("POST", "/v1/member/feedback/build", alice.Token, map[string]any{"type": "bug", "content": "the send\nbutton hides"}, &built)
		Eventually(func() string {
			_, out, _ := ctl("feedback", "list", "x0001")
			return out
		}).Should(MatchRegexp(`(?m)^` + built.ID + `\s+alice001\s+bug\s+\S+\s+0\s+the send button hides$`))

		code, out, errOut := ctl("feedback", "reply", "x0001", built.ID, "fixed", "in", "1.2")
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(MatchRegexp(`memberId:\s+` + alice.ID))
		var page struct {
			Records []struct{ ID, Reply, RepliedBy string }
			Total   int
		}
		// imctl returned once the read models folded the reply: the next command lists it.
		code, out, errOut = ctl("feedback", "list", "x0001", "--json")
		Expect(code).To(Equal(0), errOut)
		Expect(json.Unmarshal([]byte(out), &page)).To(Succeed())
		Expect(page.Total).To(Equal(1))
		Expect(page.Records[0].Reply).To(Equal("fixed in 1.2"))
		Expect(page.Records[0].RepliedBy).NotTo(BeEmpty())
		_, out, _ = ctl("feedback", "list", "x0001")
		Expect(out).To(MatchRegexp(`(?m)^\s+reply\s+\S+\s+fixed in 1.2$`))

		code, _, errOut = ctl("feedback", "reply", "x0001", "42", "hello")
		Expect(code).To(Equal(1))
		Expect(errOut).To(ContainSubstring("feedback not found (404)"))
		code, _, _ = ctl("feedback", "reply", "x0001", built.ID)
		Expect(code).To(Equal(2))
	})

	It("says when the data directory has no secret or no server answers", func() {
		var out, errOut bytes.Buffer
		env := map[string]string{"IM_DATA_DIR": GinkgoT().TempDir(), "IM_SERVER_URL": s.base}
		Expect(imctl.Run(context.Background(), []string{"tenant", "show", "x0001"}, func(k string) string { return env[k] }, &out, &errOut)).To(Equal(1))
		Expect(errOut.String()).To(ContainSubstring("has a server started on this data directory?"))

		env = map[string]string{"IM_DATA_DIR": s.dataDir, "IM_SERVER_URL": "http://127.0.0.1:1"}
		errOut.Reset()
		Expect(imctl.Run(context.Background(), []string{"tenant", "show", "x0001"}, func(k string) string { return env[k] }, &out, &errOut)).To(Equal(1))
		Expect(errOut.String()).To(ContainSubstring("is it running?"))
	})

	It("runs as its own binary", func() {
		bin, err := gexec.Build("github.com/eventchat/eventchat/cmd/imctl")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(gexec.CleanupBuildArtifacts)
		cmd := exec.Command(bin, "--data-dir", s.dataDir, "--server", s.base, "--json", "tenant", "show", "x0001")
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(ContainSubstring(`"code": "x0001"`))
		Expect(filepath.Base(bin)).To(Equal("imctl"))
	})
})
