package sqliteread

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/eventchat/eventchat/adapters/sqlitec"
	"github.com/eventchat/eventchat/projections"
)

var (
	groupRows       = table{name: "groups", cols: []string{"id", "tenant", "doc"}, key: []string{"id"}}
	groupMemberRows = table{
		name: "group_members",
		cols: []string{"group_id", "member", "tenant", "role", "nickname", "muted_until", "joined_at"},
		key:  []string{"group_id", "member"},
	}
)

const (
	groupSQL           = `SELECT doc FROM groups WHERE id = ?`
	groupMemberColumns = `group_id, member, tenant, role, nickname, muted_until, joined_at`
	groupMemberSQL     = `SELECT ` + groupMemberColumns + ` FROM group_members WHERE group_id = ? AND member = ?`
	groupMembersSQL    = `SELECT ` + groupMemberColumns + ` FROM group_members WHERE group_id = ?
		ORDER BY CASE role WHEN 'Owner' THEN 0 WHEN 'Admin' THEN 1 ELSE 2 END, joined_at, member`
	// groupsNoticedBySQL scans the tenant's groups: it serves an erasure,
	// rare enough not to be worth an index.
	groupsNoticedBySQL = `SELECT doc FROM groups WHERE tenant = ? AND doc ->> '$.noticeBy' = ?`
	memberGroupsSQL    = `SELECT ` + groupMemberColumns + ` FROM group_members WHERE member = ?
		ORDER BY joined_at, group_id`
)

func groupMemberAt(st *sqlitec.Stmt) projections.GroupMember {
	return projections.GroupMember{
		GroupID: st.Text(0), Member: st.Text(1), Tenant: st.Text(2), Role: st.Text(3), Nickname: st.Text(4),
		MutedUntil: st.Int(5), JoinedAt: st.Int(6),
	}
}

// groupDoc is what the doc column holds: a group with its tenant and the
// writer of its notice.
type groupDoc struct {
	projections.Group
	Tenant   string `json:"tenant"`
	NoticeBy string `json:"noticeBy,omitempty"`
}

// groupFrom decodes a doc column.
func groupFrom(doc []byte) (projections.Group, error) {
	var d groupDoc
	if err := json.Unmarshal(doc, &d); err != nil {
		return projections.Group{}, err
	}
	d.Group.Tenant, d.Group.NoticeBy = d.Tenant, d.NoticeBy
	return d.Group, nil
}

func (t *tx) GetGroups(ctx context.Context, ids []string) (map[string]projections.Group, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("sqliteread: get groups: %w", err)
	}
	out := make(map[string]projections.Group, len(ids))
	for _, id := range ids {
		d, ok, err := readGroupDoc(t.st.getGroup, id)
		if err != nil {
			return nil, fmt.Errorf("sqliteread: get groups: %w", err)
		}
		if ok {
			out[id] = d
		}
	}
	return out, nil
}

// readGroupDoc reads a group with its tenant.
func readGroupDoc(st *sqlitec.Stmt, id string) (projections.Group, bool, error) {
	st.BindText(id)
	if !st.Next() {
		return projections.Group{}, false, st.Done()
	}
	g, err := groupFrom([]byte(st.Text(0)))
	if err != nil {
		st.Done()
		return projections.Group{}, false, fmt.Errorf("group %s: %w", id, err)
	}
	return g, true, st.Done()
}

func (t *tx) PutGroups(ctx context.Context, gs []projections.Group) error {
	err := t.check(ctx)
	if err == nil {
		err = t.st.putGroups.Chunks(len(gs), func(st *sqlitec.Stmt, from, to int) error {
			for _, g := range gs[from:to] {
				doc, err := json.Marshal(groupDoc{Group: g, Tenant: g.Tenant, NoticeBy: g.NoticeBy})
				if err != nil {
					return err
				}
				st.BindText(g.ID)
				st.BindText(g.Tenant)
				st.BindTextBytes(doc)
			}
			return st.Exec()
		})
	}
	if err != nil {
		return fmt.Errorf("sqliteread: put groups: %w", err)
	}
	return nil
}

func (t *tx) GroupsNoticedBy(ctx context.Context, tenant, member string) ([]projections.Group, error) {
	var out []projections.Group
	err := t.check(ctx)
	if err == nil {
		st := t.st.groupsNoticedBy
		st.BindText(tenant)
		st.BindText(member)
		for err == nil && st.Next() {
			var g projections.Group
			if g, err = groupFrom([]byte(st.Text(0))); err == nil {
				out = append(out, g)
			}
		}
		err = errors.Join(err, st.Done())
	}
	if err != nil {
		return nil, fmt.Errorf("sqliteread: groups noticed by %s: %w", member, err)
	}
	return out, nil
}

