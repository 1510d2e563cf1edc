package projections

// SessionView is a conversation item as the client sees it; the API adds
// the peer's name and avatar.
type SessionView struct {
	ID                 string `json:"id"`
	Type               string `json:"type"`
	ChatType           string `json:"chatType"`
	FriendMemberID     string `json:"friendMemberId"`
	GroupID            string `json:"groupId"`
	LastMessageID      string `json:"lastMessageId"`
	LastMessageType    string `json:"lastMessageType"`
	LastMessageContent string `json:"lastMessageContent"`
	LastMessageTime    int64  `json:"lastMessageTime"`
	// LastMessageFrom is the last message's sender (an Event line has none).
	LastMessageFrom string `json:"lastMessageFrom,omitempty"`
	// LastMessageFileName is the name of the file the last message carries
	// (a File, or a forwarded File); LastMessageForwardFrom and
	// LastMessageForwardType say, of a Forward, whose message it was and
	// its type.
	LastMessageFileName    string `json:"lastMessageFileName,omitempty"`
	LastMessageForwardFrom string `json:"lastMessageForwardFrom,omitempty"`
	LastMessageForwardType string `json:"lastMessageForwardType,omitempty"`
	UnreadCount            int    `json:"unreadCount"`
	TopMessage             string `json:"topMessage"`
	TopTime                int64  `json:"topTime"` // when it was pinned, ms; 0 when not
	DoNotDisturb           string `json:"dnd"`
	MarkedUnread           string `json:"markedUnread"`
	Hide                   string `json:"hide"`
	// OperationType says, in a push (command 49), what changed the item.
	OperationType string `json:"operationType,omitempty"`
}

// View returns the client's shape of s.
func (s Session) View() SessionView {
	v := SessionView{
		ID: s.Peer, Type: s.ChatType, ChatType: s.ChatType,
		LastMessageID: s.LastMessageID, LastMessageType: s.LastMessageType,
		LastMessageContent: s.LastMessageContent, LastMessageTime: s.LastMessageTime,
		LastMessageFrom: s.LastMessageFrom, LastMessageFileName: s.LastMessageFileName, LastMessageForwardFrom: s.LastMessageForwardFrom,
		LastMessageForwardType: s.LastMessageForwardType,
		UnreadCount:            s.UnreadCount, TopMessage: yesNo(s.Top), TopTime: s.TopTime,
		DoNotDisturb: yesNo(s.DoNotDisturb), MarkedUnread: yesNo(s.MarkedUnread), Hide: yesNo(s.Hidden),
	}
	if s.ChatType == "Group" {
		v.GroupID = s.Peer
	} else {
		v.FriendMemberID = s.Peer
	}
	return v
}

func yesNo(b bool) string {
	if b {
		return "Y"
	}
	return "N"
}
