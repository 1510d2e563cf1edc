package httpapi

import (
	"errors"
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

// serveUI serves the web client's files; any other path that names no file
// (the app's own paths, such as /1/{memberId}/) gets index.html.
func (a *API) serveUI(c echo.Context) error {
	ui := a.deps.UI
	if ui == nil {
		return c.HTML(http.StatusOK, notBuilt)
	}
	p := path.Clean("/" + c.Param("*"))
	if f, err := ui.Open(p); err == nil {
		st, err := f.Stat()
		f.Close()
		if err == nil && !st.IsDir() {
			if strings.HasPrefix(p, "/assets/") {
				c.Response().Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			}
			http.FileServer(ui).ServeHTTP(c.Response(), c.Request())
			return nil
		}
	}
	if path.Ext(p) != "" && !strings.HasSuffix(p, ".html") {
		return echo.ErrNotFound
	}
	f, err := ui.Open("/index.html")
	if errors.Is(err, fs.ErrNotExist) {
		return c.HTML(http.StatusOK, notBuilt)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-cache")
	http.ServeContent(c.Response(), c.Request(), "index.html", st.ModTime(), f)
	return nil
}
