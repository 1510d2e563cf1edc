package mongoread

import (
	"context"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/projections"
)

// Page sizes of history and applies.
const (
	defaultPageSize = 20
	maxPageSize     = 200
)

func byID(id string) bson.D { return bson.D{{Key: "_id", Value: id}} }

// MembersByID returns the stored members among ids whose cards v sees,
// keyed by id.
func (s *Store) MembersByID(ctx context.Context, v projections.Viewer, ids []string) (map[string]projections.Member, error) {
	out, err := s.membersByID(ctx, ids)
	for id, m := range out {
		if !v.SeesCard(m.Tenant) {
			delete(out, id)
		}
	}
	return out, err
}

// membersByID returns the stored members among ids, keyed by id.
func (s *Store) membersByID(ctx context.Context, ids []string) (map[string]projections.Member, error) {
	out := make(map[string]projections.Member, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var docs []memberDoc
	if err := s.findAll(ctx, membersColl, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}}, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: members by id: %w", err)
	}
	for _, d := range docs {
		out[d.ID] = d.member()
	}
	return out, nil
}

// FindMember finds the member of tenant whose account, else whose phone,
// is keyword. An empty keyword finds nobody.
func (s *Store) FindMember(ctx context.Context, tenant, keyword string) (projections.Member, bool, error) {
	if keyword == "" {
		return projections.Member{}, false, nil
	}
	for _, field := range []string{"account", "phone"} {
		var d memberDoc
		found, err := s.findOne(ctx, membersColl, bson.D{{Key: "tenant", Value: tenant}, {Key: field, Value: keyword}}, &d)
		if err != nil {
			return projections.Member{}, false, fmt.Errorf("mongoread: find member: %w", err)
		}
		if found {
			return d.member(), true, nil
		}
	}
	return projections.Member{}, false, nil
}

// Sessions lists member's sessions but the hidden ones: pinned first
// (latest pinned first), then by last message, newest first.
func (s *Store) Sessions(ctx context.Context, member string) ([]projections.Session, error) {
	var docs []sessionDoc
	sort := bson.D{{Key: "top", Value: -1}, {Key: "topTime", Value: -1}, {Key: "lastMessageTime", Value: -1}, {Key: "peer", Value: 1}}
	// Documents written before the hidden field existed lack it: $ne matches them.
	filter := bson.D{{Key: "member", Value: member}, {Key: "hidden", Value: bson.D{{Key: "$ne", Value: true}}}}
	if err := s.findAll(ctx, sessionsColl, filter, options.Find().SetSort(sort), &docs); err != nil {
		return nil, fmt.Errorf("mongoread: sessions of %s: %w", member, err)
	}
	out := make([]projections.Session, len(docs)) // empty, not nil: a list encodes as []
	for i, d := range docs {
		out[i] = d.session()
	}
	return out, nil
}

// GroupReads lists how far the members of a group chat have read it, to
// those v may see them (Viewer.ReadPositions).
func (s *Store) GroupReads(ctx context.Context, v projections.Viewer, groupID string) ([]projections.GroupRead, error) {
	var docs []sessionDoc
	filter := bson.D{{Key: "peer", Value: groupID}, {Key: "chatType", Value: "Group"}}
	if err := s.findAll(ctx, sessionsColl, filter, options.Find().SetSort(bson.D{{Key: "member", Value: 1}}), &docs); err != nil {
		return nil, fmt.Errorf("mongoread: reads of group %s: %w", groupID, err)
	}
	out := make([]projections.GroupRead, len(docs))
	for i, d := range docs {
		out[i] = projections.GroupRead{Tenant: d.Tenant, GroupID: groupID, Member: d.Member, JoinSeq: uint64(d.JoinSeq), ReadSeq: uint64(d.ReadSeq)}
	}
	return v.ReadPositions(out), nil
}

func (s *Store) MessageSeq(ctx context.Context, v projections.Viewer, messageID string) (string, uint64, bool, error) {
	m, found, err := s.message(ctx, messageID)
	if err == nil && found {
		found, err = s.viewing(v).readsChat(ctx, &m)
	}
	if err != nil || !found {
		return "", 0, false, err
	}
	return m.ChatID, m.Seq, true, nil
}

// message reads the stored message id.
func (s *Store) message(ctx context.Context, id string) (projections.Message, bool, error) {
	var d messageDoc
	found, err := s.findOne(ctx, messagesColl, byID(id), &d)
	if err != nil {
		return projections.Message{}, false, fmt.Errorf("mongoread: message %s: %w", id, err)
	}
	return d.message(), found, nil
}

