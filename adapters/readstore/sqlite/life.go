package sqliteread

import (
	"context"
	"errors"
	"fmt"

	"github.com/eventchat/eventchat/adapters/sqlitec"
	"github.com/eventchat/eventchat/projections"
)

const (
	messageByIDSQL   = `SELECT ` + messageColumns + ` FROM messages m WHERE m.id = ?`
	updateMessageSQL = `UPDATE messages SET status = ?, content = ?, doc = ? WHERE id = ?`
	setClearFloorSQL = `INSERT INTO clear_floors (member, chat_id, seq) VALUES (?, ?, ?)
		ON CONFLICT (member, chat_id) DO UPDATE SET seq = max(seq, excluded.seq)`
	clearFloorSQL = `SELECT seq FROM clear_floors WHERE member = ? AND chat_id = ?`
)

// messageByID reads the message id with st, a messageByIDSQL statement.
func messageByID(st *sqlitec.Stmt, id string) (projections.Message, bool, error) {
	st.BindText(id)
	if !st.Next() {
		return projections.Message{}, false, st.Done()
	}
	m, err := messageAt(st)
	if err != nil {
		st.Done()
		return m, false, err
	}
	return m, true, st.Done()
}

// clearFloor reads member's clear floor of chatID with st, a clearFloorSQL
// statement; 0 when it never cleared it.
func clearFloor(st *sqlitec.Stmt, member, chatID string) (uint64, error) {
	st.BindText(member)
	st.BindText(chatID)
	var seq int64
	if st.Next() {
		seq = st.Int(0)
	}
	return uint64(seq), st.Done()
}

func (t *tx) GetMessages(ctx context.Context, ids []string) (map[string]projections.Message, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("sqliteread: get messages: %w", err)
	}
	out := make(map[string]projections.Message, len(ids))
	for _, id := range ids {
		m, ok, err := messageByID(t.st.getMessage, id)
		if err != nil {
			return nil, fmt.Errorf("sqliteread: get message %s: %w", id, err)
		}
		if ok {
			out[id] = m
		}
	}
	return out, nil
}

func (t *tx) UpdateMessages(ctx context.Context, ms []projections.Message) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("sqliteread: update messages: %w", err)
	}
	st := t.st.updateMessage
	for i := range ms {
		m := &ms[i]
		st.BindText(m.Status)
		st.BindText(m.Content)
		t.doc = appendDoc(t.doc[:0], m)
		st.BindTextBytes(t.doc)
		st.BindText(m.ID)
		if err := st.Exec(); err != nil {
			return fmt.Errorf("sqliteread: update message %s: %w", m.ID, err)
		}
	}
	return nil
}

func (t *tx) SetClearFloor(ctx context.Context, member, chatID string, seq uint64) error {
	err := t.check(ctx)
	if err == nil {
		st := t.st.setClearFloor
		st.BindText(member)
		st.BindText(chatID)
		st.BindInt(bound(seq))
		err = st.Exec()
	}
	if err != nil {
		return fmt.Errorf("sqliteread: set clear floor of %s in %s: %w", member, chatID, err)
	}
	return nil
}

func (t *tx) LastVisible(ctx context.Context, chatID, member string) (projections.Message, bool, error) {
	var m projections.Message
	found := false
	err := t.check(ctx)
	if err == nil {
		var floor uint64
		if floor, err = clearFloor(t.st.clearFloor, member, chatID); err == nil {
			found, err = scanVisible(t.st.newest, chatID, nil, true, member, floor, func(v projections.Message) bool {
				m = v
				return false
			})
		}
	}
	if err != nil {
		return m, false, fmt.Errorf("sqliteread: last message of %s for %s: %w", chatID, member, err)
	}
	return m, found, nil
}

