package sqliteread

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// The search model: an FTS5 index of the folded text of every message
// with a text (projections.FoldSearch), under the message's rowid. It
// holds no copy of the text (contentless); the trigram tokenizer finds any
// substring of three characters or more, which is how Chinese and
// Vietnamese are typed: no word breaker needed.
const (
	searchTable = `CREATE VIRTUAL TABLE message_search USING fts5(
		body, content='', contentless_delete=1, tokenize='trigram'
	)`
	// searchTerms is the index as rows verify compares: each gram of each
	// message, by message id.
	searchVocab = `CREATE VIRTUAL TABLE message_search_terms USING fts5vocab(message_search, instance)`
	searchView  = `CREATE VIEW search_terms AS
		SELECT m.id AS id, v.term AS term, printf('%010d', v.offset) AS pos, m.doc ->> '$.tenant' AS tenant
		FROM message_search_terms v JOIN messages m ON m.rowid = v.doc`

	unindexSQL = `DELETE FROM message_search WHERE rowid = (SELECT rowid FROM messages WHERE id = ?)`
	indexSQL   = `INSERT INTO message_search (rowid, body) SELECT rowid, ?2 FROM messages WHERE id = ?1`

	searchColumns = messageColumns + `, m.rowid`
	// searchChatsSQL: the chats member has a conversation in or a group of.
	searchChatsSQL = `SELECT chat_id FROM sessions WHERE member = ?1
		UNION SELECT group_id FROM group_members WHERE member = ?1`
	searchRowSQL = `SELECT rowid FROM messages WHERE id = ?`
	// searchCountSQL counts the messages of the chats in ?1 (a JSON array).
	searchCountSQL = `SELECT count(*) FROM messages WHERE chat_id IN (SELECT value FROM json_each(?1))`
	// searchMatchSQL: a text of SearchGram characters or more, newest first.
	searchMatchSQL = `SELECT ` + searchColumns + ` FROM message_search s JOIN messages m ON m.rowid = s.rowid
		WHERE message_search MATCH ?1 AND s.rowid < ?2 AND m.chat_id IN (SELECT value FROM json_each(?3))
		ORDER BY s.rowid DESC`
	// searchChatSQL: a shorter text is looked for in each chat, newest first.
	searchChatSQL = `SELECT ` + searchColumns + ` FROM messages m
		WHERE m.chat_id = ?1 AND m.rowid < ?2 ORDER BY m.seq DESC`
)

// Search page sizes.
const (
	defaultSearchSize = 20
	maxSearchSize     = 100
)

// scanBelow is the number of messages of a viewer's chats under which
// reading them all costs less than the index: the index finds a text in
// every chat of the tenant, and the viewer's are a few of them.
var scanBelow int64 = 5000

func (t *tx) IndexMessages(ctx context.Context, ids []string) error {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	ms, err := t.GetMessages(ctx, ids)
	if err != nil {
		return err
	}
	for _, id := range ids {
		m, ok := ms[id]
		if !ok {
			continue
		}
		if err := t.index(&m); err != nil {
			return fmt.Errorf("sqliteread: index message %s: %w", id, err)
		}
	}
	return nil
}

// index puts m's folded text in the search model in place of what it held
// of m: nothing once m is recalled or deleted for everyone.
func (t *tx) index(m *projections.Message) error {
	st := t.st.unindex
	st.BindText(m.ID)
	if err := st.Exec(); err != nil {
		return err
	}
	if m.RecallTime != 0 || m.Deleted {
		return nil
	}
	text := projections.FoldSearch(m.Content)
	if text == "" {
		return nil
	}
	st = t.st.index
	st.BindText(m.ID)
	st.BindText(text)
	return st.Exec()
}

