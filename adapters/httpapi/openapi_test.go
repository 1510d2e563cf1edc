package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/httpapi"
)

var _ = Describe("The OpenAPI document", func() {
	It("describes every route registered under /v1, with its method", func() {
		api := httpapi.New(httpapi.Deps{}, zap.NewNop())
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/openapi.json", nil))
		Expect(rec.Code).To(Equal(http.StatusOK))
		var doc struct {
			OpenAPI string                               `json:"openapi"`
			Paths   map[string]map[string]map[string]any `json:"paths"`
		}
		Expect(json.Unmarshal(rec.Body.Bytes(), &doc)).To(Succeed())
		Expect(doc.OpenAPI).To(HavePrefix("3."))

		param := regexp.MustCompile(`:([A-Za-z]+)`)
		checked := 0
		for _, r := range api.Routes() {
			method, path := r[0], r[1]
			if !strings.HasPrefix(path, "/v1/") || strings.HasSuffix(path, "/*") {
				continue
			}
			p := param.ReplaceAllString(path, "{$1}")
			Expect(doc.Paths).To(HaveKey(p), "route %s %s is missing from /v1/openapi.json", method, path)
			op, ok := doc.Paths[p][strings.ToLower(method)]
			Expect(ok).To(BeTrue(), "route %s %s is missing from /v1/openapi.json", method, path)
			Expect(op["summary"]).NotTo(BeEmpty())
			checked++
		}
		Expect(checked).To(BeNumerically(">=", 14))
	})
})
