package sqlitec

import (
	"fmt"
	"math"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// Stmt is a compiled statement of a Conn. Bind its parameters in order,
// then run it with Exec, or step through its rows with Next, reading
// columns (numbered from 0) with Text, Int, ..., and end with Done, which
// resets it for the next run. Bindings stay until bound again.
//
// A bind error is kept and returned by Exec or Done, so that a run reads
// as a sequence of calls with one error check at its end.
type Stmt struct {
	c   *Conn
	p   uintptr
	arg int32 // parameters bound since the last reset
	err error // the first error since the last reset
}

// ColumnType is the storage class of a value.
type ColumnType int32

// The storage classes of SQLite.
const (
	Integer ColumnType = sqlite3.SQLITE_INTEGER
	Float   ColumnType = sqlite3.SQLITE_FLOAT
	Text    ColumnType = sqlite3.SQLITE_TEXT
	Blob    ColumnType = sqlite3.SQLITE_BLOB
	Null    ColumnType = sqlite3.SQLITE_NULL
)

// BindText binds the next parameter to v as text.
func (s *Stmt) BindText(v string) { bindBytes(s, v, false) }

// BindTextBytes binds the next parameter to v as text; v may change once
// it returns.
func (s *Stmt) BindTextBytes(v []byte) { bindBytes(s, v, false) }

// BindBlob binds the next parameter to v as a blob, empty (not NULL) when
// v is; v may change once it returns.
func (s *Stmt) BindBlob(v []byte) { bindBytes(s, v, true) }

// bindBytes copies v into the connection's scratch memory, from which
// SQLite copies it.
func bindBytes[T string | []byte](s *Stmt, v T, blob bool) {
	s.arg++
	if s.err != nil {
		return
	}
	if len(v) > math.MaxInt32 {
		s.err = fmt.Errorf("sqlite: a %d-byte value is too long", len(v))
		return
	}
	c := s.c
	if len(v) > c.scratchSize {
		p, err := c.alloc(len(v))
		if err != nil {
			s.err = err
			return
		}
		libc.Xfree(c.tls, c.scratch)
		c.scratch, c.scratchSize = p, len(v)
	}
	copy(libc.GoBytes(c.scratch, len(v)), v)
	var rc int32
	if blob {
		rc = sqlite3.Xsqlite3_bind_blob(c.tls, s.p, s.arg, c.scratch, int32(len(v)), transient)
	} else {
		rc = sqlite3.Xsqlite3_bind_text(c.tls, s.p, s.arg, c.scratch, int32(len(v)), transient)
	}
	if rc != sqlite3.SQLITE_OK {
		s.err = c.error(rc)
	}
}

// BindInt binds the next parameter to v.
func (s *Stmt) BindInt(v int64) {
	s.arg++
	if s.err != nil {
		return
	}
	if rc := sqlite3.Xsqlite3_bind_int64(s.c.tls, s.p, s.arg, v); rc != sqlite3.SQLITE_OK {
		s.err = s.c.error(rc)
	}
}

// BindBool binds the next parameter to 1 or 0.
func (s *Stmt) BindBool(v bool) {
	var n int64
	if v {
		n = 1
	}
	s.BindInt(n)
}

// Next steps to the next row and reports whether there is one; at the end
// or on an error it returns false, and Done tells which.
func (s *Stmt) Next() bool {
	if s.err != nil {
		return false
	}
	switch rc := sqlite3.Xsqlite3_step(s.c.tls, s.p); rc {
	case sqlite3.SQLITE_ROW:
		return true
	case sqlite3.SQLITE_DONE:
		return false
	default:
		s.err = s.c.error(rc)
		return false
	}
}

// Done resets the statement and returns the first error of the run.
func (s *Stmt) Done() error {
	err := s.err
	sqlite3.Xsqlite3_reset(s.c.tls, s.p) // repeats a step error already kept
	s.arg, s.err = 0, nil
	return err
}

// Exec runs the statement to its end and resets it.
func (s *Stmt) Exec() error {
	for s.Next() {
	}
	return s.Done()
}

// Text returns column i of the current row as a string.
func (s *Stmt) Text(i int) string {
	p := sqlite3.Xsqlite3_column_text(s.c.tls, s.p, int32(i))
	n := sqlite3.Xsqlite3_column_bytes(s.c.tls, s.p, int32(i))
	if p == 0 || n == 0 {
		return ""
	}
	return string(libc.GoBytes(p, int(n)))
}

// Blob returns a copy of column i of the current row as bytes, nil when
// the value is NULL or empty.
func (s *Stmt) Blob(i int) []byte {
	p := sqlite3.Xsqlite3_column_blob(s.c.tls, s.p, int32(i))
	n := sqlite3.Xsqlite3_column_bytes(s.c.tls, s.p, int32(i))
	if p == 0 || n == 0 {
		return nil
	}
	return append([]byte(nil), libc.GoBytes(p, int(n))...)
}

// Bytes returns column i of the current row as SQLite holds it, without
// a copy, nil when the value is NULL or empty: it is valid only until the
// next call on the statement.
func (s *Stmt) Bytes(i int) []byte {
	p := sqlite3.Xsqlite3_column_blob(s.c.tls, s.p, int32(i))
	n := sqlite3.Xsqlite3_column_bytes(s.c.tls, s.p, int32(i))
	if p == 0 || n == 0 {
		return nil
	}
	return libc.GoBytes(p, int(n))
}

// Int returns column i of the current row as an integer.
func (s *Stmt) Int(i int) int64 {
	return sqlite3.Xsqlite3_column_int64(s.c.tls, s.p, int32(i))
}

// Float returns column i of the current row as a float.
func (s *Stmt) Float(i int) float64 {
	return sqlite3.Xsqlite3_column_double(s.c.tls, s.p, int32(i))
}

// ColumnType returns the storage class of column i of the current row.
func (s *Stmt) ColumnType(i int) ColumnType {
	return ColumnType(sqlite3.Xsqlite3_column_type(s.c.tls, s.p, int32(i)))
}

// ColumnCount returns the number of columns of the statement's rows.
func (s *Stmt) ColumnCount() int {
	return int(sqlite3.Xsqlite3_column_count(s.c.tls, s.p))
}

// Finalize drops a statement before its Conn closes.
func (s *Stmt) Finalize() {
	sqlite3.Xsqlite3_finalize(s.c.tls, s.p)
	for i, o := range s.c.stmts {
		if o == s {
			s.c.stmts = append(s.c.stmts[:i], s.c.stmts[i+1:]...)
			break
		}
	}
}
