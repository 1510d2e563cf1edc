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
	"slices"
	"strings"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// hashedModels are the read models Hash covers, each read in the order of
// its primary key. Checkpoints are left out: they tell how far a store
// has folded, not what it holds. unread_floors are left out too: they are
// an accelerator of the unread queries whose value depends on where
// batches happened to end, not data of their own.
var hashedModels = []hashedModel{
	{"members", "members", "id", "tenant = ?1"},
	// A message keeps its tenant in its doc.
	{"messages", "messages", "id", "doc ->> '$.tenant' = ?1"},
	// The search index, gram by gram, of the messages of the tenant.
	{"search", "search_terms", "id, term, pos", "tenant = ?1"},
	// A clear floor belongs to the tenant of its member.
	{"clearFloors", "clear_floors", "member, chat_id", "member IN (SELECT id FROM members WHERE tenant = ?1)"},
	{"mentions", "mentions", "member, message_id", "tenant = ?1"},
	{"groups", "groups", "id", "tenant = ?1"},
	{"groupMembers", "group_members", "group_id, member", "tenant = ?1"},
	{"personal", "personal_items", "member, kind, id", "tenant = ?1"},
	{"notices", "notices", "member, id", "tenant = ?1"},
	{"sessions", "sessions", "member, peer", "tenant = ?1"},
	{"applies", "applies", "id", "tenant = ?1"},
	{"groupApplies", "group_applies", "id", "tenant = ?1"},
	{"friends", "friends", "member, friend_id", "tenant = ?1"},
	{"authSessions", "auth_sessions", "id", "tenant = ?1"},
}

// hashedModel is one read model: its table, the columns of its primary
// key (its order) and the condition keeping one tenant's rows (its tenant
// bound as ?1).
type hashedModel struct{ name, table, order, ofTenant string }

// query selects the key columns, then every column, of the model's rows,
// of tenant's only unless tenant is "", in key order.
func (m hashedModel) query(tenant string) string {
	q := `SELECT ` + m.order + `, * FROM ` + m.table
	if tenant != "" {
		q += ` WHERE ` + m.ofTenant
	}
	return q + ` ORDER BY ` + m.order
}

// keys is the number of key columns the query starts with.
func (m hashedModel) keys() int { return strings.Count(m.order, ",") + 1 }

// Hash returns a SHA-256, in hex, of every row of each read model, keyed
// by model name. Two stores holding the same rows hash alike whatever the
// order they were written in; the hashes are taken in one snapshot. It
// reads every row: it is meant for checks and tests, not for serving.
func (s *Store) Hash(ctx context.Context) (map[string]string, error) {
	return s.HashTenant(ctx, "")
}

// HashTenant is Hash of the rows of one tenant; "" hashes every row.
func (s *Store) HashTenant(ctx context.Context, tenant string) (map[string]string, error) {
	sn, err := s.snapshot()
	if err != nil {
		return nil, err
	}
	out, err := hashModels(ctx, sn.c, tenant)
	if err != nil {
		err = fmt.Errorf("sqliteread: hash %s: %w", s.path, err)
	}
	return out, errors.Join(err, sn.Close())
}

func hashModels(ctx context.Context, c *sqlitec.Conn, tenant string) (map[string]string, error) {
	out := make(map[string]string, len(hashedModels))
	for _, m := range hashedModels {
		st, err := m.prepare(c, tenant)
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		var rows int64
		for st.Next() {
			if rows++; rows%4096 == 0 && ctx.Err() != nil {
				break
			}
			hashRow(h, st, m.keys())
		}
		err = errors.Join(st.Done(), ctx.Err())
		st.Finalize()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.name, err)
		}
		out[m.name] = hex.EncodeToString(h.Sum(nil))
	}
	return out, nil
}

func (m hashedModel) prepare(c *sqlitec.Conn, tenant string) (*sqlitec.Stmt, error) {
	st, err := c.Prepare(m.query(tenant))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.name, err)
	}
	if tenant != "" {
		st.BindText(tenant)
	}
	return st, nil
}

// hashRow hashes the columns of st's row from the first after the key:
// each value with its type and, for text and blobs, its length, so that no
// two different rows encode alike.
func hashRow(h hash.Hash, st *sqlitec.Stmt, from int) {
	for i := from; i < st.ColumnCount(); i++ {
		hashValue(h, st, i)
	}
}

// Snapshot is what a store held when it was taken, read in one read
// transaction until it is closed: the live store folds on meanwhile.
type Snapshot struct {
	c           *sqlitec.Conn
	checkpoints map[string]uint64
}

var _ projections.Snapshots = (*Store)(nil)

// Snapshot pins what the store holds now, checkpoints included.
func (s *Store) Snapshot(context.Context) (projections.Snapshot, error) {
	return s.snapshot()
}

