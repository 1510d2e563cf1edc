package sqliteread

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/eventchat/eventchat/adapters/sqlitec"
	"github.com/eventchat/eventchat/projections"
)

var noticeRows = table{
	name: "notices",
	cols: []string{"member", "id", "tenant", "kind", "tab", "actor", "content_id", "content", "read", "created_at", "position", "detail"},
	key:  []string{"member", "id"},
}

const (
	noticesTable = `CREATE TABLE notices (
		member TEXT NOT NULL, id TEXT NOT NULL, tenant TEXT NOT NULL, kind TEXT NOT NULL, tab TEXT NOT NULL,
		actor TEXT NOT NULL, content_id TEXT NOT NULL, content TEXT NOT NULL, read INTEGER NOT NULL,
		created_at INTEGER NOT NULL, position INTEGER NOT NULL, detail TEXT NOT NULL DEFAULT '{}',
		PRIMARY KEY (member, id)
	) WITHOUT ROWID`
	noticesIndex = `CREATE INDEX notices_by_position ON notices (member, position, id)`

	noticeCols = `member, id, tenant, kind, tab, actor, content_id, content, read, created_at, position, detail`
	// A tab filter of '' (or all) selects every tab.
	noticesPageSQL = `SELECT ` + noticeCols + ` FROM notices WHERE member = ?1 AND (?2 IN ('', 'all') OR tab = ?2)
		ORDER BY position DESC, id DESC LIMIT ?3 OFFSET ?4`
	noticesCountSQL  = `SELECT count(*) FROM notices WHERE member = ?1 AND (?2 IN ('', 'all') OR tab = ?2)`
	noticeByIDSQL    = `SELECT ` + noticeCols + ` FROM notices WHERE member = ? AND id = ?`
	unreadNoticesSQL = `SELECT ` + noticeCols + ` FROM notices WHERE member = ? AND read = 0`
	noticeCountsSQL  = `SELECT tab, count(*) FROM notices WHERE member = ? AND read = 0 GROUP BY tab`
	deleteNoticeSQL  = `DELETE FROM notices WHERE member = ? AND id = ?`
	// noticesBySQL scans the tenant's notices: it serves an erasure, rare
	// enough not to be worth an index.
	noticesBySQL = `SELECT ` + noticeCols + ` FROM notices WHERE tenant = ? AND actor = ?`
)

func noticeAt(st *sqlitec.Stmt) projections.Notice {
	n := projections.Notice{
		Member: st.Text(0), ID: st.Text(1), Tenant: st.Text(2), Kind: st.Text(3), Tab: st.Text(4), Actor: st.Text(5),
		ContentID: st.Text(6), Content: st.Text(7), Read: st.Int(8) != 0, CreatedAt: st.Int(9), Position: uint64(st.Int(10)),
	}
	// The column holds what PutNotices encoded; an unreadable one is as
	// good as none.
	_ = json.Unmarshal([]byte(st.Text(11)), &n.Detail)
	return n
}

func (t *tx) GetNotices(ctx context.Context, member string, ids []string) (map[string]projections.Notice, error) {
	err := t.check(ctx)
	out := map[string]projections.Notice{}
	for _, id := range ids {
		if err != nil {
			break
		}
		st := t.st.getNotice
		st.BindText(member)
		st.BindText(id)
		if st.Next() {
			out[id] = noticeAt(st)
		}
		err = st.Done()
	}
	if err != nil {
		return nil, fmt.Errorf("sqliteread: get notices of %s: %w", member, err)
	}
	return out, nil
}

func (t *tx) NoticesBy(ctx context.Context, tenant, actor string) ([]projections.Notice, error) {
	var out []projections.Notice
	err := t.check(ctx)
	if err == nil {
		st := t.st.noticesBy
		st.BindText(tenant)
		st.BindText(actor)
		for st.Next() {
			out = append(out, noticeAt(st))
		}
		err = st.Done()
	}
	if err != nil {
		return nil, fmt.Errorf("sqliteread: notices by %s: %w", actor, err)
	}
	return out, nil
}

