package sqliteread

import "strings"

// maxChunkRows bounds the rows of one multi-row statement: one step writes
// a whole chunk, and statements compiled for maxChunkRows, half of it, ...
// 1 rows cover a batch of any length. It must be a power of two (see
// chunks).
const maxChunkRows = 32

// batch holds one statement per chunk size: maxChunkRows, half of it, ... 1.
type batch map[int]*stmt

// prepareBatch prepares the statements build returns for every chunk size.
func prepareBatch(c *conn, build func(rows int) string) (batch, error) {
	b := batch{}
	for rows := maxChunkRows; rows >= 1; rows /= 2 {
		st, err := c.prepare(build(rows))
		if err != nil {
			return nil, err
		}
		b[rows] = st
	}
	return b, nil
}

// chunks calls fn with consecutive ranges [from, to) covering n items: full
// chunks first, then the remainder split into powers of two, so every range
// has a prepared statement of its exact size.
func (b batch) chunks(n int, fn func(st *stmt, from, to int) error) error {
	from := 0
	for ; n-from >= maxChunkRows; from += maxChunkRows {
		if err := fn(b[maxChunkRows], from, from+maxChunkRows); err != nil {
			return err
		}
	}
	for size := maxChunkRows / 2; size >= 1; size /= 2 {
		if n-from < size {
			continue
		}
		if err := fn(b[size], from, from+size); err != nil {
			return err
		}
		from += size
	}
	return nil
}

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
	writeTuples(b, rows, len(t.cols))
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

// writeTuples writes rows placeholder tuples of width values: (?, ?), (?, ?).
func writeTuples(b *strings.Builder, rows, width int) {
	for r := range rows {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for c := range width {
			if c > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('?')
		}
		b.WriteByte(')')
	}
}
