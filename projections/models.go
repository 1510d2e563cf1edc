package projections

import (
	"encoding/json"
	"slices"
)

// Member is the directory entry of a member.
type Member struct {
	ID           string `json:"id"`
	Tenant       string `json:"tenant"`
	Account      string `json:"account"`
	Phone        string `json:"phone"`
	Name         string `json:"name"`
	HeadURL      string `json:"headUrl"`
	Level        string `json:"memberLevelCode"`
	RegisteredAt int64  `json:"registeredAt"`
	Gender       string `json:"gender"` // "" until set: prefer not to say
	LastIP       string `json:"-"`      // the client address of the last login
	Referrer     string `json:"-"`      // the member whose invitation code it registered with
}

// Message is a history item.
type Message struct {
	ID                string `json:"id"`
	UUID              string `json:"uuid"`
	Tenant            string `json:"-"`
	ChatID            string `json:"-"`
	Seq               uint64 `json:"seq"`
	Position          uint64 `json:"position"`
	ChatType          string `json:"chatType"`
	From              string `json:"from"`
	To                string `json:"to,omitempty"`
	GroupID           string `json:"groupId,omitempty"`
	MsgType           string `json:"msgType"`
	Content           string `json:"content"`
	ServerReceiveTime int64  `json:"serverReceiveTime"`
	Status            string `json:"msgStatus"` // Unread | Read

	ParentMessageID string   `json:"parentMessageId,omitempty"`
	EditTime        int64    `json:"editTime,omitempty"`   // of the last edit
	RecallTime      int64    `json:"recallTime,omitempty"` // content is "" once recalled
	ForwardBatchID  string   `json:"forwardBatchId,omitempty"`
	ForwardBatch    []string `json:"-"` // every id of the forwarded batch
	ForwardFrom     string   `json:"forwardFrom,omitempty"`
	ForwardType     string   `json:"forwardType,omitempty"`
	Deleted         bool     `json:"-"` // for everyone
	HiddenFor       []string `json:"-"` // members who deleted it for themselves

	// An Event line: what happened in the group, who did it and to whom
	// (several targets are comma-separated).
	OperationType string `json:"operationType,omitempty"`
	OperatorID    string `json:"operatorId,omitempty"`
	TargetID      string `json:"targetId,omitempty"`
}

// VisibleTo reports whether member sees m in its history, given member's
// clear floor of m's chat (see Tx.SetClearFloor).
func (m *Message) VisibleTo(member string, floor uint64) bool {
	return !m.Deleted && m.Seq >= floor && !slices.Contains(m.HiddenFor, member)
}

// Message states in history.
const (
	StatusUnread = "Unread"
	StatusRead   = "Read"
)

// Mention is a mention of Member it has not acknowledged yet.
type Mention struct {
	Tenant      string `json:"-"`
	Member      string `json:"-"`
	MessageID   string `json:"messageId"`
	SessionID   string `json:"sessionId"`   // the friend or group id of the conversation
	SessionType string `json:"sessionType"` // Friend | Group
	At          int64  `json:"createTime"`
}

// Group is a group as listed.
type Group struct {
	ID      string `json:"id"`
	Tenant  string `json:"-"`
	Name    string `json:"name"`
	HeadURL string `json:"headUrl"`
	Notice  string `json:"notice"`
	// NoticeBy wrote the notice (the announcement): erasing it erases the
	// notice.
	NoticeBy string `json:"-"`
	Owner    string `json:"owner"`
	MuteAll  bool   `json:"muteAll"`
	// MuteAllUntil ends MuteAll (ms); 0 while it lasts until lifted.
	MuteAllUntil int64  `json:"muteAllUntil"`
	AllowLeave   bool   `json:"allowLeave"`
	SendRate     string `json:"sendRate"`
	Dissolved    bool   `json:"dissolved"`
	MemberCount  int    `json:"memberCount"`
	CreatedAt    int64  `json:"createTime"`
	// Pinned are the ids of the group's pinned messages, the latest
	// pinned first.
	Pinned []string `json:"pinnedMessageIds"`
}

