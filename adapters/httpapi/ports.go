package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/audit"
	"github.com/eventchat/eventchat/domain/tenant"
	"github.com/eventchat/eventchat/projections"
)

// Commands are the use cases the API invokes.
type Commands interface {
	SendSMSCode(ctx context.Context, tenant, phone, purpose string) error
	RegisterMember(ctx context.Context, r commands.Register) (commands.Registered, error)
	LoginMember(ctx context.Context, l commands.Login) (commands.LoggedIn, error)
	UnknownLoginKey(ctx context.Context, tenant, account string) (string, error)
	Logout(ctx context.Context, p commands.Principal) (uint64, error)
	RequestFriend(ctx context.Context, p commands.Principal, r commands.RequestFriend) (commands.Applied, error)
	AnswerFriendRequest(ctx context.Context, p commands.Principal, r commands.AnswerFriendRequest) (commands.Answered, error)
	AnswerFriendRequests(ctx context.Context, p commands.Principal, r commands.AnswerFriendRequests) (commands.RequestsHandled, error)
	DeleteFriendRequests(ctx context.Context, p commands.Principal, r commands.DeleteFriendRequests) (commands.RequestsHandled, error)
	ModifyFriend(ctx context.Context, p commands.Principal, r commands.ModifyFriend) (commands.FriendChanged, error)
	DeleteFriend(ctx context.Context, p commands.Principal, r commands.DeleteFriend) (commands.FriendChanged, error)
	SendMessage(ctx context.Context, p commands.Principal, r commands.SendMessage) (commands.SendResult, error)
	EditMessage(ctx context.Context, p commands.Principal, r commands.EditMessage) (commands.Edited, error)
	RecallMessage(ctx context.Context, p commands.Principal, r commands.RecallMessage) (commands.Recalled, error)
	DeleteMessages(ctx context.Context, p commands.Principal, r commands.DeleteMessages) (commands.Deleted, error)
	ForwardMessages(ctx context.Context, p commands.Principal, r commands.ForwardMessages) (commands.Forwarded, error)
	ShareContact(ctx context.Context, p commands.Principal, r commands.ShareContact) (commands.SendResult, error)
	ClearHistory(ctx context.Context, p commands.Principal, r commands.ClearHistory) (commands.Cleared, error)
	AckMentions(ctx context.Context, p commands.Principal, r commands.AckMentions) (uint64, error)

	CreateGroup(ctx context.Context, p commands.Principal, r commands.CreateGroup) (commands.GroupCreated, error)
	InviteToGroup(ctx context.Context, p commands.Principal, r commands.GroupChange) (commands.GroupWritten, error)
	RemoveGroupMembers(ctx context.Context, p commands.Principal, r commands.GroupChange) (commands.GroupWritten, error)
	LeaveGroup(ctx context.Context, p commands.Principal, r commands.GroupChange) (commands.GroupWritten, error)
	SetGroupRole(ctx context.Context, p commands.Principal, r commands.GroupChange) (commands.GroupWritten, error)
	TransferGroup(ctx context.Context, p commands.Principal, r commands.GroupChange) (commands.GroupWritten, error)
	MuteGroupMember(ctx context.Context, p commands.Principal, r commands.GroupChange) (commands.GroupWritten, error)
	SetGroupNickname(ctx context.Context, p commands.Principal, r commands.GroupChange) (commands.GroupWritten, error)
	DissolveGroup(ctx context.Context, p commands.Principal, r commands.GroupChange) (commands.GroupWritten, error)
	ModifyGroup(ctx context.Context, p commands.Principal, r commands.ModifyGroup) (commands.GroupWritten, error)
	DeleteRemoteGroupMessages(ctx context.Context, p commands.Principal, r commands.DeleteGroupMessages) (commands.Deleted, error)
	PinGroupMessage(ctx context.Context, p commands.Principal, r commands.GroupMessage) (commands.GroupWritten, error)
	UnpinGroupMessage(ctx context.Context, p commands.Principal, r commands.GroupMessage) (commands.GroupWritten, error)

	PinConversation(ctx context.Context, p commands.Principal, r commands.Conversation) (commands.Changed, error)
	UnpinConversation(ctx context.Context, p commands.Principal, r commands.Conversation) (commands.Changed, error)
	SetDoNotDisturb(ctx context.Context, p commands.Principal, r commands.SetDoNotDisturb) (commands.Changed, error)
	MarkConversationUnread(ctx context.Context, p commands.Principal, r commands.Conversation) (commands.Changed, error)
	MarkConversationRead(ctx context.Context, p commands.Principal, r commands.Conversation) (commands.Changed, error)
	HideConversation(ctx context.Context, p commands.Principal, r commands.Conversation) (commands.Changed, error)
	ShowConversation(ctx context.Context, p commands.Principal, r commands.Conversation) (commands.Changed, error)

	CallCommands
	ProfileCommands

	AddFavourite(ctx context.Context, p commands.Principal, r commands.AddFavourite) (commands.Kept, error)
	EditFavourite(ctx context.Context, p commands.Principal, r commands.EditFavourite) (commands.FavouriteEdited, error)
	DeleteFavourites(ctx context.Context, p commands.Principal, r commands.PersonalIDs) (commands.Dropped, error)
	ForwardFavourites(ctx context.Context, p commands.Principal, r commands.ForwardFavourites) (commands.Forwarded, error)
	AddSticker(ctx context.Context, p commands.Principal, r commands.AddSticker) (commands.Kept, error)
	DeleteStickers(ctx context.Context, p commands.Principal, r commands.PersonalIDs) (commands.Dropped, error)
	SendBatch(ctx context.Context, p commands.Principal, r commands.SendBatch) (commands.BatchResult, error)
	ClearBatches(ctx context.Context, p commands.Principal) (uint64, error)
	SetBatchSend(ctx context.Context, p commands.Principal, r commands.SetBatchSend) (commands.BatchSendSetting, error)

	ReadNotice(ctx context.Context, p commands.Principal, r commands.NoticeID) (commands.NoticesChanged, error)
	ReadAllNotices(ctx context.Context, p commands.Principal) (commands.NoticesChanged, error)
	DeleteNotices(ctx context.Context, p commands.Principal, r commands.NoticeIDs) (commands.NoticesChanged, error)
	AckDelivery(ctx context.Context, p commands.Principal, r commands.MessageAck) (commands.Delivery, error)
	TenantCommands
	AuditCommands
	TopUpCommands
	AssistantCommands
}

