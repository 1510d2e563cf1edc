package mongoread

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/projections"
)

const noticesColl = "notices"

type noticeDoc struct {
	ID        string          `bson:"_id"` // pairID(member, notice id)
	Tenant    string          `bson:"tenant"`
	Member    string          `bson:"member"`
	NoticeID  string          `bson:"noticeId"`
	Kind      string          `bson:"kind"`
	Tab       string          `bson:"tab"`
	Actor     string          `bson:"actor"`
	ContentID string          `bson:"contentId"`
	Content   string          `bson:"content"`
	Read      bool            `bson:"read"`
	CreatedAt int64           `bson:"createdAt"`
	Position  int64           `bson:"position"`
	Detail    noticeDetailDoc `bson:"detail"`
}

type noticeDetailDoc struct {
	Code         string `bson:"code,omitempty"`
	ValidMinutes int    `bson:"validMinutes,omitempty"`
	System       string `bson:"system,omitempty"`
	RequestID    string `bson:"requestId,omitempty"`
	Member       string `bson:"member,omitempty"`
	Status       string `bson:"status,omitempty"`
}

func toNoticeDoc(n projections.Notice) noticeDoc {
	return noticeDoc{ID: pairID(n.Member, n.ID), Tenant: n.Tenant, Member: n.Member, NoticeID: n.ID, Kind: n.Kind, Tab: n.Tab,
		Actor: n.Actor, ContentID: n.ContentID, Content: n.Content, Read: n.Read, CreatedAt: n.CreatedAt, Position: int64(n.Position),
		Detail: noticeDetailDoc(n.Detail)}
}

func (d noticeDoc) notice() projections.Notice {
	return projections.Notice{Tenant: d.Tenant, Member: d.Member, ID: d.NoticeID, Kind: d.Kind, Tab: d.Tab, Actor: d.Actor,
		ContentID: d.ContentID, Content: d.Content, Read: d.Read, CreatedAt: d.CreatedAt, Position: uint64(d.Position),
		Detail: projections.NoticeDetail(d.Detail)}
}

// GetNotices returns the stored notices among ids as the batch has left
// them: its puts over the stored ones, less its deletes.
func (t *tx) GetNotices(ctx context.Context, member string, ids []string) (map[string]projections.Notice, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: get notices: %w", err)
	}
	out := map[string]projections.Notice{}
	var keys []string
	for _, id := range ids {
		key := pairID(member, id)
		switch d, put := t.notices[key]; {
		case put:
			out[id] = d.notice()
		case !t.noticeDeletes[key]:
			keys = append(keys, key)
		}
	}
	if len(keys) > 0 {
		var docs []noticeDoc
		if err := t.s.findAll(ctx, noticesColl, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: keys}}}}, nil, &docs); err != nil {
			return nil, fmt.Errorf("mongoread: get notices of %s: %w", member, err)
		}
		for _, d := range docs {
			out[d.NoticeID] = d.notice()
		}
	}
	return out, nil
}

// UnreadNotices returns member's unread notices as the batch has left
// them.
func (t *tx) UnreadNotices(ctx context.Context, member string) ([]projections.Notice, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: unread notices: %w", err)
	}
	var docs []noticeDoc
	if err := t.s.findAll(ctx, noticesColl, bson.D{{Key: "member", Value: member}, {Key: "read", Value: false}}, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: unread notices of %s: %w", member, err)
	}
	var out []projections.Notice
	for _, d := range docs {
		if _, put := t.notices[d.ID]; !put && !t.noticeDeletes[d.ID] {
			out = append(out, d.notice())
		}
	}
	for _, d := range t.notices {
		if d.Member == member && !d.Read {
			out = append(out, d.notice())
		}
	}
	return out, nil
}

