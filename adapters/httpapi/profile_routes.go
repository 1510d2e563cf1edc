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
)

// ProfileCommands are the use cases of a member's profile, credentials,
// feedback and settings.
type ProfileCommands interface {
	ModifyProfile(ctx context.Context, p commands.Principal, r commands.ModifyProfile) (commands.ProfileWritten, error)
	EraseAccount(ctx context.Context, p commands.Principal, r commands.EraseAccount) (commands.ProfileWritten, error)
	ModifyPassword(ctx context.Context, p commands.Principal, r commands.ModifyPassword) (commands.ProfileWritten, error)
	ModifyUsername(ctx context.Context, p commands.Principal, r commands.ModifyUsername) (commands.ProfileWritten, error)
	ModifyMobile(ctx context.Context, p commands.Principal, r commands.ModifyMobile) (commands.ProfileWritten, error)
	IsMobileRegistered(ctx context.Context, tenant, phone string) (bool, error)
	ForgetPassword(ctx context.Context, r commands.ForgetPassword) (commands.ProfileWritten, error)
	BuildFeedback(ctx context.Context, p commands.Principal, r commands.BuildFeedback) (commands.FeedbackBuilt, error)
	Preferences(ctx context.Context, p commands.Principal) (personal.Preferences, error)
	SetPreferences(ctx context.Context, p commands.Principal, r personal.PreferencesChange) (commands.PreferencesWritten, error)
}

// FriendIP answers getFriendIp.
type FriendIP struct {
	FriendMemberID string `json:"friendMemberId"`
	IP             string `json:"ip"` // "" until the friend logs in from a known address
}

// RefereeLink is a member's permanent invitation code and the registration
// link carrying it.
type RefereeLink struct {
	Code      string `json:"code"`
	Link      string `json:"link"`
	Permanent bool   `json:"permanent"`
}

func (a *API) profileRoutes() []route {
	return []route{
		commandRoute(a, http.MethodPut, "/member/memberInfo/modify",
			"Change the member's name (not empty, at most 32 characters), avatar (headUrl: a jpg or png the member uploaded with type=avatar; \"\" removes it) "+
				"or gender (male | female | prefer not to say); absent fields stay. The member's connections get 46.",
			Commands.ModifyProfile),
		commandRoute(a, http.MethodPut, "/member/memberInfo/modifyPassword",
			"Change the password: oldPassword, newPassword of 8-16 letters and digits, confirmPassword equal to it. "+
				"A wrong old password answers the attempts left; the 5th in a row locks password changes for 30 minutes (429). "+
				"Every other session of the member ends (31 Offline, then 401); this one stays.",
			Commands.ModifyPassword),
		commandRoute(a, http.MethodPut, "/member/memberInfo/erase",
			"Delete the member's account for ever, at its own request, confirmed by its password: its name, phone, avatar and messages' bodies are erased everywhere "+
				"(the others see a placeholder name and \"[message deleted]\"), every file it uploaded is deleted, its phone and account ID are free again, every session ends (31 Disable). "+
				"A wrong password counts as a wrong one at login: while logins are locked out (10 in 15 minutes) it answers the same 429, the right password included.",
			Commands.EraseAccount),
		commandRoute(a, http.MethodPut, "/member/memberInfo/modifyUsername",
			"Change the account ID (8-16 letters or digits), once only; the old ID no longer logs in and is free again. 46 follows.",
			Commands.ModifyUsername),
		commandRoute(a, http.MethodPut, "/member/memberInfo/modifyMobile",
			"Move the member to a new phone with a code sent to it (GET /member/sms/send?type=register), which is spent; the old number is free again. 46 follows.",
			Commands.ModifyMobile),
		{method: http.MethodGet, path: "/member/memberInfo/isMobileRegister", public: true,
			summary: "Whether a member of the tenant uses the phone: data is true or false. Limited per client address.",
			query:   []param{{"phone", true, "mainland China mobile number"}, {"tenantCode", false, "server ID, default " + tenant.Default}},
			result:  true, handle: a.isMobileRegister},
		{method: http.MethodPut, path: "/member/memberInfo/forgetPassword", public: true,
			summary: "Reset the password with a code sent by GET /member/sms/send?type=reset: password of 8-16 letters and digits, confirmPassword equal. " +
				"The code is spent; 5 wrong codes void it. Lifts a password change lock and ends every session (31 Offline, then 401). " +
				"Limited per client address like login.",
			body: commands.ForgetPassword{}, result: commands.ProfileWritten{}, handle: handleBody(a, forgetPassword)},
		{method: http.MethodGet, path: "/member/memberInfo/getFriendIp", summary: "The address a friend last logged in from; friends only.",
			query: []param{{"friendMemberId", true, "a friend's member id"}}, result: FriendIP{}, handle: a.friendIP},
		{method: http.MethodGet, path: "/chat/friendInfo/getRefereeLink",
			summary: "The member's permanent invitation code and the registration link carrying it.",
			result:  RefereeLink{}, handle: a.refereeLink},
		commandRoute(a, http.MethodPost, "/member/feedback/build",
			"Send feedback: type and content (at most 1000 characters) required, images: at most 5 filePaths of pictures uploaded with type=feedback.",
			Commands.BuildFeedback),
		{method: http.MethodGet, path: "/member/memberSetting/get",
			summary: "The member's settings: notifications, showMessageTime, imagePreviewWindow, readSync, fontSize (0 small, 1 medium, 2 large), background.",
			result:  personal.Preferences{}, handle: a.preferences},
		commandRoute(a, http.MethodPut, "/member/memberSetting/modify",
			"Change some settings (absent ones stay); answers all of them. background: default | paper | mint | sky | night. The member's connections get 46.",
			Commands.SetPreferences),
	}
}

