package httpapi

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/adapters/envelope"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/personal"
	"github.com/eventchat/eventchat/domain/tenant"
)

// SystemInfo is GET /member/memberInfo/getSystemInfo (spec messaging.md
// section 7).
type SystemInfo struct {
	TenantCode      string `json:"tenantCode"`
	Name            string `json:"name"`
	SystemIcon      string `json:"systemIcon"`
	SystemLogo      string `json:"systemLogo"`
	HasVoiceCall    bool   `json:"hasVoiceCall"`
	ShowGroupMember bool   `json:"showGroupMember"`
	TopUp           bool   `json:"topUp"` // the top-up page is offered
	// HasChatGpt is the assistant's switch; ChatGptReady also needs its
	// endpoint set up.
	HasChatGpt   bool `json:"hasChatGpt"`
	ChatGptReady bool `json:"chatGptReady"`
}

// SystemRegister is what the registration page shows of a tenant.
type SystemRegister struct {
	TenantCode  string `json:"tenantCode"`
	Name        string `json:"name"`
	SystemIcon  string `json:"systemIcon"`
	SystemLogo  string `json:"systemLogo"`
	SMSRegister bool   `json:"smsRegister"` // registration needs an SMS code
	PhoneRegion string `json:"phoneRegion"` // whose mobile numbers are accepted
}

// SensitiveWords is GET /member/sensitiveWord/getSensitiveWordByMemberLevelId.
type SensitiveWords struct {
	MemberLevelID string `json:"memberLevelId"`
	SensitiveWord string `json:"sensitiveWord"` // comma separated
	// IllegalWords is the tenant's flag: while true the filter is off.
	IllegalWords bool `json:"illegalWords"`
}

// TenantView is a tenant's whole configuration, as operators see it.
type TenantView struct {
	Code             string            `json:"code"`
	Name             string            `json:"name"`
	SystemIcon       string            `json:"systemIcon"`
	SystemLogo       string            `json:"systemLogo"`
	HasVoiceCall     bool              `json:"hasVoiceCall"`
	ShowGroupMember  bool              `json:"showGroupMember"`
	SendBatchMessage string            `json:"sendBatchMessage"` // Enable | Disable
	SingleDevice     bool              `json:"singleDevice"`
	IllegalWords     bool              `json:"illegalWords"`
	SensitiveWords   map[string]string `json:"sensitiveWords"` // level -> comma-separated words
	TopUp            bool              `json:"topUp"`
	Assistant        bool              `json:"assistant"`
	AssistantBaseURL string            `json:"assistantBaseURL"`
	AssistantModels  string            `json:"assistantModels"` // comma separated
	AssistantTimeout int               `json:"assistantTimeout"`
	Position         uint64            `json:"position"`
}

func tenantView(c tenant.Config, position uint64) TenantView {
	v := TenantView{Code: c.Code, Name: c.Name, SystemIcon: c.SystemIcon, SystemLogo: c.SystemLogo,
		HasVoiceCall: c.HasVoiceCall, ShowGroupMember: c.ShowGroupMember, SendBatchMessage: enable(c.SendBatchMessage),
		SingleDevice: c.SingleDevice, IllegalWords: c.IllegalWords, SensitiveWords: map[string]string{}, TopUp: c.TopUp, Position: position,
		Assistant: c.Assistant.On, AssistantBaseURL: c.Assistant.BaseURL, AssistantModels: strings.Join(c.Assistant.Models, ","),
		AssistantTimeout: c.Assistant.Timeout}
	for level, words := range c.SensitiveWords {
		v.SensitiveWords[level] = strings.Join(words, ",")
	}
	return v
}

func enable(on bool) string {
	if on {
		return personal.Enable
	}
	return personal.Disable
}

