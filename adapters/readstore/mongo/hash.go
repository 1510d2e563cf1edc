package mongoread

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"maps"
	"math"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/projections"
)

// hashedModels are the read models Hash and CompareTenant cover, named as
// sqliteread names them. The checkpoints, the journal, the projection
// lease, the generation document and a shadow's or scratch store's record
// are left out: they tell how far and how a store has folded, not what it
// holds.
var hashedModels = []hashedModel{
	{name: "members", coll: membersColl, key: []keyField{{"id", "_id"}}},
	{name: "messages", coll: messagesColl, key: []keyField{{"id", "_id"}}},
	{name: "search", coll: searchColl, key: []keyField{{"id", "_id"}}},
	// A clear floor has no tenant: it belongs to the tenant of its member.
	{name: "clearFloors", coll: clearFloorsColl, key: []keyField{{"member", "member"}, {"chat_id", "chat"}}, byMember: true},
	{name: "mentions", coll: mentionsColl, key: []keyField{{"member", "member"}, {"message_id", "messageId"}}},
	{name: "groups", coll: groupsColl, key: []keyField{{"id", "_id"}}},
	{name: "groupMembers", coll: groupMembersColl, key: []keyField{{"group_id", "group"}, {"member", "member"}}},
	{name: "personal", coll: personalColl, key: []keyField{{"member", "member"}, {"kind", "kind"}, {"id", "itemId"}}},
	{name: "notices", coll: noticesColl, key: []keyField{{"member", "member"}, {"id", "noticeId"}}},
	{name: "sessions", coll: sessionsColl, key: []keyField{{"member", "member"}, {"peer", "peer"}}},
	{name: "applies", coll: appliesColl, key: []keyField{{"id", "_id"}}},
	{name: "groupApplies", coll: groupAppliesColl, key: []keyField{{"id", "_id"}}},
	{name: "friends", coll: friendsColl, key: []keyField{{"member", "member"}, {"friend_id", "friend"}}},
	{name: "authSessions", coll: authSessionsColl, key: []keyField{{"id", "_id"}}},
}

// hashedModel is one read model: its collection, the fields that name one
// of its documents in a difference, and whether its documents belong to a
// tenant through their member rather than a tenant field.
type hashedModel struct {
	name, coll string
	key        []keyField
	byMember   bool
}

// keyField is a field naming a document, with the label sqliteread gives
// the same column.
type keyField struct{ label, field string }

// Hash returns a SHA-256, in hex, of every document of each read model,
// keyed by model name: the documents in _id order, each in a canonical
// encoding (fields in name order, 32- and 64-bit integers alike), so that
// two stores holding the same documents hash alike whatever the order or
// the way they were written. It reads every document of the generation
// served, without pinning them: it is meant for checks and tests, on a
// store nobody writes meanwhile.
func (s *Store) Hash(ctx context.Context) (map[string]string, error) {
	return s.HashTenant(ctx, "")
}

// HashTenant is Hash of the documents of one tenant; "" hashes every one.
func (s *Store) HashTenant(ctx context.Context, tenant string) (map[string]string, error) {
	db := s.database()
	out := make(map[string]string, len(hashedModels))
	for _, m := range hashedModels {
		r, err := m.open(ctx, db, tenant)
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		for r.next(ctx) {
			h.Write(r.sum[:])
		}
		if err := r.close(ctx); err != nil {
			return nil, fmt.Errorf("mongoread: hash %s: %w", m.name, err)
		}
		out[m.name] = hex.EncodeToString(h.Sum(nil))
	}
	return out, nil
}

// open reads m's documents of tenant ("" for all) in db, in _id order.
func (m hashedModel) open(ctx context.Context, db *mongo.Database, tenant string) (*docReader, error) {
	filter := bson.D{}
	var members map[string]bool
	if tenant != "" && m.byMember {
		ids, err := tenantMembers(ctx, db, tenant)
		if err != nil {
			return nil, fmt.Errorf("mongoread: members of %s: %w", tenant, err)
		}
		members = ids
	} else if tenant != "" {
		filter = bson.D{{Key: "tenant", Value: tenant}}
	}
	cur, err := db.Collection(m.coll).Find(ctx, filter, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("mongoread: read %s: %w", m.name, err)
	}
	return &docReader{cur: cur, members: members, h: sha256.New()}, nil
}

// tenantMembers are the ids of tenant's members in db.
func tenantMembers(ctx context.Context, db *mongo.Database, tenant string) (map[string]bool, error) {
	cur, err := db.Collection(membersColl).Find(ctx, bson.D{{Key: "tenant", Value: tenant}},
		options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, err
	}
	var docs []struct {
		ID string `bson:"_id"`
	}
	if err := cur.All(ctx, &docs); err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(docs))
	for _, d := range docs {
		out[d.ID] = true
	}
	return out, nil
}

