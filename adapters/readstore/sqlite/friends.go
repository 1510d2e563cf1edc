package sqliteread

import (
	"context"
	"fmt"

	"github.com/eventchat/eventchat/projections"
)

var friendsTable = table{
	name: "friends",
	cols: []string{"member", "friend_id", "tenant", "chat_id", "remark", "since"},
	key:  []string{"member", "friend_id"},
}

var friendsSQL = `SELECT ` + friendsTable.selectColumns("f") + ` FROM friends f WHERE f.member = ?
	ORDER BY f.since, f.friend_id`

func (t *tx) PutFriends(ctx context.Context, fs []projections.Friend) error {
	err := t.check(ctx)
	if err == nil {
		err = t.st.putFriends.chunks(len(fs), func(st *stmt, from, to int) error {
			for i := from; i < to; i++ {
				f := &fs[i]
				st.bindText(f.Member)
				st.bindText(f.FriendID)
				st.bindText(f.Tenant)
				st.bindText(f.ChatID)
				st.bindText(f.Remark)
				st.bindInt(f.Since)
			}
			return st.exec()
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
	err := s.readers.run(ctx, func(r *readStatements) error {
		st := r.friends
		st.bindText(member)
		for st.next() {
			out = append(out, projections.Friend{
				Member: st.text(0), FriendID: st.text(1), Tenant: st.text(2), ChatID: st.text(3),
				Remark: st.text(4), Since: st.int(5),
			})
		}
		return st.done()
	})
	if err != nil {
		return nil, fmt.Errorf("sqliteread: friends of %s: %w", member, err)
	}
	return out, nil
}
