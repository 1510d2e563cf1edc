// Package sqlitec drives SQLite through the C API that modernc.org/sqlite
// transpiles to Go. That module's database/sql driver compiles a statement
// again at every execution, which costs several times more than running
// the small statements a store is made of; a Conn keeps them compiled.
package sqlitec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"

	"modernc.org/libc"
	"modernc.org/libc/sys/types"
	sqlite3 "modernc.org/sqlite/lib"
)

// Conn is a connection to a SQLite database. It is not safe for concurrent
// use: one goroutine at a time, which may change.
type Conn struct {
	tls   *libc.TLS
	db    uintptr
	stmts []*Stmt // finalized by Close
	// scratch is C memory a value is copied to for SQLite to copy it from
	// (SQLITE_TRANSIENT): Go memory may move under the C code.
	scratch     uintptr
	scratchSize int
	// dbName is SQLite's copy of the database file name, which names the
	// connection to its WAL file system.
	dbName uintptr
}

// transient tells sqlite3_bind_* to copy the value before it returns.
const transient = ^uintptr(0)

const scratchSize = 4096

// Open opens the database in the file at path (a file name, not a URI),
// creating it when absent. Nothing is read before the first statement, so
// a file that is not a database fails then, with CodeNotADB.
func Open(path string) (*Conn, error) { return OpenWAL(path, DirectWAL) }

// OpenWAL opens path as Open does, with the WAL written as w says.
func OpenWAL(path string, w WALWrites) (*Conn, error) {
	c := &Conn{tls: libc.NewTLS()}
	var vfs uintptr
	if w != DirectWAL {
		var err error
		if vfs, err = walVFSName(c.tls, w); err != nil {
			c.tls.Close()
			return nil, err
		}
	}
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
	// NOMUTEX: a Conn is never used by two goroutines at once.
	rc := sqlite3.Xsqlite3_open_v2(c.tls, name, out,
		sqlite3.SQLITE_OPEN_READWRITE|sqlite3.SQLITE_OPEN_CREATE|sqlite3.SQLITE_OPEN_NOMUTEX|sqlite3.SQLITE_OPEN_EXRESCODE, vfs)
	c.db = readPointer(out)
	if rc != sqlite3.SQLITE_OK {
		err := fmt.Errorf("open %s: %w", path, c.error(rc))
		return nil, errors.Join(err, c.Close())
	}
	if c.scratch, err = c.alloc(scratchSize); err != nil {
		return nil, errors.Join(err, c.Close())
	}
	c.scratchSize = scratchSize
	if w != DirectWAL {
		pragmas := "PRAGMA synchronous = FULL"
		if w == DeferredSyncWAL {
			c.dbName = sqlite3.Xsqlite3_db_filename(c.tls, c.db, walVFS.main)
			pragmas += "; PRAGMA wal_autocheckpoint = 0"
		}
		if err := c.Exec(pragmas); err != nil {
			return nil, errors.Join(err, c.Close())
		}
	}
	return c, nil
}

func (c *Conn) alloc(n int) (uintptr, error) {
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

// Close finalizes every statement and closes the connection. The Conn and
// its statements must not be used afterwards.
func (c *Conn) Close() error {
	var errs []error
	if c.db != 0 && c.dbName != 0 {
		// The last connection to close checkpoints the WAL.
		errs = append(errs, c.SyncWAL())
	}
	return c.close(errs)
}

// CloseKeepingWAL closes the connection as Close does, but leaves the WAL as
// it is: the last connection to a WAL database otherwise copies the WAL
// into the file first, wasted on a file that is about to be replaced, whose
// WAL the caller then removes.
func (c *Conn) CloseKeepingWAL() error {
	var errs []error
	if c.db != 0 {
		va := libc.NewVaList(int32(1), uintptr(0))
		if rc := sqlite3.Xsqlite3_db_config(c.tls, c.db, sqlite3.SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, va); rc != sqlite3.SQLITE_OK {
			errs = append(errs, c.error(rc))
		}
		libc.Xfree(c.tls, va)
	}
	return c.close(errs)
}

func (c *Conn) close(errs []error) error {
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

// Exec runs statements, separated by semicolons, that take no parameters;
// rows they return are dropped.
func (c *Conn) Exec(query string) error {
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

// QueryRow compiles and runs a statement once, passing its first row, if
// any, to read.
func (c *Conn) QueryRow(query string, read func(s *Stmt)) error {
	s, err := c.Prepare(query)
	if err != nil {
		return err
	}
	defer s.Finalize()
	if s.Next() {
		read(s)
	}
	return s.Done()
}

// Prepare compiles query, one statement, for many runs; Close finalizes
// it, or Finalize before.
func (c *Conn) Prepare(query string) (*Stmt, error) {
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
	p := readPointer(out)
	if p == 0 {
		return nil, fmt.Errorf("prepare %.60q: no statement", query)
	}
	s := &Stmt{c: c, p: p}
	c.stmts = append(c.stmts, s)
	return s, nil
}

// PrepareAll prepares every query into the statement it is keyed by.
func (c *Conn) PrepareAll(queries map[**Stmt]string) error {
	for dst, query := range queries {
		st, err := c.Prepare(query)
		if err != nil {
			return err
		}
		*dst = st
	}
	return nil
}

// ResetAll resets every statement, ending runs that a panic or an early
// return interrupted.
func (c *Conn) ResetAll() {
	for _, s := range c.stmts {
		_ = s.Done()
	}
}

// InTransaction reports whether a transaction is open: SQLite ends one by
// itself after some errors.
func (c *Conn) InTransaction() bool {
	return sqlite3.Xsqlite3_get_autocommit(c.tls, c.db) == 0
}
