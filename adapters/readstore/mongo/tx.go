package mongoread

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/eventchat/eventchat/projections"
)

// tx buffers the writes of one Update; its reads see the buffer over the
// stored documents.
type tx struct {
	s        *Store
	members  map[string]memberDoc
	sessions map[string]sessionDoc
	// deletedSessions are the _ids of the sessions deleted, before every
	// other write.
	deletedSessions map[string]bool
	applies         map[string]applyDoc
	friends         map[string]friendDoc
	// deletedFriends are the _ids of the friends deleted, before every
	// other write.
	deletedFriends map[string]bool
	groupApplies   map[string]groupApplyDoc
	auths          map[string]authSessionDoc
	checkpoints    map[string]int64
	// newMessages are messages not stored before this batch, in insertion
	// order; readMarks the ids of stored messages this batch marked Read.
	newMessages map[string]*messageDoc
	newOrder    []string
	readMarks   map[string]bool
	// updated are new states of stored messages; floors the clear floors
	// set, by pairID(member, chat).
	updated map[string]*messageDoc
	floors  map[string]clearFloorDoc
	// mentions are the mentions put, by _id; mentionDeletes the filters
	// of the mentions deleted, applied before every other write: a delete
	// drops from mentions the puts it follows.
	mentions       map[string]mentionDoc
	mentionDeletes []bson.D
	// groups and groupMembers are the groups and members put, by _id;
	// deletedMembers the _ids of the members deleted, before every other
	// write.
	groups         map[string]groupDoc
	groupMembers   map[string]groupMemberDoc
	deletedMembers map[string]bool
	// personal and personalDeletes are the personal items' puts and
	// delete filters, kept like the mentions'.
	personal        map[string]personalDoc
	personalDeletes []bson.D
	// notices are the notices put, by _id; noticeDeletes the _ids of the
	// notices deleted, before every other write.
	notices       map[string]noticeDoc
	noticeDeletes map[string]bool
	// grams are the search documents put, by _id; unindexed the _ids of
	// the messages taken out of the search model, before every other write.
	grams     map[string]gramsDoc
	unindexed map[string]bool
	over      bool
}

var _ projections.Tx = (*tx)(nil)

var errTxOver = errors.New("mongoread: transaction used after its Update returned")

func newTx(s *Store) *tx {
	return &tx{
		s: s, members: map[string]memberDoc{}, sessions: map[string]sessionDoc{}, deletedSessions: map[string]bool{}, applies: map[string]applyDoc{},
		friends: map[string]friendDoc{}, deletedFriends: map[string]bool{}, groupApplies: map[string]groupApplyDoc{}, auths: map[string]authSessionDoc{}, checkpoints: map[string]int64{},
		newMessages: map[string]*messageDoc{}, readMarks: map[string]bool{},
		updated: map[string]*messageDoc{}, floors: map[string]clearFloorDoc{}, mentions: map[string]mentionDoc{},
		groups: map[string]groupDoc{}, groupMembers: map[string]groupMemberDoc{}, deletedMembers: map[string]bool{},
		personal: map[string]personalDoc{}, notices: map[string]noticeDoc{}, noticeDeletes: map[string]bool{},
		grams: map[string]gramsDoc{}, unindexed: map[string]bool{},
	}
}

// check refuses work once the Update is over or its context done.
func (t *tx) check(ctx context.Context) error {
	if t.over {
		return errTxOver
	}
	return ctx.Err()
}

