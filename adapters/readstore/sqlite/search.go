package sqliteread

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// The search model, in the search file (searchfile.go): an FTS5 index of
// the folded text of every message with a text (projections.FoldSearch),
// under the message's rowid, and the same texts by chat in search_text.
// The FTS5 index holds no copy of the text (contentless); the trigram
// tokenizer finds any substring of three characters or more, which is how
// Chinese and Vietnamese are typed: no word breaker needed. It keeps no
// positions either (detail=none, much less to write): a text is looked for
// as all of its grams, and what that finds is checked against the text. search_text is
// what a viewer's own chats are read from, a covering primary key, no
// message decoded but those that match. The statements name the tables
// unqualified: SQLite finds them in the attached search file.
const (
	searchTable = `CREATE VIRTUAL TABLE message_search USING fts5(
		body, content='', contentless_delete=1, tokenize='trigram', detail=none
	)`
	searchTextTable = `CREATE TABLE search_text (
		chat_id TEXT NOT NULL, msg INTEGER NOT NULL, body TEXT NOT NULL,
		PRIMARY KEY (chat_id, msg)
	) WITHOUT ROWID`
	searchVocab = `CREATE VIRTUAL TABLE message_search_terms USING fts5vocab(message_search, instance)`
	// searchView is the index as rows verify compares: each gram of each
	// message, by message id, and each message's text. It joins both
	// files, which only a temporary view may.
	searchView = `CREATE TEMP VIEW search_terms AS
		SELECT m.id AS id, v.term AS term, printf('%010d', v.offset) AS pos, m.doc ->> '$.tenant' AS tenant
		FROM message_search_terms v JOIN messages m ON m.rowid = v.doc
		UNION ALL SELECT m.id, t.body, 'text', m.doc ->> '$.tenant'
		FROM search_text t JOIN messages m ON m.rowid = t.msg`

	// searchRowsSQL reads the messages of the ids in ?1 (a JSON array),
	// with their rowid and whether the model holds them; the writes that
	// follow are one row each (see indexRows).
	searchRowsSQL = `SELECT ` + messageColumns + `, m.rowid,
		EXISTS (SELECT 1 FROM search_text t WHERE t.chat_id = m.chat_id AND t.msg = m.rowid)
		FROM json_each(?1) j JOIN messages m ON m.id = j.value`
	unindexSQL     = `DELETE FROM message_search WHERE rowid = ?`
	unindexTextSQL = `DELETE FROM search_text WHERE chat_id = ? AND msg = ?`
	indexSQL       = `INSERT INTO message_search (rowid, body) VALUES (?, ?)`
	indexTextSQL   = `INSERT INTO search_text (chat_id, msg, body) VALUES (?, ?, ?)`

	searchColumns = messageColumns + `, m.rowid`
	// searchChatsSQL: the chats member has a conversation in or a group of.
	searchChatsSQL = `SELECT chat_id FROM sessions WHERE member = ?1
		UNION SELECT group_id FROM group_members WHERE member = ?1`
	searchRowSQL = `SELECT rowid FROM messages WHERE id = ?`
	// searchSizeSQL is the number of messages of the chats in ?1 (a JSON
	// array), by their last sequence (one index probe a chat), and the
	// last rowid of messages, the number of messages of the store.
	searchSizeSQL = `SELECT coalesce(sum((SELECT max(seq) FROM messages WHERE chat_id = c.value)), 0),
		(SELECT coalesce(max(rowid), 0) FROM messages)
		FROM json_each(?1) c`
	// searchMatchSQL: a text of SearchGram characters or more through the
	// index, newest first.
	searchMatchSQL = `SELECT ` + searchColumns + ` FROM message_search s JOIN messages m ON m.rowid = s.rowid
		WHERE message_search MATCH ?1 AND s.rowid < ?2 AND s.rowid >= ?4 AND m.chat_id IN (SELECT value FROM json_each(?3))
		ORDER BY s.rowid DESC`
	// searchScanSQL: the rowids of the messages of the chats in ?3 below ?2
	// whose text holds ?1, newest first, read from search_text alone;
	// searchRowidSQL the message of one.
	searchScanSQL = `SELECT t.msg FROM json_each(?3) c
		CROSS JOIN search_text t ON t.chat_id = c.value AND t.msg < ?2 AND instr(t.body, ?1) > 0
		ORDER BY t.msg DESC`
	searchRowidSQL = `SELECT ` + searchColumns + ` FROM messages m WHERE m.rowid = ?`
)

// How a search chooses between reading the viewer's own chats and walking
// the index. Reading the viewer's n messages costs a·n. The index finds a
// text in every chat of the store: to fill a page it walks the matches of
// about t/n messages for each of the viewer's (t the store's messages),
// b·t/n. Measured (docs/performance.md), b/a is about scanFactor: the read
// costs less while n² < scanFactor·t, n under 10,000 at a million
// messages. The walk goes over the newest walkWindow messages at most;
// the chats are read below where it stopped, so that a text rare in a busy
// viewer's chats costs at most both.
var (
	scanFactor int64 = 100
	walkWindow int64 = 200_000
)

// errNoSearchWrites refuses a write of the search file on the writer
// once the trailing writer writes it.
var errNoSearchWrites = errors.New("sqliteread: the search file is written by the trailing writer (Trailing)")

