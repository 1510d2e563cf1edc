package sqliteread

import (
	"strings"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// maxChunkRows bounds the rows of one multi-row statement: one step writes
// a whole chunk.
const maxChunkRows = 32

// table describes the columns a multi-row statement writes.
type table struct {
	name string
	cols []string
	key  []string // the primary key, the conflict target of upserts
}

// insertIgnore returns an INSERT of rows rows that keeps stored rows as
// they are. OR IGNORE rather than an upsert clause: a statement that cannot
// abort halfway needs no statement journal, which costs more than the
// insert itself. No column is ever bound to NULL, so IGNORE only skips
// rows whose key is stored.
func (t table) insertIgnore(rows int) string {
	var b strings.Builder
	b.WriteString("INSERT OR IGNORE INTO ")
	t.writeInsert(&b, rows)
	return b.String()
}

// upsert returns an INSERT of rows rows that replaces stored rows whole.
func (t table) upsert(rows int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO ")
	t.writeInsert(&b, rows)
	b.WriteString(" ON CONFLICT (")
	b.WriteString(strings.Join(t.key, ", "))
	b.WriteString(") DO UPDATE SET ")
	first := true
	for _, c := range t.cols {
		if t.isKey(c) {
			continue
		}
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteString(c)
		b.WriteString(" = excluded.")
		b.WriteString(c)
	}
	return b.String()
}

func (t table) writeInsert(b *strings.Builder, rows int) {
	b.WriteString(t.name)
	b.WriteString(" (")
	b.WriteString(strings.Join(t.cols, ", "))
	b.WriteString(") VALUES ")
	b.WriteString(sqlitec.Tuples(rows, len(t.cols)))
}

func (t table) isKey(col string) bool {
	for _, k := range t.key {
		if k == col {
			return true
		}
	}
	return false
}

// selectColumns lists the table's columns qualified by alias.
func (t table) selectColumns(alias string) string {
	qualified := make([]string, len(t.cols))
	for i, c := range t.cols {
		qualified[i] = alias + "." + c
	}
	return strings.Join(qualified, ", ")
}
