package mongoread

import (
	"math"
	"strconv"

	"github.com/eventchat/eventchat/projections"
)

// Collection names.
const (
	membersColl      = "members"
	messagesColl     = "messages"
	sessionsColl     = "sessions"
	appliesColl      = "applies"
	friendsColl      = "friends"
	authSessionsColl = "auth_sessions"
	clearFloorsColl  = "clear_floors"
	mentionsColl     = "mentions"
	groupsColl       = "groups"
	groupMembersColl = "group_members"
	groupAppliesColl = "group_applies"
	checkpointsColl  = "checkpoints"
	journalColl      = "journal"
	leaseColl        = "projection_lease"
)

type memberDoc struct {
	ID           string `bson:"_id"`
	Tenant       string `bson:"tenant"`
	Account      string `bson:"account"`
	Phone        string `bson:"phone"`
	Name         string `bson:"name"`
	HeadURL      string `bson:"headUrl"`
	Level        string `bson:"level"`
	RegisteredAt int64  `bson:"registeredAt"`
	Gender       string `bson:"gender"`
	LastIP       string `bson:"lastIp"`
	Referrer     string `bson:"referrer"`
}

func toMemberDoc(m projections.Member) memberDoc { return memberDoc(m) }

func (d memberDoc) member() projections.Member { return projections.Member(d) }

// Sequences and positions are stored as signed 64-bit integers: every
// uint64 round-trips, and they compare in order below 2^63, which no log
// or chat reaches. bound clamps a query bound into that range.
type messageDoc struct {
	ID                string `bson:"_id"`
	UUID              string `bson:"uuid"`
	Tenant            string `bson:"tenant"`
	ChatID            string `bson:"chat"`
	Seq               int64  `bson:"seq"`
	Position          int64  `bson:"position"`
	ChatType          string `bson:"chatType"`
	From              string `bson:"from"`
	To                string `bson:"to"`
	GroupID           string `bson:"groupId"`
	MsgType           string `bson:"msgType"`
	Content           string `bson:"content"`
	ServerReceiveTime int64  `bson:"time"`
	Status            string `bson:"status"`

	ParentMessageID string   `bson:"parent,omitempty"`
	EditTime        int64    `bson:"editTime,omitempty"`
	RecallTime      int64    `bson:"recallTime,omitempty"`
	ForwardBatchID  string   `bson:"fwdBatchId,omitempty"`
	ForwardBatch    []string `bson:"fwdBatch,omitempty"`
	ForwardFrom     string   `bson:"fwdFrom,omitempty"`
	ForwardType     string   `bson:"fwdType,omitempty"`
	Deleted         bool     `bson:"deleted,omitempty"`
	HiddenFor       []string `bson:"hiddenFor,omitempty"`
	OperationType   string   `bson:"opType,omitempty"`
	OperatorID      string   `bson:"operatorId,omitempty"`
	TargetID        string   `bson:"targetId,omitempty"`
}

func toMessageDoc(m projections.Message) messageDoc {
	return messageDoc{
		ID: m.ID, UUID: m.UUID, Tenant: m.Tenant, ChatID: m.ChatID, Seq: int64(m.Seq), Position: int64(m.Position),
		ChatType: m.ChatType, From: m.From, To: m.To, GroupID: m.GroupID, MsgType: m.MsgType, Content: m.Content,
		ServerReceiveTime: m.ServerReceiveTime, Status: m.Status,
		ParentMessageID: m.ParentMessageID, EditTime: m.EditTime, RecallTime: m.RecallTime,
		ForwardBatchID: m.ForwardBatchID, ForwardBatch: m.ForwardBatch, ForwardFrom: m.ForwardFrom,
		ForwardType: m.ForwardType, Deleted: m.Deleted, HiddenFor: m.HiddenFor,
		OperationType: m.OperationType, OperatorID: m.OperatorID, TargetID: m.TargetID,
	}
}

func (d messageDoc) message() projections.Message {
	return projections.Message{
		ID: d.ID, UUID: d.UUID, Tenant: d.Tenant, ChatID: d.ChatID, Seq: uint64(d.Seq), Position: uint64(d.Position),
		ChatType: d.ChatType, From: d.From, To: d.To, GroupID: d.GroupID, MsgType: d.MsgType, Content: d.Content,
		ServerReceiveTime: d.ServerReceiveTime, Status: d.Status,
		ParentMessageID: d.ParentMessageID, EditTime: d.EditTime, RecallTime: d.RecallTime,
		ForwardBatchID: d.ForwardBatchID, ForwardBatch: d.ForwardBatch, ForwardFrom: d.ForwardFrom,
		ForwardType: d.ForwardType, Deleted: d.Deleted, HiddenFor: d.HiddenFor,
		OperationType: d.OperationType, OperatorID: d.OperatorID, TargetID: d.TargetID,
	}
}

func bound(u uint64) int64 {
	if u > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(u)
}

// pairID joins two strings into one unambiguous document id.
func pairID(a, b string) string { return strconv.Itoa(len(a)) + ":" + a + "|" + b }

