package sqliteread

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

var groupAppliesRows = table{
	name: "group_applies",
	cols: []string{"id", "tenant", "group_id", "member", "by_member", "status", "created_at", "updated_at"},
	key:  []string{"id"},
}

var (
	groupApplyColumns = groupAppliesRows.selectColumns("a")
	getGroupApplySQL  = `SELECT ` + groupApplyColumns + ` FROM group_applies a WHERE a.id = ? AND a.tenant = ?`
	// The groups come as one JSON array: the statement stays compiled
	// whatever their number.
	groupAppliesSQL = `SELECT ` + groupApplyColumns + ` FROM group_applies a
		WHERE a.group_id IN (SELECT value FROM json_each(?)) ORDER BY a.created_at DESC, a.id DESC`
	countGroupAppliesSQL = `SELECT count(*) FROM group_applies WHERE group_id IN (SELECT value FROM json_each(?))`
)

const groupOfApplySQL = `SELECT group_id FROM group_applies WHERE id = ? AND tenant = ?`

func groupApplyAt(st *sqlitec.Stmt) projections.GroupApply {
	return projections.GroupApply{
		ID: st.Text(0), Tenant: st.Text(1), GroupID: st.Text(2), Member: st.Text(3), By: st.Text(4),
		Status: st.Text(5), CreatedAt: st.Int(6), UpdatedAt: st.Int(7),
	}
}

func (t *tx) PutGroupApplies(ctx context.Context, as []projections.GroupApply) error {
	err := t.check(ctx)
	if err == nil {
		err = t.st.putGroupApplies.Chunks(len(as), func(st *sqlitec.Stmt, from, to int) error {
			for i := from; i < to; i++ {
				a := &as[i]
				st.BindText(a.ID)
				st.BindText(a.Tenant)
				st.BindText(a.GroupID)
				st.BindText(a.Member)
				st.BindText(a.By)
				st.BindText(a.Status)
				st.BindInt(a.CreatedAt)
				st.BindInt(a.UpdatedAt)
			}
			return st.Exec()
		})
	}
	if err != nil {
		return fmt.Errorf("sqliteread: put group applies: %w", err)
	}
	return nil
}

func (t *tx) GetGroupApply(ctx context.Context, tenant, id string) (projections.GroupApply, bool, error) {
	err := t.check(ctx)
	var a projections.GroupApply
	found := false
	if err == nil {
		st := t.st.getGroupApply
		st.BindText(id)
		st.BindText(tenant)
		if found = st.Next(); found {
			a = groupApplyAt(st)
		}
		err = st.Done()
	}
	if err != nil {
		return projections.GroupApply{}, false, fmt.Errorf("sqliteread: get group apply %s: %w", id, err)
	}
	return a, found, nil
}

// GroupApplies returns page (from 1) of the join requests of the groups
// v manages, newest first, and how many there are in all, both from one snapshot.
func (s *Store) GroupApplies(ctx context.Context, v projections.Viewer, page, size int) ([]projections.GroupApply, int, error) {
	memberships, err := s.MemberGroups(ctx, v.Member)
	if err != nil {
		return nil, 0, err
	}
	groupIDs := v.Managed(memberships)
	page = max(page, 1)
	if size <= 0 {
		size = defaultPageSize
	}
	size = min(size, maxPageSize)
	skip := (page - 1) * size
	out := []projections.GroupApply{} // empty, not nil: a list encodes as []
	if len(groupIDs) == 0 {
		return out, 0, nil
	}
	ids, err := json.Marshal(groupIDs)
	if err != nil {
		return nil, 0, err
	}
	var total int64
	err = s.read(ctx, func(r *readStatements) error {
		if err := r.begin.Exec(); err != nil {
			return err
		}
		count := r.countGroupApplies
		count.BindTextBytes(ids)
		if count.Next() {
			total = count.Int(0)
		}
		err := count.Done()
		if err == nil && int64(skip) < total {
			list := r.groupApplies
			list.BindTextBytes(ids)
			for i := 0; len(out) < size && list.Next(); i++ {
				if i >= skip {
					out = append(out, groupApplyAt(list))
				}
			}
			err = list.Done()
		}
		return errors.Join(err, r.commit.Exec())
	})
	if err != nil {
		return nil, 0, fmt.Errorf("sqliteread: group applies: %w", err)
	}
	return out, int(total), nil
}

// GroupOfApply returns the group a join request of tenant belongs to.
func (s *Store) GroupOfApply(ctx context.Context, tenant, applyID string) (string, bool, error) {
	var groupID string
	found := false
	err := s.read(ctx, func(r *readStatements) error {
		st := r.groupOfApply
		st.BindText(applyID)
		st.BindText(tenant)
		if found = st.Next(); found {
			groupID = st.Text(0)
		}
		return st.Done()
	})
	if err != nil {
		return "", false, fmt.Errorf("sqliteread: group of apply %s: %w", applyID, err)
	}
	return groupID, found, nil
}
