package sqliteread

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

var messagesTable = table{
	name: "messages",
	cols: []string{"id", "chat_id", "seq", "to_member", "status", "content", "doc"},
	key:  []string{"id"},
}

const (
	// The history queries have no LIMIT: SQLite recompiles a statement
	// whenever the value bound to its LIMIT changes. The index yields rows
	// in order, so HistoryPage stops reading after a page instead.
	messageColumns   = `m.id, m.chat_id, m.seq, m.to_member, m.status, m.content, m.doc`
	historyNewestSQL = `SELECT ` + messageColumns + ` FROM messages m
		WHERE m.chat_id = ? ORDER BY m.seq DESC`
	historyBeforeSQL = `SELECT ` + messageColumns + ` FROM messages m
		WHERE m.chat_id = ? AND m.seq < ? ORDER BY m.seq DESC`
	historyAfterSQL = `SELECT ` + messageColumns + ` FROM messages m
		WHERE m.chat_id = ? AND m.seq > ? ORDER BY m.seq`
	messageSeqSQL = `SELECT chat_id, seq FROM messages WHERE id = ?`
)

// History page sizes.
const (
	defaultPageSize = 20
	maxPageSize     = 200
)

// messageAt reads the message in the current row of st.
func messageAt(st *sqlitec.Stmt) (projections.Message, error) {
	m := projections.Message{
		ID: st.Text(0), ChatID: st.Text(1), Seq: uint64(st.Int(2)), To: st.Text(3), Status: st.Text(4), Content: st.Text(5),
	}
	if err := decodeDoc(st.Text(6), &m); err != nil {
		return m, fmt.Errorf("message %s: %w", m.ID, err)
	}
	return m, nil
}

func (t *tx) InsertMessages(ctx context.Context, ms []projections.Message) error {
	err := t.check(ctx)
	if err == nil {
		err = t.st.insertMessages.Chunks(len(ms), func(st *sqlitec.Stmt, from, to int) error {
			for i := from; i < to; i++ {
				m := &ms[i]
				st.BindText(m.ID)
				st.BindText(m.ChatID)
				st.BindInt(int64(m.Seq))
				st.BindText(m.To)
				st.BindText(m.Status)
				st.BindText(m.Content)
				t.doc = appendDoc(t.doc[:0], m)
				st.BindTextBytes(t.doc)
			}
			if err := st.Exec(); err != nil {
				return err
			}
			return t.checkIgnored(ms[from:to])
		})
	}
	if err != nil {
		return fmt.Errorf("sqliteread: insert messages: %w", err)
	}
	return nil
}

// checkIgnored fails when the insert of ms left out a row for another
// message than the one stored under its id: only a message folded again
// (the same chat and sequence) may be left as it is.
func (t *tx) checkIgnored(ms []projections.Message) error {
	var inserted int64
	st := t.st.changes
	if st.Next() {
		inserted = st.Int(0)
	}
	if err := st.Done(); err != nil {
		return err
	}
	if inserted == int64(len(ms)) {
		return nil
	}
	for i := range ms {
		m := &ms[i]
		chatID, seq, found, err := t.lookup(m.ID)
		if err != nil {
			return err
		}
		if found && (chatID != m.ChatID || seq != m.Seq) {
			return projections.IDTaken(*m, chatID, seq)
		}
	}
	return nil
}

func (t *tx) LookupMessage(ctx context.Context, messageID string) (string, uint64, bool, error) {
	err := t.check(ctx)
	if err != nil {
		return "", 0, false, fmt.Errorf("sqliteread: look up message %s: %w", messageID, err)
	}
	chatID, seq, found, err := t.lookup(messageID)
	if err != nil {
		return "", 0, false, fmt.Errorf("sqliteread: look up message %s: %w", messageID, err)
	}
	return chatID, seq, found, nil
}

// lookup reads the chat and sequence of the message stored as messageID.
func (t *tx) lookup(messageID string) (string, uint64, bool, error) {
	st := t.st.lookupMessage
	st.BindText(messageID)
	var chatID string
	var seq int64
	found := st.Next()
	if found {
		chatID, seq = st.Text(0), st.Int(1)
	}
	if err := st.Done(); err != nil {
		return "", 0, false, err
	}
	return chatID, uint64(seq), found, nil
}

func (s *Store) MessageSeq(ctx context.Context, v projections.Viewer, messageID string) (string, uint64, bool, error) {
	var m projections.Message
	found := false
	err := s.read(ctx, func(r *readStatements) error {
		var err error
		if m, found, err = messageByID(r.messageByID, messageID); err == nil && found {
			found, err = newViewing(r, v).readsChat(&m)
		}
		return err
	})
	if err != nil {
		return "", 0, false, fmt.Errorf("sqliteread: message seq of %s: %w", messageID, err)
	}
	if !found {
		return "", 0, false, nil
	}
	return m.ChatID, m.Seq, true, nil
}

// HistoryPage returns the page in ascending sequence order, of the
// messages v sees.
func (s *Store) HistoryPage(ctx context.Context, v projections.Viewer, chatID string, anchor *uint64,
	dir projections.PageDirection, size int) ([]projections.Message, error) {
	if size <= 0 {
		size = defaultPageSize
	}
	size = min(size, maxPageSize)
	page := []projections.Message{} // empty, not nil: a list encodes as []
	descending := anchor == nil || dir != projections.Down
	err := s.read(ctx, func(r *readStatements) error {
		floor, err := clearFloor(r.clearFloor, v.Member, chatID)
		if err != nil {
			return err
		}
		w := newViewing(r, v)
		st := r.historyNewest
		var from *int64
		switch {
		case anchor == nil:
		case dir == projections.Down:
			st = r.historyAfter
			a := bound(*anchor)
			from = &a
		default:
			st = r.historyBefore
			a := bound(*anchor)
			from = &a
		}
		// Who reads a chat is the same for all its messages: the first one
		// v does not read ends the scan.
		var denied error
		_, err = scanVisible(st, chatID, from, descending, v.Member, floor, func(m projections.Message) bool {
			var ok bool
			if ok, denied = w.readsChat(&m); ok {
				page = append(page, m)
			}
			return ok && denied == nil && len(page) < size
		})
		return errors.Join(err, denied)
	})
	if err != nil {
		return nil, fmt.Errorf("sqliteread: history of %s: %w", chatID, err)
	}
	if descending {
		slices.Reverse(page)
	}
	return page, nil
}
