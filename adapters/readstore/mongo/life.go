package mongoread

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/projections"
)

// GetMessages sees the batch's new and changed messages over the stored.
func (t *tx) GetMessages(ctx context.Context, ids []string) (map[string]projections.Message, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: get messages: %w", err)
	}
	out := make(map[string]projections.Message, len(ids))
	var rest []string
	for _, id := range ids {
		if d := t.buffered(id); d != nil {
			out[id] = d.message()
		} else {
			rest = append(rest, id)
		}
	}
	if len(rest) == 0 {
		return out, nil
	}
	var docs []messageDoc
	if err := t.s.findAll(ctx, messagesColl, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: rest}}}}, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: get messages: %w", err)
	}
	for _, d := range docs {
		out[d.ID] = t.overlay(d).message()
	}
	return out, nil
}

// buffered is the batch's state of message id, nil when the batch has not
// touched it.
func (t *tx) buffered(id string) *messageDoc {
	if d, ok := t.newMessages[id]; ok {
		return d
	}
	return t.updated[id]
}

// overlay applies the batch's changes to a stored message.
func (t *tx) overlay(d messageDoc) messageDoc {
	if u, ok := t.updated[d.ID]; ok {
		return *u
	}
	if t.readMarks[d.ID] {
		d.Status = projections.StatusRead
	}
	return d
}

func (t *tx) UpdateMessages(ctx context.Context, ms []projections.Message) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: update messages: %w", err)
	}
	for _, m := range ms {
		d := toMessageDoc(m)
		if _, ok := t.newMessages[m.ID]; ok {
			t.newMessages[m.ID] = &d
			continue
		}
		t.updated[m.ID] = &d
		delete(t.readMarks, m.ID)
	}
	return nil
}

func (t *tx) SetClearFloor(ctx context.Context, member, chatID string, seq uint64) error {
	floor, err := t.floor(ctx, member, chatID)
	if err != nil {
		return fmt.Errorf("mongoread: set clear floor: %w", err)
	}
	if seq > floor {
		id := pairID(member, chatID)
		t.floors[id] = clearFloorDoc{ID: id, Member: member, Chat: chatID, Seq: bound(seq)}
	}
	return nil
}

// floor is member's clear floor of chatID as the batch sees it.
func (t *tx) floor(ctx context.Context, member, chatID string) (uint64, error) {
	if err := t.check(ctx); err != nil {
		return 0, err
	}
	if d, ok := t.floors[pairID(member, chatID)]; ok {
		return uint64(d.Seq), nil
	}
	return t.s.clearFloor(ctx, member, chatID)
}

// lastVisiblePage is how many stored messages LastVisible reads at a time.
const lastVisiblePage = 32

// LastVisible looks at the batch's new messages first: they follow every
// stored one in their chat.
func (t *tx) LastVisible(ctx context.Context, chatID, member string) (projections.Message, bool, error) {
	floor, err := t.floor(ctx, member, chatID)
	if err != nil {
		return projections.Message{}, false, fmt.Errorf("mongoread: last message: %w", err)
	}
	for i := len(t.newOrder) - 1; i >= 0; i-- {
		m := t.newMessages[t.newOrder[i]].message()
		if m.ChatID == chatID && m.VisibleTo(member, floor) {
			return m, true, nil
		}
	}
	below := int64(-1) // no bound yet
	for {
		seq := bson.D{{Key: "$gte", Value: bound(floor)}}
		if below >= 0 {
			seq = append(seq, bson.E{Key: "$lt", Value: below})
		}
		opts := options.Find().SetSort(bson.D{{Key: "seq", Value: -1}}).SetLimit(lastVisiblePage)
		var docs []messageDoc
		if err := t.s.findAll(ctx, messagesColl, visibleFilter(chatID, member, seq), opts, &docs); err != nil {
			return projections.Message{}, false, fmt.Errorf("mongoread: last message: %w", err)
		}
		for _, d := range docs {
			if m := t.overlay(d).message(); m.VisibleTo(member, floor) {
				return m, true, nil
			}
		}
		if len(docs) < lastVisiblePage {
			return projections.Message{}, false, nil
		}
		below = docs[len(docs)-1].Seq
	}
}

// MessagesAfter sees the batch's new and changed messages over the stored.
func (t *tx) MessagesAfter(ctx context.Context, chatID string, seq uint64) ([]projections.Message, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: messages of %s: %w", chatID, err)
	}
	var docs []messageDoc
	filter := bson.D{{Key: "chat", Value: chatID}, {Key: "seq", Value: bson.D{{Key: "$gt", Value: bound(seq)}}}}
	opts := options.Find().SetSort(bson.D{{Key: "seq", Value: 1}})
	if err := t.s.findAll(ctx, messagesColl, filter, opts, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: messages of %s: %w", chatID, err)
	}
	out := make([]projections.Message, 0, len(docs))
	for _, d := range docs {
		out = append(out, t.overlay(d).message())
	}
	for _, id := range t.newOrder {
		if d := t.newMessages[id]; d.ChatID == chatID && d.Seq > bound(seq) {
			out = append(out, d.message())
		}
	}
	return out, nil
}

// MessagesFrom sees the batch's new and changed messages over the stored.
func (t *tx) MessagesFrom(ctx context.Context, tenant, member string) ([]projections.Message, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: messages from %s: %w", member, err)
	}
	var docs []messageDoc
	filter := bson.D{{Key: "tenant", Value: tenant}, {Key: "from", Value: member}}
	if err := t.s.findAll(ctx, messagesColl, filter, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: messages from %s: %w", member, err)
	}
	out := make([]projections.Message, 0, len(docs))
	for _, d := range docs {
		out = append(out, t.overlay(d).message())
	}
	for _, id := range t.newOrder {
		if d := t.newMessages[id]; d.Tenant == tenant && d.From == member {
			out = append(out, d.message())
		}
	}
	return out, nil
}
