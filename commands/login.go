package commands

import (
	"context"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/tenant"
)

// Login is the body of POST /v1/member/memberInfo/login.
type Login struct {
	Account    string `json:"account"` // account name or phone
	Password   string `json:"password"`
	TenantCode string `json:"tenantCode"`
	Device     string `json:"-"` // the client's User-Agent, set by the edge
	IP         string `json:"-"` // the client's address, set by the edge
}

// LoggedIn answers a login; the edge turns the principal into a token.
type LoggedIn struct {
	Principal Principal
	Position  uint64
}

// LoginMember opens a session after checking the password; a wrong one is
// recorded on the member's stream, and the last of member.MaxLoginFailures
// locks its logins out.
func (a *App) LoginMember(ctx context.Context, l Login) (LoggedIn, error) {
	switch {
	case l.Account == "":
		return LoggedIn{}, fault.New(fault.Invalid, fault.MsgAccountEmpty)
	case l.Password == "":
		return LoggedIn{}, fault.New(fault.Invalid, fault.MsgPasswordEmpty)
	case len(l.Account) > 64 || len(l.Password) > 128:
		return LoggedIn{}, fault.New(fault.Invalid, fault.MsgWrongPassword)
	}
	if err := tenant.ValidateCode(l.TenantCode); err != nil {
		return LoggedIn{}, err
	}
	if err := a.ensureTenant(ctx, l.TenantCode); err != nil {
		return LoggedIn{}, err
	}
	id, err := a.loginHolder(ctx, l.TenantCode, l.Account)
	if err != nil {
		return LoggedIn{}, err
	}
	// An unknown account gets the same answer as a wrong password, so that
	// logins cannot probe which accounts exist.
	if id == "" {
		a.Hasher.Matches("", l.Password)
		return LoggedIn{}, fault.New(fault.Invalid, fault.MsgWrongPassword)
	}
	stream := es.Stream(l.TenantCode, es.CategoryMember, id)
	// The session starts at the revision the decision saw: a ban or another
	// login in between makes it decide again, so no session outlives a ban
	// and single-device logins never both survive.
	// The slow hash is checked again only when a decision sees another one.
	matched, checked := "", false
	return retryOnConflict(ctx, func() (LoggedIn, error) {
		var m member.Member
		st, err := a.loadAll(ctx, stream, m.Apply)
		if err != nil {
			return LoggedIn{}, err
		}
		failed, err := m.CheckPassword(func(hash string) bool {
			return (checked && hash == matched) || a.Hasher.Matches(hash, l.Password)
		}, a.Now())
		if err != nil {
			if len(failed) > 0 {
				// Counted whatever the revision: a lost race must not
				// lose a wrong password.
				if _, aerr := a.appendEvents(ctx, Principal{Tenant: l.TenantCode, MemberID: id}, stream, es.Any, failed); aerr != nil {
					return LoggedIn{}, aerr
				}
			}
			return LoggedIn{}, err
		}
		matched, checked = m.PasswordHash(), true
		cfg, err := a.TenantConfig(ctx, l.TenantCode)
		if err != nil {
			return LoggedIn{}, err
		}
		p := Principal{Tenant: l.TenantCode, MemberID: id, SessionID: a.NewUUID()}
		now := a.Now()
		events, err := m.Login(p.SessionID, l.Device, cfg.SingleDevice, now)
		if err != nil {
			return LoggedIn{}, err
		}
		if m.NewDevice(l.Device) {
			code, err := sixDigits()
			if err != nil {
				return LoggedIn{}, err
			}
			events = append(events, m.VerifyDevice(p.SessionID, l.Device, code, now)...)
		}
		member.StampIP(events, l.IP)
		res, err := a.appendEvents(ctx, p, stream, st.expected(), events)
		if err != nil {
			return LoggedIn{}, err
		}
		return LoggedIn{Principal: p, Position: res.Position}, nil
	})
}

// loginHolder is the id of the member account names in tenantCode, by its
// account name or its phone, "" when none.
func (a *App) loginHolder(ctx context.Context, tenantCode, account string) (string, error) {
	id, err := a.holder(ctx, accountClaim(tenantCode, account))
	if err != nil || id != "" {
		return id, err
	}
	return a.holder(ctx, phoneClaim(tenantCode, member.NormalizePhone(account)))
}

// UnknownLoginKey names the account of a login nobody in tenantCode holds,
// by its normalised spelling, so that the edge can lock unknown accounts
// out like members (member.MaxLoginFailures) and a lockout tells nothing of
// which accounts exist; "" when a member holds it.
func (a *App) UnknownLoginKey(ctx context.Context, tenantCode, account string) (string, error) {
	if err := tenant.ValidateCode(tenantCode); err != nil {
		return "", err
	}
	if err := a.ensureTenant(ctx, tenantCode); err != nil {
		return "", err
	}
	id, err := a.loginHolder(ctx, tenantCode, account)
	if err != nil || id != "" {
		return "", err
	}
	return tenantCode + "\x00" + member.NormalizePhone(account), nil
}

// Logout ends p's session and returns the position to wait for.
func (a *App) Logout(ctx context.Context, p Principal) (uint64, error) {
	var m member.Member
	stream := es.Stream(p.Tenant, es.CategoryMember, p.MemberID)
	if _, err := a.loadAll(ctx, stream, m.Apply); err != nil {
		return 0, err
	}
	events := m.Logout(p.SessionID, a.Now())
	if len(events) == 0 {
		return 0, nil
	}
	res, err := a.appendEvents(ctx, p, stream, es.Any, events)
	return res.Position, err
}
