package sqliteread

import (
	"context"
	"fmt"

	"github.com/eventchat/eventchat/adapters/sqlitec"
	"github.com/eventchat/eventchat/projections"
)

var mentionRows = table{
	name: "mentions",
	cols: []string{"member", "message_id", "tenant", "session_id", "session_type", "at"},
	key:  []string{"member", "message_id"},
}

const mentionsSQL = `SELECT message_id, tenant, session_id, session_type, at FROM mentions
	WHERE member = ? ORDER BY at, message_id`

func (t *tx) PutMentions(ctx context.Context, ms []projections.Mention) error {
	err := t.check(ctx)
	if err == nil {
		err = t.st.putMentions.Chunks(len(ms), func(st *sqlitec.Stmt, from, to int) error {
			for _, m := range ms[from:to] {
				st.BindText(m.Member)
				st.BindText(m.MessageID)
				st.BindText(m.Tenant)
				st.BindText(m.SessionID)
				st.BindText(m.SessionType)
				st.BindInt(m.At)
			}
			return st.Exec()
		})
	}
	if err != nil {
		return fmt.Errorf("sqliteread: put mentions: %w", err)
	}
	return nil
}

func (t *tx) DeleteMentions(ctx context.Context, member string, messageIDs []string) error {
	err := t.check(ctx)
	for _, id := range messageIDs {
		if err != nil {
			break
		}
		st := t.st.deleteMessageMentions
		if member != "" {
			st = t.st.deleteMention
			st.BindText(member)
		}
		st.BindText(id)
		err = st.Exec()
	}
	if err != nil {
		return fmt.Errorf("sqliteread: delete mentions: %w", err)
	}
	return nil
}

func (t *tx) DeleteSessionMentions(ctx context.Context, member, sessionID string) error {
	err := t.check(ctx)
	if err == nil {
		st := t.st.deleteSessionMentions
		st.BindText(member)
		st.BindText(sessionID)
		err = st.Exec()
	}
	if err != nil {
		return fmt.Errorf("sqliteread: delete mentions of %s in %s: %w", member, sessionID, err)
	}
	return nil
}

func (s *Store) Mentions(ctx context.Context, member string) ([]projections.Mention, error) {
	out := []projections.Mention{}
	err := s.read(ctx, func(r *readStatements) error {
		st := r.mentions
		st.BindText(member)
		for st.Next() {
			out = append(out, projections.Mention{
				Member: member, MessageID: st.Text(0), Tenant: st.Text(1), SessionID: st.Text(2),
				SessionType: st.Text(3), At: st.Int(4),
			})
		}
		return st.Done()
	})
	if err != nil {
		return nil, fmt.Errorf("sqliteread: mentions of %s: %w", member, err)
	}
	return out, nil
}
