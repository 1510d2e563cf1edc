package commands

import (
	"context"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/tenant"
)

// Operator is a platform back-end administrator acting through imctl or
// the admin API; its role is asked of the policy like a member's.
type Operator struct {
	Name string // recorded as the events' actor
}

// Policy vocabulary of operators.
const (
	RolePlatformAdmin = "platform-admin"
	ScopePlatform     = "platform"
)

func (op Operator) name() string {
	if op.Name == "" {
		return "operator"
	}
	return op.Name
}

func (op Operator) principal(tenant string) Principal {
	return Principal{Tenant: tenant, MemberID: "operator:" + op.name()}
}

func (a *App) operatorMay(op Operator, object, action string) error {
	if !a.Authz.Allowed(RolePlatformAdmin, ScopePlatform, object, action) {
		return fault.New(fault.Forbidden, fault.MsgForbidden)
	}
	return nil
}

// CreateTenantAs creates a tenant for an operator.
func (a *App) CreateTenantAs(ctx context.Context, op Operator, code, name string) (uint64, error) {
	if err := a.operatorMay(op, "tenant", "create"); err != nil {
		return 0, err
	}
	return a.CreateTenant(ctx, code, name)
}

// MemberState is what an operator's change leaves of a member.
type MemberState struct {
	Tenant        string `json:"tenant"`
	MemberID      string `json:"memberId"`
	Account       string `json:"account"`
	Level         string `json:"memberLevelCode"`
	Banned        bool   `json:"banned"`
	Erased        bool   `json:"erased,omitempty"`
	SessionsEnded int    `json:"sessionsEnded"`
	Position      uint64 `json:"position"` // 0 when nothing changed
}

// BanMember bans a member (by account, phone or id): every session ends
// with 31 Disable and logins are refused until UnbanMember.
func (a *App) BanMember(ctx context.Context, op Operator, tenantCode, who string) (MemberState, error) {
	return a.operateMember(ctx, op, tenantCode, who, "ban", func(m *member.Member, now time.Time) ([]es.Event, error) { return m.Ban(now) })
}

// UnbanMember lifts a ban.
func (a *App) UnbanMember(ctx context.Context, op Operator, tenantCode, who string) (MemberState, error) {
	return a.operateMember(ctx, op, tenantCode, who, "ban", func(m *member.Member, now time.Time) ([]es.Event, error) { return m.Unban(now) })
}

// SignOutMember ends every session of a member with 31 Offline.
func (a *App) SignOutMember(ctx context.Context, op Operator, tenantCode, who string) (MemberState, error) {
	return a.operateMember(ctx, op, tenantCode, who, "sign-out", func(m *member.Member, now time.Time) ([]es.Event, error) { return m.SignOut(now) })
}

// SetMemberLevel changes a member's level code (Normal, Admin, System).
func (a *App) SetMemberLevel(ctx context.Context, op Operator, tenantCode, who, level string) (MemberState, error) {
	return a.operateMember(ctx, op, tenantCode, who, "set-level", func(m *member.Member, now time.Time) ([]es.Event, error) { return m.SetLevel(level, now) })
}

// ShowMember reads a member's state from its stream.
func (a *App) ShowMember(ctx context.Context, op Operator, tenantCode, who string) (MemberState, error) {
	return a.operateMember(ctx, op, tenantCode, who, "show", func(*member.Member, time.Time) ([]es.Event, error) { return nil, nil })
}

func (a *App) operateMember(ctx context.Context, op Operator, tenantCode, who, action string,
	decide func(*member.Member, time.Time) ([]es.Event, error)) (MemberState, error) {
	if err := a.operatorMay(op, "member", action); err != nil {
		return MemberState{}, err
	}
	if err := tenant.ValidateCode(tenantCode); err != nil {
		return MemberState{}, err
	}
	if err := a.ensureTenant(ctx, tenantCode); err != nil {
		return MemberState{}, err
	}
	id, err := a.findMemberID(ctx, tenantCode, who)
	if err != nil {
		return MemberState{}, err
	}
	// A login racing the change moves the stream on: decide again.
	return retryOnConflict(ctx, func() (MemberState, error) { return a.operateOnce(ctx, op, tenantCode, id, decide) })
}

func (a *App) operateOnce(ctx context.Context, op Operator, tenantCode, id string,
	decide func(*member.Member, time.Time) ([]es.Event, error)) (MemberState, error) {
	var m member.Member
	stream := es.Stream(tenantCode, es.CategoryMember, id)
	st, err := a.loadAll(ctx, stream, m.Apply)
	if err != nil {
		return MemberState{}, err
	}
	events, err := decide(&m, a.Now())
	if err != nil {
		return MemberState{}, err
	}
	state := MemberState{Tenant: tenantCode, MemberID: id, Account: m.Account()}
	if len(events) > 0 {
		defer a.levels.evict(stream) // the next message reads the level this change may set
		res, err := a.appendEvents(ctx, op.principal(tenantCode), stream, st.expected(), events)
		if err != nil {
			return MemberState{}, err
		}
		state.Position = res.Position
		for _, e := range events {
			if _, ok := e.(*member.SessionEnded); ok {
				state.SessionsEnded++
			}
			m.Apply(e)
		}
	}
	state.Level, state.Banned, state.Erased = m.Level(), m.Banned(), m.IsErased()
	return state, nil
}

// findMemberID resolves an account name, a phone number or a member id.
func (a *App) findMemberID(ctx context.Context, tenantCode, who string) (string, error) {
	if who == "" || len(who) > 64 {
		return "", fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	for _, k := range []claimKey{accountClaim(tenantCode, who), phoneClaim(tenantCode, member.NormalizePhone(who))} {
		id, err := a.holder(ctx, k)
		if err != nil || id != "" {
			return id, err
		}
	}
	ok, err := a.memberExists(ctx, tenantCode, who)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	return who, nil
}
