package imctl

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("imctl's time limits", func() {
	// The server stands for one that takes its time: it answers every call
	// after slow, or when the caller gives up.
	const slow = 400 * time.Millisecond
	var base string

	BeforeEach(func() {
		quick := quickTimeout
		quickTimeout = 100 * time.Millisecond
		DeferCleanup(func() { quickTimeout = quick })
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(slow):
			case <-r.Context().Done():
				return
			}
			data := `{"code": "x0001"}`
			if r.URL.Path == "/v1/admin/audit/verify" {
				data = `{"tenant": "x0001", "position": 7, "models": [{"name": "members", "equal": true}]}`
			}
			fmt.Fprintf(w, `{"code": "200", "info": "ok", "data": %s}`, data)
		}))
		DeferCleanup(srv.Close)
		base = srv.URL
	})

	run := func(ctx context.Context, args ...string) (int, string, string) {
		GinkgoHelper()
		var out, errOut bytes.Buffer
		env := map[string]string{"IM_SERVER_URL": base}
		code := Run(ctx, append([]string{"--token", "au.given"}, args...), func(k string) string { return env[k] }, &out, &errOut)
		return code, out.String(), errOut.String()
	}

	It("cuts a quick call at its limit, but lets a verify or a compare run to its end", func() {
		code, _, errOut := run(context.Background(), "tenant", "show", "x0001")
		Expect(code).To(Equal(1))
		Expect(errOut).To(Equal("imctl: no answer within 100ms: give a longer --timeout, or 0 for none\n"))

		code, out, errOut := run(context.Background(), "audit", "verify", "x0001")
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(MatchRegexp(`members\s+equal`))
		code, _, errOut = run(context.Background(), "audit", "compare", "a", "b")
		Expect(code).To(Equal(0), errOut)
	})

	It("applies --timeout to every call, long ones included; 0 is no limit", func() {
		code, _, errOut := run(context.Background(), "--timeout", "100ms", "audit", "verify", "x0001")
		Expect(code).To(Equal(1))
		Expect(errOut).To(ContainSubstring("no answer within 100ms"))

		code, out, errOut := run(context.Background(), "--timeout", "0", "tenant", "show", "x0001")
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(ContainSubstring("x0001"))
		code, _, errOut = run(context.Background(), "--timeout=5s", "tenant", "show", "x0001")
		Expect(code).To(Equal(0), errOut)
	})

	It("stops a long call on Ctrl-C", func() {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		code, _, errOut := run(ctx, "audit", "verify", "x0001")
		Expect(code).To(Equal(1))
		Expect(errOut).To(Equal("imctl: interrupted\n"))
	})

	It("refuses a malformed or negative --timeout, and tells of it in the usage", func() {
		code, _, errOut := run(context.Background(), "--timeout", "-1s", "tenant", "show", "x0001")
		Expect(code).To(Equal(2))
		Expect(errOut).To(ContainSubstring("--timeout must be 0 (no limit) or more"))
		code, _, errOut = run(context.Background(), "--timeout", "soon", "tenant", "show", "x0001")
		Expect(code).To(Equal(2))
		Expect(errOut).To(ContainSubstring(`invalid value "soon" for flag -timeout`))

		code, _, errOut = run(context.Background(), "--help")
		Expect(code).To(Equal(0))
		Expect(errOut).To(ContainSubstring("--timeout <duration> sets the limit of every call, long ones included (0: none)"))
		Expect(errOut).To(MatchRegexp(`-timeout duration\n.*\n.*\(default: 100ms for quick calls, no limit for long ones\)`))
	})
})
