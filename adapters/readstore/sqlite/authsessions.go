package sqliteread

import (
	"context"
	"fmt"

	"github.com/eventchat/eventchat/projections"
)

var authSessionsTable = table{
	name: "auth_sessions",
	cols: []string{"id", "tenant", "member", "active", "started_at", "ended_at"},
	key:  []string{"id"},
}

var authSessionSQL = `SELECT ` + authSessionsTable.selectColumns("a") + ` FROM auth_sessions a WHERE a.id = ?`

func (t *tx) PutAuthSessions(ctx context.Context, ss []projections.AuthSession) error {
	err := t.check(ctx)
	if err == nil {
		err = t.st.putAuthSessions.chunks(len(ss), func(st *stmt, from, to int) error {
			for i := from; i < to; i++ {
				s := &ss[i]
				st.bindText(s.ID)
				st.bindText(s.Tenant)
				st.bindText(s.Member)
				st.bindBool(s.Active)
				st.bindInt(s.StartedAt)
				st.bindInt(s.EndedAt)
			}
			return st.exec()
		})
	}
	if err != nil {
		return fmt.Errorf("sqliteread: put auth sessions: %w", err)
	}
	return nil
}

func (s *Store) AuthSession(ctx context.Context, sessionID string) (projections.AuthSession, bool, error) {
	var a projections.AuthSession
	found := false
	err := s.readers.run(ctx, func(r *readStatements) error {
		st := r.authSession
		st.bindText(sessionID)
		if found = st.next(); found {
			a = projections.AuthSession{
				ID: st.text(0), Tenant: st.text(1), Member: st.text(2), Active: st.int(3) != 0,
				StartedAt: st.int(4), EndedAt: st.int(5),
			}
		}
		return st.done()
	})
	if err != nil {
		return projections.AuthSession{}, false, fmt.Errorf("sqliteread: auth session: %w", err)
	}
	return a, found, nil
}
