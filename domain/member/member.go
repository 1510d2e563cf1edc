// Package member holds members of a tenant: registration rules, sessions and
// the one-time codes sent by SMS.
package member

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// Level codes of the spec.
const (
	LevelNormal = "Normal"
	LevelAdmin  = "Admin"
	LevelSystem = "System"
)

var (
	phonePattern    = regexp.MustCompile(`^1[3-9][0-9]{9}$`)
	alnum           = regexp.MustCompile(`^[A-Za-z0-9]+$`)
	maxAccountLen   = 32
	maxPasswordLen  = 64
	minAccountLen   = 6
	minPasswordLen  = 4
	smsCodeValidity = 10 * time.Minute
)

// SMSCodeValidity is how long a code sent by SMS stays usable.
func SMSCodeValidity() time.Duration { return smsCodeValidity }

// NormalizePhone trims a phone number and an optional +86 prefix.
func NormalizePhone(p string) string {
	p = strings.TrimSpace(p)
	p = strings.TrimPrefix(p, "+86")
	return strings.TrimSpace(p)
}

// ValidatePhone applies the spec: not empty, a mainland China mobile number.
func ValidatePhone(p string) error {
	if p == "" {
		return fault.New(fault.Invalid, fault.MsgPhoneEmpty)
	}
	if !phonePattern.MatchString(p) {
		return fault.New(fault.Invalid, fault.MsgPhoneInvalid)
	}
	return nil
}

// ValidateAccount: at least 6 characters, letters and digits, case sensitive.
func ValidateAccount(a string) error {
	if a == "" {
		return fault.New(fault.Invalid, fault.MsgAccountEmpty)
	}
	if len(a) < minAccountLen || len(a) > maxAccountLen || !alnum.MatchString(a) {
		return fault.New(fault.Invalid, fault.MsgAccountInvalid)
	}
	return nil
}

// ValidateRegistrationPassword: at least 4 characters, letters and digits only.
func ValidateRegistrationPassword(p string) error {
	if p == "" {
		return fault.New(fault.Invalid, fault.MsgPasswordEmpty)
	}
	if len(p) < minPasswordLen {
		return fault.New(fault.Invalid, fault.MsgPasswordTooShort)
	}
	if len(p) > maxPasswordLen || !alnum.MatchString(p) {
		return fault.New(fault.Invalid, fault.MsgPasswordInvalid)
	}
	return nil
}

// Registration is what a new member supplies.
type Registration struct {
	Phone    string
	SMSCode  string
	Account  string
	Password string
}

// Validate checks every field and reports the first rule broken, in the order
// the form shows them.
func (r Registration) Validate() error {
	if err := ValidatePhone(r.Phone); err != nil {
		return err
	}
	if strings.TrimSpace(r.SMSCode) == "" {
		return fault.New(fault.Invalid, fault.MsgSMSCodeRequired)
	}
	if err := ValidateAccount(r.Account); err != nil {
		return err
	}
	return ValidateRegistrationPassword(r.Password)
}

// Register decides the events of a new member. passwordHash is computed by
// the caller; the domain never sees a clear password beyond validation.
func Register(id string, r Registration, passwordHash string, now time.Time) []es.Event {
	return []es.Event{&Registered{
		MemberID:     id,
		Phone:        r.Phone,
		Account:      r.Account,
		Name:         r.Account,
		PasswordHash: passwordHash,
		Level:        LevelNormal,
		At:           now.UnixMilli(),
	}}
}

// Member is the state of one member, folded from its stream.
type Member struct {
	id           string
	phone        string
	account      string
	name         string
	level        string
	passwordHash string
	banned       bool
	erased       bool
	sessions     map[string]bool
	devices      map[string]bool // every device it ever logged in from
	referrer     string
	// loginFailures are the times of the last wrong passwords at login
	// since the last login, at most MaxLoginFailures.
	loginFailures []int64
	profile
}

// MsgLevelInvalid refuses an unknown member level code.
const MsgLevelInvalid = "unknown member level %s: want Normal, Admin or System"

// ParseLevel checks a member level code.
func ParseLevel(level string) (string, error) {
	switch level {
	case LevelNormal, LevelAdmin, LevelSystem:
		return level, nil
	}
	return "", fault.New(fault.Invalid, MsgLevelInvalid, level)
}

// ID returns the member id.
func (m *Member) ID() string { return m.id }

// Name returns the display name.
func (m *Member) Name() string { return m.name }

// Account returns the account name.
func (m *Member) Account() string { return m.account }

