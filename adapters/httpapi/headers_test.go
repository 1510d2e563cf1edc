package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"testing/fstest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/httpapi"
)

var _ = Describe("The security headers", func() {
	ui := fstest.MapFS{
		"index.html":    {Data: []byte(`<!doctype html><script type="module" src="/assets/app.js"></script>`)},
		"assets/app.js": {Data: []byte(`console.log("app")`)},
	}
	api := httpapi.New(httpapi.Deps{UI: http.FS(ui)}, zap.NewNop())

	DescribeTable("are on every answer: pages, assets, API answers and refusals",
		func(method, path string, status int) {
			rec := httptest.NewRecorder()
			api.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
			Expect(rec.Code).To(Equal(status))
			h := rec.Header()
			Expect(h.Get("Content-Security-Policy")).To(Equal("default-src 'self'; script-src 'self'; style-src 'self'; " +
				"img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; font-src 'self'; " +
				"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"))
			Expect(h.Get("X-Content-Type-Options")).To(Equal("nosniff"))
			Expect(h.Get("X-Frame-Options")).To(Equal("DENY"))
			Expect(h.Get("Referrer-Policy")).To(Equal("no-referrer"))
			Expect(h.Values("Content-Security-Policy")).To(HaveLen(1))
		},
		Entry("the page", http.MethodGet, "/", http.StatusOK),
		Entry("an app path", http.MethodGet, "/1/1866000000000000001/", http.StatusOK),
		Entry("an asset", http.MethodGet, "/assets/app.js", http.StatusOK),
		Entry("an API answer", http.MethodGet, "/v1/openapi.json", http.StatusOK),
		Entry("an API refusal", http.MethodGet, "/v1/member/memberInfo/getMemberByToken", http.StatusUnauthorized),
		Entry("no such route", http.MethodPost, "/v1/no/such/route", http.StatusNotFound),
		Entry("no such asset", http.MethodGet, "/assets/none.js", http.StatusNotFound),
		Entry("a health check", http.MethodGet, "/healthz", http.StatusOK),
	)
})
