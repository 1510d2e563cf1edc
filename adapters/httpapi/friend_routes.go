package httpapi

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/projections"
)

// FriendView is one friend in the friend list.
type FriendView struct {
	ID              string `json:"id"`
	FriendMemberID  string `json:"friendMemberId"`
	Name            string `json:"name"`
	Remark          string `json:"remark"`
	Code            string `json:"code"`
	Username        string `json:"username"`
	HeadURL         string `json:"headUrl"`
	MemberLevelCode string `json:"memberLevelCode"`
	Blocked         bool   `json:"blocked"`
	CreateTime      int64  `json:"createTime"`
	// IsOnline: the friend has a websocket open (the client's
	// friendIsOnline); 33 pushes its changes.
	IsOnline bool `json:"isOnline"`
}

// FriendCategory is a group of friends in the friend list.
type FriendCategory struct {
	ID      string       `json:"id"`
	Name    string       `json:"name"`
	Friends []FriendView `json:"friends"`
}

// ApplyView is one friend request as listed.
type ApplyView struct {
	projections.Apply
	Direction string     `json:"direction"`
	Member    PublicInfo `json:"member"`
}

// ApplyPage is a page of friend requests.
type ApplyPage struct {
	Records  []ApplyView `json:"records"`
	Total    int         `json:"total"`
	CurPage  int         `json:"curPage"`
	PageSize int         `json:"pageSize"`
}

const maxApplyPage = 99

func (a *API) friendRoutes() []route {
	return []route{
		{method: http.MethodPost, path: "/chat/applyInfo/build", summary: "Ask a member of the tenant to be friends.",
			body: commands.RequestFriend{}, result: commands.Applied{}, handle: a.requestFriend},
		a.afterHead(commandRoute(a, http.MethodPut, "/chat/applyInfo/modify", "Accept or reject a friend request.",
			Commands.AnswerFriendRequest)),
		a.afterHead(commandRoute(a, http.MethodPost, "/chat/applyInfo/modify", "Accept or reject a friend request.",
			Commands.AnswerFriendRequest)),
		{method: http.MethodGet, path: "/chat/applyInfo/queryFriendApplyInfoPages",
			summary: "Friend requests sent and received, newest first.",
			query:   []param{{"curPage", false, "page, from 1"}, {"pageSize", false, "1 to 99, default 99"}},
			result:  ApplyPage{}, handle: a.applies},
		{method: http.MethodGet, path: "/chat/friendGroup/listFriendGroupByMemberId",
			summary: "The friend list, by category.", result: []FriendCategory{}, handle: a.friends},
		{method: http.MethodGet, path: "/chat/friendInfo/getFriendInfoByGroupId",
			summary: "The friends of one category (groupId; every friend is in category 0).",
			query:   []param{{"groupId", false, "the category, 0 by default"}}, result: []FriendView{}, handle: a.friendsOfCategory},
		{method: http.MethodGet, path: "/chat/friendInfo/listFriendInfoMessage/:id",
			summary: "One friend, as the friend list shows it.", result: FriendView{}, handle: a.friendInfo},
		a.afterHead(commandRoute(a, http.MethodPut, "/chat/applyInfo/batchModify",
			"Accept or reject up to 99 received friend requests; one already processed refuses all.", Commands.AnswerFriendRequests)),
		a.afterHead(commandRoute(a, http.MethodPost, "/chat/applyInfo/delete",
			"Delete up to 99 friend requests, sent or received, from your list.", Commands.DeleteFriendRequests)),
		commandRoute(a, http.MethodPut, "/chat/friendInfo/modify",
			"Set the remark of a friend, or block or unblock them (push 48 to your devices).", Commands.ModifyFriend),
		commandRoute(a, http.MethodPost, "/chat/friendInfo/delete",
			"Delete a friend, for both members: the conversation is hidden (push 25).", Commands.DeleteFriend),
	}
}

// afterHead makes r wait until the read models hold the whole log: the
// requests it acts on are found through their read model.
func (a *API) afterHead(r route) route {
	handle := r.handle
	r.handle = func(c echo.Context, p commands.Principal) error {
		if err := a.waitHead(c.Request().Context()); err != nil {
			return err
		}
		return handle(c, p)
	}
	return r
}

