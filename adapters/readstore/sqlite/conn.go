package sqliteread

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unsafe"

	"modernc.org/libc"
	"modernc.org/libc/sys/types"
	sqlite3 "modernc.org/sqlite/lib"
)

// conn is a SQLite connection driven through the C API that
// modernc.org/sqlite transpiles to Go. That module's database/sql driver
// compiles a statement again at every execution, which costs several times
// more than running the small statements the store is made of; a conn
// keeps them compiled. A conn is not safe for concurrent use.
type conn struct {
	tls   *libc.TLS
	db    uintptr
	stmts []*stmt // finalized by close
	// scratch is C memory a text value is copied to for SQLite to copy
	// it from (SQLITE_TRANSIENT): Go memory may move under the C code.
	scratch     uintptr
	scratchSize int
}

// transient tells sqlite3_bind_text to copy the value before it returns.
const transient = ^uintptr(0)

// openConn opens path (a file name, not a URI) without the connection's
// mutex: the store never shares a conn between goroutines at once.
func openConn(path string) (*conn, error) {
	c := &conn{tls: libc.NewTLS()}
	name, err := libc.CString(path)
	if err != nil {
		c.tls.Close()
		return nil, err
	}
	defer libc.Xfree(c.tls, name)
	out, err := c.alloc(8)
	if err != nil {
		c.tls.Close()
		return nil, err
	}
	defer libc.Xfree(c.tls, out)
	rc := sqlite3.Xsqlite3_open_v2(c.tls, name, out,
		sqlite3.SQLITE_OPEN_READWRITE|sqlite3.SQLITE_OPEN_CREATE|sqlite3.SQLITE_OPEN_NOMUTEX|sqlite3.SQLITE_OPEN_EXRESCODE, 0)
	c.db = readPointer(out)
	if rc != sqlite3.SQLITE_OK {
		err := c.error(rc)
		return nil, errors.Join(err, c.close())
	}
	if c.scratch, err = c.alloc(4096); err != nil {
		return nil, errors.Join(err, c.close())
	}
	c.scratchSize = 4096
	return c, nil
}

func (c *conn) alloc(n int) (uintptr, error) {
	p := libc.Xmalloc(c.tls, types.Size_t(n))
	if p == 0 {
		return 0, fmt.Errorf("sqlite: cannot allocate %d bytes", n)
	}
	return p, nil
}

// readPointer reads the pointer C code stored at p.
func readPointer(p uintptr) uintptr {
	b := libc.GoBytes(p, int(unsafe.Sizeof(p)))
	if len(b) == 8 {
		return uintptr(binary.NativeEndian.Uint64(b))
	}
	return uintptr(binary.NativeEndian.Uint32(b))
}

// close finalizes every statement and closes the connection.
func (c *conn) close() error {
	var errs []error
	for _, s := range c.stmts {
		if rc := sqlite3.Xsqlite3_finalize(c.tls, s.p); rc != sqlite3.SQLITE_OK {
			errs = append(errs, c.error(rc))
		}
	}
	c.stmts = nil
	if c.db != 0 {
		if rc := sqlite3.Xsqlite3_close_v2(c.tls, c.db); rc != sqlite3.SQLITE_OK {
			errs = append(errs, c.error(rc))
		}
		c.db = 0
	}
	if c.scratch != 0 {
		libc.Xfree(c.tls, c.scratch)
		c.scratch = 0
	}
	c.tls.Close()
	return errors.Join(errs...)
}

func (c *conn) error(rc int32) error {
	msg := libc.GoString(sqlite3.Xsqlite3_errstr(c.tls, rc))
	if c.db != 0 {
		msg = libc.GoString(sqlite3.Xsqlite3_errmsg(c.tls, c.db))
	}
	return fmt.Errorf("sqlite: %s (%d)", msg, rc)
}

// exec runs statements that take no parameters and return no rows.
func (c *conn) exec(query string) error {
	q, err := libc.CString(query)
	if err != nil {
		return err
	}
	defer libc.Xfree(c.tls, q)
	if rc := sqlite3.Xsqlite3_exec(c.tls, c.db, q, 0, 0, 0); rc != sqlite3.SQLITE_OK {
		return c.error(rc)
	}
	return nil
}

// queryRow runs a statement once, passing its first row, if any, to read.
func (c *conn) queryRow(query string, read func(s *stmt)) error {
	s, err := c.prepare(query)
	if err != nil {
		return err
	}
	defer s.finalize()
	if s.next() {
		read(s)
	}
	return s.done()
}

