package authtoken

import (
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
)

// SecretFile is the signing secret's file in the data directory.
const SecretFile = "secret.key"

// LoadSecret reads the signing secret of dataDir. With create, a missing
// secret is made (the server's first start); without, it is an error
// (imctl: no server has started on this data directory).
func LoadSecret(dataDir string, create bool) ([]byte, error) {
	path := filepath.Join(dataDir, SecretFile)
	b, err := os.ReadFile(path)
	if err == nil {
		if len(b) < 32 {
			return nil, fmt.Errorf("%s holds %d bytes, want 32: restore it or remove it to sign out everyone", path, len(b))
		}
		return b, nil
	}
	if !errors.Is(err, os.ErrNotExist) || !create {
		return nil, err
	}
	b = make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return b, nil
}

// operatorPrefix tells operator tokens apart from members'.
const operatorPrefix = "op."

// MaxOperatorTTL bounds how long an operator token is good. imctl signs one
// good for a minute per call; the web client's admin page is given one for
// a working session (imctl token --ttl), as long as an auditor's.
const MaxOperatorTTL = 12 * time.Hour

// IssueOperator returns a token of the platform back-end administrator
// name, good until until. Whoever can read the data directory's secret
// can issue one: that is imctl's credential.
func (t *Tokens) IssueOperator(name string, until time.Time) string {
	return t.sign(operatorPrefix, "operator", name, strconv.FormatInt(until.UnixMilli(), 10))
}

// AuthenticateOperator checks an operator token at now.
func (t *Tokens) AuthenticateOperator(token string, now time.Time) (commands.Operator, error) {
	f, err := t.open(token, operatorPrefix, "operator", 2, now, MaxOperatorTTL)
	if err != nil {
		return commands.Operator{}, err
	}
	return commands.Operator{Name: f[0]}, nil
}

// sign returns prefix, the fields joined by '|' (none may hold one) and
// their signature for purpose.
func (t *Tokens) sign(prefix, purpose string, fields ...string) string {
	payload := b64.EncodeToString([]byte(strings.Join(fields, "|")))
	return prefix + payload + "." + b64.EncodeToString(t.mac(purpose, payload))
}

// open checks a token made by sign with n fields, the last one its end in
// Unix milliseconds, at now: a token that has ended, or that was made good
// for longer than maxTTL, is refused like a forged one.
func (t *Tokens) open(token, prefix, purpose string, n int, now time.Time, maxTTL time.Duration) ([]string, error) {
	rest, ok := strings.CutPrefix(token, prefix)
	if !ok || len(token) > 512 {
		return nil, expired()
	}
	payload, sig, ok := strings.Cut(rest, ".")
	if !ok {
		return nil, expired()
	}
	got, err := b64.DecodeString(sig)
	if err != nil || subtle.ConstantTimeCompare(got, t.mac(purpose, payload)) != 1 {
		return nil, expired()
	}
	raw, err := b64.DecodeString(payload)
	if err != nil {
		return nil, expired()
	}
	f := strings.Split(string(raw), "|")
	if len(f) != n {
		return nil, expired()
	}
	for _, v := range f {
		if v == "" {
			return nil, expired()
		}
	}
	ms, err := strconv.ParseInt(f[n-1], 10, 64)
	end := time.UnixMilli(ms)
	if err != nil || now.After(end) || end.Sub(now) > maxTTL {
		return nil, fault.New(fault.Unauthorized, fault.MsgLoginExpired)
	}
	return f, nil
}
