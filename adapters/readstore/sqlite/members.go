package sqliteread

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

var membersTable = table{
	name: "members",
	cols: []string{"id", "tenant", "account", "phone", "name", "head_url", "level", "registered_at", "gender", "last_ip", "referrer"},
	key:  []string{"id"},
}

var (
	memberColumns = membersTable.selectColumns("m")
	// Two exact index searches: one OR over both columns makes SQLite scan
	// the whole tenant. An account match wins over a phone match.
	findMemberSQL = `SELECT ` + memberColumns + ` FROM members m WHERE m.tenant = ? AND m.account = ?
		UNION ALL SELECT ` + memberColumns + ` FROM members m WHERE m.tenant = ? AND m.phone = ?
		LIMIT 1`

	// membersByIDSQL takes the ids as one JSON array.
	membersByIDSQL = `SELECT ` + memberColumns + ` FROM members m WHERE m.id IN (SELECT value FROM json_each(?))`
)

// memberAt reads the member in the current row of st.
func memberAt(st *sqlitec.Stmt) projections.Member {
	return projections.Member{
		ID: st.Text(0), Tenant: st.Text(1), Account: st.Text(2), Phone: st.Text(3), Name: st.Text(4),
		HeadURL: st.Text(5), Level: st.Text(6), RegisteredAt: st.Int(7), Gender: st.Text(8), LastIP: st.Text(9),
		Referrer: st.Text(10),
	}
}

func (t *tx) PutMembers(ctx context.Context, ms []projections.Member) error {
	err := t.check(ctx)
	if err == nil {
		err = t.st.putMembers.Chunks(len(ms), func(st *sqlitec.Stmt, from, to int) error {
			for i := from; i < to; i++ {
				m := &ms[i]
				st.BindText(m.ID)
				st.BindText(m.Tenant)
				st.BindText(m.Account)
				st.BindText(m.Phone)
				st.BindText(m.Name)
				st.BindText(m.HeadURL)
				st.BindText(m.Level)
				st.BindInt(m.RegisteredAt)
				st.BindText(m.Gender)
				st.BindText(m.LastIP)
				st.BindText(m.Referrer)
			}
			return st.Exec()
		})
	}
	if err != nil {
		return fmt.Errorf("sqliteread: put members: %w", err)
	}
	return nil
}

// GetMembers returns the members among ids as this transaction sees them.
func (t *tx) GetMembers(ctx context.Context, ids []string) (map[string]projections.Member, error) {
	out := make(map[string]projections.Member, len(ids))
	list, err := json.Marshal(ids)
	if err == nil {
		err = t.check(ctx)
	}
	if err == nil && len(ids) > 0 {
		st := t.st.getMembers
		st.BindTextBytes(list)
		for st.Next() {
			m := memberAt(st)
			out[m.ID] = m
		}
		err = st.Done()
	}
	if err != nil {
		return nil, fmt.Errorf("sqliteread: get members: %w", err)
	}
	return out, nil
}

// MembersByID returns the stored members among ids whose cards v sees,
// keyed by id.
func (s *Store) MembersByID(ctx context.Context, v projections.Viewer, ids []string) (map[string]projections.Member, error) {
	out := make(map[string]projections.Member, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	list, err := json.Marshal(ids)
	if err == nil {
		err = s.read(ctx, func(r *readStatements) error {
			st := r.membersByID
			st.BindTextBytes(list)
			for st.Next() {
				if m := memberAt(st); v.SeesCard(m.Tenant) {
					out[m.ID] = m
				}
			}
			return st.Done()
		})
	}
	if err != nil {
		return nil, fmt.Errorf("sqliteread: members by id: %w", err)
	}
	return out, nil
}

// FindMember finds the member of tenant whose account, else whose phone,
// is keyword. An empty keyword finds nobody.
func (s *Store) FindMember(ctx context.Context, tenant, keyword string) (projections.Member, bool, error) {
	if keyword == "" {
		return projections.Member{}, false, nil
	}
	var m projections.Member
	found := false
	err := s.read(ctx, func(r *readStatements) error {
		st := r.findMember
		st.BindText(tenant)
		st.BindText(keyword)
		st.BindText(tenant)
		st.BindText(keyword)
		if found = st.Next(); found {
			m = memberAt(st)
		}
		return st.Done()
	})
	if err != nil {
		return projections.Member{}, false, fmt.Errorf("sqliteread: find member: %w", err)
	}
	return m, found, nil
}