// docReader reads the id, the hash of the canonical encoding and the
// document itself of each document of a cursor.
type docReader struct {
	cur *mongo.Cursor
	// members, when set, keeps the documents whose member is among them.
	members map[string]bool
	id      string
	doc     bson.Raw
	sum     [sha256.Size]byte
	h       hash.Hash
	err     error
}

func (r *docReader) next(ctx context.Context) bool {
	for r.err == nil && r.cur.Next(ctx) {
		doc := r.cur.Current
		if r.members != nil {
			member, _ := doc.Lookup("member").StringValueOK()
			if !r.members[member] {
				continue
			}
		}
		id := doc.Lookup("_id")
		var ok bool
		if r.id, ok = id.StringValueOK(); !ok {
			r.id = id.String()
		}
		r.doc = slices.Clone(doc)
		r.h.Reset()
		if r.err = canonDoc(r.h, doc); r.err != nil {
			return false
		}
		r.h.Sum(r.sum[:0])
		return true
	}
	return false
}

func (r *docReader) close(ctx context.Context) error {
	return errors.Join(r.err, r.cur.Err(), r.cur.Close(ctx))
}

// canonDoc writes the canonical encoding of a document: its fields in
// name order, each value with its kind and, for strings and raw values,
// its length, so that no two different documents encode alike.
func canonDoc(h hash.Hash, doc bson.Raw) error {
	elems, err := doc.Elements()
	if err != nil {
		return err
	}
	slices.SortFunc(elems, func(a, b bson.RawElement) int { return strings.Compare(a.Key(), b.Key()) })
	writeTag(h, 'd', uint64(len(elems)))
	for _, e := range elems {
		writeString(h, e.Key())
		if err := canonValue(h, e.Value()); err != nil {
			return err
		}
	}
	return nil
}

func canonValue(h hash.Hash, v bson.RawValue) error {
	switch v.Type {
	case bson.TypeEmbeddedDocument:
		return canonDoc(h, v.Document())
	case bson.TypeArray:
		vals, err := v.Array().Values()
		if err != nil {
			return err
		}
		writeTag(h, 'a', uint64(len(vals)))
		for _, x := range vals {
			if err := canonValue(h, x); err != nil {
				return err
			}
		}
	case bson.TypeString:
		writeString(h, v.StringValue())
	case bson.TypeInt32:
		writeTag(h, 'i', uint64(int64(v.Int32())))
	case bson.TypeInt64:
		writeTag(h, 'i', uint64(v.Int64()))
	case bson.TypeDouble:
		writeTag(h, 'f', math.Float64bits(v.Double()))
	case bson.TypeBoolean:
		b := uint64(0)
		if v.Boolean() {
			b = 1
		}
		writeTag(h, 'b', b)
	case bson.TypeNull:
		writeTag(h, 'n', 0)
	default:
		writeTag(h, byte(v.Type), uint64(len(v.Value)))
		h.Write(v.Value)
	}
	return nil
}

func writeTag(h hash.Hash, tag byte, n uint64) {
	var b [9]byte
	b[0] = tag
	binary.BigEndian.PutUint64(b[1:], n)
	h.Write(b[:])
}

func writeString(h hash.Hash, s string) {
	writeTag(h, 't', uint64(len(s)))
	_, _ = strings.NewReader(s).WriteTo(h)
}

var _ projections.Snapshots = (*Store)(nil)

// snapshot is what a store held when it was taken (see Snapshot).
type snapshot struct {
	s           *Store
	db          *mongo.Database
	owner       string
	checkpoints map[string]uint64
	closed      bool
}

