package sqliteread

import (
	"context"
	"fmt"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
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
		err = t.st.putAuthSessions.Chunks(len(ss), func(st *sqlitec.Stmt, from, to int) error {
			for i := from; i < to; i++ {
				s := &ss[i]
				st.BindText(s.ID)
				st.BindText(s.Tenant)
				st.BindText(s.Member)
				st.BindBool(s.Active)
				st.BindInt(s.StartedAt)
				st.BindInt(s.EndedAt)
			}
			return st.Exec()
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
	err := s.read(ctx, func(r *readStatements) error {
		st := r.authSession
		st.BindText(sessionID)
		if found = st.Next(); found {
			a = projections.AuthSession{
				ID: st.Text(0), Tenant: st.Text(1), Member: st.Text(2), Active: st.Int(3) != 0,
				StartedAt: st.Int(4), EndedAt: st.Int(5),
			}
		}
		return st.Done()
	})
	if err != nil {
		return projections.AuthSession{}, false, fmt.Errorf("sqliteread: auth session: %w", err)
	}
	return a, found, nil
}