func (a *API) requestFriend(c echo.Context, p commands.Principal) error {
	var r commands.RequestFriend
	if err := bind(c, &r); err != nil {
		return err
	}
	res, err := a.deps.Commands.RequestFriend(c.Request().Context(), p, r)
	if err != nil {
		return err
	}
	return ok(c, res)
}

// pageParams reads a list's curPage (1 by default) and pageSize (def by
// default, minSize to maxSize).
func pageParams(c echo.Context, def, minSize, maxSize int) (page, size int, err error) {
	if page, err = intParam(c, "curPage", 1, 1, 1<<20); err == nil {
		size, err = intParam(c, "pageSize", def, minSize, maxSize)
	}
	return page, size, err
}

// applyPage reads the curPage and pageSize of a list of requests.
func applyPage(c echo.Context) (page, size int, err error) {
	return pageParams(c, maxApplyPage, 1, maxApplyPage)
}

func (a *API) applies(c echo.Context, p commands.Principal) error {
	page, size, err := applyPage(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	items, total, err := a.deps.Queries.Applies(ctx, p.MemberID, page, size)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(items))
	for _, it := range items {
		ids = append(ids, other(it, p.MemberID))
	}
	members, err := a.deps.Queries.MembersByID(ctx, viewer(p), ids)
	if err != nil {
		return err
	}
	out := ApplyPage{Records: make([]ApplyView, 0, len(items)), Total: total, CurPage: page, PageSize: size}
	for _, it := range items {
		dir := "received"
		if it.From == p.MemberID {
			dir = "sent"
		}
		out.Records = append(out.Records, ApplyView{Apply: it, Direction: dir, Member: publicInfo(members[other(it, p.MemberID)])})
	}
	return ok(c, out)
}

func other(a projections.Apply, me string) string {
	if a.From == me {
		return a.To
	}
	return a.From
}

func (a *API) friends(c echo.Context, p commands.Principal) error {
	views, err := a.memberReads().friendViews(c, p)
	if err != nil {
		return err
	}
	return ok(c, []FriendCategory{{ID: defaultCategory, Name: "My friends", Friends: views}})
}

// defaultCategory is the one friend category: every friend is in it.
const defaultCategory = "0"

// friendsOfCategory lists the friends of one category.
func (a *API) friendsOfCategory(c echo.Context, p commands.Principal) error {
	if id := c.QueryParam("groupId"); id != "" && id != defaultCategory {
		return fault.New(fault.NotFound, fault.MsgFriendCategoryMissing)
	}
	views, err := a.memberReads().friendViews(c, p)
	if err != nil {
		return err
	}
	return ok(c, views)
}

// friendInfo answers one friend of p, as the friend list shows it.
func (a *API) friendInfo(c echo.Context, p commands.Principal) error {
	views, err := a.memberReads().friendViews(c, p)
	if err != nil {
		return err
	}
	for _, v := range views {
		if v.FriendMemberID == c.Param("id") {
			return ok(c, v)
		}
	}
	return fault.New(fault.NotFound, fault.MsgFriendMissing)
}

// friendViews lists p's friends with their public info.
func (r memberReads) friendViews(c echo.Context, p commands.Principal) ([]FriendView, error) {
	ctx := c.Request().Context()
	fs, err := r.q.Friends(ctx, p.MemberID)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(fs))
	for i, f := range fs {
		ids[i] = f.FriendID
	}
	members, err := r.q.MembersByID(ctx, viewer(p), ids)
	if err != nil {
		return nil, err
	}
	views := make([]FriendView, 0, len(fs))
	for _, f := range fs {
		m := members[f.FriendID]
		views = append(views, FriendView{
			ID: f.FriendID, FriendMemberID: f.FriendID, Name: m.Name, Remark: f.Remark, Code: m.Account,
			Username: m.Account, HeadURL: m.HeadURL, MemberLevelCode: m.Level, Blocked: f.Blocked, CreateTime: f.Since,
			IsOnline: r.presence != nil && r.presence.Online(p.Tenant, f.FriendID),
		})
	}
	return views, nil
}

// intParam reads an optional integer query parameter within [lo, hi].
func intParam(c echo.Context, name string, def, lo, hi int) (int, error) {
	return intValue(c.QueryParam(name), def, lo, hi)
}

// intValue reads an optional integer within [lo, hi], def when raw is "".
func intValue(raw string, def, lo, hi int) (int, error) {
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < lo || n > hi {
		return 0, fault.New(fault.Invalid, fault.MsgBadRequest)
	}
	return n, nil
}