// Snapshot pins what the store holds now, checkpoints included, until the
// snapshot is closed.
//
// MongoDB pins a read only in a transaction, which needs a replica set
// (which neither a single server nor FerretDB has). The snapshot holds the
// handle's update lock instead, from Snapshot to Close: the engine folding
// through this handle waits between two batches, and the read models stay
// as they were at the snapshot's checkpoints while the rows are compared.
// That pins them only if this handle is the one writing: Snapshot refuses
// (ErrLeaseLost, naming the holder) when another owner holds the
// projection lease, and first applies a batch its own journal left half
// done. CompareTenant then checks that the lease's holder, its journal
// mark and the checkpoints are as they were, so that a comparison that
// raced a change of holder fails instead of telling a false difference.
// The live engine waits for the tenant's comparison: a verify costs the
// members of every tenant that delay in their deltas.
func (s *Store) Snapshot(ctx context.Context) (projections.Snapshot, error) {
	s.mu.Lock()
	pinned := false
	defer func() {
		if !pinned {
			s.mu.Unlock()
		}
	}()
	if s.closed.Load() {
		return nil, errClosed
	}
	db := s.database()
	var lease leaseDoc
	found, err := s.findOne(ctx, leaseColl, byID(leaseID), &lease)
	if err != nil {
		return nil, fmt.Errorf("mongoread: snapshot: read the lease: %w", err)
	}
	if found && lease.Owner != s.owner() {
		return nil, fmt.Errorf("%w: %s holds it, and a snapshot of the store is taken on the holder", projections.ErrLeaseLost, lease.Owner)
	}
	if s.unflushed || lease.Batch != "" {
		if err := s.recover(ctx); err != nil {
			return nil, err
		}
	}
	checkpoints, err := checkpointsOf(ctx, db)
	if err != nil {
		return nil, err
	}
	pinned = true
	return &snapshot{s: s, db: db, owner: lease.Owner, checkpoints: checkpoints}, nil
}

// Checkpoints are the projectors' checkpoints in the snapshot.
func (sn *snapshot) Checkpoints() map[string]uint64 { return sn.checkpoints }

// Close lets the store's Updates go on.
func (sn *snapshot) Close() error {
	if !sn.closed {
		sn.closed = true
		sn.s.mu.Unlock()
	}
	return nil
}

// still fails when the lease, its journal mark or the checkpoints of the
// snapshot's database changed since it was taken.
func (sn *snapshot) still(ctx context.Context) error {
	var lease leaseDoc
	if err := sn.db.Collection(leaseColl).FindOne(ctx, byID(leaseID)).Decode(&lease); err != nil && !errors.Is(err, mongo.ErrNoDocuments) {
		return fmt.Errorf("mongoread: read the lease: %w", err)
	}
	cur, err := checkpointsOf(ctx, sn.db)
	if err != nil {
		return err
	}
	if lease.Owner != sn.owner || lease.Batch != "" || !maps.Equal(cur, sn.checkpoints) {
		return fmt.Errorf("mongoread: %s changed while it was compared (the lease is %q's): compare again", sn.db.Name(), lease.Owner)
	}
	return nil
}

// CompareTenant compares tenant's documents of every read model in the
// two snapshots, in _id order: a model differs at the first document that
// is in one only or differs between them, named by its key fields.
func (sn *snapshot) CompareTenant(ctx context.Context, other projections.Snapshot, tenant string) ([]projections.ModelComparison, error) {
	o, ok := other.(*snapshot)
	if !ok {
		return nil, fmt.Errorf("mongoread: cannot compare with a %T", other)
	}
	out := make([]projections.ModelComparison, 0, len(hashedModels))
	for _, m := range hashedModels {
		first, err := m.firstDifference(ctx, sn.db, o.db, tenant)
		if err != nil {
			return nil, fmt.Errorf("mongoread: compare %s: %w", m.name, err)
		}
		out = append(out, projections.ModelComparison{Name: m.name, Equal: first == "", FirstDifference: first})
	}
	if err := errors.Join(sn.still(ctx), o.still(ctx)); err != nil {
		return nil, err
	}
	return out, nil
}

// firstDifference steps through m's documents of tenant in a and b
// together and names the first at which they differ, "" when none does.
// Both are read in _id order, MongoDB's binary order of strings, which is
// Go's.
func (m hashedModel) firstDifference(ctx context.Context, a, b *mongo.Database, tenant string) (string, error) {
	ra, err := m.open(ctx, a, tenant)
	if err != nil {
		return "", err
	}
	rb, err := m.open(ctx, b, tenant)
	if err != nil {
		return "", errors.Join(err, ra.close(ctx))
	}
	okA, okB := ra.next(ctx), rb.next(ctx)
	first := ""
	for (okA || okB) && first == "" {
		switch {
		case !okB || okA && ra.id < rb.id:
			first = m.keyText(ra.doc)
		case !okA || rb.id < ra.id:
			first = m.keyText(rb.doc)
		case ra.sum != rb.sum:
			first = m.keyText(ra.doc)
		default:
			okA, okB = ra.next(ctx), rb.next(ctx)
		}
	}
	return first, errors.Join(ra.close(ctx), rb.close(ctx), ctx.Err())
}

// keyText names doc by m's key fields: "label=value, ...".
func (m hashedModel) keyText(doc bson.Raw) string {
	parts := make([]string, len(m.key))
	for i, k := range m.key {
		v := doc.Lookup(k.field)
		s, ok := v.StringValueOK()
		if !ok {
			s = v.String()
		}
		parts[i] = k.label + "=" + s
	}
	return strings.Join(parts, ", ")
}
