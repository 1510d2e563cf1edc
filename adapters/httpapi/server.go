// Package httpapi serves the REST API under /v1 with echo, the websocket
// gateway at /message-ws, health checks and the embedded web client.
package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/envelope"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
)

// MaxBody caps a request body.
const MaxBody = 1 << 20

// maxAfterWait bounds how long a read waits for its ?after= position.
const maxAfterWait = 5 * time.Second

// API is the HTTP server's handler.
type API struct {
	deps   Deps
	log    *zap.Logger
	echo   *echo.Echo
	routes []route
}

// New builds the API over deps.
func New(deps Deps, log *zap.Logger) *API {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	a := &API{deps: deps, log: log, echo: e}
	e.HTTPErrorHandler = a.handleError
	e.Use(securityHeaders, a.requestLog, a.recoverPanic)

	v1 := e.Group("/v1") // each route caps its body (route.maxBody)
	for _, r := range a.table() {
		a.add(v1, r)
	}
	v1.GET("/openapi.json", a.openAPI)
	a.routes = append(a.routes, route{method: http.MethodGet, path: "/openapi.json", summary: "This document."})
	v1.Any("/*", func(echo.Context) error { return fault.New(fault.NotFound, fault.MsgNotFound) })

	getOrHead := []string{http.MethodGet, http.MethodHead}
	e.Match(getOrHead, "/healthz", func(c echo.Context) error { return c.String(http.StatusOK, "ok") })
	e.Match(getOrHead, "/readyz", a.ready)
	if deps.Socket != nil {
		e.GET("/message-ws", echo.WrapHandler(deps.Socket))
	}
	e.Match(getOrHead, "/*", a.serveUI)
	return a
}

// ServeHTTP serves a request.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.echo.ServeHTTP(w, r) }

// Routes lists the method and path of every route served under /v1.
func (a *API) Routes() [][2]string {
	var out [][2]string
	for _, r := range a.echo.Routes() {
		out = append(out, [2]string{r.Method, r.Path})
	}
	return out
}

func (a *API) ready(c echo.Context) error {
	if a.deps.Ready != nil {
		if err := a.deps.Ready(); err != nil {
			return c.String(http.StatusServiceUnavailable, err.Error())
		}
	}
	return c.String(http.StatusOK, "ready")
}

func lang(c echo.Context) string { return envelope.Language(c.Request().Header.Get("Accept-Language")) }

func ok(c echo.Context, data any) error {
	return c.JSON(http.StatusOK, envelope.OK(data, lang(c)))
}

// handleError answers every failure in the envelope. Echo's own errors (no
// route, body too large) map to their status; domain failures to theirs;
// anything else is logged and answered 500 without detail.
func (a *API) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		err = fromEcho(he)
	}
	status, body := envelope.FromError(err, lang(c))
	if status >= 500 {
		a.log.Error("request failed", zap.String("requestId", requestID(c)), zap.String("route", c.Path()), zap.Error(err))
	}
	if status == http.StatusUnauthorized {
		c.Response().Header().Set("WWW-Authenticate", "Bearer")
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(status)
		return
	}
	_ = c.JSON(status, body)
}

func fromEcho(he *echo.HTTPError) error {
	switch he.Code {
	case http.StatusRequestEntityTooLarge:
		return fault.New(fault.TooLarge, fault.MsgBodyTooLarge)
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		return fault.New(fault.NotFound, fault.MsgNotFound)
	case http.StatusUnauthorized:
		return fault.New(fault.Unauthorized, fault.MsgLoginExpired)
	case http.StatusBadRequest, http.StatusUnsupportedMediaType:
		return fault.New(fault.Invalid, fault.MsgBadRequest)
	}
	return he
}

const requestIDKey = "requestId"

func requestID(c echo.Context) string {
	id, _ := c.Get(requestIDKey).(string)
	return id
}

// requestLog gives every request an id and logs it once, by route pattern:
// never a query string (the socket's token travels there) nor a body.
func (a *API) requestLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(echo.HeaderXRequestID)
		if id == "" || len(id) > 64 {
			var b [8]byte
			_, _ = rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		c.Set(requestIDKey, id)
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		fields := []zap.Field{
			zap.String("requestId", id), zap.String("method", c.Request().Method), zap.String("route", c.Path()),
			zap.Int("status", c.Response().Status), zap.Duration("latency", time.Since(start)),
		}
		if p, ok := c.Get(principalKey).(commands.Principal); ok {
			fields = append(fields, zap.String("tenant", p.Tenant), zap.String("member", p.MemberID))
		}
		if p := c.Path(); p == "/healthz" || p == "/readyz" {
			a.log.Debug("request", fields...) // probes would drown the rest
		} else {
			a.log.Info("request", fields...)
		}
		return nil
	}
}

// recoverPanic turns a panic into a 500 so that no request takes the server
// down; the panic is a bug, logged with its request id.
func (a *API) recoverPanic(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				a.log.Error("panic in request", zap.String("requestId", requestID(c)), zap.Any("panic", r), zap.Stack("stack"))
				err = errors.New("internal error")
			}
		}()
		return next(c)
	}
}

// waitAfter honours ?after=<position>: the read waits until the read models
// have folded that position, the search model too when searched, at most
// maxAfterWait each.
func (a *API) waitAfter(c echo.Context, searched bool) error {
	raw := c.QueryParam("after")
	if raw == "" {
		return nil
	}
	pos, err := strconv.ParseUint(raw, 10, 64)
	if err != nil {
		return fault.New(fault.Invalid, fault.MsgBadRequest)
	}
	a.waitFor(c.Request().Context(), pos)
	if searched && a.deps.Search != nil {
		waitOn(c.Request().Context(), a.deps.Search, pos)
	}
	return nil
}

func (a *API) waitFor(ctx context.Context, pos uint64) {
	waitOn(ctx, a.deps.Projections, pos)
}

func waitOn(ctx context.Context, p Projections, pos uint64) {
	ctx, cancel := context.WithTimeout(ctx, maxAfterWait)
	defer cancel()
	p.WaitFor(ctx, pos)
}

// waitHead waits until the read models have folded the whole log, for
// commands that find their aggregate through a read model.
func (a *API) waitHead(ctx context.Context) error {
	head, err := a.deps.Log.Head(ctx)
	if err != nil {
		return err
	}
	a.waitFor(ctx, head)
	return nil
}
