package projections

import (
	"context"

	"github.com/eventchat/eventchat/domain/member"
)

// Members keeps the member directory.
type Members struct{}

// Name is the persisted checkpoint key.
func (Members) Name() string { return "members.v1" }

// Project folds registrations into directory entries.
func (Members) Project(ctx context.Context, tx Tx, events []Envelope) ([]Delta, error) {
	var ms []Member
	for _, env := range events {
		if e, ok := env.Event.(*member.Registered); ok {
			ms = append(ms, Member{
				ID: e.MemberID, Tenant: env.Tenant, Account: e.Account, Phone: e.Phone,
				Name: e.Name, Level: e.Level, RegisteredAt: e.At,
			})
		}
	}
	if len(ms) == 0 {
		return nil, nil
	}
	return nil, tx.PutMembers(ctx, ms)
}