// Phone returns the phone number.
func (m *Member) Phone() string { return m.phone }

// Level returns the member level code.
func (m *Member) Level() string { return m.level }

// PasswordHash returns the stored password hash.
func (m *Member) PasswordHash() string { return m.passwordHash }

// Exists reports whether the member was registered.
func (m *Member) Exists() bool { return m.id != "" }

// Referrer returns the id of the member whose invitation code it registered
// with, "" when none.
func (m *Member) Referrer() string { return m.referrer }

// Banned reports whether a back-end administrator banned the member.
func (m *Member) Banned() bool { return m.banned }

// Sessions returns the open sessions' ids, sorted.
func (m *Member) Sessions() []string {
	out := make([]string, 0, len(m.sessions))
	for id := range m.sessions {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// HasSession reports whether a session is open.
func (m *Member) HasSession(sessionID string) bool { return m.sessions[sessionID] }

// Apply folds one event into the state. It never validates.
func (m *Member) Apply(e es.Event) {
	m.applyLoginLock(e)
	switch e := e.(type) {
	case *Registered:
		m.id, m.phone, m.account, m.name = e.MemberID, e.Phone, e.Account, e.Name
		m.level, m.passwordHash = e.Level, e.PasswordHash
		m.sessions = map[string]bool{}
	case *SessionStarted:
		m.sessions[e.SessionID] = true
		if m.devices == nil {
			m.devices = map[string]bool{}
		}
		m.devices[e.Device] = true
	case *Referred:
		m.referrer = e.Referrer
	case *SessionEnded:
		delete(m.sessions, e.SessionID)
	case *Banned:
		m.banned = true
	case *Unbanned:
		m.banned = false
	case *Erased:
		m.erased = true
	case *LevelChanged:
		m.level = e.Level
	default:
		m.applyProfile(e)
	}
}

// endAll ends every open session for reason.
func (m *Member) endAll(reason string, now time.Time) []es.Event {
	var out []es.Event
	for _, id := range m.Sessions() {
		out = append(out, &SessionEnded{SessionID: id, Reason: reason, At: now.UnixMilli()})
	}
	return out
}

// Login decides a new session once the caller has checked the password. A
// banned member is refused; on a single-device tenant the member's open
// sessions end first (KickOut).
func (m *Member) Login(sessionID, device string, singleDevice bool, now time.Time) ([]es.Event, error) {
	if !m.Exists() {
		return nil, fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	if m.banned {
		return nil, fault.New(fault.Forbidden, fault.MsgBanned)
	}
	if m.erased {
		return nil, fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	var out []es.Event
	if singleDevice {
		out = m.endAll(EndKickOut, now)
	}
	return append(out, &SessionStarted{SessionID: sessionID, Device: device, At: now.UnixMilli()}), nil
}

// Ban bans the member and ends every open session (Disable); banning a
// banned member decides nothing.
func (m *Member) Ban(now time.Time) ([]es.Event, error) {
	if !m.Exists() {
		return nil, fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	if m.banned {
		return nil, nil
	}
	return append([]es.Event{&Banned{At: now.UnixMilli()}}, m.endAll(EndDisable, now)...), nil
}

// Unban lifts a ban; unbanning a member not banned decides nothing.
func (m *Member) Unban(now time.Time) ([]es.Event, error) {
	if !m.Exists() {
		return nil, fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	if !m.banned {
		return nil, nil
	}
	return []es.Event{&Unbanned{At: now.UnixMilli()}}, nil
}

// SignOut ends every open session as Offline: the member logs in again.
func (m *Member) SignOut(now time.Time) ([]es.Event, error) {
	if !m.Exists() {
		return nil, fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	return m.endAll(EndOffline, now), nil
}

// SetLevel changes the member level code; the same level decides nothing.
func (m *Member) SetLevel(level string, now time.Time) ([]es.Event, error) {
	if !m.Exists() {
		return nil, fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	level, err := ParseLevel(level)
	if err != nil {
		return nil, err
	}
	if level == m.level {
		return nil, nil
	}
	return []es.Event{&LevelChanged{Level: level, At: now.UnixMilli()}}, nil
}

// Logout ends a session; ending an unknown or ended session decides nothing.
func (m *Member) Logout(sessionID string, now time.Time) []es.Event {
	if !m.sessions[sessionID] {
		return nil
	}
	return []es.Event{&SessionEnded{SessionID: sessionID, Reason: EndLogout, At: now.UnixMilli()}}
}
