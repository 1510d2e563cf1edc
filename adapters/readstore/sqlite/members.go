package sqliteread

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/eventchat/eventchat/projections"
)

var membersTable = table{
	name: "members",
	cols: []string{"id", "tenant", "account", "phone", "name", "head_url", "level", "registered_at"},
	key:  []string{"id"},
}

var (
	memberColumns = membersTable.selectColumns("m")
	// Two exact index searches: one OR over both columns makes SQLite scan
	// the whole tenant. An account match wins over a phone match.
	findMemberSQL = `SELECT ` + memberColumns + ` FROM members m WHERE m.tenant = ? AND m.account = ?
		UNION ALL SELECT ` + memberColumns + ` FROM members m WHERE m.tenant = ? AND m.phone = ?
		LIMIT 1`
	tenantOfSQL = `SELECT tenant FROM members WHERE id = ?`

	// membersByIDSQL takes the ids as one JSON array.
	membersByIDSQL = `SELECT ` + memberColumns + ` FROM members m WHERE m.id IN (SELECT value FROM json_each(?))`
)

// memberAt reads the member in the current row of st.
func memberAt(st *stmt) projections.Member {
	return projections.Member{
		ID: st.text(0), Tenant: st.text(1), Account: st.text(2), Phone: st.text(3), Name: st.text(4),
		HeadURL: st.text(5), Level: st.text(6), RegisteredAt: st.int(7),
	}
}

func (t *tx) PutMembers(ctx context.Context, ms []projections.Member) error {
	err := t.check(ctx)
	if err == nil {
		err = t.st.putMembers.chunks(len(ms), func(st *stmt, from, to int) error {
			for i := from; i < to; i++ {
				m := &ms[i]
				st.bindText(m.ID)
				st.bindText(m.Tenant)
				st.bindText(m.Account)
				st.bindText(m.Phone)
				st.bindText(m.Name)
				st.bindText(m.HeadURL)
				st.bindText(m.Level)
				st.bindInt(m.RegisteredAt)
			}
			return st.exec()
		})
	}
	if err != nil {
		return fmt.Errorf("sqliteread: put members: %w", err)
	}
	return nil
}

// MembersByID returns the stored members among ids, keyed by id.
func (s *Store) MembersByID(ctx context.Context, ids []string) (map[string]projections.Member, error) {
	out := make(map[string]projections.Member, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	list, err := json.Marshal(ids)
	if err == nil {
		err = s.readers.run(ctx, func(r *readStatements) error {
			st := r.membersByID
			st.bindTextBytes(list)
			for st.next() {
				m := memberAt(st)
				out[m.ID] = m
			}
			return st.done()
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
	err := s.readers.run(ctx, func(r *readStatements) error {
		st := r.findMember
		st.bindText(tenant)
		st.bindText(keyword)
		st.bindText(tenant)
		st.bindText(keyword)
		if found = st.next(); found {
			m = memberAt(st)
		}
		return st.done()
	})
	if err != nil {
		return projections.Member{}, false, fmt.Errorf("sqliteread: find member: %w", err)
	}
	return m, found, nil
}

func (s *Store) TenantOf(ctx context.Context, memberID string) (string, bool, error) {
	var tenant string
	found := false
	err := s.readers.run(ctx, func(r *readStatements) error {
		st := r.tenantOf
		st.bindText(memberID)
		if found = st.next(); found {
			tenant = st.text(0)
		}
		return st.done()
	})
	if err != nil {
		return "", false, fmt.Errorf("sqliteread: tenant of %s: %w", memberID, err)
	}
	return tenant, found, nil
}
