package member

import "github.com/eventchat/eventchat/domain/es"

// Event type names: stored identifiers, never renamed.
const (
	TypeRegistered      = "MemberRegistered"
	TypeSessionStarted  = "MemberSessionStarted"
	TypeSessionEnded    = "MemberSessionEnded"
	TypeAccountReserved = "AccountReserved"
	TypePhoneReserved   = "PhoneReserved"
	TypeSMSCodeIssued   = "SMSCodeIssued"
	TypeSMSCodeRejected = "SMSCodeRejected"
	TypeSMSCodeUsed     = "SMSCodeUsed"
	TypeBanned          = "MemberBanned"
	TypeUnbanned        = "MemberUnbanned"
	TypeLevelChanged    = "MemberLevelChanged"
)

// Session end reasons, as the spec's command 31 types.
const (
	EndLogout  = "Logout"
	EndKickOut = "KickOut"
	EndDisable = "Disable"
	EndOffline = "Offline"
)

// Registered starts a member's stream.
type Registered struct {
	MemberID     string `json:"memberId"`
	Phone        string `json:"phone"`
	Account      string `json:"account"`
	Name         string `json:"name"`
	PasswordHash string `json:"passwordHash"`
	Level        string `json:"level"`
	At           int64  `json:"at"`
}

// SessionStarted records a login.
type SessionStarted struct {
	SessionID string `json:"sessionId"`
	Device    string `json:"device,omitempty"`
	IP        string `json:"ip,omitempty"` // the client's address
	At        int64  `json:"at"`
}

// SessionEnded records a logout or a forced end.
type SessionEnded struct {
	SessionID string `json:"sessionId"`
	Reason    string `json:"reason"`
	At        int64  `json:"at"`
}

// AccountReserved claims an account name in its own stream; a second claim
// fails on the stream's expected revision.
type AccountReserved struct {
	MemberID string `json:"memberId"`
}

// PhoneReserved claims a phone number like AccountReserved.
type PhoneReserved struct {
	MemberID string `json:"memberId"`
}

// SMSCodeIssued records a one-time code; only its hash is stored. Phone
// is in the events written before the stream named the phone by its keyed
// hash; it is empty since.
type SMSCodeIssued struct {
	Phone     string `json:"phone,omitempty"`
	Purpose   string `json:"purpose"`
	CodeHash  string `json:"codeHash"`
	ExpiresAt int64  `json:"expiresAt"`
	At        int64  `json:"at"`
}

// SMSCodeRejected records a wrong code given for the live code of Purpose.
type SMSCodeRejected struct {
	Purpose string `json:"purpose"`
	At      int64  `json:"at"`
}

// SMSCodeUsed records that the live code of Purpose was given right and is
// spent.
type SMSCodeUsed struct {
	Purpose string `json:"purpose"`
	At      int64  `json:"at"`
}

// Banned records a back-end administrator's ban: the member may not log
// in until unbanned.
type Banned struct {
	At int64 `json:"at"`
}

// Unbanned lifts a ban.
type Unbanned struct {
	At int64 `json:"at"`
}

// LevelChanged records a new member level code.
type LevelChanged struct {
	Level string `json:"level"`
	At    int64  `json:"at"`
}

func (*Banned) EventType() string       { return TypeBanned }
func (*Unbanned) EventType() string     { return TypeUnbanned }
func (*LevelChanged) EventType() string { return TypeLevelChanged }

func (*Registered) EventType() string      { return TypeRegistered }
func (*SessionStarted) EventType() string  { return TypeSessionStarted }
func (*SessionEnded) EventType() string    { return TypeSessionEnded }
func (*AccountReserved) EventType() string { return TypeAccountReserved }
func (*PhoneReserved) EventType() string   { return TypePhoneReserved }
func (*SMSCodeIssued) EventType() string   { return TypeSMSCodeIssued }
func (*SMSCodeRejected) EventType() string { return TypeSMSCodeRejected }
func (*SMSCodeUsed) EventType() string     { return TypeSMSCodeUsed }

// Events lists the constructors of this package's events.
func Events() []func() es.Event {
	return []func() es.Event{
		func() es.Event { return &Registered{} },
		func() es.Event { return &SessionStarted{} },
		func() es.Event { return &SessionEnded{} },
		func() es.Event { return &AccountReserved{} },
		func() es.Event { return &PhoneReserved{} },
		func() es.Event { return &SMSCodeIssued{} },
		func() es.Event { return &SMSCodeRejected{} },
		func() es.Event { return &SMSCodeUsed{} },
		func() es.Event { return &Banned{} },
		func() es.Event { return &Unbanned{} },
		func() es.Event { return &LevelChanged{} },
		func() es.Event { return &DeviceVerificationIssued{} },
		func() es.Event { return &Referred{} },
		func() es.Event { return &LoginFailed{} },
		func() es.Event { return &Erased{} },
	}
}
