package group

import (
	"encoding/json"
	"strconv"

	"github.com/eventchat/eventchat/domain/es"
)

// Event type names: stored identifiers, never renamed.
const (
	TypeCreated              = "GroupCreated"
	TypeMembersAdded         = "GroupMembersAdded"
	TypeMemberRemoved        = "GroupMemberRemoved"
	TypeMemberLeft           = "GroupMemberLeft"
	TypeMemberRoleChanged    = "GroupMemberRoleChanged"
	TypeOwnershipTransferred = "GroupOwnershipTransferred"
	TypeModified             = "GroupModified"
	TypeMemberMuted          = "GroupMemberMuted"
	TypeNicknameSet          = "GroupMemberNicknameSet"
	TypeDissolved            = "GroupDissolved"
	TypeMessagePinned        = "GroupMessagePinned"
	TypeMessageUnpinned      = "GroupMessageUnpinned"
	TypeJoinRequested        = "GroupJoinRequested"
	TypeJoinAnswered         = "GroupJoinAnswered"
)

// Created starts a group's stream: Owner and the first Members (the owner
// not among them).
type Created struct {
	GroupID string   `json:"groupId"`
	Name    string   `json:"name"`
	HeadURL string   `json:"headUrl,omitempty"`
	Notice  string   `json:"notice,omitempty"`
	Owner   string   `json:"owner"`
	Members []string `json:"members"`
	At      int64    `json:"at"`
}

// MembersAdded joins members as Normal, invited By a member.
type MembersAdded struct {
	Members []string `json:"members"`
	By      string   `json:"by"`
	At      int64    `json:"at"`
}

// MemberRemoved removes a member, By the owner or an admin.
type MemberRemoved struct {
	Member string `json:"member"`
	By     string `json:"by"`
	At     int64  `json:"at"`
}

// MemberLeft records that a member left on its own.
type MemberLeft struct {
	Member string `json:"member"`
	At     int64  `json:"at"`
}

// MemberRoleChanged makes a member Admin (SetMemberRole) or Normal
// (CancelMemberRole).
type MemberRoleChanged struct {
	Member string `json:"member"`
	Role   Role   `json:"role"`
	By     string `json:"by"`
	At     int64  `json:"at"`
}

// OwnershipTransferred makes To the owner; From becomes Admin.
type OwnershipTransferred struct {
	From string `json:"from"`
	To   string `json:"to"`
	At   int64  `json:"at"`
}

// Modified changes the group's settings; a nil field is unchanged.
type Modified struct {
	Name    *string `json:"name,omitempty"`
	HeadURL *string `json:"headUrl,omitempty"`
	Notice  *string `json:"notice,omitempty"`
	MuteAll *bool   `json:"muteAll,omitempty"`
	// MuteAllUntil ends a whole-group mute (ms); 0 mutes until lifted.
	MuteAllUntil *int64    `json:"muteAllUntil,omitempty"`
	AllowLeave   *bool     `json:"allowLeave,omitempty"`
	SendRate     *SendRate `json:"sendRate,omitempty"`
	By           string    `json:"by"`
	At           int64     `json:"at"`
}

// MemberMuted mutes a member until Until (ms), or unmutes it (Muted false,
// Until 0).
//
// Version 2 added Muted: in version 1 an unmute was told only by Until 0, a
// convention every reader of the log (an auditor's export among them) had
// to know; mutedFromUntil derives it for version 1 events.
type MemberMuted struct {
	Member string `json:"member"`
	Muted  bool   `json:"muted"`
	Until  int64  `json:"until"`
	By     string `json:"by"`
	At     int64  `json:"at"`
}

// Upcasters lists how older versions of MemberMuted become the current one.
func (*MemberMuted) Upcasters() []es.Upcaster { return []es.Upcaster{mutedFromUntil} }

// mutedFromUntil upcasts MemberMuted from version 1: muted unless Until is 0.
func mutedFromUntil(data []byte) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, err
	}
	var until int64
	if raw, ok := fields["until"]; ok {
		if err := json.Unmarshal(raw, &until); err != nil {
			return nil, err
		}
	}
	fields["muted"] = json.RawMessage(strconv.FormatBool(until != 0))
	return json.Marshal(fields)
}

