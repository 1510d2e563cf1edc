package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/projections"
)

// deleteBody is the body of the deletion calls.
type deleteBody struct {
	MessageIDs []string `json:"messageIds"`
}

// remoteDeleteBody is the body of deleteRemoteFriendMessage.
type remoteDeleteBody struct {
	FriendMemberID    string   `json:"friendMemberId"`
	MessageIDs        []string `json:"messageIds"`
	DeleteMessageType string   `json:"deleteMessageType"` // Bilateral | Unilateral
}

// messageIDs is a list of ids given as a JSON array or as {"ids": [...]}.
type messageIDs []string

func (m *messageIDs) UnmarshalJSON(b []byte) error {
	var list []string
	if err := json.Unmarshal(b, &list); err == nil {
		*m = list
		return nil
	}
	var obj struct {
		IDs []string `json:"ids"`
	}
	if err := json.Unmarshal(b, &obj); err != nil {
		return err
	}
	*m = obj.IDs
	return nil
}

func (a *API) messageLifeRoutes() []route {
	return []route{
		commandRoute(a, http.MethodPut, "/message/modify",
			"Edit one's own Text, AtText or Reply message; the chat's members get cmd 34.",
			Commands.EditMessage),
		commandRoute(a, http.MethodPut, "/message/recall",
			"Recall one's own message within 24 hours; the chat's members get cmd 16 (Recall).",
			Commands.RecallMessage),
		{method: http.MethodPost, path: "/message/deleteMessage",
			summary: "Delete messages for oneself (with their forwarded batches); one's devices get cmd 16 (Delete, Me).",
			body:    deleteBody{}, result: commands.Deleted{}, handle: a.deleteMessages},
		{method: http.MethodDelete, path: "/chat/friendInfo/deleteRemoteFriendMessage",
			summary: "Delete one's own messages of a friend chat for both members (Bilateral) or for oneself (Unilateral); cmd 16.",
			query: []param{{"friendMemberId", false, "when not in the body"}, {"messageIds", false, "comma-separated, when not in the body"},
				{"deleteMessageType", false, "Bilateral (default) | Unilateral"}},
			body: remoteDeleteBody{}, result: commands.Deleted{}, handle: a.deleteRemoteFriendMessages},
		{method: http.MethodPut, path: "/message/reply",
			summary: "Reply to a message of the same chat: a send with msgType Reply and parentMessageId.",
			body:    commands.SendMessage{}, result: commands.SendResult{}, handle: a.reply},
		commandRoute(a, http.MethodPost, "/message/forward",
			"Forward 1 to 10 messages to friends or groups; each becomes a Forward message; the same uuid returns the first result.",
			Commands.ForwardMessages),
		commandRoute(a, http.MethodPost, "/message/shareContact",
			"Send a member's contact card to a friend (msgType ShareContact).",
			Commands.ShareContact),
		{method: http.MethodPost, path: "/message/messagePush/getMessageByIds",
			summary: "The messages among the ids (a JSON array, or {\"ids\": [...]}, at most 100) that the member sees.",
			body:    []string{}, result: []projections.Message{}, handle: a.messagesByIDs, lookup: true},
		commandRoute(a, http.MethodPost, "/message/clearHistory",
			"Clear one's history of a chat up to now; one's devices get cmd 30 (friend) or 29 (group).",
			Commands.ClearHistory),
		{method: http.MethodGet, path: "/message/messagePush/at/list",
			summary: "The member's unacknowledged mentions, oldest first.", result: []projections.Mention{}, handle: a.mentions},
		{method: http.MethodPost, path: "/message/messagePush/at/ack/messageIds",
			summary: "Acknowledge the mentions in these messages.",
			body:    deleteBody{}, result: written{}, handle: a.ackMentionMessages},
		{method: http.MethodPost, path: "/message/messagePush/at/ack/sessionId",
			summary: "Acknowledge every mention in one conversation (a friend or group id).",
			body:    sessionBody{}, result: written{}, handle: a.ackMentionSession},
	}
}

func (a *API) deleteMessages(c echo.Context, p commands.Principal) error {
	var r deleteBody
	if err := bind(c, &r); err != nil {
		return err
	}
	return answer(c)(a.deps.Commands.DeleteMessages(c.Request().Context(), p, commands.DeleteMessages{MessageIDs: r.MessageIDs}))
}

