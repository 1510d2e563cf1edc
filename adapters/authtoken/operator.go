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

// MaxOperatorTTL bounds how long an operator token is good.
const MaxOperatorTTL = 10 * time.Minute

// IssueOperator returns a token of the platform back-end administrator
// name, good until until. Whoever can read the data directory's secret
// can issue one: that is imctl's credential.
func (t *Tokens) IssueOperator(name string, until time.Time) string {
	payload := b64.EncodeToString([]byte(name + "|" + strconv.FormatInt(until.UnixMilli(), 10)))
	return operatorPrefix + payload + "." + b64.EncodeToString(t.mac("operator", payload))
}

// AuthenticateOperator checks an operator token at now.
func (t *Tokens) AuthenticateOperator(token string, now time.Time) (commands.Operator, error) {
	rest, ok := strings.CutPrefix(token, operatorPrefix)
	if !ok || len(token) > 512 {
		return commands.Operator{}, expired()
	}
	payload, sig, ok := strings.Cut(rest, ".")
	if !ok {
		return commands.Operator{}, expired()
	}
	got, err := b64.DecodeString(sig)
	if err != nil || subtle.ConstantTimeCompare(got, t.mac("operator", payload)) != 1 {
		return commands.Operator{}, expired()
	}
	raw, err := b64.DecodeString(payload)
	if err != nil {
		return commands.Operator{}, expired()
	}
	name, until, ok := strings.Cut(string(raw), "|")
	ms, err := strconv.ParseInt(until, 10, 64)
	if !ok || err != nil || name == "" {
		return commands.Operator{}, expired()
	}
	end := time.UnixMilli(ms)
	if now.After(end) || end.Sub(now) > MaxOperatorTTL {
		return commands.Operator{}, fault.New(fault.Unauthorized, fault.MsgLoginExpired)
	}
	return commands.Operator{Name: name}, nil
}
