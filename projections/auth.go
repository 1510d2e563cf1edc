package projections

import (
	"context"

	"github.com/eventchat/eventchat/domain/member"
)

// Auth keeps the login sessions the token check consults.
type Auth struct{}

// Name is the persisted checkpoint key.
func (Auth) Name() string { return "auth.v1" }

// Project folds session starts and ends; an end pushes session end (31) to
// that session's connections.
func (Auth) Project(ctx context.Context, tx Tx, events []Envelope) ([]Delta, error) {
	var ss []AuthSession
	var deltas []Delta
	for _, env := range events {
		switch e := env.Event.(type) {
		case *member.SessionStarted:
			ss = append(ss, AuthSession{ID: e.SessionID, Tenant: env.Tenant, Member: env.Stream.ID, Active: true, StartedAt: e.At})
		case *member.SessionEnded:
			ss = append(ss, AuthSession{ID: e.SessionID, Tenant: env.Tenant, Member: env.Stream.ID, EndedAt: e.At})
			deltas = append(deltas, delta(env, CmdSessionEnd, map[string]string{"type": e.Reason}, env.Stream.ID).forSession(e.SessionID))
		}
	}
	if len(ss) == 0 {
		return nil, nil
	}
	return deltas, tx.PutAuthSessions(ctx, ss)
}
