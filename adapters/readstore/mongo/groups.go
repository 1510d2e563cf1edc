package mongoread

import (
	"context"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/projections"
)

type groupDoc struct {
	ID           string   `bson:"_id"`
	Tenant       string   `bson:"tenant"`
	Name         string   `bson:"name"`
	HeadURL      string   `bson:"headUrl"`
	Notice       string   `bson:"notice"`
	NoticeBy     string   `bson:"noticeBy,omitempty"`
	Owner        string   `bson:"owner"`
	MuteAll      bool     `bson:"muteAll"`
	MuteAllUntil int64    `bson:"muteAllUntil,omitempty"`
	AllowLeave   bool     `bson:"allowLeave"`
	SendRate     string   `bson:"sendRate"`
	Dissolved    bool     `bson:"dissolved"`
	MemberCount  int      `bson:"memberCount"`
	CreatedAt    int64    `bson:"createdAt"`
	Pinned       []string `bson:"pinned,omitempty"`
}

func (d groupDoc) group() projections.Group {
	return projections.Group{ID: d.ID, Tenant: d.Tenant, Name: d.Name, HeadURL: d.HeadURL, Notice: d.Notice, NoticeBy: d.NoticeBy, Owner: d.Owner,
		MuteAll: d.MuteAll, MuteAllUntil: d.MuteAllUntil, AllowLeave: d.AllowLeave, SendRate: d.SendRate, Dissolved: d.Dissolved,
		MemberCount: d.MemberCount, CreatedAt: d.CreatedAt, Pinned: d.Pinned}
}

type groupMemberDoc struct {
	ID         string `bson:"_id"` // pairID(group, member)
	GroupID    string `bson:"group"`
	Tenant     string `bson:"tenant"`
	Member     string `bson:"member"`
	Role       string `bson:"role"`
	Rank       int    `bson:"rank"` // 0 Owner, 1 Admin, 2 Normal: the order of a group's list
	Nickname   string `bson:"nickname"`
	MutedUntil int64  `bson:"mutedUntil"`
	JoinedAt   int64  `bson:"joinedAt"`
}

func toGroupMemberDoc(m projections.GroupMember) groupMemberDoc {
	rank := 2
	switch m.Role {
	case "Owner":
		rank = 0
	case "Admin":
		rank = 1
	}
	return groupMemberDoc{ID: pairID(m.GroupID, m.Member), GroupID: m.GroupID, Tenant: m.Tenant, Member: m.Member,
		Role: m.Role, Rank: rank, Nickname: m.Nickname, MutedUntil: m.MutedUntil, JoinedAt: m.JoinedAt}
}

func (d groupMemberDoc) member() projections.GroupMember {
	return projections.GroupMember{GroupID: d.GroupID, Tenant: d.Tenant, Member: d.Member, Role: d.Role,
		Nickname: d.Nickname, MutedUntil: d.MutedUntil, JoinedAt: d.JoinedAt}
}

func (t *tx) GetGroups(ctx context.Context, ids []string) (map[string]projections.Group, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: get groups: %w", err)
	}
	out := make(map[string]projections.Group, len(ids))
	var rest []string
	for _, id := range ids {
		if d, ok := t.groups[id]; ok {
			out[id] = d.group()
		} else {
			rest = append(rest, id)
		}
	}
	if len(rest) > 0 {
		var docs []groupDoc
		if err := t.s.findAll(ctx, groupsColl, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: rest}}}}, nil, &docs); err != nil {
			return nil, fmt.Errorf("mongoread: get groups: %w", err)
		}
		for _, d := range docs {
			out[d.ID] = d.group()
		}
	}
	return out, nil
}

// GroupsNoticedBy scans the tenant's groups: it serves an erasure, rare
// enough not to be worth an index.
func (t *tx) GroupsNoticedBy(ctx context.Context, tenant, member string) ([]projections.Group, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: groups noticed by %s: %w", member, err)
	}
	var docs []groupDoc
	if err := t.s.findAll(ctx, groupsColl, bson.D{{Key: "tenant", Value: tenant}, {Key: "noticeBy", Value: member}}, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: groups noticed by %s: %w", member, err)
	}
	var out []projections.Group
	for _, d := range docs {
		if _, put := t.groups[d.ID]; !put {
			out = append(out, d.group())
		}
	}
	for _, d := range t.groups {
		if d.Tenant == tenant && d.NoticeBy == member {
			out = append(out, d.group())
		}
	}
	return out, nil
}

func (t *tx) PutGroups(ctx context.Context, gs []projections.Group) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: put groups: %w", err)
	}
	for _, g := range gs {
		t.groups[g.ID] = groupDoc{ID: g.ID, Tenant: g.Tenant, Name: g.Name, HeadURL: g.HeadURL, Notice: g.Notice, NoticeBy: g.NoticeBy,
			Owner: g.Owner, MuteAll: g.MuteAll, MuteAllUntil: g.MuteAllUntil, AllowLeave: g.AllowLeave, SendRate: g.SendRate, Dissolved: g.Dissolved,
			MemberCount: g.MemberCount, CreatedAt: g.CreatedAt, Pinned: g.Pinned}
	}
	return nil
}

