package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/projections"
)

func (a *API) groupChatRoutes() []route {
	return []route{
		{method: http.MethodDelete, path: "/chat/groupInfo/deleteRemoteGroupMessage",
			summary: "Owner or Admin: delete messages of a group's chat, anyone's, for every member (with their forwarded batches); members get cmd 16 (Delete, Everyone). Others: 403.",
			query:   []param{{"groupId", false, "when not in the body"}, {"messageIds", false, "comma-separated, when not in the body"}},
			body:    commands.DeleteGroupMessages{}, result: commands.Deleted{}, handle: a.deleteRemoteGroupMessages},
		commandRoute(a, http.MethodPost, "/chat/groupInfo/pinMessage",
			"Owner or Admin: pin a message of a group's chat (at most 10); members get cmd 50 (AddTop) and 39 with the pinned ids.",
			Commands.PinGroupMessage),
		commandRoute(a, http.MethodDelete, "/chat/groupInfo/unpinMessage",
			"Owner or Admin: unpin a pinned message; members get cmd 50 (DelTop) and 39.",
			Commands.UnpinGroupMessage),
		{method: http.MethodGet, path: "/chat/groupInfo/listPinnedMessage",
			summary: "The pinned messages of a group the member belongs to, the latest pinned first (those deleted or cleared for the member left out).",
			query:   []param{{"groupId", true, "the group"}}, result: []projections.Message{}, handle: a.pinnedMessages},
		{method: http.MethodGet, path: "/chat/groupInfo/readers",
			summary: "The sender of a group message: which current members have read it and which have not yet (neither lists the sender nor members who joined after it). Other members: 403.",
			query:   []param{{"groupId", true, "the group"}, {"messageId", true, "the message"}}, result: MessageReaders{}, handle: a.messageReaders},
	}
}

func (a *API) deleteRemoteGroupMessages(c echo.Context, p commands.Principal) error {
	r := commands.DeleteGroupMessages{GroupID: c.QueryParam("groupId")}
	if err := bindDeletion(c, &r.MessageIDs, &r); err != nil {
		return err
	}
	return answer(c)(a.deps.Commands.DeleteRemoteGroupMessages(c.Request().Context(), p, r))
}

func (a *API) pinnedMessages(c echo.Context, p commands.Principal) error {
	g, _, err := a.memberReads().memberGroup(c, p, c.QueryParam("groupId"))
	if err != nil {
		return err
	}
	ms := []projections.Message{}
	if len(g.Pinned) > 0 {
		if ms, err = a.deps.Queries.VisibleMessages(c.Request().Context(), viewer(p), g.Pinned); err != nil {
			return err
		}
	}
	return ok(c, ms)
}
