package member

import (
	"math/big"
	"strings"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// TypeReferred names the record of who invited a member: a stored
// identifier, never renamed.
const TypeReferred = "MemberReferred"

// Referred records the member whose invitation code a new member
// registered with.
type Referred struct {
	Referrer string `json:"referrer"` // the inviting member's id
	Code     string `json:"code"`     // the invitation code given
	At       int64  `json:"at"`
}

func (*Referred) EventType() string { return TypeReferred }

// maxInvitationCodeLen bounds a code: a 64-bit id is at most 13 digits in
// base 36.
const maxInvitationCodeLen = 13

// InvitationCode is a member's invitation code: its id in base 36, upper
// case. It needs no storage and never changes.
func InvitationCode(memberID string) string {
	n, ok := new(big.Int).SetString(memberID, 10)
	if !ok {
		return strings.ToUpper(memberID)
	}
	return strings.ToUpper(n.Text(36))
}

// ParseInvitationCode returns the id of the member whose invitation code
// code is (any case, spaces around it ignored); a code that cannot be one
// is refused.
func ParseInvitationCode(code string) (string, error) {
	code = strings.TrimSpace(code)
	n, ok := new(big.Int).SetString(strings.ToLower(code), 36)
	if code == "" || len(code) > maxInvitationCodeLen || !ok || n.Sign() <= 0 {
		return "", fault.New(fault.Invalid, fault.MsgInvitationCodeInvalid)
	}
	return n.Text(10), nil
}

// Refer decides the record of the member who invited a new one.
func Refer(referrer, code string, now time.Time) []es.Event {
	return []es.Event{&Referred{Referrer: referrer, Code: strings.ToUpper(strings.TrimSpace(code)), At: now.UnixMilli()}}
}