// ops lists the buffered writes for the journal, the checkpoints last.
func (t *tx) ops() ([]op, error) {
	var ops []op
	var errs []error
	add := func(coll, kind string, doc any) {
		raw, err := bson.Marshal(doc)
		if err != nil {
			errs = append(errs, fmt.Errorf("mongoread: encode %s document: %w", coll, err))
			return
		}
		ops = append(ops, op{Coll: coll, Kind: kind, Doc: raw})
	}
	for _, d := range t.members {
		add(membersColl, opReplace, d)
	}
	for _, d := range t.sessions {
		add(sessionsColl, opReplace, d)
	}
	if len(t.deletedSessions) > 0 {
		add(sessionsColl, opDelete, bson.D{{Key: "_id", Value: setIDs(t.deletedSessions)}})
	}
	for _, d := range t.applies {
		add(appliesColl, opReplace, d)
	}
	for _, d := range t.friends {
		add(friendsColl, opReplace, d)
	}
	if len(t.deletedFriends) > 0 {
		add(friendsColl, opDelete, bson.D{{Key: "_id", Value: slices.Collect(maps.Keys(t.deletedFriends))}})
	}
	for _, d := range t.groupApplies {
		add(groupAppliesColl, opReplace, d)
	}
	for _, d := range t.auths {
		add(authSessionsColl, opReplace, d)
	}
	for _, id := range t.newOrder {
		add(messagesColl, opInsert, t.newMessages[id])
	}
	for _, d := range t.updated {
		add(messagesColl, opReplace, d)
	}
	for id := range t.readMarks {
		add(messagesColl, opMarkRead, bson.D{{Key: "_id", Value: id}})
	}
	for _, d := range t.floors {
		add(clearFloorsColl, opReplace, d)
	}
	for _, d := range t.mentions {
		add(mentionsColl, opReplace, d)
	}
	for _, f := range t.mentionDeletes {
		add(mentionsColl, opDelete, f)
	}
	for _, d := range t.groups {
		add(groupsColl, opReplace, d)
	}
	for _, d := range t.groupMembers {
		add(groupMembersColl, opReplace, d)
	}
	if len(t.deletedMembers) > 0 {
		add(groupMembersColl, opDelete, bson.D{{Key: "_id", Value: setIDs(t.deletedMembers)}})
	}
	for _, d := range t.personal {
		add(personalColl, opReplace, d)
	}
	for _, f := range t.personalDeletes {
		add(personalColl, opDelete, f)
	}
	for _, d := range t.notices {
		add(noticesColl, opReplace, d)
	}
	if len(t.noticeDeletes) > 0 {
		ids := make([]string, 0, len(t.noticeDeletes))
		for id := range t.noticeDeletes {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		add(noticesColl, opDelete, bson.D{{Key: "_id", Value: ids}})
	}
	if len(t.unindexed) > 0 {
		add(searchColl, opDelete, bson.D{{Key: "_id", Value: setIDs(t.unindexed)}})
	}
	for _, d := range t.grams {
		add(searchColl, opReplace, d)
	}
	for p, pos := range t.checkpoints {
		add(checkpointsColl, opReplace, checkpointDoc{Projector: p, Position: pos})
	}
	return ops, errors.Join(errs...)
}

func (t *tx) SetCheckpoint(ctx context.Context, projector string, position uint64) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: set checkpoint %s: %w", projector, err)
	}
	t.checkpoints[projector] = int64(position)
	return nil
}

func (t *tx) PutMembers(ctx context.Context, ms []projections.Member) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: put members: %w", err)
	}
	for _, m := range ms {
		t.members[m.ID] = toMemberDoc(m)
	}
	return nil
}

// GetMembers returns the members among ids: those this transaction put,
// else the stored ones.
func (t *tx) GetMembers(ctx context.Context, ids []string) (map[string]projections.Member, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: get members: %w", err)
	}
	out := make(map[string]projections.Member, len(ids))
	var rest []string
	for _, id := range ids {
		if d, ok := t.members[id]; ok {
			out[id] = d.member()
		} else {
			rest = append(rest, id)
		}
	}
	if len(rest) == 0 {
		return out, nil
	}
	stored, err := t.s.membersByID(ctx, rest)
	if err != nil {
		return nil, fmt.Errorf("mongoread: get members: %w", err)
	}
	for id, m := range stored {
		out[id] = m
	}
	return out, nil
}

func (t *tx) PutFriends(ctx context.Context, fs []projections.Friend) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: put friends: %w", err)
	}
	for _, f := range fs {
		d := toFriendDoc(f)
		t.friends[d.ID] = d
	}
	return nil
}

// GetFriends sees the batch's puts and deletes over the stored.
func (t *tx) GetFriends(ctx context.Context, member string, ids []string) (map[string]projections.Friend, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: get friends: %w", err)
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = pairID(member, id)
	}
	filter := bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: keys}}}}
	if ids == nil {
		filter = bson.D{{Key: "member", Value: member}}
		for k, d := range t.friends {
			if d.Member == member {
				keys = append(keys, k)
			}
		}
	}
	var docs []friendDoc
	if err := t.s.findAll(ctx, friendsColl, filter, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: get friends: %w", err)
	}
	out := map[string]projections.Friend{}
	for _, d := range docs {
		if !t.deletedFriends[d.ID] {
			out[d.FriendID] = d.friend()
		}
	}
	for _, k := range keys {
		if d, ok := t.friends[k]; ok {
			out[d.FriendID] = d.friend()
		}
	}
	return out, nil
}

