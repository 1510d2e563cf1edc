package sqlitec

import (
	"fmt"
	"strings"
)

// Batch is a multi-row statement compiled for maxRows rows, half of it,
// ... 1 row, so that statements of exact sizes cover any number of rows:
// one step then writes a whole chunk.
type Batch struct {
	stmts []*Stmt // stmts[k] takes 1<<k rows
}

// PrepareBatch prepares the statement build returns for every chunk size;
// maxRows must be a power of two.
func (c *Conn) PrepareBatch(maxRows int, build func(rows int) string) (Batch, error) {
	if maxRows < 1 || maxRows&(maxRows-1) != 0 {
		return Batch{}, fmt.Errorf("sqlite: batch of %d rows: not a power of two", maxRows)
	}
	var b Batch
	for rows := 1; rows <= maxRows; rows *= 2 {
		st, err := c.Prepare(build(rows))
		if err != nil {
			return Batch{}, err
		}
		b.stmts = append(b.stmts, st)
	}
	return b, nil
}

// MaxRows is the largest chunk size.
func (b Batch) MaxRows() int { return 1 << (len(b.stmts) - 1) }

// Chunks calls fn with consecutive ranges [from, to) covering n items:
// full chunks of MaxRows first, then the rest split into powers of two, each
// with the statement of its size. It stops at the first error.
func (b Batch) Chunks(n int, fn func(st *Stmt, from, to int) error) error {
	from := 0
	for k := len(b.stmts) - 1; k >= 0; k-- {
		size := 1 << k
		for n-from >= size {
			if err := fn(b.stmts[k], from, from+size); err != nil {
				return err
			}
			from += size
			if k < len(b.stmts)-1 {
				break // a smaller size fits at most once
			}
		}
	}
	return nil
}

// Tuples returns rows parenthesised lists of width placeholders, for a
// multi-row VALUES clause: Tuples(2, 3) is "(?, ?, ?), (?, ?, ?)".
func Tuples(rows, width int) string {
	var b strings.Builder
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
	return b.String()
}
