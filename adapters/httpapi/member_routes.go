package httpapi

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/personal"
	"github.com/eventchat/eventchat/domain/tenant"
	"github.com/eventchat/eventchat/projections"
)

// UserInfo is the signed-in member's own profile.
type UserInfo struct {
	ID               string `json:"id"`
	Name             string `json:"name"`
	Code             string `json:"code"`
	Username         string `json:"username"`
	Phone            string `json:"phone"`
	HeadURL          string `json:"headUrl"`
	Gender           string `json:"gender"`
	MemberLevelCode  string `json:"memberLevelCode"`
	DisplayHead      string `json:"displayHead"`
	SendBatchMessage string `json:"sendBatchMessage"`
	TenantCode       string `json:"tenantCode"`
	// InvitationCode is the member's own, permanent (getRefereeLink);
	// ReferralCode the one it registered with, of ReferrerID ("" for both
	// when it registered without one).
	InvitationCode string `json:"invitationCode"`
	ReferralCode   string `json:"referralCode"`
	ReferrerID     string `json:"referrerId"`
}

// PublicInfo is what other members see of a member.
type PublicInfo struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	Code            string `json:"code"`
	Username        string `json:"username"`
	HeadURL         string `json:"headUrl"`
	MemberLevelCode string `json:"memberLevelCode"`
}

// LoginResult answers a login.
type LoginResult struct {
	Token string `json:"token"`
	WSKey []byte `json:"wsKey"`
	UserInfo
}

func userInfo(m projections.Member) UserInfo {
	return UserInfo{
		ID: m.ID, Name: m.Name, Code: m.Account, Username: m.Account, Phone: m.Phone, HeadURL: m.HeadURL,
		Gender: genderOf(m.Gender), MemberLevelCode: m.Level, DisplayHead: "N", SendBatchMessage: personal.Enable,
		TenantCode: m.Tenant, InvitationCode: member.InvitationCode(m.ID), ReferralCode: referralCode(m.Referrer), ReferrerID: m.Referrer,
	}
}

func referralCode(referrer string) string {
	if referrer == "" {
		return ""
	}
	return member.InvitationCode(referrer)
}

func publicInfo(m projections.Member) PublicInfo {
	return PublicInfo{ID: m.ID, Name: m.Name, Code: m.Account, Username: m.Account, HeadURL: m.HeadURL, MemberLevelCode: m.Level}
}

func (a *API) memberRoutes() []route {
	return []route{
		{method: http.MethodGet, path: "/member/sms/send", public: true,
			summary: "Send a one-time code by SMS (embedded profile: appended to <data dir>/sms-outbox.ndjson): valid 10 minutes, used once, " +
				"void after 5 wrong tries; it replaces the phone's earlier code of that type. One a minute and 5 an hour per phone.",
			query: []param{{"phone", true, "mainland China mobile number"}, {"type", true, "register | reset | login"},
				{"tenantCode", false, "server ID, default " + tenant.Default}},
			handle: a.sendSMS},
		{method: http.MethodPost, path: "/member/memberInfo/register", public: true,
			summary: "Register a member; the SMS code (type=register) is spent.", body: commands.Register{}, result: UserInfo{}, handle: a.register},
		{method: http.MethodPost, path: "/member/memberInfo/login", public: true,
			summary: "Log in with account or phone; returns the token and the websocket key. " +
				"10 wrong passwords for one member in 15 minutes, by any spelling of its account or phone, refuse its logins (429) until the window ends.",
			body: commands.Login{}, result: LoginResult{}, handle: a.login},
		{method: http.MethodGet, path: "/member/memberInfo/logout", summary: "End this login session.", handle: a.logout},
		{method: http.MethodGet, path: "/member/memberInfo/getMemberByToken", summary: "The signed-in member.",
			result: UserInfo{}, handle: a.me},
		{method: http.MethodGet, path: "/member/memberInfo/getMemberByMemberId", summary: "A member of the tenant by id.",
			query: []param{{"memberId", true, "member id"}}, result: PublicInfo{}, handle: a.memberByID},
		{method: http.MethodGet, path: "/member/memberInfo/getMemberByCodeOrUsername",
			summary: "Find a member of the tenant by exact account or phone.",
			query:   []param{{"keyword", true, "account or phone"}}, result: PublicInfo{}, handle: a.findMember},
	}
}