// scanVisible runs st, a history statement of chatID (from anchor when
// not nil) in descending or ascending order, and hands fn the messages
// member sees until fn returns false or they run out; it reports whether
// fn was handed any. Going back in a chat, it stops at member's floor.
func scanVisible(st *sqlitec.Stmt, chatID string, anchor *int64, descending bool, member string, floor uint64,
	fn func(projections.Message) bool) (bool, error) {
	st.BindText(chatID)
	if anchor != nil {
		st.BindInt(*anchor)
	}
	seen := false
	for st.Next() {
		m, err := messageAt(st)
		if err != nil {
			st.Done()
			return seen, err
		}
		if m.Seq < floor && descending {
			break
		}
		if !m.VisibleTo(member, floor) {
			continue
		}
		seen = true
		if !fn(m) {
			break
		}
	}
	return seen, st.Done()
}

// viewing gathers on one read connection what v's rules ask of messages:
// v's clear floors and group memberships, each read once.
type viewing struct {
	r      *readStatements
	v      projections.Viewer
	floors map[string]uint64
	groups map[string]bool
}

func newViewing(r *readStatements, v projections.Viewer) *viewing {
	return &viewing{r: r, v: v, floors: map[string]uint64{}, groups: map[string]bool{}}
}

// inGroup tells whether v is a current member of the group of m, a
// message of a group's chat.
func (w *viewing) inGroup(m *projections.Message) (bool, error) {
	if !m.InGroupChat() {
		return false, nil
	}
	in, known := w.groups[m.GroupID]
	if !known {
		var err error
		if in, err = inGroup(w.r.groupMember, m.GroupID, w.v.Member); err != nil {
			return false, err
		}
		w.groups[m.GroupID] = in
	}
	return in, nil
}

// inGroup tells with st, a groupMemberSQL statement, whether member
// belongs to group groupID now.
func inGroup(st *sqlitec.Stmt, groupID, member string) (bool, error) {
	st.BindText(groupID)
	st.BindText(member)
	in := st.Next()
	return in, st.Done()
}

// readsChat tells whether v reads m's chat.
func (w *viewing) readsChat(m *projections.Message) (bool, error) {
	in, err := w.inGroup(m)
	return err == nil && w.v.ReadsChat(m, in), err
}

// sees tells whether v sees m.
func (w *viewing) sees(m *projections.Message) (bool, error) {
	in, err := w.inGroup(m)
	if err != nil || !w.v.ReadsChat(m, in) {
		return false, err
	}
	floor, known := w.floors[m.ChatID]
	if !known {
		if floor, err = clearFloor(w.r.clearFloor, w.v.Member, m.ChatID); err != nil {
			return false, err
		}
		w.floors[m.ChatID] = floor
	}
	return w.v.Sees(m, floor, in), nil
}

func (s *Store) VisibleMessages(ctx context.Context, v projections.Viewer, ids []string) ([]projections.Message, error) {
	out := []projections.Message{}
	err := s.read(ctx, func(r *readStatements) error {
		w := newViewing(r, v)
		for _, id := range ids {
			m, ok, err := messageByID(r.messageByID, id)
			if err == nil && ok {
				ok, err = w.sees(&m)
			}
			if err != nil {
				return err
			}
			if ok {
				out = append(out, m)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqliteread: messages for %s: %w", v.Member, err)
	}
	return out, nil
}

// MessagesAfter reads the chat forwards from seq, deleted messages too.
func (t *tx) MessagesAfter(ctx context.Context, chatID string, seq uint64) ([]projections.Message, error) {
	var out []projections.Message
	err := t.check(ctx)
	if err == nil {
		st := t.st.after
		st.BindText(chatID)
		st.BindInt(bound(seq))
		for err == nil && st.Next() {
			var m projections.Message
			if m, err = messageAt(st); err == nil {
				out = append(out, m)
			}
		}
		err = errors.Join(err, st.Done())
	}
	if err != nil {
		return nil, fmt.Errorf("sqliteread: messages of %s after %d: %w", chatID, seq, err)
	}
	return out, nil
}
