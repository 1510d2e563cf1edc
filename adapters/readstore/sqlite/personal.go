package sqliteread

import (
	"context"
	"errors"
	"fmt"

	"github.com/eventchat/eventchat/adapters/sqlitec"
	"github.com/eventchat/eventchat/projections"
)

var personalRows = table{
	name: "personal_items",
	cols: []string{"member", "kind", "id", "tenant", "at", "doc"},
	key:  []string{"member", "kind", "id"},
}

const (
	personalTable = `CREATE TABLE personal_items (
		member TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, tenant TEXT NOT NULL,
		at INTEGER NOT NULL, doc TEXT NOT NULL,
		PRIMARY KEY (member, kind, id)
	) WITHOUT ROWID`
	personalIndex = `CREATE INDEX personal_items_by_time ON personal_items (member, kind, at, id)`

	personalPageSQL = `SELECT id, tenant, at, doc FROM personal_items WHERE member = ? AND kind = ?
		ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`
	personalCountSQL = `SELECT count(*) FROM personal_items WHERE member = ? AND kind = ?`
	personalByIDSQL  = `SELECT tenant, at, doc FROM personal_items WHERE member = ? AND kind = ? AND id = ?`
	personalOfSQL    = `SELECT id, tenant, at, doc FROM personal_items WHERE member = ? AND kind = ?`
)

func (t *tx) PutPersonalItems(ctx context.Context, items []projections.PersonalItem) error {
	err := t.check(ctx)
	if err == nil {
		err = t.st.putPersonal.Chunks(len(items), func(st *sqlitec.Stmt, from, to int) error {
			for _, it := range items[from:to] {
				st.BindText(it.Member)
				st.BindText(it.Kind)
				st.BindText(it.ID)
				st.BindText(it.Tenant)
				st.BindInt(it.At)
				st.BindTextBytes(it.Doc)
			}
			return st.Exec()
		})
	}
	if err != nil {
		return fmt.Errorf("sqliteread: put personal items: %w", err)
	}
	return nil
}

func (t *tx) GetPersonalItems(ctx context.Context, member, kind string) ([]projections.PersonalItem, error) {
	var out []projections.PersonalItem
	err := t.check(ctx)
	if err == nil {
		st := t.st.personalOf
		st.BindText(member)
		st.BindText(kind)
		for st.Next() {
			out = append(out, projections.PersonalItem{Member: member, Kind: kind, ID: st.Text(0), Tenant: st.Text(1),
				At: st.Int(2), Doc: []byte(st.Text(3))})
		}
		err = st.Done()
	}
	if err != nil {
		return nil, fmt.Errorf("sqliteread: personal items of %s: %w", member, err)
	}
	return out, nil
}

func (t *tx) DeletePersonalItems(ctx context.Context, member, kind string, ids []string) error {
	err := t.check(ctx)
	if err == nil && ids == nil {
		st := t.st.clearPersonal
		st.BindText(member)
		st.BindText(kind)
		err = st.Exec()
	}
	for _, id := range ids {
		if err != nil {
			break
		}
		st := t.st.deletePersonal
		st.BindText(member)
		st.BindText(kind)
		st.BindText(id)
		err = st.Exec()
	}
	if err != nil {
		return fmt.Errorf("sqliteread: delete personal items of %s: %w", member, err)
	}
	return nil
}

// PersonalItems returns page (from 1) of member's items of kind, newest
// first, and how many there are, both from one snapshot.
func (s *Store) PersonalItems(ctx context.Context, member, kind string, page, size int) ([]projections.PersonalItem, int, error) {
	page = max(page, 1)
	limit, skip := int64(-1), int64(0)
	if size > 0 {
		limit, skip = int64(size), int64(page-1)*int64(size)
	}
	out := []projections.PersonalItem{}
	var total int64
	err := s.read(ctx, func(r *readStatements) error {
		if err := r.begin.Exec(); err != nil {
			return err
		}
		count := r.personalCount
		count.BindText(member)
		count.BindText(kind)
		if count.Next() {
			total = count.Int(0)
		}
		err := count.Done()
		if err == nil && skip < total {
			list := r.personalPage
			list.BindText(member)
			list.BindText(kind)
			list.BindInt(limit)
			list.BindInt(skip)
			for list.Next() {
				out = append(out, projections.PersonalItem{Member: member, Kind: kind, ID: list.Text(0),
					Tenant: list.Text(1), At: list.Int(2), Doc: []byte(list.Text(3))})
			}
			err = list.Done()
		}
		return errors.Join(err, r.commit.Exec())
	})
	if err != nil {
		return nil, 0, fmt.Errorf("sqliteread: personal items of %s: %w", member, err)
	}
	return out, int(total), nil
}

func (s *Store) PersonalItemsByID(ctx context.Context, v projections.Viewer, kind string, ids []string) ([]projections.PersonalItem, error) {
	out := []projections.PersonalItem{}
	member := v.Member
	if !v.Owns(v.Tenant, member) {
		return out, nil
	}
	err := s.read(ctx, func(r *readStatements) error {
		for _, id := range ids {
			st := r.personalByID
			st.BindText(member)
			st.BindText(kind)
			st.BindText(id)
			if st.Next() && v.Owns(st.Text(0), member) {
				out = append(out, projections.PersonalItem{Member: member, Kind: kind, ID: id,
					Tenant: st.Text(0), At: st.Int(1), Doc: []byte(st.Text(2))})
			}
			if err := st.Done(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqliteread: personal items of %s: %w", member, err)
	}
	return out, nil
}
