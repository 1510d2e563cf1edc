package mongoread

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/projections"
)

type groupApplyDoc struct {
	ID        string `bson:"_id"`
	Tenant    string `bson:"tenant"`
	GroupID   string `bson:"group"`
	Member    string `bson:"member"`
	By        string `bson:"by"`
	Status    string `bson:"status"`
	CreatedAt int64  `bson:"createdAt"`
	UpdatedAt int64  `bson:"updatedAt"`
}

func (t *tx) PutGroupApplies(ctx context.Context, as []projections.GroupApply) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: put group applies: %w", err)
	}
	for _, a := range as {
		t.groupApplies[a.ID] = groupApplyDoc(a)
	}
	return nil
}

// GetGroupApply sees the batch's puts over the stored.
func (t *tx) GetGroupApply(ctx context.Context, tenant, id string) (projections.GroupApply, bool, error) {
	if err := t.check(ctx); err != nil {
		return projections.GroupApply{}, false, fmt.Errorf("mongoread: get group apply %s: %w", id, err)
	}
	if d, ok := t.groupApplies[id]; ok {
		return projections.GroupApply(d), d.Tenant == tenant, nil
	}
	var d groupApplyDoc
	found, err := t.s.findOne(ctx, groupAppliesColl, bson.D{{Key: "_id", Value: id}, {Key: "tenant", Value: tenant}}, &d)
	if err != nil {
		return projections.GroupApply{}, false, fmt.Errorf("mongoread: get group apply %s: %w", id, err)
	}
	return projections.GroupApply(d), found, nil
}

// GroupApplies returns page (from 1) of the join requests of the groups
// v manages, newest first, and how many there are in all.
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
	out := []projections.GroupApply{} // empty, not nil: a list encodes as []
	if len(groupIDs) == 0 {
		return out, 0, nil
	}
	filter := bson.D{{Key: "group", Value: bson.D{{Key: "$in", Value: groupIDs}}}}
	total, err := s.coll(groupAppliesColl).CountDocuments(ctx, filter)
	if err != nil {
		return nil, 0, fmt.Errorf("mongoread: count group applies: %w", err)
	}
	skip := int64(page-1) * int64(size)
	if skip >= total {
		return out, int(total), nil
	}
	opts := options.Find().SetSort(bson.D{{Key: "createdAt", Value: -1}, {Key: "_id", Value: -1}}).SetSkip(skip).SetLimit(int64(size))
	var docs []groupApplyDoc
	if err := s.findAll(ctx, groupAppliesColl, filter, opts, &docs); err != nil {
		return nil, 0, fmt.Errorf("mongoread: group applies: %w", err)
	}
	for _, d := range docs {
		out = append(out, projections.GroupApply(d))
	}
	return out, int(total), nil
}

// GroupOfApply returns the group a join request of tenant belongs to.
func (s *Store) GroupOfApply(ctx context.Context, tenant, applyID string) (string, bool, error) {
	var d groupApplyDoc
	found, err := s.findOne(ctx, groupAppliesColl, bson.D{{Key: "_id", Value: applyID}, {Key: "tenant", Value: tenant}}, &d)
	if err != nil {
		return "", false, fmt.Errorf("mongoread: group of apply %s: %w", applyID, err)
	}
	return d.GroupID, found, nil
}
