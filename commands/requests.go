package commands

// Principal is an authenticated member acting through one login session.
type Principal struct {
	Tenant    string
	MemberID  string
	SessionID string
}

// SendMessage is the body of POST /v1/message/send and of socket command 11.
type SendMessage struct {
	UUID            string `json:"uuid"`
	ChatType        string `json:"chatType"`
	To              string `json:"to"`
	GroupID         string `json:"groupId"`
	MsgType         string `json:"msgType"`
	Content         string `json:"content"`
	ParentMessageID string `json:"parentMessageId"`
}

// SendResult answers a send; a retried uuid gets the first answer again.
type SendResult struct {
	ID                string `json:"id"`
	UUID              string `json:"uuid"`
	ServerReceiveTime int64  `json:"serverReceiveTime"`
	Position          uint64 `json:"position"`
}

// AckRead is the body of socket command 27: From has read To's messages up
// to MessageID (To is the friend, or the group id for group chats).
type AckRead struct {
	ChatType    string `json:"chatType"`
	From        string `json:"from"`
	To          string `json:"to"`
	GroupID     string `json:"groupId"`
	MessageID   string `json:"messageId"`
	UnreadCount int    `json:"unreadCount"`
}
