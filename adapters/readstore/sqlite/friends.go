package sqliteread

import (
	"context"
	"fmt"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

var friendsTable = table{
	name: "friends",
	cols: []string{"member", "friend_id", "tenant", "chat_id", "remark", "since", "blocked"},
	key:  []string{"member", "friend_id"},
}

var (
	friendsSQL = `SELECT ` + friendsTable.selectColumns("f") + ` FROM friends f WHERE f.member = ?
	ORDER BY f.since, f.friend_id`
	friendSQL = `SELECT ` + friendsTable.selectColumns("f") + ` FROM friends f WHERE f.member = ? AND f.friend_id = ?`
)

func friendAt(st *sqlitec.Stmt) projections.Friend {
	return projections.Friend{
		Member: st.Text(0), FriendID: st.Text(1), Tenant: st.Text(2), ChatID: st.Text(3),
		Remark: st.Text(4), Since: st.Int(5), Blocked: st.Int(6) != 0,
	}
}

func (t *tx) GetFriends(ctx context.Context, member string, ids []string) (map[string]projections.Friend, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("sqliteread: get friends: %w", err)
	}
	out := map[string]projections.Friend{}
	if ids == nil {
		st := t.st.allFriends
		st.BindText(member)
		for st.Next() {
			f := friendAt(st)
			out[f.FriendID] = f
		}
		if err := st.Done(); err != nil {
			return nil, fmt.Errorf("sqliteread: get friends: %w", err)
		}
		return out, nil
	}
	for _, id := range ids {
		st := t.st.getFriend
		st.BindText(member)
		st.BindText(id)
		if st.Next() {
			out[id] = friendAt(st)
		}
		if err := st.Done(); err != nil {
			return nil, fmt.Errorf("sqliteread: get friends: %w", err)
		}
	}
	return out, nil
}

func (t *tx) DeleteFriends(ctx context.Context, member string, ids []string) error {
	err := t.check(ctx)
	for _, id := range ids {
		if err != nil {
			break
		}
		st := t.st.deleteFriend
		st.BindText(member)
		st.BindText(id)
		err = st.Exec()
	}
	if err != nil {
		return fmt.Errorf("sqliteread: delete friends: %w", err)
	}
	return nil
}

func (t *tx) PutFriends(ctx context.Context, fs []projections.Friend) error {
	err := t.check(ctx)
	if err == nil {
		err = t.st.putFriends.Chunks(len(fs), func(st *sqlitec.Stmt, from, to int) error {
			for i := from; i < to; i++ {
				f := &fs[i]
				st.BindText(f.Member)
				st.BindText(f.FriendID)
				st.BindText(f.Tenant)
				st.BindText(f.ChatID)
				st.BindText(f.Remark)
				st.BindInt(f.Since)
				st.BindBool(f.Blocked)
			}
			return st.Exec()
		})
	}
	if err != nil {
		return fmt.Errorf("sqliteread: put friends: %w", err)
	}
	return nil
}

// Friends lists member's friends, oldest friendship first.
func (s *Store) Friends(ctx context.Context, member string) ([]projections.Friend, error) {
	out := []projections.Friend{} // empty, not nil: a list encodes as []
	err := s.read(ctx, func(r *readStatements) error {
		st := r.friends
		st.BindText(member)
		for st.Next() {
			out = append(out, friendAt(st))
		}
		return st.Done()
	})
	if err != nil {
		return nil, fmt.Errorf("sqliteread: friends of %s: %w", member, err)
	}
	return out, nil
}
