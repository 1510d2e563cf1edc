package mongoread

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/projections"
)

// The search model: a document for each message with a text, under the
// message's _id, keeps the distinct grams of its folded text
// (projections.SearchGrams) in grams, under a multikey index; a query asks
// for the messages holding all of its grams, then checks the text itself.
// MongoDB's text index splits words on spaces, which Chinese does not
// have, and a $regex scans every document. The model is a collection of
// its own: the search projector folds it behind the chats projector.
const searchColl = "message_search"

type gramsDoc struct {
	ID       string   `bson:"_id"`
	Tenant   string   `bson:"tenant"`
	ChatID   string   `bson:"chat"`
	Position int64    `bson:"position"`
	Grams    []string `bson:"grams"`
}

// searchGrams are the grams m is found by: none once recalled, deleted or
// erased.
func searchGrams(m projections.Message) []string {
	return projections.SearchGrams(m.SearchText())
}

func (t *tx) IndexMessages(ctx context.Context, ids []string) error {
	ms, err := t.GetMessages(ctx, ids)
	if err != nil {
		return err
	}
	for _, m := range ms {
		grams := searchGrams(m)
		if len(grams) == 0 {
			delete(t.grams, m.ID)
			t.unindexed[m.ID] = true
			continue
		}
		delete(t.unindexed, m.ID)
		t.grams[m.ID] = gramsDoc{ID: m.ID, Tenant: m.Tenant, ChatID: m.ChatID, Position: int64(m.Position), Grams: grams}
	}
	return nil
}

// newestFirst is the order of search results.
var newestFirst = bson.D{{Key: "position", Value: -1}, {Key: "_id", Value: -1}}

// SearchMessages finds the messages v sees whose text holds q.Text,
// newest first: through the gram index, or, for a text too short for it,
// by reading v's chats (each through its index, newest first).
func (s *Store) SearchMessages(ctx context.Context, v projections.Viewer, q projections.SearchQuery) ([]projections.Message, error) {
	out, err := s.search(ctx, v, q)
	if err != nil {
		return nil, fmt.Errorf("mongoread: search for %s: %w", v.Member, err)
	}
	return out, nil
}

func (s *Store) search(ctx context.Context, v projections.Viewer, q projections.SearchQuery) ([]projections.Message, error) {
	folded := projections.FoldSearch(q.Text)
	size := q.PageSize()
	out := []projections.Message{}
	if folded == "" || v.Member == "" {
		return out, nil
	}
	var before bson.D
	if q.Before != "" {
		var d messageDoc
		found, err := s.findOne(ctx, messagesColl, byID(q.Before), &d)
		if err != nil || !found {
			return out, err
		}
		before = bson.D{{Key: "$or", Value: bson.A{
			bson.D{{Key: "position", Value: bson.D{{Key: "$lt", Value: d.Position}}}},
			bson.D{{Key: "position", Value: d.Position}, {Key: "_id", Value: bson.D{{Key: "$lt", Value: d.ID}}}},
		}}}
	}
	chats := []string{q.ChatID}
	if q.ChatID == "" {
		var err error
		if chats, err = s.searchChats(ctx, v.Member); err != nil {
			return nil, err
		}
	}
	w := s.viewing(v)
	keep := func(d *messageDoc) (projections.Message, bool, error) {
		m := d.message()
		if !m.MatchesSearch(folded) {
			return m, false, nil
		}
		ok, err := w.sees(ctx, &m)
		return m, ok, err
	}
	if projections.ShortSearch(folded) {
		return s.scanChats(ctx, chats, before, size, keep)
	}
	filter := bson.D{
		{Key: "grams", Value: bson.D{{Key: "$all", Value: projections.SearchGrams(folded)}}},
		{Key: "chat", Value: bson.D{{Key: "$in", Value: chats}}},
	}
	filter = append(filter, before...)
	return s.matchIndex(ctx, filter, size, out, keep)
}