// bindDeletion reads a remote deletion, which clients send as a query
// (messageIds comma-separated) or a body: the body, when there is one, wins.
func bindDeletion(c echo.Context, ids *[]string, body any) error {
	if q := c.QueryParam("messageIds"); q != "" {
		*ids = strings.Split(q, ",")
	}
	if c.Request().ContentLength == 0 {
		return nil
	}
	return bind(c, body)
}

func (a *API) deleteRemoteFriendMessages(c echo.Context, p commands.Principal) error {
	r := remoteDeleteBody{
		FriendMemberID:    c.QueryParam("friendMemberId"),
		DeleteMessageType: c.QueryParam("deleteMessageType"),
	}
	if err := bindDeletion(c, &r.MessageIDs, &r); err != nil {
		return err
	}
	everyone := true
	switch r.DeleteMessageType {
	case "", "Bilateral":
	case "Unilateral":
		everyone = false
	default:
		return fault.New(fault.Invalid, fault.MsgDeleteTypeInvalid)
	}
	return answer(c)(a.deps.Commands.DeleteMessages(c.Request().Context(), p, commands.DeleteMessages{
		MessageIDs: r.MessageIDs, Everyone: everyone, FriendMemberID: r.FriendMemberID}))
}

func (a *API) reply(c echo.Context, p commands.Principal) error {
	var r commands.SendMessage
	if err := bind(c, &r); err != nil {
		return err
	}
	if r.MsgType == "" {
		r.MsgType = string(chat.Reply)
	}
	if r.MsgType != string(chat.Reply) {
		return fault.New(fault.Invalid, fault.MsgMsgTypeUnsupported)
	}
	return answer(c)(a.deps.Commands.SendMessage(c.Request().Context(), p, r))
}

func (a *API) messagesByIDs(c echo.Context, p commands.Principal) error {
	var ids messageIDs
	if err := bind(c, &ids); err != nil {
		return err
	}
	if err := chat.CheckIDs(ids); err != nil {
		return err
	}
	return answer(c)(a.deps.Queries.VisibleMessages(c.Request().Context(), viewer(p), ids))
}

// sessionBody names one conversation.
type sessionBody struct {
	SessionID string `json:"sessionId"`
}

// written answers a write with the position of its event.
type written struct {
	Position uint64 `json:"position"`
}

func (a *API) mentions(c echo.Context, p commands.Principal) error {
	ms, err := a.deps.Queries.Mentions(c.Request().Context(), p.MemberID)
	if err != nil {
		return err
	}
	return ok(c, ms)
}

func (a *API) ackMentionMessages(c echo.Context, p commands.Principal) error {
	var r deleteBody
	if err := bind(c, &r); err != nil {
		return err
	}
	return a.ackMentions(c, p, commands.AckMentions{MessageIDs: r.MessageIDs})
}

func (a *API) ackMentionSession(c echo.Context, p commands.Principal) error {
	var r sessionBody
	if err := bind(c, &r); err != nil {
		return err
	}
	if r.SessionID == "" {
		return fault.New(fault.Invalid, fault.MsgBadRequest)
	}
	return a.ackMentions(c, p, commands.AckMentions{SessionID: r.SessionID})
}

func (a *API) ackMentions(c echo.Context, p commands.Principal, r commands.AckMentions) error {
	pos, err := a.deps.Commands.AckMentions(c.Request().Context(), p, r)
	if err != nil {
		return err
	}
	return ok(c, written{Position: pos})
}

// commandRoute is the route of a command that takes the request's JSON
// body; the OpenAPI document takes the body's and the result's types from
// the command itself.
func commandRoute[B, R any](a *API, method, path, summary string, run func(Commands, context.Context, commands.Principal, B) (R, error)) route {
	var body B
	var result R
	return route{method: method, path: path, summary: summary, body: body, result: result, handle: handleBody(a, run)}
}

// handleBody serves a command that takes the request's JSON body.
func handleBody[B, R any](a *API, run func(Commands, context.Context, commands.Principal, B) (R, error)) func(echo.Context, commands.Principal) error {
	return func(c echo.Context, p commands.Principal) error {
		var body B
		if err := bind(c, &body); err != nil {
			return err
		}
		return answer(c)(run(a.deps.Commands, c.Request().Context(), p, body))
	}
}

// answer turns a command's result and error into the response.
func answer(c echo.Context) func(any, error) error {
	return func(v any, err error) error {
		if err != nil {
			return err
		}
		return ok(c, v)
	}
}
