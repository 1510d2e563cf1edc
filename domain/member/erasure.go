package member

import (
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// TypeErased is the stored identifier of Erased, never renamed.
const TypeErased = "MemberErased"

// RequestedByMember is the Request of an erasure the member asked for.
const RequestedByMember = "member"

// Erased records that a member's personal data was erased: its data key is
// destroyed once this is appended, so every personal field sealed under it
// reads as es.Erased from then on, in every copy of the log. The history's
// shape (who spoke when, counts, roles) stays.
type Erased struct {
	By string `json:"by"` // who erased: the member itself or operator:<name>
	// Request is on whose request: RequestedByMember, or the operator's
	// reference of the request it acted on.
	Request string `json:"request"`
	At      int64  `json:"at"`
}

func (*Erased) EventType() string { return TypeErased }

// ErasesMember: see es.Erasure.
func (*Erased) ErasesMember() {}

// Erase decides the erasure of the member and the end of its sessions;
// erasing an erased member decides nothing.
func (m *Member) Erase(by, request string, now time.Time) ([]es.Event, error) {
	if !m.Exists() {
		return nil, fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	if m.erased {
		return nil, nil
	}
	return append(m.endAll(EndDisable, now), &Erased{By: by, Request: request, At: now.UnixMilli()}), nil
}

// IsErased reports whether the member was erased.
func (m *Member) IsErased() bool { return m.erased }

// PersonalFields: see es.Personal.
func (*Registered) PersonalFields() (string, []string) {
	return "memberId", []string{"phone", "account", "name"}
}

func (*SessionStarted) PersonalFields() (string, []string) { return "", []string{"device", "ip"} }

func (*ProfileModified) PersonalFields() (string, []string) { return "", []string{"name", "headUrl"} }

func (*PhoneChanged) PersonalFields() (string, []string) { return "", []string{"phone", "old"} }

func (*AccountChanged) PersonalFields() (string, []string) { return "", []string{"account", "old"} }

func (*FeedbackSubmitted) PersonalFields() (string, []string) { return "", []string{"content"} }