// NicknameSet sets a member's nickname in the group.
type NicknameSet struct {
	Member   string `json:"member"`
	Nickname string `json:"nickname"`
	At       int64  `json:"at"`
}

// Dissolved ends the group.
type Dissolved struct {
	By string `json:"by"`
	At int64  `json:"at"`
}

// MessagePinned pins a message of the group's chat for every member.
type MessagePinned struct {
	MessageID string `json:"messageId"`
	By        string `json:"by"`
	At        int64  `json:"at"`
}

// MessageUnpinned unpins a pinned message.
type MessageUnpinned struct {
	MessageID string `json:"messageId"`
	By        string `json:"by"`
	At        int64  `json:"at"`
}

// JoinRequested records a Normal member's invitations, each waiting for
// the owner or an admin to let the member in.
type JoinRequested struct {
	Requests []JoinRequest `json:"requests"`
	By       string        `json:"by"`
	At       int64         `json:"at"`
}

// JoinRequest is one invitation waiting for an answer.
type JoinRequest struct {
	ID     string `json:"id"`
	Member string `json:"member"`
	// Managers are the owner and the admins when it was made: those asked
	// to answer it.
	Managers []string `json:"managers,omitempty"`
}

// JoinAnswered closes a join request; an accepted one comes with the
// MembersAdded that lets the member in.
type JoinAnswered struct {
	RequestID string `json:"requestId"`
	Member    string `json:"member"`
	Accepted  bool   `json:"accepted"`
	By        string `json:"by"`
	// Asked are the managers the request was put to.
	Asked []string `json:"asked,omitempty"`
	At    int64    `json:"at"`
}

func (*Created) EventType() string              { return TypeCreated }
func (*MembersAdded) EventType() string         { return TypeMembersAdded }
func (*MemberRemoved) EventType() string        { return TypeMemberRemoved }
func (*MemberLeft) EventType() string           { return TypeMemberLeft }
func (*MemberRoleChanged) EventType() string    { return TypeMemberRoleChanged }
func (*OwnershipTransferred) EventType() string { return TypeOwnershipTransferred }
func (*Modified) EventType() string             { return TypeModified }
func (*MemberMuted) EventType() string          { return TypeMemberMuted }
func (*NicknameSet) EventType() string          { return TypeNicknameSet }
func (*Dissolved) EventType() string            { return TypeDissolved }
func (*MessagePinned) EventType() string        { return TypeMessagePinned }
func (*MessageUnpinned) EventType() string      { return TypeMessageUnpinned }
func (*JoinRequested) EventType() string        { return TypeJoinRequested }
func (*JoinAnswered) EventType() string         { return TypeJoinAnswered }

// PersonalFields: see es.Personal. A nickname is its member's, a group's
// announcement its writer's.
func (*NicknameSet) PersonalFields() (string, []string) { return "member", []string{"nickname"} }
func (*Created) PersonalFields() (string, []string)     { return "owner", []string{"notice"} }
func (*Modified) PersonalFields() (string, []string)    { return "by", []string{"notice"} }

// Events lists the constructors of this package's events.
func Events() []func() es.Event {
	return []func() es.Event{
		func() es.Event { return &Created{} },
		func() es.Event { return &MembersAdded{} },
		func() es.Event { return &MemberRemoved{} },
		func() es.Event { return &MemberLeft{} },
		func() es.Event { return &MemberRoleChanged{} },
		func() es.Event { return &OwnershipTransferred{} },
		func() es.Event { return &Modified{} },
		func() es.Event { return &MemberMuted{} },
		func() es.Event { return &NicknameSet{} },
		func() es.Event { return &Dissolved{} },
		func() es.Event { return &MessagePinned{} },
		func() es.Event { return &MessageUnpinned{} },
		func() es.Event { return &JoinRequested{} },
		func() es.Event { return &JoinAnswered{} },
	}
}