// DeleteFriends drops the batch's own puts and records the delete of the
// stored ones, applied before every other write.
func (t *tx) DeleteFriends(ctx context.Context, member string, ids []string) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: delete friends: %w", err)
	}
	for _, id := range ids {
		key := pairID(member, id)
		delete(t.friends, key)
		t.deletedFriends[key] = true
	}
	return nil
}

func (t *tx) PutAuthSessions(ctx context.Context, ss []projections.AuthSession) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: put auth sessions: %w", err)
	}
	for _, s := range ss {
		t.auths[s.ID] = toAuthSessionDoc(s)
	}
	return nil
}

func (t *tx) PutApplies(ctx context.Context, as []projections.Apply) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: put applies: %w", err)
	}
	for _, a := range as {
		t.applies[a.ID] = toApplyDoc(a)
	}
	return nil
}

func (t *tx) AppliesFrom(ctx context.Context, tenant, member string) ([]projections.Apply, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: applies from %s: %w", member, err)
	}
	var docs []applyDoc
	if err := t.s.findAll(ctx, appliesColl, bson.D{{Key: "from", Value: member}, {Key: "tenant", Value: tenant}}, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: applies from %s: %w", member, err)
	}
	var out []projections.Apply
	for _, d := range docs {
		if _, put := t.applies[d.ID]; !put {
			out = append(out, d.apply())
		}
	}
	for _, d := range t.applies {
		if d.From == member && d.Tenant == tenant {
			out = append(out, d.apply())
		}
	}
	return out, nil
}

func (t *tx) GetApply(ctx context.Context, tenant, id string) (projections.Apply, bool, error) {
	if err := t.check(ctx); err != nil {
		return projections.Apply{}, false, fmt.Errorf("mongoread: get apply %s: %w", id, err)
	}
	if d, ok := t.applies[id]; ok {
		if d.Tenant != tenant {
			return projections.Apply{}, false, nil
		}
		return d.apply(), true, nil
	}
	var d applyDoc
	found, err := t.s.findOne(ctx, appliesColl, bson.D{{Key: "_id", Value: id}, {Key: "tenant", Value: tenant}}, &d)
	if err != nil {
		return projections.Apply{}, false, fmt.Errorf("mongoread: get apply %s: %w", id, err)
	}
	return d.apply(), found, nil
}

func (t *tx) PutSessions(ctx context.Context, ss []projections.Session) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: put sessions: %w", err)
	}
	for _, s := range ss {
		d := toSessionDoc(s)
		t.sessions[d.ID] = d
		delete(t.deletedSessions, d.ID)
	}
	return nil
}

func (t *tx) DeleteSessions(ctx context.Context, keys []projections.SessionKey) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: delete sessions: %w", err)
	}
	for _, k := range keys {
		id := sessionDocID(k)
		delete(t.sessions, id)
		t.deletedSessions[id] = true
	}
	return nil
}

// GroupSessions sees the batch's puts and deletes over the stored sessions.
func (t *tx) GroupSessions(ctx context.Context, groupID string) ([]projections.Session, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: sessions of group %s: %w", groupID, err)
	}
	var docs []sessionDoc
	filter := bson.D{{Key: "peer", Value: groupID}, {Key: "chatType", Value: "Group"}}
	if err := t.s.findAll(ctx, sessionsColl, filter, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: sessions of group %s: %w", groupID, err)
	}
	byID := map[string]sessionDoc{}
	for _, d := range docs {
		if !t.deletedSessions[d.ID] {
			byID[d.ID] = d
		}
	}
	for id, d := range t.sessions {
		if d.Peer == groupID && d.ChatType == "Group" {
			byID[id] = d
		}
	}
	out := make([]projections.Session, 0, len(byID))
	for _, d := range byID {
		out = append(out, d.session())
	}
	slices.SortFunc(out, func(a, b projections.Session) int { return cmp.Compare(a.Member, b.Member) })
	return out, nil
}

// GetSessions returns the sessions among keys, buffered ones first.
func (t *tx) GetSessions(ctx context.Context, keys []projections.SessionKey) (map[projections.SessionKey]projections.Session, error) {
	if err := t.check(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: get sessions: %w", err)
	}
	out := make(map[projections.SessionKey]projections.Session, len(keys))
	var stored []string
	for _, k := range keys {
		id := sessionDocID(k)
		if d, ok := t.sessions[id]; ok {
			out[k] = d.session()
		} else if !t.deletedSessions[id] {
			stored = append(stored, id)
		}
	}
	if len(stored) == 0 {
		return out, nil
	}
	var docs []sessionDoc
	if err := t.s.findAll(ctx, sessionsColl, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: stored}}}}, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: get sessions: %w", err)
	}
	for _, d := range docs {
		out[d.session().Key()] = d.session()
	}
	return out, nil
}