func (a *API) sendSMS(c echo.Context, _ commands.Principal) error {
	t := c.QueryParam("tenantCode")
	if t == "" {
		t = tenant.Default
	}
	if err := tenant.ValidateCode(t); err != nil {
		return err
	}
	if err := a.deps.Commands.SendSMSCode(c.Request().Context(), t, c.QueryParam("phone"), c.QueryParam("type")); err != nil {
		return err
	}
	return ok(c, nil)
}

func (a *API) register(c echo.Context, _ commands.Principal) error {
	var r commands.Register
	if err := bind(c, &r); err != nil {
		return err
	}
	if r.TenantCode == "" {
		r.TenantCode = tenant.Default
	}
	res, err := a.deps.Commands.RegisterMember(c.Request().Context(), r)
	if err != nil {
		return err
	}
	m, err := a.member(c.Request().Context(), projections.Viewer{Tenant: r.TenantCode, Member: res.MemberID}, res.MemberID, res.Position)
	if err != nil {
		return err
	}
	return ok(c, userInfo(m))
}

func (a *API) login(c echo.Context, _ commands.Principal) error {
	var l commands.Login
	if err := bind(c, &l); err != nil {
		return err
	}
	if l.TenantCode == "" {
		l.TenantCode = tenant.Default
	}
	l.Device = c.Request().UserAgent()
	l.IP = clientIP(c)
	res, err := a.deps.Commands.LoginMember(c.Request().Context(), l)
	if err != nil {
		return err
	}
	m, err := a.member(c.Request().Context(), viewer(res.Principal), res.Principal.MemberID, res.Position)
	if err != nil {
		return err
	}
	info, err := a.withBatchSetting(c.Request().Context(), userInfo(m))
	if err != nil {
		return err
	}
	token, key := a.deps.Tokens.Issue(res.Principal)
	c.Set(principalKey, res.Principal)
	return ok(c, LoginResult{Token: token, WSKey: key, UserInfo: info})
}

func (a *API) logout(c echo.Context, p commands.Principal) error {
	pos, err := a.deps.Commands.Logout(c.Request().Context(), p)
	if err != nil {
		return err
	}
	a.waitFor(c.Request().Context(), pos)
	return ok(c, nil)
}

func (a *API) me(c echo.Context, p commands.Principal) error {
	m, err := a.member(c.Request().Context(), viewer(p), p.MemberID, 0)
	if err != nil {
		return err
	}
	return answer(c)(a.withBatchSetting(c.Request().Context(), userInfo(m)))
}

func (a *API) memberByID(c echo.Context, p commands.Principal) error {
	m, err := a.member(c.Request().Context(), viewer(p), c.QueryParam("memberId"), 0)
	if err != nil {
		return err
	}
	return ok(c, publicInfo(m))
}

func (a *API) findMember(c echo.Context, p commands.Principal) error {
	kw := c.QueryParam("keyword")
	if kw == "" {
		return fault.New(fault.Invalid, fault.MsgAccountEmpty)
	}
	m, found, err := a.deps.Queries.FindMember(c.Request().Context(), p.Tenant, kw)
	if err == nil && !found {
		m, found, err = a.deps.Queries.FindMember(c.Request().Context(), p.Tenant, member.NormalizePhone(kw))
	}
	if err != nil {
		return err
	}
	if !found {
		return fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	return ok(c, publicInfo(m))
}

// member reads the directory entry of member id, which v sees, once the
// read models have folded position (0: whatever they hold).
func (a *API) member(ctx context.Context, v projections.Viewer, id string, position uint64) (projections.Member, error) {
	if position > 0 {
		a.waitFor(ctx, position)
	}
	ms, err := a.deps.Queries.MembersByID(ctx, v, []string{id})
	if err != nil {
		return projections.Member{}, err
	}
	m, found := ms[id]
	if !found {
		return projections.Member{}, fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	return m, nil
}
