package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/personal"
	"github.com/eventchat/eventchat/projections"
)

// Bodies of the admin API, which imctl calls.
type (
	// AdminTenant names a tenant to create.
	AdminTenant struct {
		Code string `json:"code"`
		Name string `json:"name"`
	}
	// AdminSettings changes a tenant's settings (key=value as imctl takes them).
	AdminSettings struct {
		Code     string            `json:"code"`
		Settings map[string]string `json:"settings"`
	}
	// AdminRebuild names the projector to rebuild, or "all".
	AdminRebuild struct {
		Name string `json:"name"`
	}
	// ProjectionsStatus is the projections' state with the last rebuild's.
	ProjectionsStatus struct {
		projections.Report
		Rebuild projections.Rebuild `json:"rebuild"`
	}
	// AdminMember names a member of a tenant by account, phone or id.
	AdminMember struct {
		Tenant  string `json:"tenant"`
		Account string `json:"account"`
		Level   string `json:"level,omitempty"` // for /admin/member/level
		// Request is, for /admin/member/erase, on whose request: the
		// reference of the request acted on.
		Request string `json:"request,omitempty"`
	}
	// AdminFeedbackReply is an operator's reply to a member's feedback.
	AdminFeedbackReply struct {
		Tenant string `json:"tenant"`
		ID     string `json:"id"`
		Reply  string `json:"reply"`
	}
	// AdminFeedback is a member's feedback with who sent it and the latest
	// reply (reply "" and replyTime 0 before one).
	AdminFeedback struct {
		projections.FeedbackDoc
		Account string `json:"account"`
		Name    string `json:"name"`
		projections.FeedbackReplyDoc
	}
	// AdminFeedbackPage is a page of a tenant's feedback, newest first.
	AdminFeedbackPage struct {
		Records  []AdminFeedback `json:"records"`
		Total    int             `json:"total"`
		CurPage  int             `json:"curPage"`
		PageSize int             `json:"pageSize"`
	}
)