func (a *API) tenantRoutes() []route {
	tenantParam := param{"tenantCode", false, "server ID; default: the token's tenant, else " + tenant.Default}
	return []route{
		{method: http.MethodGet, path: "/member/memberInfo/getSystemInfo", public: true,
			summary: "The tenant's branding and switches: systemIcon, systemLogo, hasVoiceCall, showGroupMember, topUp, hasChatGpt, chatGptReady.",
			query:   []param{tenantParam}, result: SystemInfo{}, handle: a.systemInfo},
		{method: http.MethodGet, path: "/member/memberInfo/getSystemRegister", public: true,
			summary: "What the registration page needs of a tenant.",
			query:   []param{tenantParam}, result: SystemRegister{}, handle: a.systemRegister},
		{method: http.MethodGet, path: "/member/tenantConfig/tenantChecker", public: true,
			summary: "Check a server ID before adding it to the client's list: 'tenant number invalid', 'already exists' or 'added successfully'.",
			query: []param{{"tenantFlag", true, "the server ID to add"},
				{"tenantList", false, "the server IDs the client holds already, comma separated"}},
			result: SystemInfo{}, handle: a.tenantChecker},
		{method: http.MethodGet, path: "/member/sensitiveWord/getSensitiveWordByMemberLevelId",
			summary: "The sensitive words of a member level, comma separated, and the tenant's illegal-words flag (on: no filtering).",
			query:   []param{{"memberLevelId", false, "member level code (Normal, Admin, System); default: the caller's"}},
			result:  SensitiveWords{}, handle: a.sensitiveWords},
	}
}

// requestTenant is the tenant a public read is about: the token's when a
// good one is sent, else ?tenantCode=, else the default.
func (a *API) requestTenant(c echo.Context) string {
	if h := c.Request().Header.Get(echo.HeaderAuthorization); h != "" {
		if p, err := a.authenticate(c, false); err == nil {
			return p.Tenant
		}
	}
	if t := c.QueryParam("tenantCode"); t != "" {
		return t
	}
	return tenant.Default
}

func (a *API) systemInfo(c echo.Context, _ commands.Principal) error {
	cfg, err := a.deps.Commands.TenantConfig(c.Request().Context(), a.requestTenant(c))
	if err != nil {
		return err
	}
	return ok(c, systemInfo(cfg))
}

func systemInfo(cfg tenant.Config) SystemInfo {
	return SystemInfo{TenantCode: cfg.Code, Name: cfg.Name, SystemIcon: cfg.SystemIcon, SystemLogo: cfg.SystemLogo,
		HasVoiceCall: cfg.HasVoiceCall, ShowGroupMember: cfg.ShowGroupMember, TopUp: cfg.TopUp,
		HasChatGpt: cfg.Assistant.On, ChatGptReady: cfg.Assistant.Ready()}
}

func (a *API) systemRegister(c echo.Context, _ commands.Principal) error {
	cfg, err := a.deps.Commands.TenantConfig(c.Request().Context(), a.requestTenant(c))
	if err != nil {
		return err
	}
	return ok(c, SystemRegister{TenantCode: cfg.Code, Name: cfg.Name, SystemIcon: cfg.SystemIcon, SystemLogo: cfg.SystemLogo,
		SMSRegister: true, PhoneRegion: "CN"})
}

// Texts of the tenant checker's outcomes (spec accounts.md section 5).
const (
	MsgTenantAdded  = "added successfully"
	MsgTenantListed = "already exists"
)

func (a *API) tenantChecker(c echo.Context, _ commands.Principal) error {
	code := strings.TrimSpace(c.QueryParam("tenantFlag"))
	if code == "" {
		return fault.New(fault.Invalid, fault.MsgTenantInvalid)
	}
	cfg, err := a.deps.Commands.TenantConfig(c.Request().Context(), code)
	if err != nil {
		return err
	}
	if slices.Contains(strings.Split(c.QueryParam("tenantList"), ","), code) {
		return fault.New(fault.Conflict, MsgTenantListed)
	}
	return c.JSON(http.StatusOK, envelope.Body{Code: "200", Data: systemInfo(cfg), Info: envelope.Translate(lang(c), MsgTenantAdded)})
}

func (a *API) sensitiveWords(c echo.Context, p commands.Principal) error {
	ctx := c.Request().Context()
	level := c.QueryParam("memberLevelId")
	if level == "" {
		m, err := a.member(ctx, viewer(p), p.MemberID, 0)
		if err != nil {
			return err
		}
		level = m.Level
	} else if _, err := member.ParseLevel(level); err != nil {
		return err
	}
	cfg, err := a.deps.Commands.TenantConfig(ctx, p.Tenant)
	if err != nil {
		return err
	}
	return ok(c, SensitiveWords{MemberLevelID: level, SensitiveWord: strings.Join(cfg.SensitiveWords[level], ","), IllegalWords: cfg.IllegalWords})
}
