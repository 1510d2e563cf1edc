package member

import (
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// TypeLoginFailed names a wrong password at login: a stored identifier,
// never renamed.
const TypeLoginFailed = "MemberLoginFailed"

// Login lockout: MaxLoginFailures wrong passwords within LoginLockWindow
// refuse the member's logins, the right password included, until the
// window since the first of them ends. A login or a new password starts
// the count again. It is folded from the member's stream, so it holds on
// every node, whatever spelling of the account or phone the tries used.
const (
	MaxLoginFailures = 10
	LoginLockWindow  = 15 * time.Minute
)

// LoginFailed records a wrong password at login.
type LoginFailed struct {
	At int64 `json:"at"`
}

func (*LoginFailed) EventType() string { return TypeLoginFailed }

// applyLoginLock folds the events that count wrong passwords at login.
func (m *Member) applyLoginLock(e es.Event) {
	switch e := e.(type) {
	case *LoginFailed:
		m.loginFailures = append(m.loginFailures, e.At)
		if n := len(m.loginFailures); n > MaxLoginFailures {
			m.loginFailures = m.loginFailures[n-MaxLoginFailures:]
		}
	case *SessionStarted, *PasswordChanged:
		m.loginFailures = nil
	}
}

// LoginLockedUntil returns the end of the login lockout at now, or the zero
// time when there is none.
func (m *Member) LoginLockedUntil(now time.Time) time.Time {
	if len(m.loginFailures) < MaxLoginFailures {
		return time.Time{}
	}
	until := time.UnixMilli(m.loginFailures[0]).Add(LoginLockWindow)
	if !now.Before(until) {
		return time.Time{}
	}
	return until
}

// CheckPassword decides the password check of a login. While locked it is
// refused without a look at the password; a wrong password is recorded and
// returned with the error. matches compares the password given with the
// stored hash.
func (m *Member) CheckPassword(matches func(hash string) bool, now time.Time) ([]es.Event, error) {
	if !m.LoginLockedUntil(now).IsZero() {
		return nil, fault.New(fault.RateLimited, fault.MsgTooManyAttempts)
	}
	if !matches(m.passwordHash) {
		return []es.Event{&LoginFailed{At: now.UnixMilli()}}, fault.New(fault.Invalid, fault.MsgWrongPassword)
	}
	return nil, nil
}
