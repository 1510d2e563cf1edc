package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/projections"
)

// GroupApplyView is one join request of a group as listed.
type GroupApplyView struct {
	projections.GroupApply
	GroupName string     `json:"groupName"`
	Member    PublicInfo `json:"member"`
	Inviter   PublicInfo `json:"inviter"`
}

// GroupApplyPage is a page of join requests.
type GroupApplyPage struct {
	Records  []GroupApplyView `json:"records"`
	Total    int              `json:"total"`
	CurPage  int              `json:"curPage"`
	PageSize int              `json:"pageSize"`
}

func (a *API) groupApplyRoutes() []route {
	return []route{
		{method: http.MethodGet, path: "/chat/applyInfo/listGroupApplyInfo",
			summary: "Join requests of the groups the member owns or administers, newest first; answered with PUT /chat/applyInfo/modify.",
			query:   []param{{"curPage", false, "page, from 1"}, {"pageSize", false, "1 to 99, default 99"}},
			result:  GroupApplyPage{}, handle: a.groupApplies},
	}
}

func (a *API) groupApplies(c echo.Context, p commands.Principal) error {
	page, size, err := applyPage(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	items, total, err := a.deps.Queries.GroupApplies(ctx, viewer(p), page, size)
	if err != nil {
		return err
	}
	ids := make([]string, 0, 2*len(items))
	for _, it := range items {
		ids = append(ids, it.Member, it.By)
	}
	members, err := a.deps.Queries.MembersByID(ctx, viewer(p), ids)
	if err != nil {
		return err
	}
	out := GroupApplyPage{Records: make([]GroupApplyView, 0, len(items)), Total: total, CurPage: page, PageSize: size}
	names := map[string]string{}
	for _, it := range items {
		name, ok := names[it.GroupID]
		if !ok {
			g, _, err := a.deps.Queries.Group(ctx, viewer(p), it.GroupID)
			if err != nil {
				return err
			}
			name, names[it.GroupID] = g.Name, g.Name
		}
		out.Records = append(out.Records, GroupApplyView{GroupApply: it, GroupName: name,
			Member: publicInfo(members[it.Member]), Inviter: publicInfo(members[it.By])})
	}
	return ok(c, out)
}
