package mongoread

import (
	"context"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/projections"
)

const personalColl = "personal_items"

type personalDoc struct {
	ID     string `bson:"_id"` // personalDocID(member, kind, item)
	Tenant string `bson:"tenant"`
	Member string `bson:"member"`
	Kind   string `bson:"kind"`
	ItemID string `bson:"itemId"`
	At     int64  `bson:"at"`
	Doc    string `bson:"doc"`
}

func personalDocID(member, kind, id string) string { return pairID(pairID(member, kind), id) }

func (d personalDoc) item() projections.PersonalItem {
	return projections.PersonalItem{Tenant: d.Tenant, Member: d.Member, Kind: d.Kind, ID: d.ItemID, At: d.At, Doc: []byte(d.Doc)}
}

func (t *tx) PutPersonalItems(ctx context.Context, items []projections.PersonalItem) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: put personal items: %w", err)
	}
	for _, it := range items {
		id := personalDocID(it.Member, it.Kind, it.ID)
		t.personal[id] = personalDoc{ID: id, Tenant: it.Tenant, Member: it.Member, Kind: it.Kind, ItemID: it.ID, At: it.At, Doc: string(it.Doc)}
	}
	return nil
}

// GetPersonalItems sees the batch's puts and deletes over the stored.
func (t *tx) GetPersonalItems(ctx context.Context, member, kind string) ([]projections.PersonalItem, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: personal items of %s: %w", member, err)
	}
	var docs []personalDoc
	if err := t.s.findAll(ctx, personalColl, bson.D{{Key: "member", Value: member}, {Key: "kind", Value: kind}}, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: personal items of %s: %w", member, err)
	}
	var out []projections.PersonalItem
	for _, d := range docs {
		if _, put := t.personal[d.ID]; !put && !slices.ContainsFunc(t.personalDeletes, func(f bson.D) bool { return deletes(f, d) }) {
			out = append(out, d.item())
		}
	}
	for _, d := range t.personal {
		if d.Member == member && d.Kind == kind {
			out = append(out, d.item())
		}
	}
	return out, nil
}

// deletes reports whether the delete filter f, as DeletePersonalItems
// makes it, matches d.
func deletes(f bson.D, d personalDoc) bool {
	for _, e := range f {
		switch v := e.Value.(type) {
		case string:
			if e.Key == "member" && v != d.Member || e.Key == "kind" && v != d.Kind {
				return false
			}
		case []string:
			if !slices.Contains(v, d.ItemID) {
				return false
			}
		}
	}
	return true
}

// DeletePersonalItems drops the batch's own puts and records a filter for
// the stored ones; deletes are applied before the puts.
func (t *tx) DeletePersonalItems(ctx context.Context, member, kind string, ids []string) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: delete personal items: %w", err)
	}
	for id, d := range t.personal {
		if d.Member == member && d.Kind == kind && (ids == nil || slices.Contains(ids, d.ItemID)) {
			delete(t.personal, id)
		}
	}
	filter := bson.D{{Key: "member", Value: member}, {Key: "kind", Value: kind}}
	if ids != nil {
		filter = append(filter, bson.E{Key: "itemId", Value: ids})
	}
	t.personalDeletes = append(t.personalDeletes, filter)
	return nil
}

func (s *Store) PersonalItems(ctx context.Context, member, kind string, page, size int) ([]projections.PersonalItem, int, error) {
	page = max(page, 1)
	filter := bson.D{{Key: "member", Value: member}, {Key: "kind", Value: kind}}
	total, err := s.coll(personalColl).CountDocuments(ctx, filter)
	if err != nil {
		return nil, 0, fmt.Errorf("mongoread: count personal items of %s: %w", member, err)
	}
	out := []projections.PersonalItem{}
	opts := options.Find().SetSort(bson.D{{Key: "at", Value: -1}, {Key: "itemId", Value: -1}})
	if size > 0 {
		skip := int64(page-1) * int64(size)
		if skip >= total {
			return out, int(total), nil
		}
		opts.SetSkip(skip).SetLimit(int64(size))
	}
	var docs []personalDoc
	if err := s.findAll(ctx, personalColl, filter, opts, &docs); err != nil {
		return nil, 0, fmt.Errorf("mongoread: personal items of %s: %w", member, err)
	}
	for _, d := range docs {
		out = append(out, d.item())
	}
	return out, int(total), nil
}

func (s *Store) PersonalItemsByID(ctx context.Context, v projections.Viewer, kind string, ids []string) ([]projections.PersonalItem, error) {
	out := []projections.PersonalItem{}
	member := v.Member
	if len(ids) == 0 || !v.Owns(v.Tenant, member) {
		return out, nil
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = personalDocID(member, kind, id)
	}
	var docs []personalDoc
	if err := s.findAll(ctx, personalColl, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: keys}}}}, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: personal items of %s: %w", member, err)
	}
	byID := make(map[string]personalDoc, len(docs))
	for _, d := range docs {
		byID[d.ItemID] = d
	}
	for _, id := range ids {
		if d, ok := byID[id]; ok {
			if it := d.item(); v.Owns(it.Tenant, it.Member) {
				out = append(out, it)
			}
		}
	}
	return out, nil
}