// SearchMessages finds the messages v sees whose text holds q.Text, newest
// first: through the trigram index, or, for a text too short for it, by
// reading v's chats (each through its index, newest first).
func (s *Store) SearchMessages(ctx context.Context, v projections.Viewer, q projections.SearchQuery) ([]projections.Message, error) {
	folded := projections.FoldSearch(q.Text)
	size := q.Size
	if size <= 0 {
		size = defaultSearchSize
	}
	size = min(size, maxSearchSize)
	out := []projections.Message{}
	if folded == "" || v.Member == "" {
		return out, nil
	}
	err := s.read(ctx, func(r *readStatements) error {
		before := int64(math.MaxInt64)
		if q.Before != "" {
			st := r.searchRow
			st.BindText(q.Before)
			found := st.Next()
			if found {
				before = st.Int(0)
			}
			if err := st.Done(); err != nil || !found {
				return err
			}
		}
		chats := []string{q.ChatID}
		if q.ChatID == "" {
			var err error
			if chats, err = searchChats(r.searchChats, v.Member); err != nil {
				return err
			}
		}
		w := newViewing(r, v)
		keep := func(m *projections.Message) (bool, error) {
			if !m.MatchesSearch(folded) {
				return false, nil
			}
			return w.sees(m)
		}
		inChats, err := json.Marshal(chats)
		if err != nil {
			return err
		}
		scan := projections.ShortSearch(folded)
		if !scan {
			st := r.searchCount
			st.BindTextBytes(inChats)
			if st.Next() {
				scan = st.Int(0) < scanBelow
			}
			if err := st.Done(); err != nil {
				return err
			}
		}
		if scan {
			out, err = scanChats(r.searchChat, chats, before, size, folded, keep)
		} else {
			out, err = matchIndex(r.searchMatch, folded, inChats, before, size, keep)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sqliteread: search for %s: %w", v.Member, err)
	}
	return out, nil
}

func searchChats(st *sqlitec.Stmt, member string) ([]string, error) {
	st.BindText(member)
	var out []string
	for st.Next() {
		out = append(out, st.Text(0))
	}
	return out, st.Done()
}

func matchIndex(st *sqlitec.Stmt, folded string, inChats []byte, before int64, size int,
	keep func(*projections.Message) (bool, error)) ([]projections.Message, error) {
	st.BindText(`"` + strings.ReplaceAll(folded, `"`, `""`) + `"`)
	st.BindInt(before)
	st.BindTextBytes(inChats)
	out := []projections.Message{}
	for len(out) < size && st.Next() {
		m, err := messageAt(st)
		var ok bool
		if err == nil {
			ok, err = keep(&m)
		}
		if err != nil {
			st.Done()
			return nil, err
		}
		if ok {
			out = append(out, m)
		}
	}
	return out, st.Done()
}

// scanChats reads each of chats from the newest message below before and
// keeps the first size messages whose text holds folded and keep admits,
// then the newest size of them all.
func scanChats(st *sqlitec.Stmt, chats []string, before int64, size int, folded string,
	keep func(*projections.Message) (bool, error)) ([]projections.Message, error) {
	type found struct {
		m     projections.Message
		rowid int64
	}
	var all []found
	for _, chatID := range chats {
		st.BindText(chatID)
		st.BindInt(before)
		n := 0
		for n < size && st.Next() {
			// The text first: most messages are left out by it, before
			// their document is decoded.
			if !strings.Contains(projections.FoldSearch(st.Text(5)), folded) {
				continue
			}
			m, err := messageAt(st)
			var ok bool
			if err == nil {
				ok, err = keep(&m)
			}
			if err != nil {
				st.Done()
				return nil, err
			}
			if ok {
				all = append(all, found{m, st.Int(7)})
				n++
			}
		}
		if err := st.Done(); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(all, func(a, b found) int { return cmp.Compare(b.rowid, a.rowid) })
	out := make([]projections.Message, 0, min(size, len(all)))
	for i := 0; i < len(all) && i < size; i++ {
		out = append(out, all[i].m)
	}
	return out, nil
}
