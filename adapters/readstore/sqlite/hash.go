package sqliteread

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"math"
	"strings"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// hashedModels are the read models Hash covers, each read in the order of
// its primary key. Checkpoints are left out: they tell how far a store
// has folded, not what it holds. unread_floors are left out too: they are
// an accelerator of the unread queries whose value depends on where
// batches happened to end, not data of their own.
var hashedModels = []struct{ name, table, order string }{
	{"members", "members", "id"},
	{"messages", "messages", "id"},
	{"clearFloors", "clear_floors", "member, chat_id"},
	{"mentions", "mentions", "member, message_id"},
	{"groups", "groups", "id"},
	{"groupMembers", "group_members", "group_id, member"},
	{"personal", "personal_items", "member, kind, id"},
	{"notices", "notices", "member, id"},
	{"sessions", "sessions", "member, peer"},
	{"applies", "applies", "id"},
	{"groupApplies", "group_applies", "id"},
	{"friends", "friends", "member, friend_id"},
	{"authSessions", "auth_sessions", "id"},
}

// Hash returns a SHA-256, in hex, of every row of each read model, keyed
// by model name. Two stores holding the same rows hash alike whatever the
// order they were written in; the hashes are taken in one snapshot. It
// reads every row: it is meant for checks and tests, not for serving.
func (s *Store) Hash(ctx context.Context) (map[string]string, error) {
	s.mu.Lock()
	closed := s.writer == nil
	s.mu.Unlock()
	if closed {
		return nil, errClosed
	}
	c, err := sqlitec.Open(s.path)
	if err != nil {
		return nil, fmt.Errorf("sqliteread: hash %s: %w", s.path, err)
	}
	defer c.Close()
	out, err := hashModels(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("sqliteread: hash %s: %w", s.path, err)
	}
	return out, nil
}

func hashModels(ctx context.Context, c *sqlitec.Conn) (out map[string]string, err error) {
	if err := c.Exec(`PRAGMA query_only = 1; PRAGMA busy_timeout = 5000; BEGIN`); err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, c.Exec(`COMMIT`)) }()
	out = make(map[string]string, len(hashedModels))
	for _, m := range hashedModels {
		st, err := c.Prepare(`SELECT * FROM ` + m.table + ` ORDER BY ` + m.order)
		if err != nil {
			return nil, err
		}
		sum, err := hashRows(ctx, st)
		st.Finalize()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.name, err)
		}
		out[m.name] = sum
	}
	return out, nil
}

// hashRows hashes every row of st: each value with its type and, for text
// and blobs, its length, so that no two different rows encode alike.
func hashRows(ctx context.Context, st *sqlitec.Stmt) (string, error) {
	h := sha256.New()
	cols := st.ColumnCount()
	var rows int64
	for st.Next() {
		if rows++; rows%4096 == 0 && ctx.Err() != nil {
			st.Done()
			return "", ctx.Err()
		}
		for i := range cols {
			hashValue(h, st, i)
		}
	}
	if err := st.Done(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashValue(h hash.Hash, st *sqlitec.Stmt, i int) {
	var b [9]byte
	switch st.ColumnType(i) {
	case sqlitec.Integer:
		b[0] = 'i'
		binary.BigEndian.PutUint64(b[1:], uint64(st.Int(i)))
		h.Write(b[:])
	case sqlitec.Float:
		b[0] = 'f'
		binary.BigEndian.PutUint64(b[1:], math.Float64bits(st.Float(i)))
		h.Write(b[:])
	case sqlitec.Null:
		h.Write([]byte{'n'})
	default: // text and blobs: the store writes text only
		v := st.Text(i)
		b[0] = 't'
		binary.BigEndian.PutUint64(b[1:], uint64(len(v)))
		h.Write(b[:])
		_, _ = strings.NewReader(v).WriteTo(h)
	}
}
