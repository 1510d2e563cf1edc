package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/adapters/envelope"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/notice"
	"github.com/eventchat/eventchat/projections"
)

// NoticeItem is a system notice as the client lists it: the spec's id,
// content, command, readFlag, createTime and contentId, with whom and what
// it tells of.
type NoticeItem struct {
	projections.Notice
	Content   string `json:"content"`  // in the request's language
	Message   string `json:"message"`  // the text the act carried (a friend request's)
	ReadFlag  string `json:"readFlag"` // Unread | Read
	FromName  string `json:"fromName"`
	FromHead  string `json:"fromHead"`
	GroupID   string `json:"groupId,omitempty"`
	GroupName string `json:"groupName,omitempty"`
	// Verification: code, validMinutes, system; GroupJoinRequest:
	// requestId, memberId (who would join), status.
	projections.NoticeDetail
	MemberName string `json:"memberName,omitempty"` // GroupJoinRequest: who would join
}

// NoticePage is a page of a member's notices, newest first, with its
// unread counts.
type NoticePage struct {
	Records  []NoticeItem             `json:"records"`
	Total    int                      `json:"total"`
	CurPage  int                      `json:"curPage"`
	PageSize int                      `json:"pageSize"`
	Counts   projections.NoticeCounts `json:"counts"`
}

const (
	defaultNoticePage = 20
	maxNoticePage     = 100
)

func (a *API) noticeRoutes() []route {
	return []route{
		{method: http.MethodGet, path: "/message/messagePush/history/systemNotify/list",
			summary: "The member's system notices of a tab, newest first, with their read flags and the unread counts.",
			query: []param{{"tab", false, "all (default) | friends | system | groups"}, {"curPage", false, "page, from 1"},
				{"pageSize", false, "1 to 100, default 20"}},
			result: NoticePage{}, handle: a.notices},
		{method: http.MethodGet, path: "/message/messagePush/history/systemNotify/count",
			summary: "The member's unread notices: total, friend, system and group; cmd 44 pushes the same.",
			result:  projections.NoticeCounts{}, handle: a.noticeCounts},
		commandRoute(a, http.MethodPut, "/message/messagePush/history/systemNotify/read",
			"Mark one notice Read; a read one stays as it is (position 0). The member's connections get cmd 44.",
			Commands.ReadNotice),
		{method: http.MethodPut, path: "/message/messagePush/history/systemNotify/readAll",
			summary: "Mark every notice given until now Read (position 0 when none was unread); cmd 44.",
			result:  commands.NoticesChanged{}, handle: func(c echo.Context, p commands.Principal) error {
				return answer(c)(a.deps.Commands.ReadAllNotices(c.Request().Context(), p))
			}},
		commandRoute(a, http.MethodPost, "/message/deleteSystemMessageBatch",
			"Delete 1 to 100 of the member's notices; any unknown id refuses all (404). cmd 44.",
			Commands.DeleteNotices),
	}
}

func (a *API) notices(c echo.Context, p commands.Principal) error {
	tab, err := notice.ParseTab(c.QueryParam("tab"))
	if err != nil {
		return err
	}
	page, size, err := pageParams(c, defaultNoticePage, 1, maxNoticePage)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	ns, total, err := a.deps.Queries.Notices(ctx, p.MemberID, string(tab), page, size)
	if err != nil {
		return err
	}
	counts, err := a.deps.Queries.NoticeCounts(ctx, p.MemberID)
	if err != nil {
		return err
	}
	items, err := a.noticeItems(c, viewer(p), ns)
	if err != nil {
		return err
	}
	return ok(c, NoticePage{Records: items, Total: total, CurPage: page, PageSize: size, Counts: counts})
}

// noticeItems turns notices into items with the names of whom and what
// they tell of, and their texts in the request's language.
func (a *API) noticeItems(c echo.Context, v projections.Viewer, ns []projections.Notice) ([]NoticeItem, error) {
	ctx := c.Request().Context()
	ids := make([]string, 0, len(ns))
	for _, n := range ns {
		ids = append(ids, n.Actor)
		if n.Detail.Member != "" {
			ids = append(ids, n.Detail.Member)
		}
	}
	members, err := a.deps.Queries.MembersByID(ctx, v, ids)
	if err != nil {
		return nil, err
	}
	groups := map[string]projections.Group{}
	lang := envelope.Language(c.Request().Header.Get("Accept-Language"))
	out := make([]NoticeItem, 0, len(ns))
	for _, n := range ns {
		from := members[n.Actor]
		item := NoticeItem{Notice: n, Message: n.Content, ReadFlag: projections.StatusUnread, FromName: from.Name, FromHead: from.HeadURL,
			NoticeDetail: n.Detail}
		if n.Read {
			item.ReadFlag = projections.StatusRead
		}
		switch notice.Kind(n.Kind) {
		case notice.FriendRequest:
			item.Content = envelope.Translatef(lang, fault.NoticeFriendRequest, from.Name)
		case notice.FriendAccepted:
			item.Content = envelope.Translatef(lang, fault.NoticeFriendAccepted, from.Name)
		case notice.FriendRefused:
			item.Content = envelope.Translatef(lang, fault.NoticeFriendRefused, from.Name)
		case notice.Verification:
			item.Content = envelope.Translatef(lang, fault.NoticeVerification, n.Detail.System, n.Detail.Code, n.Detail.ValidMinutes)
		case notice.FeedbackReply:
			item.Content = envelope.Translatef(lang, fault.NoticeFeedbackReply)
		case notice.GroupInvite, notice.GroupOwner, notice.GroupJoinRequest:
			g, seen := groups[n.ContentID]
			if !seen {
				if g, _, err = a.deps.Queries.Group(ctx, v, n.ContentID); err != nil {
					return nil, err
				}
				groups[n.ContentID] = g
			}
			item.GroupID, item.GroupName = n.ContentID, g.Name
			switch notice.Kind(n.Kind) {
			case notice.GroupOwner:
				item.Content = envelope.Translatef(lang, fault.NoticeGroupOwner, from.Name, g.Name)
			case notice.GroupJoinRequest:
				item.MemberName = members[n.Detail.Member].Name
				item.Content = envelope.Translatef(lang, fault.NoticeGroupJoinRequest, from.Name, item.MemberName, g.Name)
			default:
				item.Content = envelope.Translatef(lang, fault.NoticeGroupInvite, from.Name, g.Name)
			}
		default:
			item.Content = n.Content
		}
		out = append(out, item)
	}
	return out, nil
}

func (a *API) noticeCounts(c echo.Context, p commands.Principal) error {
	counts, err := a.deps.Queries.NoticeCounts(c.Request().Context(), p.MemberID)
	if err != nil {
		return err
	}
	return ok(c, counts)
}