// AuditCommands record auditors' accesses and read a tenant's history.
type AuditCommands interface {
	AuditAccess(ctx context.Context, who commands.Auditor, action, tenant string, filter audit.Filter,
		check func(tenant string) error) (commands.AuditAccess, error)
	AuditEvents(ctx context.Context, sel audit.Selection, after uint64) (commands.AuditPage, error)
	ExportAudit(ctx context.Context, sel audit.Selection, each func(audit.Entry) error) (uint64, error)
}

// TenantCommands read tenants' settings and carry out operators' changes.
type TenantCommands interface {
	TenantConfig(ctx context.Context, code string) (tenant.Config, error)
	CreateTenantAs(ctx context.Context, op commands.Operator, code, name string) (uint64, error)
	ConfigureTenant(ctx context.Context, op commands.Operator, code string, settings map[string]string) (commands.TenantSettings, error)
	ShowMember(ctx context.Context, op commands.Operator, tenant, who string) (commands.MemberState, error)
	BanMember(ctx context.Context, op commands.Operator, tenant, who string) (commands.MemberState, error)
	UnbanMember(ctx context.Context, op commands.Operator, tenant, who string) (commands.MemberState, error)
	SignOutMember(ctx context.Context, op commands.Operator, tenant, who string) (commands.MemberState, error)
	SetMemberLevel(ctx context.Context, op commands.Operator, tenant, who, level string) (commands.MemberState, error)
	EraseMember(ctx context.Context, op commands.Operator, tenant, who, request string) (commands.MemberState, error)
	MayListFeedback(op commands.Operator, tenant string) error
	ReplyFeedback(ctx context.Context, op commands.Operator, tenant, id, reply string) (commands.FeedbackReplied, error)
}

// Presence tells which members have a websocket open.
type Presence interface {
	Online(tenant, member string) bool
}

// Tokens turn sessions into tokens and back.
type Tokens interface {
	Issue(p commands.Principal) (token string, wsKey []byte)
	Authenticate(ctx context.Context, token string) (commands.Principal, []byte, error)
	AuthenticateOperator(token string, now time.Time) (commands.Operator, error)
	AuthenticateAuditor(token string, now time.Time) (commands.Auditor, error)
}

// Projections tells how far the read models are.
type Projections interface {
	WaitFor(ctx context.Context, position uint64) bool
	Position() uint64
}

// Log is the head of the event log.
type Log interface {
	Head(ctx context.Context) (uint64, error)
}

// Counters count the events of the rate limits by key, shared by every
// node that uses the same store: each key counts in a window that its
// first event opens.
type Counters interface {
	// Add counts one event of key at now and returns the events counted
	// in the key's window, this one included. A key without a window open
	// at now opens one that ends at now+window.
	Add(ctx context.Context, key string, now time.Time, window time.Duration) (int64, error)
	// Counted returns the events counted in the key's window open at now,
	// 0 when none is.
	Counted(ctx context.Context, key string, now time.Time) (int64, error)
}

// Deps are what the API serves from.
type Deps struct {
	Commands    Commands
	Queries     projections.Queries
	Tokens      Tokens
	Projections Projections
	// Search tells how far the search model is, which folds behind the
	// others; nil: as far as Projections.
	Search   Projections
	Log      Log
	Socket   http.Handler // the websocket gateway at /message-ws
	UI       http.FileSystem
	Blobs    Blobs // uploaded files; nil: uploads are not served
	Ready    func() error
	Presence Presence // nil: every friend shows offline
	// Admin reports on and rebuilds the projections; nil: not served.
	Admin ProjectionAdmin
	// Replays serves the audit replays and verify; nil: not served.
	Replays AuditReplays
	// Counters count the rate limits' events; nil: each node counts its
	// own, and the limits multiply with the nodes.
	Counters Counters
}

// ProjectionAdmin is what operators see and do of the projections.
type ProjectionAdmin interface {
	Report(ctx context.Context) (projections.Report, error)
	StartRebuild(name string) (projections.Rebuild, error)
	RebuildProgress() projections.Rebuild
	CancelRebuild() (projections.Rebuild, error)
}