// GetGroupMembers sees the batch's puts and deletes over the stored.
func (t *tx) GetGroupMembers(ctx context.Context, groupID string, ids []string) (map[string]projections.GroupMember, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: get group members: %w", err)
	}
	filter := bson.D{{Key: "group", Value: groupID}}
	if ids != nil {
		filter = append(filter, bson.E{Key: "member", Value: bson.D{{Key: "$in", Value: ids}}})
	}
	var docs []groupMemberDoc
	if err := t.s.findAll(ctx, groupMembersColl, filter, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: get group members: %w", err)
	}
	out := map[string]projections.GroupMember{}
	for _, d := range docs {
		if !t.deletedMembers[d.ID] {
			out[d.Member] = d.member()
		}
	}
	for _, d := range t.groupMembers {
		if d.GroupID == groupID && (ids == nil || slices.Contains(ids, d.Member)) {
			out[d.Member] = d.member()
		}
	}
	return out, nil
}

func (t *tx) GroupsOf(ctx context.Context, member string) ([]projections.GroupMember, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: groups of %s: %w", member, err)
	}
	var docs []groupMemberDoc
	if err := t.s.findAll(ctx, groupMembersColl, bson.D{{Key: "member", Value: member}}, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: groups of %s: %w", member, err)
	}
	var out []projections.GroupMember
	for _, d := range docs {
		if _, put := t.groupMembers[d.ID]; !put && !t.deletedMembers[d.ID] {
			out = append(out, d.member())
		}
	}
	for _, d := range t.groupMembers {
		if d.Member == member {
			out = append(out, d.member())
		}
	}
	return out, nil
}

func (t *tx) PutGroupMembers(ctx context.Context, ms []projections.GroupMember) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: put group members: %w", err)
	}
	for _, m := range ms {
		d := toGroupMemberDoc(m)
		t.groupMembers[d.ID] = d
	}
	return nil
}

// DeleteGroupMembers drops the batch's own puts and records the delete
// of the stored ones, applied before every other write.
func (t *tx) DeleteGroupMembers(ctx context.Context, groupID string, ids []string) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: delete group members: %w", err)
	}
	for _, id := range ids {
		key := pairID(groupID, id)
		delete(t.groupMembers, key)
		t.deletedMembers[key] = true
	}
	return nil
}

func (s *Store) Group(ctx context.Context, v projections.Viewer, id string) (projections.Group, bool, error) {
	var d groupDoc
	found, err := s.findOne(ctx, groupsColl, byID(id), &d)
	if err != nil {
		return projections.Group{}, false, fmt.Errorf("mongoread: group %s: %w", id, err)
	}
	if !found {
		return projections.Group{}, false, nil
	}
	in, err := s.inGroup(ctx, id, v.Member)
	if err != nil {
		return projections.Group{}, false, fmt.Errorf("mongoread: group %s: %w", id, err)
	}
	g, found := v.GroupSeen(d.group(), in)
	return g, found, nil
}

func (s *Store) GroupMembers(ctx context.Context, v projections.Viewer, groupID string) ([]projections.GroupMember, error) {
	sort := bson.D{{Key: "rank", Value: 1}, {Key: "joinedAt", Value: 1}, {Key: "member", Value: 1}}
	ms, err := s.groupMembers(ctx, bson.D{{Key: "group", Value: groupID}}, sort)
	if err != nil {
		return nil, err
	}
	return v.Roster(ms), nil
}

// inGroup tells whether member belongs to group groupID now.
func (s *Store) inGroup(ctx context.Context, groupID, member string) (bool, error) {
	var d groupMemberDoc
	return s.findOne(ctx, groupMembersColl, byID(pairID(groupID, member)), &d)
}

func (s *Store) MemberGroups(ctx context.Context, member string) ([]projections.GroupMember, error) {
	sort := bson.D{{Key: "joinedAt", Value: 1}, {Key: "group", Value: 1}}
	return s.groupMembers(ctx, bson.D{{Key: "member", Value: member}}, sort)
}

func (s *Store) groupMembers(ctx context.Context, filter, sort bson.D) ([]projections.GroupMember, error) {
	var docs []groupMemberDoc
	if err := s.findAll(ctx, groupMembersColl, filter, options.Find().SetSort(sort), &docs); err != nil {
		return nil, fmt.Errorf("mongoread: group members: %w", err)
	}
	out := make([]projections.GroupMember, len(docs))
	for i, d := range docs {
		out[i] = d.member()
	}
	return out, nil
}
