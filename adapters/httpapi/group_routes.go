package httpapi

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/projections"
)

// GroupInfo is a group as its members see it, with the asking member's
// role.
type GroupInfo struct {
	projections.Group
	MyRole     string `json:"myRole"`
	AllowSpeak string `json:"allowSpeak"` // N when the whole group is muted
}

// GroupMemberItem is a member of a group with its name and avatar.
type GroupMemberItem struct {
	projections.GroupMember
	Name       string `json:"name"`
	HeadURL    string `json:"headUrl"`
	AllowSpeak string `json:"allowSpeak"` // N while muted
}

// MyGroups are the member's groups: managed (Owner or Admin) and joined.
type MyGroups struct {
	Managed []GroupInfo `json:"managed"`
	Joined  []GroupInfo `json:"joined"`
}

func (a *API) groupRoutes() []route {
	groupQuery := []param{{"groupId", true, "the group"}}
	change := func(path, summary string, run func(Commands, context.Context, commands.Principal, commands.GroupChange) (commands.GroupWritten, error)) route {
		return commandRoute(a, http.MethodPut, path, summary, run)
	}
	return []route{
		commandRoute(a, http.MethodPost, "/chat/groupInfo/build",
			"Create a group (name required, 1 to 100 friends invited; headUrl, when given, a jpg or png picture the creator uploaded); its members get cmd 22.",
			Commands.CreateGroup),
		{method: http.MethodGet, path: "/chat/groupInfo/getGroupInfoByGroupId",
			summary: "A group the member belongs to, with the member's role.", query: groupQuery,
			result: GroupInfo{}, handle: a.groupInfo},
		{method: http.MethodGet, path: "/chat/groupInfo/listGroupMember",
			summary: "A group's members: the owner, the admins, then the others.", query: groupQuery,
			result: []GroupMemberItem{}, handle: a.groupMembers},
		{method: http.MethodGet, path: "/chat/groupInfo/listMemberInGroup",
			summary: "The member's groups, managed (Owner, Admin) and joined (Normal); names starting with a digit last.",
			result:  MyGroups{}, handle: a.myGroups},
		commandRoute(a, http.MethodPost, "/chat/applyInfo/batchMemberToGroup",
			"Invite friends (at most 100) into a group; they get cmd 22, the members cmd 23.",
			Commands.InviteToGroup),
		change("/chat/groupInfo/setMemberRole", "Owner only: make a member Admin or Normal; members get cmd 23.", Commands.SetGroupRole),
		change("/chat/groupInfo/deleteGroupMember", "Owner or Admin: remove members of lower rank; they get cmd 21.", Commands.RemoveGroupMembers),
		change("/chat/groupInfo/leave", "Leave a group (not its owner; only while the group allows it); cmd 21.", Commands.LeaveGroup),
		change("/chat/groupInfo/transfer", "Owner only: make another member the owner; the old owner becomes Admin.", Commands.TransferGroup),
		change("/chat/groupInfo/muteMember", "Owner or Admin: mute a member of lower rank for minutes (0 unmutes).", Commands.MuteGroupMember),
		change("/chat/groupInfo/modifyMemberNickname", "Set one's nickname in a group.", Commands.SetGroupNickname),
		commandRoute(a, http.MethodPut, "/chat/groupInfo/modify",
			"Change name, notice, avatar (headUrl: a jpg or png picture the caller uploaded, or the current one; \"\" removes it), send rate (Admin), mute all (Admin), allow leaving (Owner); cmd 23.",
			Commands.ModifyGroup),
		{method: http.MethodDelete, path: "/chat/groupInfo/delete",
			summary: "Owner only: dissolve a group; its members get cmd 21.", query: groupQuery,
			body: commands.GroupChange{}, result: commands.GroupWritten{}, handle: a.dissolveGroup},
	}
}

// memberGroup finds group id, which the principal belongs to, with its
// role there; 404 otherwise (another tenant's groups are not visible).
func (r memberReads) memberGroup(c echo.Context, p commands.Principal, id string) (projections.Group, string, error) {
	g, err := r.tenantGroup(c.Request().Context(), viewer(p), id)
	if err != nil {
		return g, "", err
	}
	ms, err := r.q.MemberGroups(c.Request().Context(), p.MemberID)
	if err != nil {
		return g, "", err
	}
	for _, m := range ms {
		if m.GroupID == id {
			return g, m.Role, nil
		}
	}
	return g, "", fault.New(fault.NotFound, fault.MsgGroupNotFound)
}