// HistoryPage returns the page in ascending sequence order, of the
// messages v sees.
func (s *Store) HistoryPage(ctx context.Context, v projections.Viewer, chatID string, anchor *uint64,
	dir projections.PageDirection, size int) ([]projections.Message, error) {
	member := v.Member
	if size <= 0 {
		size = defaultPageSize
	}
	size = min(size, maxPageSize)
	floor, err := s.clearFloor(ctx, member, chatID)
	if err != nil {
		return nil, fmt.Errorf("mongoread: history of %s: %w", chatID, err)
	}
	seq := bson.D{{Key: "$gte", Value: bound(floor)}}
	order := -1
	switch {
	case anchor == nil:
	case dir == projections.Down:
		seq = append(seq, bson.E{Key: "$gt", Value: bound(*anchor)})
		order = 1
	default:
		seq = append(seq, bson.E{Key: "$lt", Value: bound(*anchor)})
	}
	opts := options.Find().SetSort(bson.D{{Key: "seq", Value: order}}).SetLimit(int64(size))
	var docs []messageDoc
	if err := s.findAll(ctx, messagesColl, visibleFilter(chatID, member, seq), opts, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: history of %s: %w", chatID, err)
	}
	page := make([]projections.Message, 0, len(docs)) // empty, not nil: a list encodes as []
	w := s.viewing(v)
	for _, d := range docs {
		m := d.message()
		ok, err := w.readsChat(ctx, &m)
		if err != nil {
			return nil, fmt.Errorf("mongoread: history of %s: %w", chatID, err)
		}
		if ok {
			page = append(page, m)
		}
	}
	if order < 0 {
		slices.Reverse(page)
	}
	return page, nil
}

// visibleFilter selects the messages of chatID member sees, with seq as
// the condition on their sequence.
func visibleFilter(chatID, member string, seq bson.D) bson.D {
	return bson.D{
		{Key: "chat", Value: chatID}, {Key: "seq", Value: seq},
		{Key: "deleted", Value: bson.D{{Key: "$ne", Value: true}}},
		{Key: "hiddenFor", Value: bson.D{{Key: "$ne", Value: member}}},
	}
}

// clearFloor is member's stored clear floor of chatID, 0 when none.
func (s *Store) clearFloor(ctx context.Context, member, chatID string) (uint64, error) {
	var d clearFloorDoc
	if _, err := s.findOne(ctx, clearFloorsColl, byID(pairID(member, chatID)), &d); err != nil {
		return 0, err
	}
	return uint64(d.Seq), nil
}

// viewing gathers what v's rules ask of messages: v's clear floors and
// group memberships, each read once.
type viewing struct {
	s      *Store
	v      projections.Viewer
	floors map[string]uint64
	groups map[string]bool
}

func (s *Store) viewing(v projections.Viewer) *viewing {
	return &viewing{s: s, v: v, floors: map[string]uint64{}, groups: map[string]bool{}}
}

// inGroup tells whether v is a current member of the group of m, a
// message of a group's chat.
func (w *viewing) inGroup(ctx context.Context, m *projections.Message) (bool, error) {
	if !m.InGroupChat() {
		return false, nil
	}
	in, known := w.groups[m.GroupID]
	if !known {
		var err error
		if in, err = w.s.inGroup(ctx, m.GroupID, w.v.Member); err != nil {
			return false, err
		}
		w.groups[m.GroupID] = in
	}
	return in, nil
}

// readsChat tells whether v reads m's chat.
func (w *viewing) readsChat(ctx context.Context, m *projections.Message) (bool, error) {
	in, err := w.inGroup(ctx, m)
	return err == nil && w.v.ReadsChat(m, in), err
}

// sees tells whether v sees m.
func (w *viewing) sees(ctx context.Context, m *projections.Message) (bool, error) {
	in, err := w.inGroup(ctx, m)
	if err != nil || !w.v.ReadsChat(m, in) {
		return false, err
	}
	floor, known := w.floors[m.ChatID]
	if !known {
		if floor, err = w.s.clearFloor(ctx, w.v.Member, m.ChatID); err != nil {
			return false, err
		}
		w.floors[m.ChatID] = floor
	}
	return w.v.Sees(m, floor, in), nil
}

