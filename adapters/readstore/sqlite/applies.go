package sqliteread

import (
	"context"
	"errors"
	"fmt"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

var appliesTable = table{
	name: "applies",
	cols: []string{"id", "tenant", "pair_id", "from_member", "to_member", "remark", "content", "status",
		"read_flag", "created_at", "updated_at", "hidden_from", "hidden_to"},
	key: []string{"id"},
}

var (
	applyColumns = appliesTable.selectColumns("a")
	getApplySQL  = `SELECT ` + applyColumns + ` FROM applies a WHERE a.id = ? AND a.tenant = ?`
	// No LIMIT/OFFSET: SQLite recompiles a statement whenever the value
	// bound to its LIMIT changes; Applies skips and stops in its loop.
	appliesSQL = `SELECT ` + applyColumns + ` FROM applies a WHERE ` + listedApplies + `
		ORDER BY a.created_at DESC, a.id DESC`
	// listedApplies are the requests a member sent or received and did not
	// delete from their list.
	listedApplies = `(a.from_member = ?1 AND NOT a.hidden_from OR a.to_member = ?1 AND NOT a.hidden_to)`
)

var countAppliesSQL = `SELECT count(*) FROM applies a WHERE ` + listedApplies

// appliesFromSQL are the requests a member sent, listed or not.
var appliesFromSQL = `SELECT ` + applyColumns + ` FROM applies a WHERE a.from_member = ? AND a.tenant = ?`

const pairOfApplySQL = `SELECT pair_id FROM applies WHERE id = ? AND tenant = ?`

// applyAt reads the apply in the current row of st.
func applyAt(st *sqlitec.Stmt) projections.Apply {
	return projections.Apply{
		ID: st.Text(0), Tenant: st.Text(1), PairID: st.Text(2), From: st.Text(3), To: st.Text(4),
		Remark: st.Text(5), Content: st.Text(6), Status: st.Text(7), ReadFlag: st.Text(8),
		CreatedAt: st.Int(9), UpdatedAt: st.Int(10), HiddenFrom: st.Int(11) != 0, HiddenTo: st.Int(12) != 0,
	}
}

func (t *tx) GetApply(ctx context.Context, tenant, id string) (projections.Apply, bool, error) {
	err := t.check(ctx)
	var a projections.Apply
	found := false
	if err == nil {
		st := t.st.getApply
		st.BindText(id)
		st.BindText(tenant)
		if found = st.Next(); found {
			a = applyAt(st)
		}
		err = st.Done()
	}
	if err != nil {
		return projections.Apply{}, false, fmt.Errorf("sqliteread: get apply %s: %w", id, err)
	}
	return a, found, nil
}

func (t *tx) AppliesFrom(ctx context.Context, tenant, member string) ([]projections.Apply, error) {
	var out []projections.Apply
	err := t.check(ctx)
	if err == nil {
		st := t.st.appliesFrom
		st.BindText(member)
		st.BindText(tenant)
		for st.Next() {
			out = append(out, applyAt(st))
		}
		err = st.Done()
	}
	if err != nil {
		return nil, fmt.Errorf("sqliteread: applies from %s: %w", member, err)
	}
	return out, nil
}

func (t *tx) PutApplies(ctx context.Context, as []projections.Apply) error {
	err := t.check(ctx)
	if err == nil {
		err = t.st.putApplies.Chunks(len(as), func(st *sqlitec.Stmt, from, to int) error {
			for i := from; i < to; i++ {
				a := &as[i]
				st.BindText(a.ID)
				st.BindText(a.Tenant)
				st.BindText(a.PairID)
				st.BindText(a.From)
				st.BindText(a.To)
				st.BindText(a.Remark)
				st.BindText(a.Content)
				st.BindText(a.Status)
				st.BindText(a.ReadFlag)
				st.BindInt(a.CreatedAt)
				st.BindInt(a.UpdatedAt)
				st.BindBool(a.HiddenFrom)
				st.BindBool(a.HiddenTo)
			}
			return st.Exec()
		})
	}
	if err != nil {
		return fmt.Errorf("sqliteread: put applies: %w", err)
	}
	return nil
}

// Applies returns page (from 1) of the requests member sent or received,
// newest first, and how many there are in all, both from one snapshot.
func (s *Store) Applies(ctx context.Context, member string, page, size int) ([]projections.Apply, int, error) {
	page = max(page, 1)
	if size <= 0 {
		size = defaultPageSize
	}
	size = min(size, maxPageSize)
	skip := (page - 1) * size
	out := []projections.Apply{} // empty, not nil: a list encodes as []
	var total int64
	err := s.read(ctx, func(r *readStatements) error {
		if err := r.begin.Exec(); err != nil {
			return err
		}
		count := r.countApplies
		count.BindText(member)
		if count.Next() {
			total = count.Int(0)
		}
		err := count.Done()
		if err == nil && int64(skip) < total {
			list := r.applies
			list.BindText(member)
			for i := 0; len(out) < size && list.Next(); i++ {
				if i >= skip {
					out = append(out, applyAt(list))
				}
			}
			err = list.Done()
		}
		return errors.Join(err, r.commit.Exec())
	})
	if err != nil {
		return nil, 0, fmt.Errorf("sqliteread: applies of %s: %w", member, err)
	}
	return out, int(total), nil
}

// PairOfApply returns the friend pair an apply of tenant belongs to.
func (s *Store) PairOfApply(ctx context.Context, tenant, applyID string) (string, bool, error) {
	var pair string
	found := false
	err := s.read(ctx, func(r *readStatements) error {
		st := r.pairOfApply
		st.BindText(applyID)
		st.BindText(tenant)
		if found = st.Next(); found {
			pair = st.Text(0)
		}
		return st.Done()
	})
	if err != nil {
		return "", false, fmt.Errorf("sqliteread: pair of apply %s: %w", applyID, err)
	}
	return pair, found, nil
}