// NoticesBy scans the tenant's notices: it serves an erasure, rare enough
// not to be worth an index.
func (t *tx) NoticesBy(ctx context.Context, tenant, actor string) ([]projections.Notice, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: notices by %s: %w", actor, err)
	}
	var docs []noticeDoc
	if err := t.s.findAll(ctx, noticesColl, bson.D{{Key: "tenant", Value: tenant}, {Key: "actor", Value: actor}}, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: notices by %s: %w", actor, err)
	}
	var out []projections.Notice
	for _, d := range docs {
		if _, put := t.notices[d.ID]; !put && !t.noticeDeletes[d.ID] {
			out = append(out, d.notice())
		}
	}
	for _, d := range t.notices {
		if d.Tenant == tenant && d.Actor == actor {
			out = append(out, d.notice())
		}
	}
	return out, nil
}

func (t *tx) PutNotices(ctx context.Context, ns []projections.Notice) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: put notices: %w", err)
	}
	for _, n := range ns {
		d := toNoticeDoc(n)
		t.notices[d.ID] = d
		delete(t.noticeDeletes, d.ID)
	}
	return nil
}

// DeleteNotices drops the batch's own puts of the notices and deletes the
// stored ones, before the batch's puts.
func (t *tx) DeleteNotices(ctx context.Context, member string, ids []string) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: delete notices: %w", err)
	}
	for _, id := range ids {
		key := pairID(member, id)
		delete(t.notices, key)
		t.noticeDeletes[key] = true
	}
	return nil
}

func noticesFilter(member, tab string) bson.D {
	f := bson.D{{Key: "member", Value: member}}
	if tab != "" && tab != "all" {
		f = append(f, bson.E{Key: "tab", Value: tab})
	}
	return f
}

func (s *Store) Notices(ctx context.Context, member, tab string, page, size int) ([]projections.Notice, int, error) {
	page = max(page, 1)
	filter := noticesFilter(member, tab)
	total, err := s.coll(noticesColl).CountDocuments(ctx, filter)
	if err != nil {
		return nil, 0, fmt.Errorf("mongoread: count notices of %s: %w", member, err)
	}
	out := []projections.Notice{}
	opts := options.Find().SetSort(bson.D{{Key: "position", Value: -1}, {Key: "noticeId", Value: -1}})
	if size > 0 {
		skip := int64(page-1) * int64(size)
		if skip >= total {
			return out, int(total), nil
		}
		opts.SetSkip(skip).SetLimit(int64(size))
	}
	var docs []noticeDoc
	if err := s.findAll(ctx, noticesColl, filter, opts, &docs); err != nil {
		return nil, 0, fmt.Errorf("mongoread: notices of %s: %w", member, err)
	}
	for _, d := range docs {
		out = append(out, d.notice())
	}
	return out, int(total), nil
}

func (s *Store) NoticesByID(ctx context.Context, v projections.Viewer, ids []string) ([]projections.Notice, error) {
	out := []projections.Notice{}
	member := v.Member
	if len(ids) == 0 || !v.Owns(v.Tenant, member) {
		return out, nil
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = pairID(member, id)
	}
	var docs []noticeDoc
	if err := s.findAll(ctx, noticesColl, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: keys}}}}, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: notices of %s: %w", member, err)
	}
	byID := make(map[string]noticeDoc, len(docs))
	for _, d := range docs {
		byID[d.NoticeID] = d
	}
	for _, id := range ids {
		if d, ok := byID[id]; ok {
			if n := d.notice(); v.Owns(n.Tenant, n.Member) {
				out = append(out, n)
			}
		}
	}
	return out, nil
}

func (s *Store) NoticeCounts(ctx context.Context, member string) (projections.NoticeCounts, error) {
	var docs []noticeDoc
	opts := options.Find().SetProjection(bson.D{{Key: "tab", Value: 1}})
	if err := s.findAll(ctx, noticesColl, bson.D{{Key: "member", Value: member}, {Key: "read", Value: false}}, opts, &docs); err != nil {
		return projections.NoticeCounts{}, fmt.Errorf("mongoread: notice counts of %s: %w", member, err)
	}
	var c projections.NoticeCounts
	for _, d := range docs {
		c.Add(projections.Notice{Tab: d.Tab})
	}
	return c, nil
}
