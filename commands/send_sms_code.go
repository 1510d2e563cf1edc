package commands

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
)

// SendSMSCode issues a one-time code for purpose to phone. A code to
// register needs a phone nobody uses; the others need a registered phone
// of a member not banned.
func (a *App) SendSMSCode(ctx context.Context, tenantCode, phone, purpose string) error {
	phone = member.NormalizePhone(phone)
	if err := member.ValidatePhone(phone); err != nil {
		return err
	}
	purpose, err := member.ParsePurpose(purpose)
	if err != nil {
		return err
	}
	if err := a.ensureTenant(ctx, tenantCode); err != nil {
		return err
	}
	owner, err := a.holder(ctx, phoneClaim(tenantCode, phone))
	if err != nil {
		return err
	}
	switch {
	case purpose == member.PurposeRegister && owner != "":
		return fault.New(fault.Conflict, fault.MsgPhoneInUse)
	case purpose != member.PurposeRegister && owner == "":
		return fault.New(fault.NotFound, fault.MsgMemberNotFound)
	case purpose != member.PurposeRegister:
		// A banned member gets the ban's message on login and reset alike.
		var m member.Member
		if _, err := a.loadAll(ctx, es.Stream(tenantCode, es.CategoryMember, owner), m.Apply); err != nil {
			return err
		}
		if m.Banned() {
			return fault.New(fault.Forbidden, fault.MsgBanned)
		}
	}

	code, err := sixDigits()
	if err != nil {
		return err
	}
	hash, err := a.Hasher.Hash(code)
	if err != nil {
		return err
	}
	stream := es.Stream(tenantCode, es.CategorySMS, a.Blind(phone))
	_, err = retryOnConflict(ctx, func() (es.WriteResult, error) {
		var codes member.SMSCodes
		st, err := a.loadAll(ctx, stream, codes.Apply)
		if err != nil {
			return es.WriteResult{}, err
		}
		events, err := codes.Issue(purpose, hash, a.Now())
		if err != nil {
			return es.WriteResult{}, err
		}
		return a.appendEvents(ctx, Principal{Tenant: tenantCode}, stream, st.expected(), events)
	})
	if err != nil {
		return err
	}
	return a.SMS.Send(ctx, phone, code, purpose)
}

// useSMSCode spends the live code of phone for purpose when code is it.
// A wrong code is recorded before the refusal, so that the tries left hold
// on every node; a concurrent try makes it decide again, so a code is never
// spent twice.
func (a *App) useSMSCode(ctx context.Context, tenantCode, phone, purpose, code string) error {
	stream := es.Stream(tenantCode, es.CategorySMS, a.Blind(phone))
	_, err := retryOnConflict(ctx, func() (struct{}, error) {
		var codes member.SMSCodes
		st, err := a.loadAll(ctx, stream, codes.Apply)
		if err != nil {
			return struct{}{}, err
		}
		events, decided := codes.Use(purpose, a.Now(), func(hash string) bool { return a.Hasher.Matches(hash, code) })
		if len(events) == 0 {
			return struct{}{}, decided
		}
		if _, err := a.appendEvents(ctx, Principal{Tenant: tenantCode}, stream, st.expected(), events); err != nil {
			return struct{}{}, err
		}
		return struct{}{}, decided
	})
	return err
}

func sixDigits() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", fmt.Errorf("sms code: %w", err)
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}
