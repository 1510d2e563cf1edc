package sqliteread

import (
	"context"
	"fmt"
	"math"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// The unread messages of a chat to a reader, from its floor up to a
// sequence: chat_id, reader, Unread, chat_id, reader, no floor, upTo.
const unreadUpTo = `chat_id = ? AND to_member = ? AND status = ?
	AND seq BETWEEN coalesce((SELECT seq FROM unread_floors WHERE chat_id = ? AND reader = ?), ?) AND ?`

const (
	// MarkRead selects then updates rather than UPDATE ... RETURNING,
	// which builds a temporary table at every run.
	unreadIDsSQL  = `SELECT id FROM messages WHERE ` + unreadUpTo + ` ORDER BY seq`
	markReadSQL   = `UPDATE messages SET status = ? WHERE ` + unreadUpTo
	raiseFloorSQL = `INSERT INTO unread_floors (chat_id, reader, seq) VALUES (?, ?, ?)
		ON CONFLICT (chat_id, reader) DO UPDATE SET seq = max(seq, excluded.seq)`
	countUnreadSQL = `SELECT count(*) FROM messages
		WHERE chat_id = ? AND to_member = ? AND status = ?
		AND seq >= coalesce((SELECT seq FROM unread_floors WHERE chat_id = ? AND reader = ?), ?)`
)

// MarkRead returns the ids it changed in chat order.
func (t *tx) MarkRead(ctx context.Context, chatID, reader string, upTo uint64) ([]string, error) {
	ids, err := t.markRead(ctx, chatID, reader, bound(upTo))
	if err != nil {
		return nil, fmt.Errorf("sqliteread: mark read: %w", err)
	}
	return ids, nil
}

func (t *tx) markRead(ctx context.Context, chatID, reader string, upTo int64) ([]string, error) {
	if err := t.check(ctx); err != nil {
		return nil, err
	}
	unread := func(st *sqlitec.Stmt) {
		st.BindText(chatID)
		st.BindText(reader)
		st.BindText(projections.StatusUnread)
		st.BindText(chatID)
		st.BindText(reader)
		st.BindInt(math.MinInt64)
		st.BindInt(upTo)
	}
	var ids []string
	list := t.st.unreadIDs
	unread(list)
	for list.Next() {
		ids = append(ids, list.Text(0))
	}
	if err := list.Done(); err != nil {
		return nil, err
	}
	if len(ids) > 0 {
		mark := t.st.markRead
		mark.BindText(projections.StatusRead)
		unread(mark)
		if err := mark.Exec(); err != nil {
			return nil, err
		}
	}
	// Every message to reader up to upTo is Read now, changed or not:
	// later calls start after it.
	floor := t.st.raiseFloor
	floor.BindText(chatID)
	floor.BindText(reader)
	floor.BindInt(upTo + min(1, math.MaxInt64-upTo))
	if err := floor.Exec(); err != nil {
		return nil, err
	}
	return ids, nil
}

func (t *tx) CountUnread(ctx context.Context, chatID, reader string) (int, error) {
	err := t.check(ctx)
	var n int64
	if err == nil {
		st := t.st.countUnread
		st.BindText(chatID)
		st.BindText(reader)
		st.BindText(projections.StatusUnread)
		st.BindText(chatID)
		st.BindText(reader)
		st.BindInt(math.MinInt64)
		if st.Next() {
			n = st.Int(0)
		}
		err = st.Done()
	}
	if err != nil {
		return 0, fmt.Errorf("sqliteread: count unread: %w", err)
	}
	return int(n), nil
}
