package commands

import (
	"context"
	"strings"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/tenant"
)

// Register is the body of POST /v1/member/memberInfo/register.
type Register struct {
	Phone      string `json:"phone"`
	SMSCode    string `json:"smsCode"`
	Account    string `json:"account"`
	Password   string `json:"password"`
	TenantCode string `json:"tenantCode"`
	// InviteCode is the invitation code of the member who invited this one
	// (getRefereeLink); optional.
	InviteCode string `json:"inviteCode,omitempty"`
}

// Registered answers a registration.
type Registered struct {
	MemberID string
	Position uint64
}

// RegisterMember registers a member, spending the SMS code.
func (a *App) RegisterMember(ctx context.Context, r Register) (Registered, error) {
	reg := member.Registration{Phone: member.NormalizePhone(r.Phone), SMSCode: r.SMSCode, Account: r.Account, Password: r.Password}
	if err := reg.Validate(); err != nil {
		return Registered{}, err
	}
	if err := tenant.ValidateCode(r.TenantCode); err != nil {
		return Registered{}, err
	}
	if err := a.ensureTenant(ctx, r.TenantCode); err != nil {
		return Registered{}, err
	}
	referrer, err := a.referrer(ctx, r.TenantCode, r.InviteCode)
	if err != nil {
		return Registered{}, err
	}
	account := accountClaim(r.TenantCode, reg.Account)
	if c, err := a.lastClaim(ctx, account); err != nil {
		return Registered{}, err
	} else if held, err := a.taken(ctx, r.TenantCode, c); err != nil || held {
		if err != nil {
			return Registered{}, err
		}
		return Registered{}, fault.New(fault.Conflict, fault.MsgAccountInUse)
	}
	// The code is spent last, once nothing that can be told before the
	// write refuses the registration.
	if err := a.useSMSCode(ctx, r.TenantCode, reg.Phone, member.PurposeRegister, reg.SMSCode); err != nil {
		return Registered{}, err
	}
	hash, err := a.Hasher.Hash(reg.Password)
	if err != nil {
		return Registered{}, err
	}

	id, err := a.NewID()
	if err != nil {
		return Registered{}, err
	}
	p := Principal{Tenant: r.TenantCode, MemberID: id}
	ok, err := a.reserve(ctx, p, phoneClaim(r.TenantCode, reg.Phone), &member.PhoneReserved{MemberID: id})
	if err != nil {
		return Registered{}, err
	}
	if !ok {
		return Registered{}, fault.New(fault.Conflict, fault.MsgPhoneInUse)
	}
	ok, err = a.reserve(ctx, p, account, &member.AccountReserved{MemberID: id})
	if err != nil {
		return Registered{}, err
	}
	if !ok {
		return Registered{}, fault.New(fault.Conflict, fault.MsgAccountInUse)
	}
	now := a.Now()
	events := member.Register(id, reg, hash, now)
	if referrer != "" {
		events = append(events, member.Refer(referrer, r.InviteCode, now)...)
	}
	res, err := a.appendEvents(ctx, p, es.Stream(r.TenantCode, es.CategoryMember, id), es.NoStream, events)
	if err != nil {
		return Registered{}, err
	}
	return Registered{MemberID: id, Position: res.Position}, nil
}

// referrer is the id of the member of tenantCode whose invitation code code
// is, "" without a code; a code of nobody in the tenant is refused.
func (a *App) referrer(ctx context.Context, tenantCode, code string) (string, error) {
	if strings.TrimSpace(code) == "" {
		return "", nil
	}
	id, err := member.ParseInvitationCode(code)
	if err != nil {
		return "", err
	}
	ok, err := a.memberExists(ctx, tenantCode, id)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fault.New(fault.Invalid, fault.MsgInvitationCodeInvalid)
	}
	return id, nil
}
