package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"
)

const notBuilt = `<!doctype html><meta charset="utf-8"><title>eventchat</title>
<h1>The web client is not built into this binary</h1>
<p>Build it, then rebuild the server: <code>scripts/run</code> does both, or
<code>npm --prefix ui ci &amp;&amp; npm --prefix ui run build &amp;&amp; go build ./cmd/imserver</code>.</p>
<p>The API is served under <a href="/v1/openapi.json">/v1</a>.</p>`

// precompressed are the encodings the build writes next to each file
// (name.br, name.gz), in the order they are preferred.
var precompressed = []struct{ encoding, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// serveUI serves the web client's files; any other path that names no file
// (the app's own paths, such as /1/{memberId}/) gets index.html.
func (a *API) serveUI(c echo.Context) error {
	ui := a.deps.UI
	if ui == nil {
		return c.HTML(http.StatusOK, notBuilt)
	}
	p := path.Clean("/" + c.Param("*"))
	if p != "/index.html" && isFile(ui, p) {
		if strings.HasPrefix(p, "/assets/") {
			c.Response().Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		}
		return serveFile(c, ui, p, false)
	}
	if path.Ext(p) != "" && !strings.HasSuffix(p, ".html") {
		return echo.ErrNotFound
	}
	if !isFile(ui, "/index.html") {
		return c.HTML(http.StatusOK, notBuilt)
	}
	c.Response().Header().Set("Cache-Control", "no-cache")
	return serveFile(c, ui, "/index.html", true)
}

func isFile(ui http.FileSystem, p string) bool {
	f, err := ui.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	return err == nil && !st.IsDir()
}

// serveFile answers with the file at p, or with its precompressed copy when
// the build wrote one and the client accepts its encoding. withETag tags the
// answer with a hash of what is sent, for files whose name does not change
// with their content.
func serveFile(c echo.Context, ui http.FileSystem, p string, withETag bool) error {
	w, r := c.Response(), c.Request()
	name, encoding := p, ""
	for _, pc := range precompressed {
		if !isFile(ui, p+pc.suffix) {
			continue
		}
		w.Header().Set("Vary", "Accept-Encoding")
		if encoding == "" && accepts(r.Header.Get("Accept-Encoding"), pc.encoding) {
			name, encoding = p+pc.suffix, pc.encoding
		}
	}
	f, err := ui.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return echo.ErrNotFound
	}
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if encoding != "" {
		w.Header().Set("Content-Encoding", encoding)
	}
	if withETag {
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		w.Header().Set("ETag", `"`+hex.EncodeToString(h.Sum(nil)[:12])+`"`)
	}
	// The name, not the served file's, gives the Content-Type.
	http.ServeContent(w, r, path.Base(p), st.ModTime(), f)
	return nil
}

// accepts reports whether an Accept-Encoding header admits the encoding:
// named (or *) without q=0.
func accepts(header, encoding string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.TrimSpace(coding)
		if !strings.EqualFold(coding, encoding) && coding != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}