// GroupMember is one member of a group.
type GroupMember struct {
	GroupID    string `json:"groupId"`
	Tenant     string `json:"-"`
	Member     string `json:"memberId"`
	Role       string `json:"role"` // Owner | Admin | Normal
	Nickname   string `json:"nickname"`
	MutedUntil int64  `json:"mutedUntil"` // ms; 0 when not muted
	JoinedAt   int64  `json:"joinTime"`
}

// SessionKey names one conversation of one member.
type SessionKey struct {
	Member string
	Peer   string // friend member id or group id
}

// Session is one entry of a member's conversation list.
type Session struct {
	Tenant             string `json:"-"`
	Member             string `json:"-"`
	ChatType           string `json:"type"`
	Peer               string `json:"-"`
	ChatID             string `json:"-"`
	LastMessageID      string `json:"lastMessageId"`
	LastMessageType    string `json:"lastMessageType"`
	LastMessageContent string `json:"lastMessageContent"`
	LastMessageTime    int64  `json:"lastMessageTime"`
	// What a preview names besides the content: who sent it (who recalled
	// it), a file's name, and of a forward the original sender and the
	// type of the message forwarded.
	LastMessageFrom        string `json:"-"`
	LastMessageFileName    string `json:"-"`
	LastMessageForwardFrom string `json:"-"`
	LastMessageForwardType string `json:"-"`
	UnreadCount            int    `json:"unreadCount"`
	Top                    bool   `json:"-"`
	TopTime                int64  `json:"-"`
	DoNotDisturb           bool   `json:"-"`
	MarkedUnread           bool   `json:"-"`
	Hidden                 bool   `json:"-"` // out of the list until a newer message
	// Of a group chat: the sequence the member joined it at, and up to
	// which it has read it (acknowledged, or sent a message).
	JoinSeq uint64 `json:"-"`
	ReadSeq uint64 `json:"-"`
}

// Key returns the session's key.
func (s Session) Key() SessionKey { return SessionKey{Member: s.Member, Peer: s.Peer} }

// GroupRead is how far a current member of a group has read its chat:
// every message with a sequence up to ReadSeq. It joined the chat at
// JoinSeq and reads nothing before.
type GroupRead struct {
	Tenant  string
	GroupID string
	Member  string
	JoinSeq uint64
	ReadSeq uint64
}

// Apply is a friend request as listed.
type Apply struct {
	ID        string `json:"id"`
	Tenant    string `json:"-"`
	PairID    string `json:"-"`
	From      string `json:"memberId"`
	To        string `json:"friendMemberId"`
	Remark    string `json:"remark"`
	Content   string `json:"content"`
	Status    string `json:"status"`
	ReadFlag  string `json:"readFlag"`
	CreatedAt int64  `json:"createTime"`
	UpdatedAt int64  `json:"updateTime"`
	// HiddenFrom and HiddenTo say that the sender or the recipient deleted
	// the request from their list.
	HiddenFrom bool `json:"-"`
	HiddenTo   bool `json:"-"`
}

// GroupApply is a join request of a group: Member invited By a Normal
// member, waiting for the owner or an admin.
type GroupApply struct {
	ID        string `json:"id"`
	Tenant    string `json:"-"`
	GroupID   string `json:"groupId"`
	Member    string `json:"memberId"`
	By        string `json:"inviterId"`
	Status    string `json:"status"` // pending | accepted | rejected
	CreatedAt int64  `json:"createTime"`
	UpdatedAt int64  `json:"updateTime"`
}

// Friend is one side of a friendship.
type Friend struct {
	Tenant   string `json:"-"`
	Member   string `json:"-"`
	FriendID string `json:"friendMemberId"`
	ChatID   string `json:"-"`
	Remark   string `json:"remark"`
	Since    int64  `json:"createTime"`
	Blocked  bool   `json:"blocked"` // Member blocked FriendID
}

