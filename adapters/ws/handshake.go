package ws

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/gobwas/ws"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/envelope"
	"github.com/eventchat/eventchat/adapters/ws/internal/wire"
	"github.com/eventchat/eventchat/domain/fault"
)

var errShuttingDown = errors.New("ws: gateway is shutting down")

// ServeHTTP answers GET /message-ws?token=: it checks the origin and the
// token before upgrading, so refusals are plain JSON envelopes.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	lang := language(r)
	if !g.originAllowed(r) {
		writeFailure(w, fault.New(fault.Forbidden, fault.MsgForbidden), lang)
		return
	}
	token := r.URL.Query().Get("token")
	if token == "" {
		writeFailure(w, fault.New(fault.Unauthorized, fault.MsgLoginExpired), lang)
		return
	}
	p, key, err := g.auth.Authenticate(r.Context(), token)
	if err != nil {
		if _, ok := fault.As(err); !ok {
			g.log.Error("ws authentication failed", zap.Error(err))
		}
		writeFailure(w, err, lang)
		return
	}
	aead, err := wire.NewAEAD(key)
	if err != nil {
		g.log.Error("ws frame key unusable", zap.String("member", p.MemberID), zap.Error(err))
		writeFailure(w, fmt.Errorf("ws: key of member %s: %w", p.MemberID, err), lang)
		return
	}
	// Registered before the upgrade answer is written, so that a client
	// that has seen the upgrade misses no delta: frames queue until attach.
	c := newConn(g, p, aead, lang)
	if !g.register(c) {
		writeStatus(w, http.StatusServiceUnavailable, errShuttingDown, lang)
		return
	}
	netConn, rw, _, err := ws.UpgradeHTTP(r, w)
	if err != nil {
		// gobwas has answered the failed handshake itself.
		if netConn != nil {
			_ = netConn.Close()
		}
		c.upgradeFailed()
		return
	}
	g.log.Info("ws connection opened", zap.String("tenant", p.Tenant), zap.String("member", p.MemberID))
	c.attach(netConn, rw.Reader)
	// A fresh goroutine lets net/http's request goroutine, and its deep
	// stack, end; the reader starts small.
	go c.readLoop()
}

// originAllowed accepts a request without Origin, one whose Origin is listed
// (or "*" is), and one from a page of the host it was sent to.
func (g *Gateway) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	for _, allowed := range g.cfg.AllowedOrigins {
		if allowed == "*" || strings.EqualFold(allowed, origin) {
			return true
		}
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host)
}

func language(r *http.Request) string {
	if l := r.URL.Query().Get("lang"); l != "" {
		return envelope.Language(l)
	}
	return envelope.Language(r.Header.Get("Accept-Language"))
}

func writeFailure(w http.ResponseWriter, err error, lang string) {
	status, body := envelope.FromError(err, lang)
	writeJSON(w, status, body)
}

func writeStatus(w http.ResponseWriter, status int, err error, lang string) {
	_, body := envelope.FromError(err, lang)
	body.Code = fmt.Sprint(status)
	writeJSON(w, status, body)
}

func writeJSON(w http.ResponseWriter, status int, body envelope.Body) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}
