package mongoread

import (
	"context"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/projections"
)

type mentionDoc struct {
	ID          string `bson:"_id"` // pairID(member, message)
	Tenant      string `bson:"tenant"`
	Member      string `bson:"member"`
	MessageID   string `bson:"messageId"`
	SessionID   string `bson:"sessionId"`
	SessionType string `bson:"sessionType"`
	At          int64  `bson:"at"`
}

func (t *tx) PutMentions(ctx context.Context, ms []projections.Mention) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: put mentions: %w", err)
	}
	for _, m := range ms {
		id := pairID(m.Member, m.MessageID)
		t.mentions[id] = mentionDoc{ID: id, Tenant: m.Tenant, Member: m.Member, MessageID: m.MessageID,
			SessionID: m.SessionID, SessionType: m.SessionType, At: m.At}
	}
	return nil
}

// DeleteMentions drops the batch's own puts and records a filter for the
// stored ones.
func (t *tx) DeleteMentions(ctx context.Context, member string, messageIDs []string) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: delete mentions: %w", err)
	}
	for id, d := range t.mentions {
		if (member == "" || d.Member == member) && slices.Contains(messageIDs, d.MessageID) {
			delete(t.mentions, id)
		}
	}
	filter := bson.D{{Key: "messageId", Value: messageIDs}}
	if member != "" {
		filter = append(filter, bson.E{Key: "member", Value: member})
	}
	t.mentionDeletes = append(t.mentionDeletes, filter)
	return nil
}

func (t *tx) DeleteSessionMentions(ctx context.Context, member, sessionID string) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: delete mentions: %w", err)
	}
	for id, d := range t.mentions {
		if d.Member == member && d.SessionID == sessionID {
			delete(t.mentions, id)
		}
	}
	t.mentionDeletes = append(t.mentionDeletes, bson.D{{Key: "member", Value: member}, {Key: "sessionId", Value: sessionID}})
	return nil
}

func (s *Store) Mentions(ctx context.Context, member string) ([]projections.Mention, error) {
	var docs []mentionDoc
	opts := options.Find().SetSort(bson.D{{Key: "at", Value: 1}, {Key: "messageId", Value: 1}})
	if err := s.findAll(ctx, mentionsColl, bson.D{{Key: "member", Value: member}}, opts, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: mentions of %s: %w", member, err)
	}
	out := make([]projections.Mention, len(docs))
	for i, d := range docs {
		out[i] = projections.Mention{Tenant: d.Tenant, Member: d.Member, MessageID: d.MessageID,
			SessionID: d.SessionID, SessionType: d.SessionType, At: d.At}
	}
	return out, nil
}
