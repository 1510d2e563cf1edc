package httpapi

import "github.com/labstack/echo/v4"

// ContentSecurityPolicy lets the web client load its own script and styles
// only, never inline script; pictures and media may also be the data: and
// blob: URLs of previews; connect-src 'self' covers the websocket to the
// same host (ws: and wss:).
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; " +
	"img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; font-src 'self'; " +
	"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// SecurityHeaders are set on every answer, pages, files and API alike.
// deploy/nginx.conf sets the same (cmd/imserver/compose_test.go checks it).
var SecurityHeaders = [][2]string{
	{"Content-Security-Policy", ContentSecurityPolicy},
	{"X-Content-Type-Options", "nosniff"},
	{"X-Frame-Options", "DENY"},
	{"Referrer-Policy", "no-referrer"},
}

func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		for _, kv := range SecurityHeaders {
			h.Set(kv[0], kv[1])
		}
		return next(c)
	}
}