func (t *tx) UnreadNotices(ctx context.Context, member string) ([]projections.Notice, error) {
	err := t.check(ctx)
	var out []projections.Notice
	if err == nil {
		st := t.st.unreadNotices
		st.BindText(member)
		for st.Next() {
			out = append(out, noticeAt(st))
		}
		err = st.Done()
	}
	if err != nil {
		return nil, fmt.Errorf("sqliteread: unread notices of %s: %w", member, err)
	}
	return out, nil
}

func (t *tx) PutNotices(ctx context.Context, ns []projections.Notice) error {
	err := t.check(ctx)
	if err == nil {
		err = t.st.putNotices.Chunks(len(ns), func(st *sqlitec.Stmt, from, to int) error {
			for i := from; i < to; i++ {
				n := &ns[i]
				st.BindText(n.Member)
				st.BindText(n.ID)
				st.BindText(n.Tenant)
				st.BindText(n.Kind)
				st.BindText(n.Tab)
				st.BindText(n.Actor)
				st.BindText(n.ContentID)
				st.BindText(n.Content)
				st.BindBool(n.Read)
				st.BindInt(n.CreatedAt)
				st.BindInt(int64(n.Position))
				detail, err := json.Marshal(n.Detail)
				if err != nil {
					return err
				}
				st.BindText(string(detail))
			}
			return st.Exec()
		})
	}
	if err != nil {
		return fmt.Errorf("sqliteread: put notices: %w", err)
	}
	return nil
}

func (t *tx) DeleteNotices(ctx context.Context, member string, ids []string) error {
	err := t.check(ctx)
	for _, id := range ids {
		if err != nil {
			break
		}
		st := t.st.deleteNotice
		st.BindText(member)
		st.BindText(id)
		err = st.Exec()
	}
	if err != nil {
		return fmt.Errorf("sqliteread: delete notices of %s: %w", member, err)
	}
	return nil
}

// Notices returns page (from 1) of member's notices of tab, newest first,
// and how many there are, both from one snapshot.
func (s *Store) Notices(ctx context.Context, member, tab string, page, size int) ([]projections.Notice, int, error) {
	page = max(page, 1)
	limit, skip := int64(-1), int64(0)
	if size > 0 {
		limit, skip = int64(size), int64(page-1)*int64(size)
	}
	out := []projections.Notice{}
	var total int64
	err := s.read(ctx, func(r *readStatements) error {
		if err := r.begin.Exec(); err != nil {
			return err
		}
		count := r.noticesCount
		count.BindText(member)
		count.BindText(tab)
		if count.Next() {
			total = count.Int(0)
		}
		err := count.Done()
		if err == nil && skip < total {
			list := r.noticesPage
			list.BindText(member)
			list.BindText(tab)
			list.BindInt(limit)
			list.BindInt(skip)
			for list.Next() {
				out = append(out, noticeAt(list))
			}
			err = list.Done()
		}
		return errors.Join(err, r.commit.Exec())
	})
	if err != nil {
		return nil, 0, fmt.Errorf("sqliteread: notices of %s: %w", member, err)
	}
	return out, int(total), nil
}

func (s *Store) NoticesByID(ctx context.Context, v projections.Viewer, ids []string) ([]projections.Notice, error) {
	out := []projections.Notice{}
	member := v.Member
	if !v.Owns(v.Tenant, member) {
		return out, nil
	}
	err := s.read(ctx, func(r *readStatements) error {
		for _, id := range ids {
			st := r.noticeByID
			st.BindText(member)
			st.BindText(id)
			if st.Next() {
				if n := noticeAt(st); v.Owns(n.Tenant, n.Member) {
					out = append(out, n)
				}
			}
			if err := st.Done(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqliteread: notices of %s: %w", member, err)
	}
	return out, nil
}

func (s *Store) NoticeCounts(ctx context.Context, member string) (projections.NoticeCounts, error) {
	var c projections.NoticeCounts
	err := s.read(ctx, func(r *readStatements) error {
		st := r.noticeCounts
		st.BindText(member)
		for st.Next() {
			n := int(st.Int(1))
			c.Total += n
			switch st.Text(0) {
			case "friends":
				c.Friend += n
			case "groups":
				c.Group += n
			default:
				c.System += n
			}
		}
		return st.Done()
	})
	if err != nil {
		return projections.NoticeCounts{}, fmt.Errorf("sqliteread: notice counts of %s: %w", member, err)
	}
	return c, nil
}
