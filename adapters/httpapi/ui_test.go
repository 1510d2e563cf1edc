package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"testing/fstest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/httpapi"
)

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	_, err := w.Write(b)
	Expect(err).NotTo(HaveOccurred())
	Expect(w.Close()).To(Succeed())
	return buf.Bytes()
}

func gunzipped(b []byte) []byte {
	r, err := gzip.NewReader(bytes.NewReader(b))
	Expect(err).NotTo(HaveOccurred())
	out, err := io.ReadAll(r)
	Expect(err).NotTo(HaveOccurred())
	return out
}

var _ = Describe("The web client's files", func() {
	page := []byte(`<!doctype html><script type="module" src="/assets/app.js?v=1"></script>`)
	app := bytes.Repeat([]byte(`console.log("app");`), 200)
	chunk := []byte(`export const chat = 1;`)
	appBrotli := []byte("not really brotli, but what the build wrote")
	ui := fstest.MapFS{
		"index.html":           {Data: page},
		"index.html.gz":        {Data: gzipped(page)},
		"assets/app.js":        {Data: app},
		"assets/app.js.gz":     {Data: gzipped(app)},
		"assets/app.js.br":     {Data: appBrotli},
		"assets/chat-X1.js":    {Data: chunk},
		"assets/chat-X1.js.gz": {Data: gzipped(chunk)},
		"assets/app.css":       {Data: []byte(`body{margin:0}`)},
	}
	api := httpapi.New(httpapi.Deps{UI: http.FS(ui)}, zap.NewNop())

	get := func(path, acceptEncoding string, header ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if acceptEncoding != "" {
			req.Header.Set("Accept-Encoding", acceptEncoding)
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, req)
		return rec
	}

	It("are sent gzipped to a client that accepts gzip, the same bytes once unzipped", func() {
		rec := get("/assets/app.js?v=1", "gzip, deflate")
		Expect(rec.Code).To(Equal(http.StatusOK))
		Expect(rec.Header().Get("Content-Encoding")).To(Equal("gzip"))
		Expect(rec.Header().Get("Vary")).To(Equal("Accept-Encoding"))
		Expect(rec.Header().Get("Content-Type")).To(HavePrefix("text/javascript"))
		Expect(rec.Header().Get("Cache-Control")).To(Equal("public, max-age=31536000, immutable"))
		Expect(rec.Body.Len()).To(BeNumerically("<", len(app)))
		Expect(gunzipped(rec.Body.Bytes())).To(Equal(app))
	})

	It("are sent as they are to a client that does not accept gzip", func() {
		for _, accept := range []string{"", "identity", "gzip;q=0", "deflate"} {
			rec := get("/assets/app.js?v=1", accept)
			Expect(rec.Code).To(Equal(http.StatusOK))
			Expect(rec.Header().Get("Content-Encoding")).To(BeEmpty(), accept)
			Expect(rec.Header().Get("Vary")).To(Equal("Accept-Encoding"))
			Expect(rec.Header().Get("Cache-Control")).To(Equal("public, max-age=31536000, immutable"))
			Expect(rec.Body.Bytes()).To(Equal(app), accept)
		}
	})

	It("prefer brotli where the build wrote it and the client accepts it", func() {
		rec := get("/assets/app.js?v=1", "gzip, deflate, br")
		Expect(rec.Header().Get("Content-Encoding")).To(Equal("br"))
		Expect(rec.Body.Bytes()).To(Equal(appBrotli))

		rec = get("/assets/chat-X1.js", "gzip, br")
		Expect(rec.Header().Get("Content-Encoding")).To(Equal("gzip"))
		Expect(rec.Header().Get("Cache-Control")).To(Equal("public, max-age=31536000, immutable"))
		Expect(gunzipped(rec.Body.Bytes())).To(Equal(chunk))
	})

	It("are sent as they are, without Vary, when the build wrote no compressed copy", func() {
		rec := get("/assets/app.css?v=1", "gzip, br")
		Expect(rec.Code).To(Equal(http.StatusOK))
		Expect(rec.Header().Get("Content-Encoding")).To(BeEmpty())
		Expect(rec.Header().Get("Vary")).To(BeEmpty())
		Expect(rec.Body.String()).To(Equal(`body{margin:0}`))
	})

	It("give the page gzipped at any app path, never cached without asking, and 304 when unchanged", func() {
		for _, p := range []string{"/", "/1/1866000000000000001/", "/index.html"} {
			rec := get(p, "gzip")
			Expect(rec.Code).To(Equal(http.StatusOK), p)
			Expect(rec.Header().Get("Content-Encoding")).To(Equal("gzip"), p)
			Expect(rec.Header().Get("Vary")).To(Equal("Accept-Encoding"), p)
			Expect(rec.Header().Get("Cache-Control")).To(Equal("no-cache"), p)
			Expect(rec.Header().Get("Content-Type")).To(HavePrefix("text/html"), p)
			Expect(gunzipped(rec.Body.Bytes())).To(Equal(page), p)
		}

		zipped, plain := get("/", "gzip"), get("/", "")
		Expect(plain.Body.Bytes()).To(Equal(page))
		Expect(zipped.Header().Get("ETag")).NotTo(BeEmpty())
		Expect(plain.Header().Get("ETag")).NotTo(BeEmpty())
		Expect(zipped.Header().Get("ETag")).NotTo(Equal(plain.Header().Get("ETag")))

		again := get("/", "gzip", "If-None-Match", zipped.Header().Get("ETag"))
		Expect(again.Code).To(Equal(http.StatusNotModified))
		Expect(again.Body.Len()).To(BeZero())
		Expect(get("/", "gzip", "If-None-Match", `"stale"`).Code).To(Equal(http.StatusOK))
	})
})
