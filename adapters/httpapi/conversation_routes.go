package httpapi

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/projections"
)

// conversationQuery documents the fields naming a conversation when they
// travel in the query.
var conversationQuery = []param{
	{"chatType", false, "Friend | Group; taken from the id given when absent"},
	{"friendMemberId", false, "the friend of a one-to-one chat"},
	{"groupId", false, "a group chat"},
}

func (a *API) conversationRoutes() []route {
	type changeFunc func(Commands, context.Context, commands.Principal, commands.Conversation) (commands.Changed, error)
	change := func(do changeFunc) func(echo.Context, commands.Principal) error {
		return func(c echo.Context, p commands.Principal) error {
			r, err := conversationOf(c)
			if err != nil {
				return err
			}
			res, err := do(a.deps.Commands, c.Request().Context(), p, r)
			if err != nil {
				return err
			}
			return ok(c, res)
		}
	}
	return []route{
		{method: http.MethodPost, path: "/chat/topInfo/build",
			summary: "Pin a conversation; pinning a pinned one changes nothing. Past 10 pinned conversations: code 20065 (HTTP 409).",
			body:    commands.Conversation{}, result: commands.Changed{}, handle: change(Commands.PinConversation)},
		{method: http.MethodDelete, path: "/chat/topInfo/delete",
			summary: "Unpin a conversation, named in the query or the body; an unpinned one changes nothing.",
			query:   conversationQuery, body: commands.Conversation{}, result: commands.Changed{}, handle: change(Commands.UnpinConversation)},
		{method: http.MethodGet, path: "/chat/topInfo/list",
			summary: "The pinned conversations, the latest pinned first.", result: []SessionItem{}, handle: a.pinned},
		{method: http.MethodPut, path: "/message/sessionInfo/dnd",
			summary: "Turn do-not-disturb of a conversation on or off: its unread count still counts, the client mutes it.",
			body:    commands.SetDoNotDisturb{}, result: commands.Changed{}, handle: a.setDoNotDisturb},
		{method: http.MethodPut, path: "/message/sessionInfo/markUnread",
			summary: "Set the unread marker of a conversation.",
			body:    commands.Conversation{}, result: commands.Changed{}, handle: change(Commands.MarkConversationUnread)},
		{method: http.MethodPut, path: "/message/sessionInfo/markRead",
			summary: "Clear the unread marker and acknowledge the newest message of a conversation (the friend gets 28).",
			body:    commands.Conversation{}, result: commands.Changed{}, handle: change(Commands.MarkConversationRead)},
		{method: http.MethodPut, path: "/message/sessionInfo/remove",
			summary: "Remove a conversation from the list until a newer message arrives in it; a pinned one is unpinned. History is kept.",
			body:    commands.Conversation{}, result: commands.Changed{}, handle: change(Commands.HideConversation)},
		{method: http.MethodPut, path: "/message/sessionInfo/add",
			summary: "Put a conversation in the list: a removed one again, or one without messages.",
			body:    commands.Conversation{}, result: commands.Changed{}, handle: change(Commands.ShowConversation)},
	}
}

// conversationOf reads the conversation a request names: from the query
// when it names one there, else from the JSON body.
func conversationOf(c echo.Context) (commands.Conversation, error) {
	r := commands.Conversation{
		ChatType: c.QueryParam("chatType"), FriendMemberID: c.QueryParam("friendMemberId"), GroupID: c.QueryParam("groupId"),
	}
	if r != (commands.Conversation{}) {
		return r, nil
	}
	err := bind(c, &r)
	return r, err
}

func (a *API) setDoNotDisturb(c echo.Context, p commands.Principal) error {
	var r commands.SetDoNotDisturb
	if err := bind(c, &r); err != nil {
		return err
	}
	res, err := a.deps.Commands.SetDoNotDisturb(c.Request().Context(), p, r)
	if err != nil {
		return err
	}
	return ok(c, res)
}

func (a *API) pinned(c echo.Context, p commands.Principal) error {
	items, err := a.memberReads().sessionItems(c, viewer(p), func(s projections.Session) bool { return s.Top })
	if err != nil {
		return err
	}
	return ok(c, items)
}