// prepare compiles query once; close finalizes it.
func (c *conn) prepare(query string) (*stmt, error) {
	q, err := libc.CString(query)
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(c.tls, q)
	out, err := c.alloc(8)
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(c.tls, out)
	rc := sqlite3.Xsqlite3_prepare_v3(c.tls, c.db, q, -1, sqlite3.SQLITE_PREPARE_PERSISTENT, out, 0)
	if rc != sqlite3.SQLITE_OK {
		return nil, fmt.Errorf("prepare %.60q: %w", query, c.error(rc))
	}
	s := &stmt{c: c, p: readPointer(out)}
	c.stmts = append(c.stmts, s)
	return s, nil
}

// stmt is a compiled statement. Bind its parameters in order, then run it
// with exec, or step through its rows with next, reading columns with text
// and int, and end with done, which resets it for the next run.
type stmt struct {
	c   *conn
	p   uintptr
	arg int32 // parameters bound since the last reset
	err error // the first error since the last reset
}

func (s *stmt) bindText(v string) { bindText(s, v) }

// bindTextBytes binds v as text; v may change once it returns.
func (s *stmt) bindTextBytes(v []byte) { bindText(s, v) }

func bindText[T string | []byte](s *stmt, v T) {
	s.arg++
	if s.err != nil {
		return
	}
	if len(v) > math.MaxInt32 {
		s.err = fmt.Errorf("sqlite: a %d-byte text is too long", len(v))
		return
	}
	if len(v) > s.c.scratchSize {
		p, err := s.c.alloc(len(v))
		if err != nil {
			s.err = err
			return
		}
		libc.Xfree(s.c.tls, s.c.scratch)
		s.c.scratch, s.c.scratchSize = p, len(v)
	}
	copy(libc.GoBytes(s.c.scratch, len(v)), v)
	if rc := sqlite3.Xsqlite3_bind_text(s.c.tls, s.p, s.arg, s.c.scratch, int32(len(v)), transient); rc != sqlite3.SQLITE_OK {
		s.err = s.c.error(rc)
	}
}

func (s *stmt) bindInt(v int64) {
	s.arg++
	if s.err != nil {
		return
	}
	if rc := sqlite3.Xsqlite3_bind_int64(s.c.tls, s.p, s.arg, v); rc != sqlite3.SQLITE_OK {
		s.err = s.c.error(rc)
	}
}

func (s *stmt) bindBool(v bool) {
	var n int64
	if v {
		n = 1
	}
	s.bindInt(n)
}

// next steps to the next row and reports whether there is one.
func (s *stmt) next() bool {
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

// done resets the statement and returns the first error of the run.
func (s *stmt) done() error {
	err := s.err
	sqlite3.Xsqlite3_reset(s.c.tls, s.p) // repeats a step error already kept
	s.arg, s.err = 0, nil
	return err
}

// exec runs the statement to its end.
func (s *stmt) exec() error {
	for s.next() {
	}
	return s.done()
}

// text returns column i of the current row as a Go string.
func (s *stmt) text(i int32) string {
	p := sqlite3.Xsqlite3_column_text(s.c.tls, s.p, i)
	n := sqlite3.Xsqlite3_column_bytes(s.c.tls, s.p, i)
	if p == 0 || n == 0 {
		return ""
	}
	return string(libc.GoBytes(p, int(n)))
}

// int returns column i of the current row as an integer.
func (s *stmt) int(i int32) int64 {
	return sqlite3.Xsqlite3_column_int64(s.c.tls, s.p, i)
}

// finalize drops a statement prepared for one use.
func (s *stmt) finalize() {
	sqlite3.Xsqlite3_finalize(s.c.tls, s.p)
	for i, o := range s.c.stmts {
		if o == s {
			s.c.stmts = append(s.c.stmts[:i], s.c.stmts[i+1:]...)
			break
		}
	}
}

// resetAll resets every statement, ending runs a panic interrupted.
func (c *conn) resetAll() {
	for _, s := range c.stmts {
		s.done()
	}
}

// inTransaction reports whether a transaction is open: SQLite ends one by
// itself after some errors.
func (c *conn) inTransaction() bool {
	return sqlite3.Xsqlite3_get_autocommit(c.tls, c.db) == 0
}
