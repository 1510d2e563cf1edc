// Package keystore keeps the members' data keys, apart from the event log:
// destroying a key erases whatever the log holds sealed under it.
package keystore

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// FileName is the key store's file in the data directory.
const FileName = "keys.db"

// schema: a destroyed key stays as a row without a key, so that it is
// never made again. secure_delete overwrites what a delete or an update
// frees, and the rollback journal that held the page before the change is
// deleted when it commits: no copy of a destroyed key stays in a file.
const schema = `PRAGMA busy_timeout = 5000; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA secure_delete = ON;
CREATE TABLE IF NOT EXISTS data_keys (
	tenant TEXT NOT NULL,
	member TEXT NOT NULL,
	key    BLOB,
	PRIMARY KEY (tenant, member)
) WITHOUT ROWID`

var errClosed = errors.New("keystore: closed")

// SQLite is the key store of the embedded profile: its own SQLite file.
type SQLite struct {
	mu      sync.Mutex
	conn    *sqlitec.Conn
	get     *sqlitec.Stmt
	add     *sqlitec.Stmt
	destroy *sqlitec.Stmt
}

// Open opens the key store in the file at path, creating it when absent.
func Open(path string) (*SQLite, error) {
	conn, err := sqlitec.Open(path)
	if err != nil {
		return nil, fmt.Errorf("keystore: %w", err)
	}
	s := &SQLite{conn: conn}
	if err = conn.Exec(schema); err == nil {
		err = conn.PrepareAll(map[**sqlitec.Stmt]string{
			&s.get:     `SELECT key FROM data_keys WHERE tenant = ? AND member = ?`,
			&s.add:     `INSERT INTO data_keys (tenant, member, key) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
			&s.destroy: `INSERT INTO data_keys (tenant, member, key) VALUES (?, ?, NULL) ON CONFLICT DO UPDATE SET key = NULL`,
		})
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("keystore: %s: %w", path, err), conn.Close())
	}
	return s, nil
}

// Key returns what is kept for member. When there is nothing and mk is not
// nil, it keeps what mk returns. ok is false when the key was destroyed, or
// when there is none and mk is nil.
func (s *SQLite) Key(ctx context.Context, tenant, member string, mk func() ([]byte, error)) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil {
		return nil, false, errClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	key, found, err := s.lookup(tenant, member)
	if err != nil || found || mk == nil {
		return key, key != nil, err
	}
	fresh, err := mk()
	if err != nil {
		return nil, false, err
	}
	s.add.BindText(tenant)
	s.add.BindText(member)
	s.add.BindBlob(fresh)
	if err := s.add.Exec(); err != nil {
		return nil, false, fmt.Errorf("keystore: add a key: %w", err)
	}
	return fresh, true, nil
}

// lookup finds member's row: found with a nil key is a destroyed key.
func (s *SQLite) lookup(tenant, member string) (key []byte, found bool, err error) {
	s.get.BindText(tenant)
	s.get.BindText(member)
	for s.get.Next() {
		found = true
		key = s.get.Blob(0)
	}
	if err := s.get.Done(); err != nil {
		return nil, false, fmt.Errorf("keystore: read a key: %w", err)
	}
	return key, found, nil
}

// Destroy destroys member's key for ever: Key never makes another.
func (s *SQLite) Destroy(ctx context.Context, tenant, member string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil {
		return errClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	s.destroy.BindText(tenant)
	s.destroy.BindText(member)
	if err := s.destroy.Exec(); err != nil {
		return fmt.Errorf("keystore: destroy a key: %w", err)
	}
	return nil
}

// Close closes the file.
func (s *SQLite) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil {
		return nil
	}
	err := s.conn.Close()
	s.conn = nil
	return err
}
