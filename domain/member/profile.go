package member

import (
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// Event type names of a member's profile and credentials: stored
// identifiers, never renamed.
const (
	TypeProfileModified       = "MemberProfileModified"
	TypePasswordChanged       = "MemberPasswordChanged"
	TypePasswordAttemptFailed = "MemberPasswordAttemptFailed"
	TypePasswordLocked        = "MemberPasswordLocked"
	TypeAccountChanged        = "MemberAccountChanged"
	TypePhoneChanged          = "MemberPhoneChanged"
	TypeAccountReleased       = "AccountReleased"
	TypePhoneReleased         = "PhoneReleased"
	TypeFeedbackSubmitted     = "FeedbackSubmitted"
	TypeFeedbackReplied       = "FeedbackReplied"
)

// Genders of the spec.
const (
	GenderMale    = "male"
	GenderFemale  = "female"
	GenderUnknown = "prefer not to say"
)

// Password change lock: after MaxPasswordAttempts wrong old passwords in a
// row the member cannot change its password for PasswordLockDuration; a
// correct old password or a reset by SMS starts the count again.
const (
	MaxPasswordAttempts  = 5
	PasswordLockDuration = 30 * time.Minute
)

// Limits of the profile and of feedback.
const (
	MaxNameLen          = 32 // characters
	MaxFeedbackTypeLen  = 32
	MaxFeedbackLen      = 1000
	MaxFeedbackImages   = 5
	MaxHeadURLLen       = 512
	minNewPasswordLen   = 8
	maxNewPasswordLen   = 16
	minAccountChangeLen = 8
	maxAccountChangeLen = 16
)

// ProfileModified sets a member's name, avatar and gender: each is the whole
// new value.
type ProfileModified struct {
	Name    string `json:"name"`
	HeadURL string `json:"headUrl"`
	Gender  string `json:"gender"`
	At      int64  `json:"at"`
}

// PasswordChanged replaces the password hash; Reset tells a reset by SMS
// code from a change with the old password.
type PasswordChanged struct {
	PasswordHash string `json:"passwordHash"`
	Reset        bool   `json:"reset,omitempty"`
	At           int64  `json:"at"`
}

// PasswordAttemptFailed records a wrong old password and how many attempts
// are left before the lock.
type PasswordAttemptFailed struct {
	Remaining int   `json:"remaining"`
	At        int64 `json:"at"`
}

// PasswordLocked refuses password changes until Until.
type PasswordLocked struct {
	Until int64 `json:"until"`
	At    int64 `json:"at"`
}

// AccountChanged records the one change of the account ID.
type AccountChanged struct {
	Account string `json:"account"`
	Old     string `json:"old"`
	At      int64  `json:"at"`
}

// PhoneChanged records a new mobile number.
type PhoneChanged struct {
	Phone string `json:"phone"`
	Old   string `json:"old"`
	At    int64  `json:"at"`
}

// AccountReleased ends a member's claim on an account name: the name is
// free again.
type AccountReleased struct {
	MemberID string `json:"memberId"`
}

// PhoneReleased ends a member's claim on a phone number.
type PhoneReleased struct {
	MemberID string `json:"memberId"`
}

// FeedbackSubmitted keeps a member's feedback with its screenshots.
type FeedbackSubmitted struct {
	ID      string   `json:"id"`
	Type    string   `json:"type"`
	Content string   `json:"content"`
	Images  []string `json:"images,omitempty"`
	At      int64    `json:"at"`
}

// FeedbackReplied keeps a back-end administrator's reply to a member's
// feedback; the actor of its metadata is the operator.
type FeedbackReplied struct {
	ID    string `json:"id"` // the feedback's
	Reply string `json:"reply"`
	At    int64  `json:"at"`
}

func (*FeedbackReplied) EventType() string       { return TypeFeedbackReplied }
func (*ProfileModified) EventType() string       { return TypeProfileModified }
func (*PasswordChanged) EventType() string       { return TypePasswordChanged }
func (*PasswordAttemptFailed) EventType() string { return TypePasswordAttemptFailed }
func (*PasswordLocked) EventType() string        { return TypePasswordLocked }
func (*AccountChanged) EventType() string        { return TypeAccountChanged }
func (*PhoneChanged) EventType() string          { return TypePhoneChanged }
func (*AccountReleased) EventType() string       { return TypeAccountReleased }
func (*PhoneReleased) EventType() string         { return TypePhoneReleased }
func (*FeedbackSubmitted) EventType() string     { return TypeFeedbackSubmitted }

// ProfileEvents lists the constructors of the profile's events.
func ProfileEvents() []func() es.Event {
	return []func() es.Event{
		func() es.Event { return &ProfileModified{} },
		func() es.Event { return &PasswordChanged{} },
		func() es.Event { return &PasswordAttemptFailed{} },
		func() es.Event { return &PasswordLocked{} },
		func() es.Event { return &AccountChanged{} },
		func() es.Event { return &PhoneChanged{} },
		func() es.Event { return &AccountReleased{} },
		func() es.Event { return &PhoneReleased{} },
		func() es.Event { return &FeedbackSubmitted{} },
		func() es.Event { return &FeedbackReplied{} },
	}
}

// profile is the part of a member's state its profile and credentials
// events fold into.
type profile struct {
	headURL        string
	gender         string
	accountChanged bool
	failedAttempts int
	lockedUntil    int64
	feedback       map[string]bool // the ids of its feedback
}

// HeadURL returns the avatar's upload path, "" when none.
func (m *Member) HeadURL() string { return m.headURL }

// Gender returns the gender, GenderUnknown until set.
func (m *Member) Gender() string {
	if m.gender == "" {
		return GenderUnknown
	}
	return m.gender
}

// AccountChangedOnce reports whether the account ID was changed already.
func (m *Member) AccountChangedOnce() bool { return m.accountChanged }

// applyProfile folds the profile's events; Apply hands them over.
func (m *Member) applyProfile(e es.Event) {
	switch e := e.(type) {
	case *ProfileModified:
		m.name, m.headURL, m.gender = e.Name, e.HeadURL, e.Gender
	case *PasswordChanged:
		m.passwordHash = e.PasswordHash
		m.failedAttempts, m.lockedUntil = 0, 0
	case *PasswordAttemptFailed:
		m.failedAttempts = MaxPasswordAttempts - e.Remaining
	case *PasswordLocked:
		m.failedAttempts, m.lockedUntil = 0, e.Until
	case *AccountChanged:
		m.account, m.accountChanged = e.Account, true
	case *PhoneChanged:
		m.phone = e.Phone
	case *FeedbackSubmitted:
		if m.feedback == nil {
			m.feedback = map[string]bool{}
		}
		m.feedback[e.ID] = true
	}
}

// ProfileChange is a change of the profile; nil fields stay as they are.
type ProfileChange struct {
	Name    *string
	HeadURL *string
	Gender  *string
}

// ParseGender accepts the spec's three genders.
func ParseGender(g string) (string, error) {
	switch g {
	case GenderMale, GenderFemale, GenderUnknown:
		return g, nil
	}
	return "", fault.New(fault.Invalid, fault.MsgGenderInvalid)
}

// ModifyProfile decides a change of name, avatar or gender. The caller has
// checked that a new avatar is an uploaded picture.
func (m *Member) ModifyProfile(c ProfileChange, now time.Time) ([]es.Event, error) {
	if !m.Exists() {
		return nil, fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	e := &ProfileModified{Name: m.name, HeadURL: m.headURL, Gender: m.Gender(), At: now.UnixMilli()}
	if c.Name != nil {
		name := strings.TrimSpace(*c.Name)
		if name == "" {
			return nil, fault.New(fault.Invalid, fault.MsgNameEmpty)
		}
		if utf8.RuneCountInString(name) > MaxNameLen || !utf8.ValidString(name) {
			return nil, fault.New(fault.Invalid, fault.MsgNameTooLong)
		}
		e.Name = name
	}
	if c.HeadURL != nil {
		if len(*c.HeadURL) > MaxHeadURLLen {
			return nil, fault.New(fault.Invalid, fault.MsgAvatarInvalid)
		}
		e.HeadURL = *c.HeadURL
	}
	if c.Gender != nil {
		g, err := ParseGender(*c.Gender)
		if err != nil {
			return nil, err
		}
		e.Gender = g
	}
	if e.Name == m.name && e.HeadURL == m.headURL && e.Gender == m.Gender() {
		return nil, nil
	}
	return []es.Event{e}, nil
}

var newPasswordPattern = regexp.MustCompile(`^[A-Za-z0-9]+$`)

// ValidateNewPassword: 8 to 16 letters and digits, and the confirmation
// equal to it.
func ValidateNewPassword(password, confirm string) error {
	if password == "" {
		return fault.New(fault.Invalid, fault.MsgNewPasswordEmpty)
	}
	if len(password) < minNewPasswordLen || len(password) > maxNewPasswordLen || !newPasswordPattern.MatchString(password) {
		return fault.New(fault.Invalid, fault.MsgNewPasswordRule)
	}
	if confirm != password {
		return fault.New(fault.Invalid, fault.MsgPasswordsDiffer)
	}
	return nil
}

// PasswordLockedUntil returns the end of the password change lock at now,
// or the zero time when there is none.
func (m *Member) PasswordLockedUntil(now time.Time) time.Time {
	if m.lockedUntil > now.UnixMilli() {
		return time.UnixMilli(m.lockedUntil)
	}
	return time.Time{}
}

// ChangePassword decides a change with the old password from the session
// current, which stays open while every other session ends (Offline).
// oldMatches tells whether the old password given matches the stored hash;
// newHash is the hash of the new password, already validated. A wrong old
// password is recorded, with the lock on the last attempt, and reported
// with the attempts left: the events are returned with the error.
func (m *Member) ChangePassword(oldMatches bool, newHash, current string, now time.Time) ([]es.Event, error) {
	if !m.Exists() {
		return nil, fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	if until := m.PasswordLockedUntil(now); !until.IsZero() {
		return nil, lockedFault(until, now)
	}
	if !oldMatches {
		remaining := MaxPasswordAttempts - m.failedAttempts - 1
		failed := &PasswordAttemptFailed{Remaining: remaining, At: now.UnixMilli()}
		if remaining <= 0 {
			until := now.Add(PasswordLockDuration)
			return []es.Event{failed, &PasswordLocked{Until: until.UnixMilli(), At: now.UnixMilli()}}, lockedFault(until, now)
		}
		return []es.Event{failed}, fault.New(fault.Invalid, fault.MsgOldPasswordWrong, remaining)
	}
	out := []es.Event{&PasswordChanged{PasswordHash: newHash, At: now.UnixMilli()}}
	for _, id := range m.Sessions() {
		if id != current {
			out = append(out, &SessionEnded{SessionID: id, Reason: EndOffline, At: now.UnixMilli()})
		}
	}
	return out, nil
}

func lockedFault(until, now time.Time) error {
	minutes := int((until.Sub(now) + time.Minute - 1) / time.Minute)
	return fault.New(fault.RateLimited, fault.MsgPasswordLocked, minutes)
}

// ResetPassword decides a reset by SMS code, which also lifts the lock and
// ends every session (Offline).
func (m *Member) ResetPassword(newHash string, now time.Time) ([]es.Event, error) {
	if !m.Exists() {
		return nil, fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	if m.banned {
		return nil, fault.New(fault.Forbidden, fault.MsgBanned)
	}
	return append([]es.Event{&PasswordChanged{PasswordHash: newHash, Reset: true, At: now.UnixMilli()}}, m.endAll(EndOffline, now)...), nil
}

// ValidateNewAccount: 8 to 16 upper or lower-case letters or digits.
func ValidateNewAccount(a string) error {
	if a == "" {
		return fault.New(fault.Invalid, fault.MsgAccountEmpty)
	}
	if len(a) < minAccountChangeLen || len(a) > maxAccountChangeLen || !alnum.MatchString(a) {
		return fault.New(fault.Invalid, fault.MsgAccountIDRule)
	}
	return nil
}

// CheckAccountChange tells whether the account ID may change to account:
// once only, to a valid name other than the current one.
func (m *Member) CheckAccountChange(account string) error {
	if !m.Exists() {
		return fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	if m.accountChanged {
		return fault.New(fault.Conflict, fault.MsgAccountChangedOnce)
	}
	if err := ValidateNewAccount(account); err != nil {
		return err
	}
	if account == m.account {
		return fault.New(fault.Conflict, fault.MsgAccountInUse)
	}
	return nil
}

// ChangeAccount decides the change once the caller has claimed the name.
func (m *Member) ChangeAccount(account string, now time.Time) ([]es.Event, error) {
	if err := m.CheckAccountChange(account); err != nil {
		return nil, err
	}
	return []es.Event{&AccountChanged{Account: account, Old: m.account, At: now.UnixMilli()}}, nil
}

// CheckPhoneChange tells whether the phone may change to phone.
func (m *Member) CheckPhoneChange(phone string) error {
	if !m.Exists() {
		return fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	if err := ValidatePhone(phone); err != nil {
		return err
	}
	if phone == m.phone {
		return fault.New(fault.Conflict, fault.MsgPhoneInUse)
	}
	return nil
}

// ChangePhone decides the change once the caller has checked the code and
// claimed the number.
func (m *Member) ChangePhone(phone string, now time.Time) ([]es.Event, error) {
	if err := m.CheckPhoneChange(phone); err != nil {
		return nil, err
	}
	return []es.Event{&PhoneChanged{Phone: phone, Old: m.phone, At: now.UnixMilli()}}, nil
}

// Feedback is what a member reports; Images are upload paths the caller has
// checked.
type Feedback struct {
	Type    string
	Content string
	Images  []string
}

// SubmitFeedback decides a feedback: type and content required, at most
// five screenshots.
func (m *Member) SubmitFeedback(id string, f Feedback, now time.Time) ([]es.Event, error) {
	if !m.Exists() {
		return nil, fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return []es.Event{&FeedbackSubmitted{ID: id, Type: strings.TrimSpace(f.Type), Content: strings.TrimSpace(f.Content),
		Images: f.Images, At: now.UnixMilli()}}, nil
}

// ReplyFeedback decides a back-end administrator's reply to the member's
// feedback id: not empty, at most MaxFeedbackLen characters.
func (m *Member) ReplyFeedback(id, reply string, now time.Time) ([]es.Event, error) {
	if !m.feedback[id] {
		return nil, fault.New(fault.NotFound, fault.MsgFeedbackNotFound)
	}
	reply = strings.TrimSpace(reply)
	switch {
	case reply == "":
		return nil, fault.New(fault.Invalid, fault.MsgFeedbackReplyEmpty)
	case utf8.RuneCountInString(reply) > MaxFeedbackLen || !utf8.ValidString(reply):
		return nil, fault.New(fault.Invalid, fault.MsgFeedbackReplyTooLong)
	}
	return []es.Event{&FeedbackReplied{ID: id, Reply: reply, At: now.UnixMilli()}}, nil
}

// Validate checks a feedback's fields, in the order the form shows them.
func (f Feedback) Validate() error {
	t, c := strings.TrimSpace(f.Type), strings.TrimSpace(f.Content)
	switch {
	case t == "":
		return fault.New(fault.Invalid, fault.MsgFeedbackTypeEmpty)
	case utf8.RuneCountInString(t) > MaxFeedbackTypeLen || !utf8.ValidString(t):
		return fault.New(fault.Invalid, fault.MsgFeedbackTypeInvalid)
	case c == "":
		return fault.New(fault.Invalid, fault.MsgFeedbackContentEmpty)
	case utf8.RuneCountInString(c) > MaxFeedbackLen || !utf8.ValidString(c):
		return fault.New(fault.Invalid, fault.MsgFeedbackTooLong)
	case len(f.Images) > MaxFeedbackImages:
		return fault.New(fault.Invalid, fault.MsgFeedbackTooManyImages)
	}
	return nil
}

// StampIP records the client's address in the session starts of events.
func StampIP(events []es.Event, ip string) {
	for _, e := range events {
		if s, ok := e.(*SessionStarted); ok {
			s.IP = ip
		}
	}
}