func (s *Store) snapshot() (*Snapshot, error) {
	s.mu.Lock()
	closed := s.writer == nil
	s.mu.Unlock()
	if closed {
		return nil, errClosed
	}
	c, err := sqlitec.Open(s.path)
	if err != nil {
		return nil, fmt.Errorf("sqliteread: snapshot of %s: %w", s.path, err)
	}
	sn := &Snapshot{c: c, checkpoints: map[string]uint64{}}
	// The read transaction starts at its first read: the checkpoints'.
	err = attachSearch(c, s.path)
	if err == nil {
		err = c.Exec(searchView + `; PRAGMA query_only = 1; PRAGMA busy_timeout = 5000; BEGIN`)
	}
	if err == nil {
		var st *sqlitec.Stmt
		if st, err = c.Prepare(checkpointsSQL); err == nil {
			for st.Next() {
				sn.checkpoints[st.Text(0)] = uint64(st.Int(1))
			}
			err = st.Done()
			st.Finalize()
		}
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("sqliteread: snapshot of %s: %w", s.path, err), c.Close())
	}
	return sn, nil
}

// Checkpoints are the projectors' checkpoints in the snapshot.
func (sn *Snapshot) Checkpoints() map[string]uint64 { return sn.checkpoints }

// Close ends the snapshot.
func (sn *Snapshot) Close() error {
	return errors.Join(sn.c.Exec(`COMMIT`), sn.c.Close())
}

// CompareTenant compares tenant's rows of every read model in the two
// snapshots, in key order: a model differs at the first key whose row is
// in one only or differs between them.
func (sn *Snapshot) CompareTenant(ctx context.Context, other projections.Snapshot, tenant string) ([]projections.ModelComparison, error) {
	o, ok := other.(*Snapshot)
	if !ok {
		return nil, fmt.Errorf("sqliteread: cannot compare with a %T", other)
	}
	out := make([]projections.ModelComparison, 0, len(hashedModels))
	for _, m := range hashedModels {
		first, err := firstDifference(ctx, m, sn.c, o.c, tenant)
		if err != nil {
			return nil, fmt.Errorf("sqliteread: compare %s: %w", m.name, err)
		}
		out = append(out, projections.ModelComparison{Name: m.name, Equal: first == "", FirstDifference: first})
	}
	return out, nil
}

// firstDifference steps through m's rows of tenant in a and b together
// and names the first key at which they differ, "" when none does. Keys
// are text, so Go's string order is SQLite's BINARY order of the query.
func firstDifference(ctx context.Context, m hashedModel, a, b *sqlitec.Conn, tenant string) (string, error) {
	sa, err := m.prepare(a, tenant)
	if err != nil {
		return "", err
	}
	defer sa.Finalize()
	sb, err := m.prepare(b, tenant)
	if err != nil {
		return "", err
	}
	defer sb.Finalize()
	cols := strings.Split(m.order, ", ")
	ra, rb := rowReader{st: sa, keys: len(cols)}, rowReader{st: sb, keys: len(cols)}
	okA, okB := ra.next(), rb.next()
	first := ""
	for rows := 1; (okA || okB) && first == ""; rows++ {
		if rows%4096 == 0 && ctx.Err() != nil {
			break
		}
		switch c := compareKeys(ra.key, rb.key, okA, okB); {
		case c < 0:
			first = keyText(cols, ra.key)
		case c > 0:
			first = keyText(cols, rb.key)
		case ra.sum != rb.sum:
			first = keyText(cols, ra.key)
		default:
			okA, okB = ra.next(), rb.next()
		}
	}
	return first, errors.Join(sa.Done(), sb.Done(), ctx.Err())
}

// rowReader reads the key and the hash of the rest of each row of st.
type rowReader struct {
	st   *sqlitec.Stmt
	keys int
	key  []string
	sum  [sha256.Size]byte
	h    hash.Hash
}

func (r *rowReader) next() bool {
	if !r.st.Next() {
		return false
	}
	r.key = r.key[:0]
	for i := range r.keys {
		r.key = append(r.key, r.st.Text(i))
	}
	if r.h == nil {
		r.h = sha256.New()
	}
	r.h.Reset()
	hashRow(r.h, r.st, r.keys)
	r.h.Sum(r.sum[:0])
	return true
}

// compareKeys orders two rows by key; a missing row comes after any.
func compareKeys(a, b []string, okA, okB bool) int {
	switch {
	case !okB:
		return -1
	case !okA:
		return 1
	}
	return slices.Compare(a, b)
}

func keyText(cols, key []string) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = c + "=" + key[i]
	}
	return strings.Join(parts, ", ")
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