// tenantGroup finds group id, which v sees, 404 otherwise.
func (r memberReads) tenantGroup(ctx context.Context, v projections.Viewer, id string) (projections.Group, error) {
	if id == "" {
		return projections.Group{}, fault.New(fault.Invalid, fault.MsgGroupNotFound)
	}
	g, ok, err := r.q.Group(ctx, v, id)
	if err != nil {
		return g, err
	}
	if !ok {
		return g, fault.New(fault.NotFound, fault.MsgGroupNotFound)
	}
	return g, nil
}

func infoOf(g projections.Group, role string) GroupInfo {
	speak := "Y"
	if g.MuteAll && (g.MuteAllUntil == 0 || g.MuteAllUntil > time.Now().UnixMilli()) {
		speak = "N"
	}
	return GroupInfo{Group: g, MyRole: role, AllowSpeak: speak}
}

func (a *API) groupInfo(c echo.Context, p commands.Principal) error {
	g, role, err := a.memberReads().memberGroup(c, p, c.QueryParam("groupId"))
	if err != nil {
		return err
	}
	return ok(c, infoOf(g, role))
}

func (a *API) groupMembers(c echo.Context, p commands.Principal) error {
	r := a.memberReads()
	g, _, err := r.memberGroup(c, p, c.QueryParam("groupId"))
	if err != nil {
		return err
	}
	return answer(c)(r.groupMemberItems(c.Request().Context(), viewer(p), g.ID))
}

// groupMemberItems lists the members of a group v sees the roster of,
// with their names, avatars and whether they may speak.
func (r memberReads) groupMemberItems(ctx context.Context, v projections.Viewer, groupID string) ([]GroupMemberItem, error) {
	ms, err := r.q.GroupMembers(ctx, v, groupID)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.Member
	}
	people, err := r.q.MembersByID(ctx, v, ids)
	if err != nil {
		return nil, err
	}
	now := time.Now().UnixMilli()
	out := make([]GroupMemberItem, len(ms))
	for i, m := range ms {
		speak := "Y"
		if m.MutedUntil > now {
			speak = "N"
		}
		out[i] = GroupMemberItem{GroupMember: m, Name: people[m.Member].Name, HeadURL: people[m.Member].HeadURL, AllowSpeak: speak}
	}
	return out, nil
}

func (a *API) myGroups(c echo.Context, p commands.Principal) error {
	return answer(c)(a.memberReads().myGroups(c.Request().Context(), viewer(p)))
}

// myGroups lists v's groups, managed and joined, with its role.
func (r memberReads) myGroups(ctx context.Context, v projections.Viewer) (MyGroups, error) {
	ms, err := r.q.MemberGroups(ctx, v.Member)
	if err != nil {
		return MyGroups{}, err
	}
	out := MyGroups{Managed: []GroupInfo{}, Joined: []GroupInfo{}}
	for _, m := range ms {
		g, found, err := r.q.Group(ctx, v, m.GroupID)
		if err != nil {
			return MyGroups{}, err
		}
		if !found || g.Dissolved {
			continue
		}
		if m.Role == "Normal" {
			out.Joined = append(out.Joined, infoOf(g, m.Role))
		} else {
			out.Managed = append(out.Managed, infoOf(g, m.Role))
		}
	}
	slices.SortStableFunc(out.Managed, byGroupName)
	slices.SortStableFunc(out.Joined, byGroupName)
	return out, nil
}

// byGroupName sorts by name, names starting with a digit last.
func byGroupName(x, y GroupInfo) int {
	dx, dy := startsWithDigit(x.Name), startsWithDigit(y.Name)
	if dx != dy {
		if dx {
			return 1
		}
		return -1
	}
	return strings.Compare(strings.ToLower(x.Name), strings.ToLower(y.Name))
}

func startsWithDigit(s string) bool {
	for _, r := range s {
		return unicode.IsDigit(r)
	}
	return false
}

func (a *API) dissolveGroup(c echo.Context, p commands.Principal) error {
	r := commands.GroupChange{GroupID: c.QueryParam("groupId")}
	if c.Request().ContentLength != 0 {
		if err := bind(c, &r); err != nil {
			return err
		}
	}
	return answer(c)(a.deps.Commands.DissolveGroup(c.Request().Context(), p, r))
}
