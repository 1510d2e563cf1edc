package httpapi

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/personal"
	"github.com/eventchat/eventchat/projections"
)

// The fixed pseudo-entries of the conversation list (spec, reading A).
const (
	FixedFavourites = "001"
	FixedGroupSend  = "002"
	FixedNotices    = "003"
)

// AugmentedItem is an entry of the augmented conversation list: a
// conversation, or a fixed entry (chatType Collect, GroupSend or
// SystemAlert) summing up its space; the notices entry carries the unread
// counts.
type AugmentedItem struct {
	SessionItem
	NoticeCounts *projections.NoticeCounts `json:"noticeCounts,omitempty"`
}

func (a *API) augmentRoutes() []route {
	return []route{
		{method: http.MethodGet, path: "/message/sessionInfo/list/augment",
			summary: "The conversation list augmented by the three fixed entries first: favourites 001 (Collect), group-send 002 " +
				"(GroupSend) and notifications 003 (SystemAlert), each with its newest item's preview and time; 003's unreadCount " +
				"is the unread notices, noticeCounts their split. cmd 44 tells of a change of those counts.",
			result: []AugmentedItem{}, handle: a.augmented},
	}
}

func (a *API) augmented(c echo.Context, p commands.Principal) error {
	ctx := c.Request().Context()
	fixed := func(id, chatType string) AugmentedItem {
		return AugmentedItem{SessionItem: SessionItem{SessionView: projections.SessionView{
			ID: id, Type: chatType, ChatType: chatType, TopMessage: "N", DoNotDisturb: "N", MarkedUnread: "N", Hide: "N"}}}
	}
	favourites, groupSend, notices := fixed(FixedFavourites, "Collect"), fixed(FixedGroupSend, "GroupSend"), fixed(FixedNotices, "SystemAlert")

	newest := func(kind string, into *AugmentedItem) error {
		items, _, err := a.deps.Queries.PersonalItems(ctx, p.MemberID, kind, 1, 1)
		if err != nil || len(items) == 0 {
			return err
		}
		var doc struct {
			MsgType string `json:"msgType"`
			Content string `json:"content"`
			At      int64  `json:"createTime"`
		}
		if err := json.Unmarshal(items[0].Doc, &doc); err != nil {
			return err
		}
		into.LastMessageType, into.LastMessageTime = doc.MsgType, doc.At
		into.LastMessageContent = chat.Preview(doc.MsgType, doc.Content)
		return nil
	}
	if err := newest(personal.KindFavourite, &favourites); err != nil {
		return err
	}
	if err := newest(personal.KindBatch, &groupSend); err != nil {
		return err
	}
	counts, err := a.deps.Queries.NoticeCounts(ctx, p.MemberID)
	if err != nil {
		return err
	}
	notices.UnreadCount, notices.NoticeCounts = counts.Total, &counts
	ns, _, err := a.deps.Queries.Notices(ctx, p.MemberID, "", 1, 1)
	if err != nil {
		return err
	}
	if len(ns) > 0 {
		items, err := a.noticeItems(c, viewer(p), ns)
		if err != nil {
			return err
		}
		notices.LastMessageID, notices.LastMessageContent, notices.LastMessageTime = items[0].ID, items[0].Content, items[0].CreatedAt
	}

	sessions, err := a.memberReads().sessionItems(c, viewer(p), func(projections.Session) bool { return true })
	if err != nil {
		return err
	}
	out := make([]AugmentedItem, 0, 3+len(sessions))
	out = append(out, favourites, groupSend, notices)
	for _, s := range sessions {
		out = append(out, AugmentedItem{SessionItem: s})
	}
	return ok(c, out)
}