func (s *Store) VisibleMessages(ctx context.Context, v projections.Viewer, ids []string) ([]projections.Message, error) {
	var docs []messageDoc
	if err := s.findAll(ctx, messagesColl, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}}, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: messages for %s: %w", v.Member, err)
	}
	found := make(map[string]projections.Message, len(docs))
	for _, d := range docs {
		found[d.ID] = d.message()
	}
	w := s.viewing(v)
	out := []projections.Message{}
	for _, id := range ids {
		m, ok := found[id]
		if !ok {
			continue
		}
		sees, err := w.sees(ctx, &m)
		if err != nil {
			return nil, fmt.Errorf("mongoread: messages for %s: %w", v.Member, err)
		}
		if sees {
			out = append(out, m)
		}
	}
	return out, nil
}

// storedMessageIDs tells which of ids are stored.
func (s *Store) storedMessages(ctx context.Context, ids []string) (map[string]storedMessage, error) {
	var docs []storedMessage
	filter := bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}}
	projection := bson.D{{Key: "_id", Value: 1}, {Key: "chat", Value: 1}, {Key: "seq", Value: 1}}
	if err := s.findAll(ctx, messagesColl, filter, options.Find().SetProjection(projection), &docs); err != nil {
		return nil, err
	}
	out := make(map[string]storedMessage, len(docs))
	for _, d := range docs {
		out[d.ID] = d
	}
	return out, nil
}

// storedMessage is what tells a stored message from another one of its id.
type storedMessage struct {
	ID     string `bson:"_id"`
	ChatID string `bson:"chat"`
	Seq    int64  `bson:"seq"`
}

// Friends lists member's friends, oldest friendship first.
func (s *Store) Friends(ctx context.Context, member string) ([]projections.Friend, error) {
	var docs []friendDoc
	opts := options.Find().SetSort(bson.D{{Key: "since", Value: 1}, {Key: "friend", Value: 1}})
	if err := s.findAll(ctx, friendsColl, bson.D{{Key: "member", Value: member}}, opts, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: friends of %s: %w", member, err)
	}
	out := make([]projections.Friend, len(docs)) // empty, not nil: a list encodes as []
	for i, d := range docs {
		out[i] = d.friend()
	}
	return out, nil
}

// Applies returns page (from 1) of the requests member sent or received,
// newest first, and how many there are in all.
func (s *Store) Applies(ctx context.Context, member string, page, size int) ([]projections.Apply, int, error) {
	page = max(page, 1)
	if size <= 0 {
		size = defaultPageSize
	}
	size = min(size, maxPageSize)
	filter := bson.D{{Key: "$or", Value: bson.A{
		bson.D{{Key: "from", Value: member}, {Key: "hiddenFrom", Value: bson.D{{Key: "$ne", Value: true}}}},
		bson.D{{Key: "to", Value: member}, {Key: "hiddenTo", Value: bson.D{{Key: "$ne", Value: true}}}},
	}}}
	total, err := s.coll(appliesColl).CountDocuments(ctx, filter)
	if err != nil {
		return nil, 0, fmt.Errorf("mongoread: count applies of %s: %w", member, err)
	}
	out := []projections.Apply{} // empty, not nil: a list encodes as []
	skip := int64(page-1) * int64(size)
	if skip >= total {
		return out, int(total), nil
	}
	opts := options.Find().SetSort(bson.D{{Key: "createdAt", Value: -1}, {Key: "_id", Value: -1}}).
		SetSkip(skip).SetLimit(int64(size))
	var docs []applyDoc
	if err := s.findAll(ctx, appliesColl, filter, opts, &docs); err != nil {
		return nil, 0, fmt.Errorf("mongoread: applies of %s: %w", member, err)
	}
	for _, d := range docs {
		out = append(out, d.apply())
	}
	return out, int(total), nil
}

// PairOfApply returns the friend pair an apply of tenant belongs to.
func (s *Store) PairOfApply(ctx context.Context, tenant, applyID string) (string, bool, error) {
	var d applyDoc
	found, err := s.findOne(ctx, appliesColl, bson.D{{Key: "_id", Value: applyID}, {Key: "tenant", Value: tenant}}, &d)
	if err != nil {
		return "", false, fmt.Errorf("mongoread: pair of apply %s: %w", applyID, err)
	}
	return d.PairID, found, nil
}

func (s *Store) AuthSession(ctx context.Context, sessionID string) (projections.AuthSession, bool, error) {
	var d authSessionDoc
	found, err := s.findOne(ctx, authSessionsColl, byID(sessionID), &d)
	if err != nil {
		return projections.AuthSession{}, false, fmt.Errorf("mongoread: auth session: %w", err)
	}
	return d.authSession(), found, nil
}