// PersonalItem is one entry of a member's personal spaces (favourites,
// stickers, mass messages, settings): Doc is its JSON.
type PersonalItem struct {
	Tenant string
	Member string
	Kind   string
	ID     string
	At     int64 // orders a list, newest first
	Doc    json.RawMessage
}

// AuthSession is a login session as the token check sees it.
type AuthSession struct {
	ID        string
	Tenant    string
	Member    string
	Active    bool
	StartedAt int64
	EndedAt   int64
}

// Delta is a change pushed to the members it concerns. Projectors set
// Payload; the engine encodes it into Data once, only for deltas it
// publishes, and gateways only frame and encrypt Data.
type Delta struct {
	Tenant   string          `json:"tenant"`
	To       []string        `json:"to"`
	Session  string          `json:"session,omitempty"` // only this login's connections, when set
	Cmd      int             `json:"cmd"`
	Data     json.RawMessage `json:"data"`
	Payload  any             `json:"-"`
	Position uint64          `json:"position"`
}

// Websocket command numbers of the spec.
const (
	CmdMessage        = 11
	CmdHeartbeat      = 13
	CmdRecall         = 16
	CmdFriendAdded    = 24
	CmdFriendDeleted  = 25
	CmdFriendInfo     = 48
	CmdApplyRefresh   = 26
	CmdReadAckIn      = 27
	CmdReadAck        = 28
	CmdGroupLeft      = 21 // dissolved, left or removed
	CmdGroupCreated   = 22
	CmdGroupChanged   = 23
	CmdClearGroup     = 29
	CmdClearFriend    = 30
	CmdSessionEnd     = 31
	CmdOnline         = 33
	CmdEdit           = 34
	CmdPinRefresh     = 39
	CmdStickers       = 43
	CmdNotices        = 44 // refresh the notify list: the unread counts
	CmdProfile        = 46 // refresh user info
	CmdSessionChanged = 49
	CmdPinResult      = 50
)

// Notice is a system notice of a member.
type Notice struct {
	Tenant    string `json:"-"`
	Member    string `json:"-"`
	ID        string `json:"id"`
	Kind      string `json:"command"` // a notice.Kind
	Tab       string `json:"tab"`     // friends | groups | system
	Actor     string `json:"fromId"`  // the member whose act it tells of
	ContentID string `json:"contentId"`
	Content   string `json:"-"` // the text the act carried (a request's message)
	Read      bool   `json:"-"`
	CreatedAt int64  `json:"createTime"`
	Position  uint64 `json:"position"`
	// Detail is what notices of some kinds carry besides their text.
	Detail NoticeDetail `json:"-"`
}

// NoticeDetail is what a verification or a group join request notice
// carries; the other kinds leave it empty.
type NoticeDetail struct {
	Code         string `json:"code,omitempty"`         // Verification: the one-time code
	ValidMinutes int    `json:"validMinutes,omitempty"` // Verification: how long the code lasts
	System       string `json:"system,omitempty"`       // Verification: the new device's operating system
	RequestID    string `json:"requestId,omitempty"`    // GroupJoinRequest: the request
	Member       string `json:"memberId,omitempty"`     // GroupJoinRequest: who would join
	Status       string `json:"status,omitempty"`       // GroupJoinRequest: pending | accepted | rejected
}

// NoticeCounts are a member's unread notices, in all and by tab.
type NoticeCounts struct {
	Total  int `json:"total"`
	Friend int `json:"friend"`
	System int `json:"system"`
	Group  int `json:"group"`
}

// Add counts n, an unread notice, in c.
func (c *NoticeCounts) Add(n Notice) {
	c.Total++
	switch n.Tab {
	case "friends":
		c.Friend++
	case "groups":
		c.Group++
	default:
		c.System++
	}
}