// matchIndex appends to out the messages of the search documents of
// filter, newest first, that keep admits, until out holds size.
func (s *Store) matchIndex(ctx context.Context, filter bson.D, size int, out []projections.Message,
	keep func(*messageDoc) (projections.Message, bool, error)) ([]projections.Message, error) {
	page := 4 * size
	opts := options.Find().SetSort(newestFirst).SetBatchSize(int32(page)).SetProjection(bson.D{{Key: "_id", Value: 1}})
	cur, err := s.coll(searchColl).Find(ctx, filter, opts)
	if err != nil {
		return nil, err
	}
	defer cur.Close(ctx)
	ids := make([]string, 0, page)
	flush := func() error {
		var docs []messageDoc
		if err := s.findAll(ctx, messagesColl, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}}, nil, &docs); err != nil {
			return err
		}
		byID := make(map[string]*messageDoc, len(docs))
		for i := range docs {
			byID[docs[i].ID] = &docs[i]
		}
		for _, id := range ids {
			d, found := byID[id]
			if !found || len(out) == size {
				continue
			}
			m, ok, err := keep(d)
			if err != nil {
				return err
			}
			if ok {
				out = append(out, m)
			}
		}
		ids = ids[:0]
		return nil
	}
	for len(out) < size && cur.Next(ctx) {
		var d struct {
			ID string `bson:"_id"`
		}
		if err := cur.Decode(&d); err != nil {
			return nil, err
		}
		if ids = append(ids, d.ID); len(ids) == page {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := cur.Err(); err != nil {
		return nil, err
	}
	if len(ids) > 0 && len(out) < size {
		if err := flush(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// collect appends to out the messages of filter in order that keep admits,
// until out holds size.
func (s *Store) collect(ctx context.Context, filter, order bson.D, size int, out []projections.Message,
	keep func(*messageDoc) (projections.Message, bool, error)) ([]projections.Message, error) {
	cur, err := s.coll(messagesColl).Find(ctx, filter, options.Find().SetSort(order).SetBatchSize(int32(4*size)))
	if err != nil {
		return nil, err
	}
	defer cur.Close(ctx)
	for len(out) < size && cur.Next(ctx) {
		var d messageDoc
		if err := cur.Decode(&d); err != nil {
			return nil, err
		}
		m, ok, err := keep(&d)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, m)
		}
	}
	return out, cur.Err()
}

// searchChats lists the chats member has a conversation in or a group of.
func (s *Store) searchChats(ctx context.Context, member string) ([]string, error) {
	var sessions []sessionDoc
	if err := s.findAll(ctx, sessionsColl, bson.D{{Key: "member", Value: member}}, nil, &sessions); err != nil {
		return nil, err
	}
	var groups []groupMemberDoc
	if err := s.findAll(ctx, groupMembersColl, bson.D{{Key: "member", Value: member}}, nil, &groups); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(sessions)+len(groups))
	for _, d := range sessions {
		out = append(out, d.ChatID)
	}
	for _, d := range groups {
		out = append(out, d.GroupID)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// scanChats reads each of chats, newest first, for the first size messages
// keep admits, and returns the newest size of them all.
func (s *Store) scanChats(ctx context.Context, chats []string, before bson.D, size int,
	keep func(*messageDoc) (projections.Message, bool, error)) ([]projections.Message, error) {
	var all []projections.Message
	for _, chatID := range chats {
		filter := append(bson.D{{Key: "chat", Value: chatID}}, before...)
		found, err := s.collect(ctx, filter, bson.D{{Key: "seq", Value: -1}}, size, nil, keep)
		if err != nil {
			return nil, err
		}
		all = append(all, found...)
	}
	slices.SortFunc(all, func(a, b projections.Message) int {
		return cmp.Or(cmp.Compare(b.Position, a.Position), cmp.Compare(b.ID, a.ID))
	})
	out := []projections.Message{}
	return append(out, all[:min(size, len(all))]...), nil
}
