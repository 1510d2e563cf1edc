package sqliteread

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// sideFile is a SQLite file beside the read store, which the processes
// sharing the read store share and which outlives its replacements. Its
// commits are not synced (NORMAL, in WAL mode): what it holds binds the
// processes on this machine, which a power loss stops all at once, and an
// fsync per write would compete with the event log's.
type sideFile struct {
	mu   sync.Mutex
	conn *sqlitec.Conn
}

// open opens the file at path, creating schema in it when absent, and
// prepares stmts; what names the file's content in errors.
func (f *sideFile) open(path, what, schema string, stmts map[**sqlitec.Stmt]string) error {
	conn, err := sqlitec.Open(path)
	if err != nil {
		return fmt.Errorf("sqliteread: open %s: %w", what, err)
	}
	err = conn.Exec(`PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; ` + schema)
	if err == nil {
		err = conn.PrepareAll(stmts)
	}
	if err != nil {
		return errors.Join(fmt.Errorf("sqliteread: %s in %s: %w", what, path, err), conn.Close())
	}
	f.conn = conn
	return nil
}

// run runs fn alone on the file, unless it is closed or ctx has ended.
func (f *sideFile) run(ctx context.Context, fn func() error) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.conn == nil {
		return errClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return fn()
}

// Close closes the file; what it holds stays in it.
func (f *sideFile) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.conn == nil {
		return nil
	}
	err := f.conn.Close()
	f.conn = nil
	return err
}

// oneInt steps st and returns the integer of its last row, 0 without one.
func oneInt(st *sqlitec.Stmt) (int64, error) {
	var n int64
	for st.Next() {
		n = st.Int(0)
	}
	return n, st.Done()
}
