package projections

import (
	"context"

	"github.com/eventchat/eventchat/domain/member"
)

// Members keeps the member directory: registrations, then each member's
// profile, account ID, phone, who invited it and the address of its last
// login. A change
// of the profile, account or phone pushes 46 (refresh user info) to the
// member's connections.
type Members struct{}

// Name is the persisted checkpoint key.
func (Members) Name() string { return "members.v1" }

// userInfoChanged is the payload of 46.
type userInfoChanged struct {
	MemberID string `json:"memberId"`
	Position uint64 `json:"position"`
}

// Project folds the member events into directory entries; a change the
// member sees (profile, account, phone, level) is pushed as 46 to its
// connections, which reload its info.
func (Members) Project(ctx context.Context, tx Tx, events []Envelope) ([]Delta, error) {
	changed := map[string]Member{}
	var order []string
	var deltas []Delta
	get := func(id string) (Member, bool, error) {
		if m, ok := changed[id]; ok {
			return m, true, nil
		}
		ms, err := tx.GetMembers(ctx, []string{id})
		m, ok := ms[id]
		return m, ok, err
	}
	put := func(m Member) {
		if _, ok := changed[m.ID]; !ok {
			order = append(order, m.ID)
		}
		changed[m.ID] = m
	}
	for _, env := range events {
		if e, ok := env.Event.(*member.Registered); ok {
			put(Member{
				ID: e.MemberID, Tenant: env.Tenant, Account: erasedAs(e.Account, ""), Phone: erasedAs(e.Phone, ""),
				Name: erasedAs(e.Name, ErasedName), Level: e.Level, RegisteredAt: e.At,
			})
			continue
		}
		switch env.Event.(type) {
		case *member.ProfileModified, *member.AccountChanged, *member.PhoneChanged, *member.SessionStarted, *member.LevelChanged,
			*member.Referred, *member.Erased:
		default:
			continue
		}
		m, found, err := get(env.Stream.ID)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		push := true
		switch e := env.Event.(type) {
		case *member.ProfileModified:
			m.Name, m.HeadURL, m.Gender = erasedAs(e.Name, ErasedName), erasedAs(e.HeadURL, ""), e.Gender
		case *member.AccountChanged:
			m.Account = erasedAs(e.Account, "")
		case *member.PhoneChanged:
			m.Phone = erasedAs(e.Phone, "")
		case *member.Erased:
			m = erasedMember(m)
		case *member.LevelChanged:
			m.Level = e.Level
		case *member.Referred:
			m.Referrer = e.Referrer
		case *member.SessionStarted:
			ip := erasedAs(e.IP, "")
			if ip == "" || ip == m.LastIP {
				continue
			}
			m.LastIP, push = ip, false
		}
		put(m)
		if push {
			deltas = append(deltas, delta(env, CmdProfile, userInfoChanged{MemberID: m.ID, Position: env.Position}, m.ID))
		}
	}
	if len(order) == 0 {
		return nil, nil
	}
	ms := make([]Member, len(order))
	for i, id := range order {
		ms[i] = changed[id]
	}
	return deltas, tx.PutMembers(ctx, ms)
}