func (a *API) adminRoutes() []route {
	member := func(path, summary string, run func(Commands, context.Context, commands.Operator, AdminMember) (commands.MemberState, error)) route {
		return route{method: http.MethodPut, path: path, admin: true, summary: summary, body: AdminMember{},
			result: commands.MemberState{}, handle: func(c echo.Context, _ commands.Principal) error {
				var m AdminMember
				if err := bind(c, &m); err != nil {
					return err
				}
				return answer(c)(run(a.deps.Commands, c.Request().Context(), operator(c), m))
			}}
	}
	return []route{
		{method: http.MethodGet, path: "/admin/projections/status", admin: true,
			summary: "Every projector's checkpoint, the head of the log, whether it is behind and by how many seconds, the last error, and the last rebuild (operators).",
			result:  ProjectionsStatus{}, handle: a.adminProjectionsStatus},
		{method: http.MethodPost, path: "/admin/projections/rebuild", admin: true,
			summary: "Rebuild the read models from the start of the log into a shadow store and swap it in, in the background (operators); name is a projector or all. Poll GET /admin/projections/rebuild.",
			body:    AdminRebuild{}, result: projections.Rebuild{}, handle: a.adminStartRebuild},
		{method: http.MethodGet, path: "/admin/projections/rebuild", admin: true,
			summary: "The running or last rebuild's progress: events done of total, rate, ETA (operators).",
			result:  projections.Rebuild{}, handle: a.adminRebuildProgress},
		{method: http.MethodDelete, path: "/admin/projections/rebuild", admin: true,
			summary: "Cancel the running rebuild; its shadow stays for the next rebuild to resume from (operators). 409 when none runs.",
			result:  projections.Rebuild{}, handle: a.adminCancelRebuild},
		{method: http.MethodPost, path: "/admin/tenant/create", admin: true, summary: "Create a tenant (operators).",
			body: AdminTenant{}, result: TenantView{}, handle: a.adminCreateTenant},
		{method: http.MethodGet, path: "/admin/tenant/show", admin: true, summary: "A tenant's settings (operators).",
			query: []param{{"code", true, "tenant code"}}, result: TenantView{}, handle: a.adminShowTenant},
		{method: http.MethodPut, path: "/admin/tenant/settings", admin: true,
			summary: "Change a tenant's settings (operators): systemIcon, systemLogo, hasVoiceCall, showGroupMember, sendBatchMessage, singleDevice, illegalWords, sensitiveWords.<Level>, topUp, assistant, assistantBaseURL, assistantModels, assistantTimeout, assistantKey (kept out of the log and never shown).",
			body:    AdminSettings{}, result: TenantView{}, handle: a.adminSettings},
		{method: http.MethodGet, path: "/admin/member/show", admin: true, summary: "A member's level and ban (operators).",
			query:  []param{{"tenant", true, "tenant code"}, {"account", true, "account, phone or member id"}},
			result: commands.MemberState{}, handle: a.adminShowMember},
		member("/admin/member/ban", "Ban a member: every session ends with 31 Disable, logins are refused (operators).",
			func(c Commands, ctx context.Context, op commands.Operator, m AdminMember) (commands.MemberState, error) {
				return c.BanMember(ctx, op, m.Tenant, m.Account)
			}),
		member("/admin/member/unban", "Lift a member's ban (operators).",
			func(c Commands, ctx context.Context, op commands.Operator, m AdminMember) (commands.MemberState, error) {
				return c.UnbanMember(ctx, op, m.Tenant, m.Account)
			}),
		member("/admin/member/offline", "End every session of a member with 31 Offline (operators).",
			func(c Commands, ctx context.Context, op commands.Operator, m AdminMember) (commands.MemberState, error) {
				return c.SignOutMember(ctx, op, m.Tenant, m.Account)
			}),
		{method: http.MethodGet, path: "/admin/feedback/list", admin: true,
			summary: "The feedback a tenant's members sent, newest first, with who sent it and the latest reply (operators).",
			query:   []param{{"tenant", true, "tenant code"}, {"curPage", false, "page, from 1"}, {"pageSize", false, "1 to 100, default 20"}},
			result:  AdminFeedbackPage{}, handle: a.adminFeedback},
		{method: http.MethodPut, path: "/admin/feedback/reply", admin: true,
			summary: "Reply to a member's feedback (operators): reply 1 to 1000 characters; the member gets a notice of kind FeedbackReply.",
			body:    AdminFeedbackReply{}, result: commands.FeedbackReplied{}, handle: func(c echo.Context, _ commands.Principal) error {
				var r AdminFeedbackReply
				if err := bind(c, &r); err != nil {
					return err
				}
				return answer(c)(a.deps.Commands.ReplyFeedback(c.Request().Context(), operator(c), r.Tenant, r.ID, r.Reply))
			}},
		member("/admin/member/level", "Set a member's level code: Normal, Admin or System (operators).",
			func(c Commands, ctx context.Context, op commands.Operator, m AdminMember) (commands.MemberState, error) {
				return c.SetMemberLevel(ctx, op, m.Tenant, m.Account, m.Level)
			}),
		member("/admin/member/erase", "Erase a member's personal data for ever (operators): MemberErased records who erased, when and on whose request (request, at most 200 characters), every session ends, the phone and account are released and the member's data key is destroyed, so that its name, phone, avatar and message bodies read as erased everywhere; every file it uploaded is deleted. Erasing again changes nothing.",
			func(c Commands, ctx context.Context, op commands.Operator, m AdminMember) (commands.MemberState, error) {
				return c.EraseMember(ctx, op, m.Tenant, m.Account, m.Request)
			}),
	}
}

func (a *API) adminCreateTenant(c echo.Context, _ commands.Principal) error {
	var t AdminTenant
	if err := bind(c, &t); err != nil {
		return err
	}
	ctx := c.Request().Context()
	pos, err := a.deps.Commands.CreateTenantAs(ctx, operator(c), t.Code, t.Name)
	if err != nil {
		return err
	}
	cfg, err := a.deps.Commands.TenantConfig(ctx, t.Code)
	if err != nil {
		return err
	}
	return ok(c, tenantView(cfg, pos))
}

func (a *API) adminShowTenant(c echo.Context, _ commands.Principal) error {
	code := c.QueryParam("code")
	if code == "" {
		return fault.New(fault.Invalid, fault.MsgTenantEmpty)
	}
	cfg, err := a.deps.Commands.TenantConfig(c.Request().Context(), code)
	if err != nil {
		return err
	}
	return ok(c, tenantView(cfg, 0))
}

