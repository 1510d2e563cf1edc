package projections

import (
	"context"

	"github.com/eventchat/eventchat/domain/member"
)

// Members keeps the member directory.
type Members struct{}

// Name is the persisted checkpoint key.
func (Members) Name() string { return "members.v1" }

// Project folds registrations into directory entries, and level changes
// into them (46 tells the member's connections to reload its profile).
func (Members) Project(ctx context.Context, tx Tx, events []Envelope) ([]Delta, error) {
	var ms []Member
	var deltas []Delta
	for _, env := range events {
		switch e := env.Event.(type) {
		case *member.Registered:
			ms = append(ms, Member{
				ID: e.MemberID, Tenant: env.Tenant, Account: e.Account, Phone: e.Phone,
				Name: e.Name, Level: e.Level, RegisteredAt: e.At,
			})
		case *member.LevelChanged:
			// Entries of this batch are put first, so the stored one is current.
			if err := tx.PutMembers(ctx, ms); err != nil {
				return nil, err
			}
			ms = ms[:0]
			got, err := tx.GetMembers(ctx, []string{env.Stream.ID})
			if err != nil {
				return nil, err
			}
			if m, ok := got[env.Stream.ID]; ok {
				m.Level = e.Level
				ms = append(ms, m)
				deltas = append(deltas, delta(env, CmdProfile, map[string]string{"memberLevelCode": e.Level}, m.ID))
			}
		}
	}
	if len(ms) == 0 {
		return deltas, nil
	}
	return deltas, tx.PutMembers(ctx, ms)
}