// clearFloorDoc: no message of Chat up to Seq is shown to Member.
type clearFloorDoc struct {
	ID     string `bson:"_id"` // pairID(member, chat)
	Member string `bson:"member"`
	Chat   string `bson:"chat"`
	Seq    int64  `bson:"seq"`
}

type sessionDoc struct {
	ID                 string `bson:"_id"`
	Tenant             string `bson:"tenant"`
	Member             string `bson:"member"`
	ChatType           string `bson:"chatType"`
	Peer               string `bson:"peer"`
	ChatID             string `bson:"chat"`
	LastMessageID      string `bson:"lastMessageId"`
	LastMessageType    string `bson:"lastMessageType"`
	LastMessageContent string `bson:"lastMessageContent"`
	LastMessageTime    int64  `bson:"lastMessageTime"`
	UnreadCount        int64  `bson:"unreadCount"`
	Top                bool   `bson:"top"`
	TopTime            int64  `bson:"topTime"`
	DoNotDisturb       bool   `bson:"dnd"`
	MarkedUnread       bool   `bson:"markedUnread"`
	Hidden             bool   `bson:"hidden"`
}

func sessionDocID(k projections.SessionKey) string { return pairID(k.Member, k.Peer) }

func toSessionDoc(s projections.Session) sessionDoc {
	return sessionDoc{
		ID: sessionDocID(s.Key()), Tenant: s.Tenant, Member: s.Member, ChatType: s.ChatType, Peer: s.Peer,
		ChatID: s.ChatID, LastMessageID: s.LastMessageID, LastMessageType: s.LastMessageType,
		LastMessageContent: s.LastMessageContent, LastMessageTime: s.LastMessageTime,
		UnreadCount: int64(s.UnreadCount), Top: s.Top, TopTime: s.TopTime,
		DoNotDisturb: s.DoNotDisturb, MarkedUnread: s.MarkedUnread, Hidden: s.Hidden,
	}
}

func (d sessionDoc) session() projections.Session {
	return projections.Session{
		Tenant: d.Tenant, Member: d.Member, ChatType: d.ChatType, Peer: d.Peer, ChatID: d.ChatID,
		LastMessageID: d.LastMessageID, LastMessageType: d.LastMessageType,
		LastMessageContent: d.LastMessageContent, LastMessageTime: d.LastMessageTime,
		UnreadCount: int(d.UnreadCount), Top: d.Top, TopTime: d.TopTime,
		DoNotDisturb: d.DoNotDisturb, MarkedUnread: d.MarkedUnread, Hidden: d.Hidden,
	}
}

type applyDoc struct {
	ID        string `bson:"_id"`
	Tenant    string `bson:"tenant"`
	PairID    string `bson:"pair"`
	From      string `bson:"from"`
	To        string `bson:"to"`
	Remark    string `bson:"remark"`
	Content   string `bson:"content"`
	Status    string `bson:"status"`
	ReadFlag  string `bson:"readFlag"`
	CreatedAt int64  `bson:"createdAt"`
	UpdatedAt int64  `bson:"updatedAt"`
	// Hidden flags are left out while false, as in documents written
	// before requests could be deleted.
	HiddenFrom bool `bson:"hiddenFrom,omitempty"`
	HiddenTo   bool `bson:"hiddenTo,omitempty"`
}

func toApplyDoc(a projections.Apply) applyDoc { return applyDoc(a) }

func (d applyDoc) apply() projections.Apply { return projections.Apply(d) }

type friendDoc struct {
	ID       string `bson:"_id"`
	Tenant   string `bson:"tenant"`
	Member   string `bson:"member"`
	FriendID string `bson:"friend"`
	ChatID   string `bson:"chat"`
	Remark   string `bson:"remark"`
	Since    int64  `bson:"since"`
	Blocked  bool   `bson:"blocked"`
}

func toFriendDoc(f projections.Friend) friendDoc {
	return friendDoc{ID: pairID(f.Member, f.FriendID), Tenant: f.Tenant, Member: f.Member, FriendID: f.FriendID,
		ChatID: f.ChatID, Remark: f.Remark, Since: f.Since, Blocked: f.Blocked}
}

func (d friendDoc) friend() projections.Friend {
	return projections.Friend{Tenant: d.Tenant, Member: d.Member, FriendID: d.FriendID, ChatID: d.ChatID,
		Remark: d.Remark, Since: d.Since, Blocked: d.Blocked}
}

type authSessionDoc struct {
	ID        string `bson:"_id"`
	Tenant    string `bson:"tenant"`
	Member    string `bson:"member"`
	Active    bool   `bson:"active"`
	StartedAt int64  `bson:"startedAt"`
	EndedAt   int64  `bson:"endedAt"`
}

func toAuthSessionDoc(a projections.AuthSession) authSessionDoc { return authSessionDoc(a) }

func (d authSessionDoc) authSession() projections.AuthSession { return projections.AuthSession(d) }

type checkpointDoc struct {
	Projector string `bson:"_id"`
	Position  int64  `bson:"position"`
}
