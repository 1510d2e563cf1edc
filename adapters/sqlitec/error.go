package sqlitec

import (
	"errors"
	"fmt"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// Code is a SQLite result code, primary (its low byte) or extended: the
// constants of modernc.org/sqlite/lib convert to it.
type Code int32

// The result codes callers commonly tell apart.
const (
	CodeBusy       Code = sqlite3.SQLITE_BUSY
	CodeLocked     Code = sqlite3.SQLITE_LOCKED
	CodeReadOnly   Code = sqlite3.SQLITE_READONLY
	CodeCorrupt    Code = sqlite3.SQLITE_CORRUPT
	CodeCantOpen   Code = sqlite3.SQLITE_CANTOPEN
	CodeConstraint Code = sqlite3.SQLITE_CONSTRAINT
	CodeNotADB     Code = sqlite3.SQLITE_NOTADB
	CodeFull       Code = sqlite3.SQLITE_FULL
	CodeIOErr      Code = sqlite3.SQLITE_IOERR
)

// Primary is the primary code of c: SQLITE_CONSTRAINT for
// SQLITE_CONSTRAINT_UNIQUE.
func (c Code) Primary() Code { return c & 0xff }

// Error is a failure SQLite reported.
type Error struct {
	Code    Code // extended result code
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("sqlite: %s (%d)", e.Message, e.Code) }

// HasCode reports whether err holds an *Error of code: the same extended
// code, or the same primary code when code is a primary one.
func HasCode(err error, code Code) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	if code == code.Primary() {
		return e.Code.Primary() == code
	}
	return e.Code == code
}

// error builds the Error of rc, with the connection's message when it has
// one.
func (c *Conn) error(rc int32) error {
	msg := libc.GoString(sqlite3.Xsqlite3_errstr(c.tls, rc))
	if c.db != 0 && sqlite3.Xsqlite3_extended_errcode(c.tls, c.db) == rc {
		msg = libc.GoString(sqlite3.Xsqlite3_errmsg(c.tls, c.db))
	}
	return &Error{Code: Code(rc), Message: msg}
}