func forgetPassword(c Commands, ctx context.Context, _ commands.Principal, r commands.ForgetPassword) (commands.ProfileWritten, error) {
	if r.TenantCode == "" {
		r.TenantCode = tenant.Default
	}
	return c.ForgetPassword(ctx, r)
}

func (a *API) isMobileRegister(c echo.Context, _ commands.Principal) error {
	t := c.QueryParam("tenantCode")
	if t == "" {
		t = tenant.Default
	}
	return answer(c)(a.deps.Commands.IsMobileRegistered(c.Request().Context(), t, c.QueryParam("phone")))
}

func (a *API) friendIP(c echo.Context, p commands.Principal) error {
	id := c.QueryParam("friendMemberId")
	if id == "" {
		return fault.New(fault.Invalid, fault.MsgBadRequest)
	}
	friends, err := a.deps.Queries.Friends(c.Request().Context(), p.MemberID)
	if err != nil {
		return err
	}
	isFriend := false
	for _, f := range friends {
		isFriend = isFriend || f.FriendID == id
	}
	if !isFriend {
		return fault.New(fault.NotFound, fault.MsgNotFriend)
	}
	m, err := a.member(c.Request().Context(), viewer(p), id, 0)
	if err != nil {
		return err
	}
	return ok(c, FriendIP{FriendMemberID: id, IP: m.LastIP})
}

func (a *API) refereeLink(c echo.Context, p commands.Principal) error {
	code := member.InvitationCode(p.MemberID)
	base := c.Scheme() + "://" + c.Request().Host
	return ok(c, RefereeLink{Code: code, Link: base + "/#/register?inviteCode=" + code + "&tenantCode=" + p.Tenant, Permanent: true})
}

func (a *API) preferences(c echo.Context, p commands.Principal) error {
	return answer(c)(a.deps.Commands.Preferences(c.Request().Context(), p))
}

// genderOf is the gender a member's info shows.
func genderOf(g string) string {
	if g == "" {
		return member.GenderUnknown
	}
	return g
}
