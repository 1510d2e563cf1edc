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

// Codes to one phone: at most one a minute and MaxSMSCodesPerHour an hour,
// counted on the phone's stream so that every node holds to them.
const (
	minResend          = 60 * time.Second
	MaxSMSCodesPerHour = 5
)

// MaxSMSCodeTries is how many wrong codes a live code survives: the last
// one voids it, so a member asks for a new code.
const MaxSMSCodeTries = 5

// ParsePurpose accepts the three code types of the API.
func ParsePurpose(s string) (string, error) {
	switch s {
	case PurposeRegister, PurposeReset, PurposeLogin:
		return s, nil
	}
	return "", fault.New(fault.Invalid, fault.MsgSMSTypeInvalid)
}

// SMSCodes is the state of one phone's code stream: per purpose the last
// code issued, which replaces the ones before it.
type SMSCodes struct {
	issued []int64 // the times of the codes, oldest first
	live   map[string]*smsCode
}

type smsCode struct {
	hash      string
	expiresAt int64
	wrong     int
	used      bool
}

// Apply folds an event.
func (s *SMSCodes) Apply(e es.Event) {
	switch e := e.(type) {
	case *SMSCodeIssued:
		if s.live == nil {
			s.live = map[string]*smsCode{}
		}
		s.issued = append(s.issued, e.At)
		s.live[e.Purpose] = &smsCode{hash: e.CodeHash, expiresAt: e.ExpiresAt}
	case *SMSCodeRejected:
		if c := s.live[e.Purpose]; c != nil {
			c.wrong++
		}
	case *SMSCodeUsed:
		if c := s.live[e.Purpose]; c != nil {
			c.used = true
		}
	}
}

// Issue decides a new code, refusing one sooner than a minute after the last
// or beyond MaxSMSCodesPerHour in the last hour.
func (s *SMSCodes) Issue(purpose, codeHash string, now time.Time) ([]es.Event, error) {
	n := len(s.issued)
	if n > 0 && now.Sub(time.UnixMilli(s.issued[n-1])) < minResend {
		return nil, fault.New(fault.RateLimited, fault.MsgSMSTooOften)
	}
	if n >= MaxSMSCodesPerHour && now.Sub(time.UnixMilli(s.issued[n-MaxSMSCodesPerHour])) < time.Hour {
		return nil, fault.New(fault.RateLimited, fault.MsgSMSTooManyToday)
	}
	return []es.Event{&SMSCodeIssued{
		Purpose: purpose, CodeHash: codeHash,
		ExpiresAt: now.Add(smsCodeValidity).UnixMilli(), At: now.UnixMilli(),
	}}, nil
}

// Use decides a try of the live code for purpose. The right code is spent
// (SMSCodeUsed); a wrong one is recorded (SMSCodeRejected) and returned
// with the error, and the MaxSMSCodeTries-th voids the code. A spent, void
// or expired code decides nothing. matches compares the clear code given
// with the stored hash.
func (s *SMSCodes) Use(purpose string, now time.Time, matches func(hash string) bool) ([]es.Event, error) {
	c := s.live[purpose]
	switch {
	case c == nil || now.UnixMilli() > c.expiresAt:
		return nil, fault.New(fault.Invalid, fault.MsgSMSCodeInvalid)
	case c.used:
		return nil, fault.New(fault.Invalid, fault.MsgSMSCodeUsed)
	case c.wrong >= MaxSMSCodeTries:
		return nil, fault.New(fault.Invalid, fault.MsgSMSCodeVoid)
	case matches(c.hash):
		return []es.Event{&SMSCodeUsed{Purpose: purpose, At: now.UnixMilli()}}, nil
	}
	rejected := []es.Event{&SMSCodeRejected{Purpose: purpose, At: now.UnixMilli()}}
	if c.wrong+1 >= MaxSMSCodeTries {
		return rejected, fault.New(fault.Invalid, fault.MsgSMSCodeVoid)
	}
	return rejected, fault.New(fault.Invalid, fault.MsgSMSCodeWrong, MaxSMSCodeTries-c.wrong-1)
}
