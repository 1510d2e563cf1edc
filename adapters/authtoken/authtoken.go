// Package authtoken issues and checks login tokens. A token is signed with
// the server's secret and names its tenant, member and session; it is good
// until its session ends. The websocket key of a session is derived from
// the same secret, so neither is ever stored.
package authtoken

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/projections"
)

// Sessions tells whether a login session has ended.
type Sessions interface {
	AuthSession(ctx context.Context, sessionID string) (projections.AuthSession, bool, error)
}

// Tokens issues and checks tokens.
type Tokens struct {
	secret   []byte
	sessions Sessions
}

// New returns tokens signed with secret (at least 32 bytes).
func New(secret []byte, sessions Sessions) (*Tokens, error) {
	if len(secret) < 32 {
		return nil, errors.New("authtoken: secret shorter than 32 bytes")
	}
	return &Tokens{secret: secret, sessions: sessions}, nil
}

var b64 = base64.RawURLEncoding

// Issue returns the token and websocket key of a session.
func (t *Tokens) Issue(p commands.Principal) (token string, wsKey []byte) {
	payload := b64.EncodeToString([]byte(p.Tenant + "|" + p.MemberID + "|" + p.SessionID))
	return payload + "." + b64.EncodeToString(t.mac("token", payload)), t.mac("ws", p.SessionID)
}

// Authenticate checks a token and returns its principal and websocket key.
// A session the read model does not know yet was just opened: its token is
// signed, so it is good; an ended session's token is refused.
func (t *Tokens) Authenticate(ctx context.Context, token string) (commands.Principal, []byte, error) {
	p, err := t.parse(token)
	if err != nil {
		return commands.Principal{}, nil, err
	}
	s, found, err := t.sessions.AuthSession(ctx, p.SessionID)
	if err != nil {
		return commands.Principal{}, nil, fmt.Errorf("authtoken: %w", err)
	}
	if found && (!s.Active || s.Member != p.MemberID || s.Tenant != p.Tenant) {
		return commands.Principal{}, nil, expired()
	}
	return p, t.mac("ws", p.SessionID), nil
}

func (t *Tokens) parse(token string) (commands.Principal, error) {
	payload, sig, ok := strings.Cut(token, ".")
	if !ok || len(token) > 512 {
		return commands.Principal{}, expired()
	}
	got, err := b64.DecodeString(sig)
	if err != nil || subtle.ConstantTimeCompare(got, t.mac("token", payload)) != 1 {
		return commands.Principal{}, expired()
	}
	raw, err := b64.DecodeString(payload)
	if err != nil {
		return commands.Principal{}, expired()
	}
	parts := strings.Split(string(raw), "|")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return commands.Principal{}, expired()
	}
	return commands.Principal{Tenant: parts[0], MemberID: parts[1], SessionID: parts[2]}, nil
}

func (t *Tokens) mac(purpose, s string) []byte {
	m := hmac.New(sha256.New, t.secret)
	m.Write([]byte(purpose))
	m.Write([]byte{0})
	m.Write([]byte(s))
	return m.Sum(nil)
}

func expired() error { return fault.New(fault.Unauthorized, fault.MsgLoginExpired) }
