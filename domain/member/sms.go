package member

import (
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// SMS code purposes.
const (
	PurposeRegister = "register"
	PurposeReset    = "reset"
	PurposeLogin    = "login"
)

// minResend is the shortest gap between two codes to one phone.
const minResend = 60 * time.Second

// ParsePurpose accepts the three code types of the API.
func ParsePurpose(s string) (string, error) {
	switch s {
	case PurposeRegister, PurposeReset, PurposeLogin:
		return s, nil
	}
	return "", fault.New(fault.Invalid, fault.MsgSMSTypeInvalid)
}

// SMSCodes is the state of one phone's code stream.
type SMSCodes struct {
	issued []SMSCodeIssued
}

// Apply folds an event.
func (s *SMSCodes) Apply(e es.Event) {
	if e, ok := e.(*SMSCodeIssued); ok {
		s.issued = append(s.issued, *e)
	}
}

// Issue decides a new code, refusing one sooner than a minute after the last.
func (s *SMSCodes) Issue(phone, purpose, codeHash string, now time.Time) ([]es.Event, error) {
	if n := len(s.issued); n > 0 && now.Sub(time.UnixMilli(s.issued[n-1].At)) < minResend {
		return nil, fault.New(fault.RateLimited, fault.MsgSMSTooOften)
	}
	return []es.Event{&SMSCodeIssued{
		Phone: phone, Purpose: purpose, CodeHash: codeHash,
		ExpiresAt: now.Add(smsCodeValidity).UnixMilli(), At: now.UnixMilli(),
	}}, nil
}

// Valid reports whether a code with hash codeHash was issued for purpose and
// has not expired. matches compares a clear code with a stored hash.
func (s *SMSCodes) Valid(purpose string, now time.Time, matches func(hash string) bool) bool {
	for i := len(s.issued) - 1; i >= 0; i-- {
		c := s.issued[i]
		if c.Purpose == purpose && now.UnixMilli() <= c.ExpiresAt && matches(c.CodeHash) {
			return true
		}
	}
	return false
}
