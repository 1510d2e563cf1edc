package commands

import (
	"context"
	"strings"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/tenant"
)

// MaxErasureRequestLen bounds the reference of an erasure's request.
const MaxErasureRequestLen = 200

// MsgErasureRequestTooLong refuses a request reference over
// MaxErasureRequestLen characters.
const MsgErasureRequestTooLong = "the request reference is longer than %d characters"

// EraseMember erases a member (by account, phone or id) for an operator, on
// request (the reference of the request it acts on; the operator's own
// when empty): MemberErased ends its sessions and is recorded, its phone
// and account claims are released, its data key is destroyed, so that
// every personal field sealed under it reads as erased from then on, and
// the files it uploaded are deleted.
// Erasing an erased member changes nothing and answers the same.
func (a *App) EraseMember(ctx context.Context, op Operator, tenantCode, who, request string) (MemberState, error) {
	if err := a.operatorMay(op, "member", "erase"); err != nil {
		return MemberState{}, err
	}
	request = strings.TrimSpace(request)
	if len([]rune(request)) > MaxErasureRequestLen {
		return MemberState{}, fault.New(fault.Invalid, MsgErasureRequestTooLong, MaxErasureRequestLen)
	}
	if request == "" {
		request = op.principal(tenantCode).MemberID
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
	return a.erase(ctx, op.principal(tenantCode), id, request)
}

// EraseAccount is the body of PUT /v1/member/memberInfo/erase: the
// member's password confirms it.
type EraseAccount struct {
	Password string `json:"password"`
}

// EraseAccount erases p's own member at its request ("delete my account"),
// as EraseMember does; its password confirms it. A wrong password counts
// as one at login (MemberLoginFailed), and while logins are locked out the
// erasure is refused as they are, the right password included.
func (a *App) EraseAccount(ctx context.Context, p Principal, r EraseAccount) (ProfileWritten, error) {
	if r.Password == "" {
		return ProfileWritten{}, fault.New(fault.Invalid, fault.MsgPasswordEmpty)
	}
	stream := es.Stream(p.Tenant, es.CategoryMember, p.MemberID)
	var m member.Member
	if _, err := a.loadAll(ctx, stream, m.Apply); err != nil {
		return ProfileWritten{}, err
	}
	failed, err := m.CheckPassword(func(hash string) bool {
		return len(r.Password) <= 128 && a.Hasher.Matches(hash, r.Password)
	}, a.Now())
	if err != nil {
		if len(failed) > 0 {
			if _, aerr := a.appendEvents(ctx, p, stream, es.Any, failed); aerr != nil {
				return ProfileWritten{}, aerr
			}
		}
		return ProfileWritten{}, err
	}
	st, err := a.erase(ctx, p, p.MemberID, member.RequestedByMember)
	return ProfileWritten{Position: st.Position}, err
}

// erase releases the claims of member id, records p's erasure of it,
// destroys its key and deletes every file it uploaded. The claims are
// found by the member's phone and account, which read as erased once the
// erasure is in the log: they go first. A retry after a failure in between
// completes the rest, which is idempotent; so does SweepErasures at the
// next start of any node, for the key and the files.
func (a *App) erase(ctx context.Context, p Principal, id, request string) (MemberState, error) {
	stream := es.Stream(p.Tenant, es.CategoryMember, id)
	var m member.Member
	var pos uint64
	_, err := retryOnConflict(ctx, func() (struct{}, error) {
		m = member.Member{}
		st, err := a.loadAll(ctx, stream, m.Apply)
		if err != nil {
			return struct{}{}, err
		}
		events, err := m.Erase(p.MemberID, request, a.Now())
		if err != nil || len(events) == 0 {
			return struct{}{}, err
		}
		if err := a.releaseClaims(ctx, p, id, &m); err != nil {
			return struct{}{}, err
		}
		res, err := a.appendEvents(ctx, p, stream, st.expected(), events)
		if err != nil {
			return struct{}{}, err
		}
		pos = res.Position
		return struct{}{}, nil
	})
	if err != nil {
		return MemberState{}, err
	}
	a.levels.evict(stream)
	if err := a.Keys.Destroy(ctx, p.Tenant, id); err != nil {
		return MemberState{}, err
	}
	if a.Uploads != nil {
		if _, err := a.Uploads.DeleteUploads(ctx, p.Tenant, []string{id}); err != nil {
			return MemberState{}, err
		}
	}
	return MemberState{Tenant: p.Tenant, MemberID: id, Level: m.Level(), Banned: m.Banned(), Erased: true, Position: pos}, nil
}

// releaseClaims releases the claims member m (id) holds on its account and
// phone, acting as p.
func (a *App) releaseClaims(ctx context.Context, p Principal, id string, m *member.Member) error {
	if m.Account() != es.Erased {
		if err := a.releaseHeld(ctx, p, accountClaim(p.Tenant, m.Account()), id, &member.AccountReleased{MemberID: id}); err != nil {
			return err
		}
	}
	if m.Phone() != es.Erased {
		return a.releaseHeld(ctx, p, phoneClaim(p.Tenant, m.Phone()), id, &member.PhoneReleased{MemberID: id})
	}
	return nil
}

// releaseHeld releases k when member id holds it.
func (a *App) releaseHeld(ctx context.Context, p Principal, k claimKey, id string, release es.Event) error {
	_, err := retryOnConflict(ctx, func() (struct{}, error) {
		c, err := a.lastClaim(ctx, k)
		if err != nil || !c.exists || c.member != id {
			return struct{}{}, err
		}
		_, err = a.appendEvents(ctx, p, c.stream, es.Exact(c.revision), []es.Event{release})
		return struct{}{}, err
	})
	return err
}