func (t *tx) IndexMessages(ctx context.Context, ids []string) error {
	if t.sw == nil {
		return errNoSearchWrites
	}
	if err := t.check(ctx); err != nil {
		return err
	}
	arg, err := json.Marshal(slices.Compact(slices.Sorted(slices.Values(ids))))
	if err != nil {
		return err
	}
	// What the model held of each message goes, and its text, if any,
	// comes in its place: none once recalled, deleted for everyone or
	// erased.
	var held, texts []indexRow
	st := t.sw.rows
	st.BindTextBytes(arg)
	for st.Next() {
		m, err := messageAt(st)
		if err != nil {
			st.Done()
			return err
		}
		rowid := st.Int(7)
		if st.Int(8) != 0 {
			held = append(held, indexRow{chat: m.ChatID, rowid: rowid})
		}
		if text := m.SearchText(); text != "" {
			texts = append(texts, indexRow{chat: m.ChatID, rowid: rowid, text: text})
		}
	}
	if err := st.Done(); err != nil {
		return fmt.Errorf("sqliteread: read the messages to index: %w", err)
	}
	if err := t.sw.unindexRows(held); err != nil {
		return fmt.Errorf("sqliteread: unindex %d messages: %w", len(held), err)
	}
	if err := t.sw.indexRows(texts); err != nil {
		return fmt.Errorf("sqliteread: index %d messages: %w", len(texts), err)
	}
	return nil
}

// indexRow is a message as the search file holds it.
type indexRow struct {
	chat  string
	rowid int64
	text  string
}

func (w *searchWrites) unindexRows(rows []indexRow) error {
	return eachByRowid(rows, func(r indexRow) error {
		w.unindex.BindInt(r.rowid)
		if err := w.unindex.Exec(); err != nil {
			return err
		}
		w.unindexText.BindText(r.chat)
		w.unindexText.BindInt(r.rowid)
		return w.unindexText.Exec()
	})
}

func (w *searchWrites) indexRows(rows []indexRow) error {
	return eachByRowid(rows, func(r indexRow) error {
		w.index.BindInt(r.rowid)
		w.index.BindText(r.text)
		if err := w.index.Exec(); err != nil {
			return err
		}
		w.indexText.BindText(r.chat)
		w.indexText.BindInt(r.rowid)
		w.indexText.BindText(r.text)
		return w.indexText.Exec()
	})
}

// eachByRowid writes rows one a statement, in rowid order. A statement that
// writes several rows of a virtual table inside a transaction runs in a
// statement transaction of its own: SQLite journals every page it changes,
// and FTS5 writes out what it holds at its start. One row a statement, FTS5
// gathers the whole transaction and writes it out once, at the commit.
func eachByRowid(rows []indexRow, write func(indexRow) error) error {
	slices.SortFunc(rows, byRowid)
	for _, r := range rows {
		if err := write(r); err != nil {
			return err
		}
	}
	return nil
}

func byRowid(a, b indexRow) int { return cmp.Compare(a.rowid, b.rowid) }

// SearchMessages finds the messages v sees whose text holds q.Text, newest
// first: through the trigram index, or, for a text too short for it, by
// reading v's chats (each through its index, newest first).
func (s *Store) SearchMessages(ctx context.Context, v projections.Viewer, q projections.SearchQuery) ([]projections.Message, error) {
	folded := projections.FoldSearch(q.Text)
	size := q.PageSize()
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
		var stored int64
		if !scan {
			st := r.searchSize
			st.BindTextBytes(inChats)
			if st.Next() {
				n := st.Int(0)
				stored = st.Int(1)
				scan = n*n < scanFactor*stored
			}
			if err := st.Done(); err != nil {
				return err
			}
		}
		if !scan {
			floor := max(0, min(before, stored+1)-walkWindow)
			out, err = matchIndex(r.searchMatch, folded, inChats, before, floor, size, keep)
			if err != nil || len(out) == size || floor == 0 {
				return err
			}
			before = floor
		}
		out, err = scanChats(r.searchScan, r.searchRowid, folded, inChats, before, size, out, keep)
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

// matchIndex walks the index from before down to floor, newest first, and
// keeps the messages keep admits until it holds size.
func matchIndex(st *sqlitec.Stmt, folded string, inChats []byte, before, floor int64, size int,
	keep func(*projections.Message) (bool, error)) ([]projections.Message, error) {
	grams := projections.SearchGrams(folded)
	for i, g := range grams {
		grams[i] = `"` + strings.ReplaceAll(g, `"`, `""`) + `"`
	}
	st.BindText(strings.Join(grams, " AND "))
	st.BindInt(before)
	st.BindTextBytes(inChats)
	st.BindInt(floor)
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

// scanChats reads the texts of the chats of inChats below before, newest
// first, and appends to out the messages whose text holds folded that
// keep admits, until out holds size; only those are read from messages.
func scanChats(st, byRowid *sqlitec.Stmt, folded string, inChats []byte, before int64, size int, out []projections.Message,
	keep func(*projections.Message) (bool, error)) ([]projections.Message, error) {
	st.BindText(folded)
	st.BindInt(before)
	st.BindTextBytes(inChats)
	for len(out) < size && st.Next() {
		byRowid.BindInt(st.Int(0))
		var m projections.Message
		found := byRowid.Next()
		err := error(nil)
		if found {
			m, err = messageAt(byRowid)
		}
		if err := errors.Join(err, byRowid.Done()); err != nil || !found {
			if err != nil {
				st.Done()
				return nil, err
			}
			continue
		}
		ok, err := keep(&m)
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
