package sqliteread

import (
	"context"
	"fmt"
	"strings"

	"github.com/eventchat/eventchat/projections"
)

var sessionsTable = table{
	name: "sessions",
	cols: []string{"member", "peer", "tenant", "chat_type", "chat_id", "last_message_id", "last_message_type",
		"last_message_content", "last_message_time", "unread_count", "top", "top_time"},
	key: []string{"member", "peer"},
}

var (
	sessionColumns = sessionsTable.selectColumns("s")
	sessionsSQL    = `SELECT ` + sessionColumns + ` FROM sessions s WHERE s.member = ?
		ORDER BY s.top DESC, s.top_time DESC, s.last_message_time DESC, s.peer`
)

// getSessionsSQL looks rows keys up by primary key: SQLite scans the VALUES
// list and searches the sessions table once per key.
func getSessionsSQL(rows int) string {
	var b strings.Builder
	b.WriteString(`SELECT ` + sessionColumns + ` FROM (VALUES `)
	writeTuples(&b, rows, 2)
	b.WriteString(`) AS k JOIN sessions s ON s.member = k.column1 AND s.peer = k.column2`)
	return b.String()
}

// sessionAt reads the session in the current row of st.
func sessionAt(st *stmt) projections.Session {
	return projections.Session{
		Member: st.text(0), Peer: st.text(1), Tenant: st.text(2), ChatType: st.text(3), ChatID: st.text(4),
		LastMessageID: st.text(5), LastMessageType: st.text(6), LastMessageContent: st.text(7),
		LastMessageTime: st.int(8), UnreadCount: int(st.int(9)), Top: st.int(10) != 0, TopTime: st.int(11),
	}
}

// GetSessions returns the stored sessions among keys.
func (t *tx) GetSessions(ctx context.Context, keys []projections.SessionKey) (map[projections.SessionKey]projections.Session, error) {
	out := make(map[projections.SessionKey]projections.Session, len(keys))
	err := t.check(ctx)
	if err == nil {
		err = t.st.getSessions.chunks(len(keys), func(st *stmt, from, to int) error {
			for _, k := range keys[from:to] {
				st.bindText(k.Member)
				st.bindText(k.Peer)
			}
			for st.next() {
				s := sessionAt(st)
				out[s.Key()] = s
			}
			return st.done()
		})
	}
	if err != nil {
		return nil, fmt.Errorf("sqliteread: get sessions: %w", err)
	}
	return out, nil
}

func (t *tx) PutSessions(ctx context.Context, ss []projections.Session) error {
	err := t.check(ctx)
	if err == nil {
		err = t.st.putSessions.chunks(len(ss), func(st *stmt, from, to int) error {
			for i := from; i < to; i++ {
				s := &ss[i]
				st.bindText(s.Member)
				st.bindText(s.Peer)
				st.bindText(s.Tenant)
				st.bindText(s.ChatType)
				st.bindText(s.ChatID)
				st.bindText(s.LastMessageID)
				st.bindText(s.LastMessageType)
				st.bindText(s.LastMessageContent)
				st.bindInt(s.LastMessageTime)
				st.bindInt(int64(s.UnreadCount))
				st.bindBool(s.Top)
				st.bindInt(s.TopTime)
			}
			return st.exec()
		})
	}
	if err != nil {
		return fmt.Errorf("sqliteread: put sessions: %w", err)
	}
	return nil
}

// Sessions lists member's sessions: pinned first (latest pinned first),
// then by last message, newest first.
func (s *Store) Sessions(ctx context.Context, member string) ([]projections.Session, error) {
	out := []projections.Session{} // empty, not nil: a list encodes as []
	err := s.readers.run(ctx, func(r *readStatements) error {
		st := r.sessions
		st.bindText(member)
		for st.next() {
			out = append(out, sessionAt(st))
		}
		return st.done()
	})
	if err != nil {
		return nil, fmt.Errorf("sqliteread: sessions of %s: %w", member, err)
	}
	return out, nil
}