func (a *API) adminSettings(c echo.Context, _ commands.Principal) error {
	var s AdminSettings
	if err := bind(c, &s); err != nil {
		return err
	}
	res, err := a.deps.Commands.ConfigureTenant(c.Request().Context(), operator(c), s.Code, s.Settings)
	if err != nil {
		return err
	}
	return ok(c, tenantView(res.Config, res.Position))
}

func (a *API) adminShowMember(c echo.Context, _ commands.Principal) error {
	return answer(c)(a.deps.Commands.ShowMember(c.Request().Context(), operator(c), c.QueryParam("tenant"), c.QueryParam("account")))
}

func (a *API) adminFeedback(c echo.Context, _ commands.Principal) error {
	code := c.QueryParam("tenant")
	if err := a.deps.Commands.MayListFeedback(operator(c), code); err != nil {
		return err
	}
	page, size, err := pageParams(c, defaultNoticePage, 1, maxNoticePage)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	owner := personal.FeedbackOwner(code)
	items, total, err := a.deps.Queries.PersonalItems(ctx, owner, personal.KindFeedback, page, size)
	if err != nil {
		return err
	}
	out := AdminFeedbackPage{Records: make([]AdminFeedback, len(items)), Total: total, CurPage: page, PageSize: size}
	ids, senders := make([]string, len(items)), make([]string, len(items))
	for i, it := range items {
		if err := json.Unmarshal(it.Doc, &out.Records[i].FeedbackDoc); err != nil {
			return err
		}
		ids[i], senders[i] = it.ID, out.Records[i].MemberID
	}
	replies, err := a.deps.Queries.PersonalItemsByID(ctx, projections.Viewer{Tenant: code, Member: owner}, personal.KindFeedbackReply, ids)
	if err != nil {
		return err
	}
	byID := make(map[string]json.RawMessage, len(replies))
	for _, r := range replies {
		byID[r.ID] = r.Doc
	}
	members, err := a.deps.Queries.MembersByID(ctx, projections.Viewer{Tenant: code}, senders)
	if err != nil {
		return err
	}
	for i := range out.Records {
		f := &out.Records[i]
		f.Account, f.Name = members[f.MemberID].Account, members[f.MemberID].Name
		if doc, ok := byID[f.ID]; ok {
			if err := json.Unmarshal(doc, &f.FeedbackReplyDoc); err != nil {
				return err
			}
		}
	}
	return ok(c, out)
}

func (a *API) projectionAdmin() (ProjectionAdmin, error) {
	if a.deps.Admin == nil {
		return nil, fault.New(fault.NotFound, fault.MsgNotFound)
	}
	return a.deps.Admin, nil
}

func (a *API) adminProjectionsStatus(c echo.Context, _ commands.Principal) error {
	adm, err := a.projectionAdmin()
	if err != nil {
		return err
	}
	r, err := adm.Report(c.Request().Context())
	if err != nil {
		return err
	}
	return ok(c, ProjectionsStatus{Report: r, Rebuild: adm.RebuildProgress()})
}

func (a *API) adminStartRebuild(c echo.Context, _ commands.Principal) error {
	adm, err := a.projectionAdmin()
	if err != nil {
		return err
	}
	var r AdminRebuild
	if err := bind(c, &r); err != nil {
		return err
	}
	if r.Name == "" {
		r.Name = "all"
	}
	p, err := adm.StartRebuild(r.Name)
	switch {
	case errors.Is(err, projections.ErrRebuildRunning):
		return fault.New(fault.Conflict, "a rebuild is already running")
	case errors.Is(err, projections.ErrNoShadow):
		return fault.New(fault.Conflict, "this read store cannot be rebuilt while serving")
	case fault.Is(err, fault.Conflict):
		// Asked of a node that does not fold the log.
		return err
	case err != nil:
		return fault.New(fault.Invalid, "no projector %s", r.Name)
	}
	return ok(c, p)
}

func (a *API) adminCancelRebuild(c echo.Context, _ commands.Principal) error {
	adm, err := a.projectionAdmin()
	if err != nil {
		return err
	}
	p, err := adm.CancelRebuild()
	if errors.Is(err, projections.ErrNoRebuild) {
		return fault.New(fault.Conflict, "no rebuild is running")
	}
	if err != nil {
		return err
	}
	return ok(c, p)
}

func (a *API) adminRebuildProgress(c echo.Context, _ commands.Principal) error {
	adm, err := a.projectionAdmin()
	if err != nil {
		return err
	}
	return ok(c, adm.RebuildProgress())
}
