package sqliteread

import (
	"context"
	"fmt"
	"strings"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

var sessionsTable = table{
	name: "sessions",
	cols: []string{"member", "peer", "tenant", "chat_type", "chat_id", "last_message_id", "last_message_type",
		"last_message_content", "last_message_time", "unread_count", "top", "top_time",
		"dnd", "marked_unread", "hidden", "last_message_from", "last_message_file_name", "last_message_forward_from",
		"last_message_forward_type", "join_seq", "read_seq"},
	key: []string{"member", "peer"},
}

var (
	sessionColumns = sessionsTable.selectColumns("s")
	sessionsSQL    = `SELECT ` + sessionColumns + ` FROM sessions s WHERE s.member = ? AND s.hidden = 0
		ORDER BY s.top DESC, s.top_time DESC, s.last_message_time DESC, s.peer`
	groupSessionsSQL = `SELECT ` + sessionColumns + ` FROM sessions s WHERE s.peer = ? AND s.chat_type = 'Group'
		ORDER BY s.member`
	groupReadsSQL = `SELECT tenant, member, join_seq, read_seq FROM sessions WHERE peer = ? AND chat_type = 'Group'
		ORDER BY member`
)

// getSessionsSQL looks rows keys up by primary key: SQLite scans the VALUES
// list and searches the sessions table once per key.
func getSessionsSQL(rows int) string {
	var b strings.Builder
	b.WriteString(`SELECT ` + sessionColumns + ` FROM (VALUES `)
	b.WriteString(sqlitec.Tuples(rows, 2))
	b.WriteString(`) AS k JOIN sessions s ON s.member = k.column1 AND s.peer = k.column2`)
	return b.String()
}

// sessionAt reads the session in the current row of st.
func sessionAt(st *sqlitec.Stmt) projections.Session {
	return projections.Session{
		Member: st.Text(0), Peer: st.Text(1), Tenant: st.Text(2), ChatType: st.Text(3), ChatID: st.Text(4),
		LastMessageID: st.Text(5), LastMessageType: st.Text(6), LastMessageContent: st.Text(7),
		LastMessageTime: st.Int(8), UnreadCount: int(st.Int(9)), Top: st.Int(10) != 0, TopTime: st.Int(11),
		DoNotDisturb: st.Int(12) != 0, MarkedUnread: st.Int(13) != 0, Hidden: st.Int(14) != 0,
		LastMessageFrom: st.Text(15), LastMessageFileName: st.Text(16), LastMessageForwardFrom: st.Text(17),
		LastMessageForwardType: st.Text(18), JoinSeq: uint64(st.Int(19)), ReadSeq: uint64(st.Int(20)),
	}
}

// GetSessions returns the stored sessions among keys.
func (t *tx) GetSessions(ctx context.Context, keys []projections.SessionKey) (map[projections.SessionKey]projections.Session, error) {
	out := make(map[projections.SessionKey]projections.Session, len(keys))
	err := t.check(ctx)
	if err == nil {
		err = t.st.getSessions.Chunks(len(keys), func(st *sqlitec.Stmt, from, to int) error {
			for _, k := range keys[from:to] {
				st.BindText(k.Member)
				st.BindText(k.Peer)
			}
			for st.Next() {
				s := sessionAt(st)
				out[s.Key()] = s
			}
			return st.Done()
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
		err = t.st.putSessions.Chunks(len(ss), func(st *sqlitec.Stmt, from, to int) error {
			for i := from; i < to; i++ {
				s := &ss[i]
				st.BindText(s.Member)
				st.BindText(s.Peer)
				st.BindText(s.Tenant)
				st.BindText(s.ChatType)
				st.BindText(s.ChatID)
				st.BindText(s.LastMessageID)
				st.BindText(s.LastMessageType)
				st.BindText(s.LastMessageContent)
				st.BindInt(s.LastMessageTime)
				st.BindInt(int64(s.UnreadCount))
				st.BindBool(s.Top)
				st.BindInt(s.TopTime)
				st.BindBool(s.DoNotDisturb)
				st.BindBool(s.MarkedUnread)
				st.BindBool(s.Hidden)
				st.BindText(s.LastMessageFrom)
				st.BindText(s.LastMessageFileName)
				st.BindText(s.LastMessageForwardFrom)
				st.BindText(s.LastMessageForwardType)
				st.BindInt(int64(s.JoinSeq))
				st.BindInt(int64(s.ReadSeq))
			}
			return st.Exec()
		})
	}
	if err != nil {
		return fmt.Errorf("sqliteread: put sessions: %w", err)
	}
	return nil
}

// Sessions lists member's sessions but the hidden ones: pinned first
// (latest pinned first), then by last message, newest first.
func (s *Store) Sessions(ctx context.Context, member string) ([]projections.Session, error) {
	out := []projections.Session{} // empty, not nil: a list encodes as []
	err := s.read(ctx, func(r *readStatements) error {
		st := r.sessions
		st.BindText(member)
		for st.Next() {
			out = append(out, sessionAt(st))
		}
		return st.Done()
	})
	if err != nil {
		return nil, fmt.Errorf("sqliteread: sessions of %s: %w", member, err)
	}
	return out, nil
}

// GroupReads lists how far the members of a group chat have read it, to
// those v may see them (Viewer.ReadPositions).
func (s *Store) GroupReads(ctx context.Context, v projections.Viewer, groupID string) ([]projections.GroupRead, error) {
	out := []projections.GroupRead{}
	err := s.read(ctx, func(r *readStatements) error {
		st := r.groupReads
		st.BindText(groupID)
		for st.Next() {
			out = append(out, projections.GroupRead{
				Tenant: st.Text(0), GroupID: groupID, Member: st.Text(1),
				JoinSeq: uint64(st.Int(2)), ReadSeq: uint64(st.Int(3)),
			})
		}
		return st.Done()
	})
	if err != nil {
		return nil, fmt.Errorf("sqliteread: reads of group %s: %w", groupID, err)
	}
	return v.ReadPositions(out), nil
}

// GroupSessions returns the sessions of a group chat, by member.
func (t *tx) GroupSessions(ctx context.Context, groupID string) ([]projections.Session, error) {
	var out []projections.Session
	err := t.check(ctx)
	if err == nil {
		st := t.st.groupSessions
		st.BindText(groupID)
		for st.Next() {
			out = append(out, sessionAt(st))
		}
		err = st.Done()
	}
	if err != nil {
		return nil, fmt.Errorf("sqliteread: sessions of group %s: %w", groupID, err)
	}
	return out, nil
}

func (t *tx) DeleteSessions(ctx context.Context, keys []projections.SessionKey) error {
	err := t.check(ctx)
	for _, k := range keys {
		if err != nil {
			break
		}
		st := t.st.deleteSession
		st.BindText(k.Member)
		st.BindText(k.Peer)
		err = st.Exec()
	}
	if err != nil {
		return fmt.Errorf("sqliteread: delete sessions: %w", err)
	}
	return nil
}