func (t *tx) GroupsOf(ctx context.Context, member string) ([]projections.GroupMember, error) {
	var out []projections.GroupMember
	err := t.check(ctx)
	if err == nil {
		st := t.st.groupsOf
		st.BindText(member)
		for st.Next() {
			out = append(out, groupMemberAt(st))
		}
		err = st.Done()
	}
	if err != nil {
		return nil, fmt.Errorf("sqliteread: groups of %s: %w", member, err)
	}
	return out, nil
}

func (t *tx) GetGroupMembers(ctx context.Context, groupID string, ids []string) (map[string]projections.GroupMember, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("sqliteread: get group members: %w", err)
	}
	out := map[string]projections.GroupMember{}
	if ids == nil {
		st := t.st.allGroupMembers
		st.BindText(groupID)
		for st.Next() {
			m := groupMemberAt(st)
			out[m.Member] = m
		}
		if err := st.Done(); err != nil {
			return nil, fmt.Errorf("sqliteread: get group members: %w", err)
		}
		return out, nil
	}
	for _, id := range ids {
		st := t.st.getGroupMember
		st.BindText(groupID)
		st.BindText(id)
		if st.Next() {
			out[id] = groupMemberAt(st)
		}
		if err := st.Done(); err != nil {
			return nil, fmt.Errorf("sqliteread: get group members: %w", err)
		}
	}
	return out, nil
}

func (t *tx) PutGroupMembers(ctx context.Context, ms []projections.GroupMember) error {
	err := t.check(ctx)
	if err == nil {
		err = t.st.putGroupMembers.Chunks(len(ms), func(st *sqlitec.Stmt, from, to int) error {
			for _, m := range ms[from:to] {
				st.BindText(m.GroupID)
				st.BindText(m.Member)
				st.BindText(m.Tenant)
				st.BindText(m.Role)
				st.BindText(m.Nickname)
				st.BindInt(m.MutedUntil)
				st.BindInt(m.JoinedAt)
			}
			return st.Exec()
		})
	}
	if err != nil {
		return fmt.Errorf("sqliteread: put group members: %w", err)
	}
	return nil
}

func (t *tx) DeleteGroupMembers(ctx context.Context, groupID string, ids []string) error {
	err := t.check(ctx)
	for _, id := range ids {
		if err != nil {
			break
		}
		st := t.st.deleteGroupMember
		st.BindText(groupID)
		st.BindText(id)
		err = st.Exec()
	}
	if err != nil {
		return fmt.Errorf("sqliteread: delete group members: %w", err)
	}
	return nil
}

func (s *Store) Group(ctx context.Context, v projections.Viewer, id string) (projections.Group, bool, error) {
	var g projections.Group
	found := false
	in := false
	err := s.read(ctx, func(r *readStatements) error {
		var err error
		if g, found, err = readGroupDoc(r.group, id); err != nil || !found {
			return err
		}
		in, err = inGroup(r.groupMember, id, v.Member)
		return err
	})
	if err != nil {
		return g, false, fmt.Errorf("sqliteread: group %s: %w", id, err)
	}
	if !found {
		return projections.Group{}, false, nil
	}
	g, found = v.GroupSeen(g, in)
	return g, found, nil
}

func (s *Store) GroupMembers(ctx context.Context, v projections.Viewer, groupID string) ([]projections.GroupMember, error) {
	ms, err := s.groupMembers(ctx, func(r *readStatements) *sqlitec.Stmt { return r.groupMembers }, groupID)
	if err != nil {
		return nil, err
	}
	return v.Roster(ms), nil
}

func (s *Store) MemberGroups(ctx context.Context, member string) ([]projections.GroupMember, error) {
	return s.groupMembers(ctx, func(r *readStatements) *sqlitec.Stmt { return r.memberGroups }, member)
}

func (s *Store) groupMembers(ctx context.Context, stmt func(*readStatements) *sqlitec.Stmt, key string) ([]projections.GroupMember, error) {
	out := []projections.GroupMember{}
	err := s.read(ctx, func(r *readStatements) error {
		st := stmt(r)
		st.BindText(key)
		for st.Next() {
			out = append(out, groupMemberAt(st))
		}
		return st.Done()
	})
	if err != nil {
		return nil, fmt.Errorf("sqliteread: group members of %s: %w", key, err)
	}
	return out, nil
}