// InsertMessages buffers the messages neither stored nor buffered yet; one
// stored or buffered as another message (another chat or sequence) fails.
func (t *tx) InsertMessages(ctx context.Context, ms []projections.Message) error {
	if err := t.check(ctx); err != nil {
		return fmt.Errorf("mongoread: insert messages: %w", err)
	}
	var ids []string
	for _, m := range ms {
		if _, ok := t.newMessages[m.ID]; !ok {
			ids = append(ids, m.ID)
		}
	}
	stored := map[string]storedMessage{}
	if len(ids) > 0 {
		var err error
		if stored, err = t.s.storedMessages(ctx, ids); err != nil {
			return fmt.Errorf("mongoread: insert messages: %w", err)
		}
	}
	for _, m := range ms {
		if d, ok := t.newMessages[m.ID]; ok {
			stored[m.ID] = storedMessage{ID: d.ID, ChatID: d.ChatID, Seq: d.Seq}
		}
		if d, ok := stored[m.ID]; ok {
			if d.ChatID != m.ChatID || uint64(d.Seq) != m.Seq {
				return fmt.Errorf("mongoread: insert messages: %w", projections.IDTaken(m, d.ChatID, uint64(d.Seq)))
			}
			continue
		}
		d := toMessageDoc(m)
		t.newMessages[m.ID] = &d
		t.newOrder = append(t.newOrder, m.ID)
	}
	return nil
}

func (t *tx) LookupMessage(ctx context.Context, messageID string) (string, uint64, bool, error) {
	if err := t.check(ctx); err != nil {
		return "", 0, false, fmt.Errorf("mongoread: look up message %s: %w", messageID, err)
	}
	if d, ok := t.newMessages[messageID]; ok {
		return d.ChatID, uint64(d.Seq), true, nil
	}
	m, found, err := t.s.message(ctx, messageID)
	return m.ChatID, m.Seq, found, err
}

// MarkRead returns the ids it changed in chat order.
func (t *tx) MarkRead(ctx context.Context, chatID, reader string, upTo uint64) ([]string, error) {
	unread, err := t.unread(ctx, chatID, reader, bound(upTo))
	if err != nil {
		return nil, fmt.Errorf("mongoread: mark read: %w", err)
	}
	ids := make([]string, len(unread))
	for i, m := range unread {
		ids[i] = m.ID
		if d, ok := t.newMessages[m.ID]; ok {
			d.Status = projections.StatusRead
		} else {
			t.readMarks[m.ID] = true
		}
	}
	return ids, nil
}

func (t *tx) CountUnread(ctx context.Context, chatID, reader string) (int, error) {
	unread, err := t.unread(ctx, chatID, reader, bound(1<<63))
	if err != nil {
		return 0, fmt.Errorf("mongoread: count unread: %w", err)
	}
	return len(unread), nil
}

// unreadMessage is what MarkRead needs of a message.
type unreadMessage struct {
	ID  string `bson:"_id"`
	Seq int64  `bson:"seq"`
}

// unread lists the Unread messages of chatID to reader up to upTo, as this
// batch sees them, in chat order.
func (t *tx) unread(ctx context.Context, chatID, reader string, upTo int64) ([]unreadMessage, error) {
	if err := t.check(ctx); err != nil {
		return nil, err
	}
	var stored []unreadMessage
	filter := bson.D{
		{Key: "chat", Value: chatID}, {Key: "to", Value: reader}, {Key: "status", Value: projections.StatusUnread},
		{Key: "seq", Value: bson.D{{Key: "$lte", Value: upTo}}},
	}
	if err := t.s.findAll(ctx, messagesColl, filter, nil, &stored); err != nil {
		return nil, err
	}
	out := slices.DeleteFunc(stored, func(m unreadMessage) bool {
		u, ok := t.updated[m.ID]
		return t.readMarks[m.ID] || ok && u.Status != projections.StatusUnread
	})
	for _, id := range t.newOrder {
		d := t.newMessages[id]
		if d.ChatID == chatID && d.To == reader && d.Status == projections.StatusUnread && d.Seq <= upTo {
			out = append(out, unreadMessage{ID: d.ID, Seq: d.Seq})
		}
	}
	slices.SortFunc(out, func(a, b unreadMessage) int {
		return cmp.Or(cmp.Compare(a.Seq, b.Seq), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// setIDs lists the ids of a set.
func setIDs(set map[string]bool) []string {
	ids := make([]string, 0, len(set))
	for id := range set {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
