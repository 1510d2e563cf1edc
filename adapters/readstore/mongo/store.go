package mongoread

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/projections"
)

// Store is the MongoDB read store. Update calls run one at a time; Queries
// run concurrently with them.
type Store struct {
	client *mongo.Client
	db     *mongo.Database
	mu     sync.Mutex // serializes Update, recovery and Close
	// unflushed is set while a committed batch may be only partly applied,
	// by this handle or by a previous holder of the lease: the next Update
	// applies the journal again first.
	unflushed bool
	closed    atomic.Bool
	// leaseOwner is whom this handle last took the projection lease for
	// ("" when it holds none): commits and recovery happen only while the
	// lease's holder is the same.
	leaseMu    sync.Mutex
	leaseOwner string
	// ferretDB is set when the server is FerretDB, which apply works around.
	ferretDB bool
}

var _ projections.ReadStore = (*Store)(nil)

var errClosed = errors.New("mongoread: store is closed")

// indexes are created at Open, by collection.
var indexes = map[string][]bson.D{
	messagesColl: {
		{{Key: "chat", Value: 1}, {Key: "seq", Value: 1}},
		{{Key: "chat", Value: 1}, {Key: "to", Value: 1}, {Key: "status", Value: 1}, {Key: "seq", Value: 1}},
	},
	sessionsColl: {
		{{Key: "member", Value: 1}, {Key: "top", Value: -1}, {Key: "topTime", Value: -1}, {Key: "lastMessageTime", Value: -1}},
		{{Key: "peer", Value: 1}},
	},
	membersColl: {
		{{Key: "tenant", Value: 1}, {Key: "account", Value: 1}},
		{{Key: "tenant", Value: 1}, {Key: "phone", Value: 1}},
	},
	appliesColl: {
		{{Key: "from", Value: 1}, {Key: "createdAt", Value: -1}},
		{{Key: "to", Value: 1}, {Key: "createdAt", Value: -1}},
	},
	friendsColl: {
		{{Key: "member", Value: 1}, {Key: "since", Value: 1}},
	},
	personalColl: {
		{{Key: "member", Value: 1}, {Key: "kind", Value: 1}, {Key: "at", Value: -1}, {Key: "itemId", Value: -1}},
	},
	noticesColl: {
		{{Key: "member", Value: 1}, {Key: "position", Value: -1}, {Key: "noticeId", Value: -1}},
		{{Key: "member", Value: 1}, {Key: "read", Value: 1}},
	},
	journalColl: {
		{{Key: "batch", Value: 1}},
	},
	mentionsColl: {
		{{Key: "member", Value: 1}, {Key: "at", Value: 1}},
		{{Key: "messageId", Value: 1}},
	},
	groupAppliesColl: {
		{{Key: "group", Value: 1}, {Key: "createdAt", Value: -1}},
	},
	groupMembersColl: {
		{{Key: "group", Value: 1}, {Key: "rank", Value: 1}, {Key: "joinedAt", Value: 1}},
		{{Key: "member", Value: 1}, {Key: "joinedAt", Value: 1}},
	},
}

// Open connects to the MongoDB server at uri and creates the indexes of the
// read models in database. A batch a crash left half applied is completed
// before the first Update, or when the lease is taken.
func Open(ctx context.Context, uri, database string) (*Store, error) {
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		return nil, fmt.Errorf("mongoread: connect: %w", err)
	}
	s := &Store{client: client, db: client.Database(database), unflushed: true}
	if err := s.init(ctx); err != nil {
		return nil, errors.Join(err, client.Disconnect(context.WithoutCancel(ctx)))
	}
	return s, nil
}

func (s *Store) init(ctx context.Context) error {
	if err := s.client.Ping(ctx, nil); err != nil {
		return fmt.Errorf("mongoread: ping: %w", err)
	}
	var info bson.M
	if err := s.db.RunCommand(ctx, bson.D{{Key: "buildInfo", Value: 1}}).Decode(&info); err != nil {
		return fmt.Errorf("mongoread: read server build info: %w", err)
	}
	_, s.ferretDB = info["ferretdbVersion"]
	for coll, keys := range indexes {
		if err := s.ensureIndexes(ctx, coll, keys); err != nil {
			return fmt.Errorf("mongoread: create indexes of %s: %w", coll, err)
		}
	}
	return nil
}

// ensureIndexes creates those of the indexes on keys that coll lacks.
// Asking for existing indexes again is harmless to MongoDB but crashes the
// connection to FerretDB 1.24 for some compound indexes.
func (s *Store) ensureIndexes(ctx context.Context, coll string, keys []bson.D) error {
	specs, err := s.db.Collection(coll).Indexes().ListSpecifications(ctx)
	if err != nil {
		return err
	}
	existing := map[string]bool{}
	for _, spec := range specs {
		existing[spec.Name] = true
	}
	var models []mongo.IndexModel
	for _, k := range keys {
		if name := indexName(k); !existing[name] {
			models = append(models, mongo.IndexModel{Keys: k, Options: options.Index().SetName(name)})
		}
	}
	if len(models) == 0 {
		return nil
	}
	_, err = s.db.Collection(coll).Indexes().CreateMany(ctx, models)
	return err
}

// indexName names an index as MongoDB does by default: field_1_other_-1.
func indexName(keys bson.D) string {
	parts := make([]string, 0, 2*len(keys))
	for _, k := range keys {
		parts = append(parts, k.Key, fmt.Sprint(k.Value))
	}
	return strings.Join(parts, "_")
}

// Close disconnects from the server. The store must not be used afterwards.
func (s *Store) Close(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed.Swap(true) {
		return nil
	}
	if err := s.client.Disconnect(ctx); err != nil {
		return fmt.Errorf("mongoread: close: %w", err)
	}
	return nil
}

// Update runs fn against a buffer of writes and commits them through the
// journal (see the package comment); when fn returns an error nothing is
// written and the error is returned as is. The Tx must not be used after
// fn returns nor by several goroutines.
func (s *Store) Update(ctx context.Context, fn func(tx projections.Tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed.Load() {
		return errClosed
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("mongoread: update: %w", err)
	}
	if s.unflushed {
		if err := s.recover(ctx); err != nil {
			return err
		}
	}
	t := newTx(s)
	defer func() { t.over = true }()
	if err := fn(t); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("mongoread: update: %w", err)
	}
	ops, err := t.ops()
	if err != nil {
		return err
	}
	return s.commit(ctx, ops)
}

// Checkpoints returns the committed position of every projector.
func (s *Store) Checkpoints(ctx context.Context) (map[string]uint64, error) {
	var docs []checkpointDoc
	if err := s.findAll(ctx, checkpointsColl, bson.D{}, nil, &docs); err != nil {
		return nil, fmt.Errorf("mongoread: read checkpoints: %w", err)
	}
	out := make(map[string]uint64, len(docs))
	for _, d := range docs {
		out[d.Projector] = uint64(d.Position)
	}
	return out, nil
}

// findAll decodes every document of coll matching filter into out.
func (s *Store) findAll(ctx context.Context, coll string, filter any, opts *options.FindOptionsBuilder, out any) error {
	if opts == nil {
		opts = options.Find()
	}
	cur, err := s.db.Collection(coll).Find(ctx, filter, opts)
	if err != nil {
		return err
	}
	return cur.All(ctx, out)
}

// findOne decodes the first document of coll matching filter into out.
func (s *Store) findOne(ctx context.Context, coll string, filter any, out any) (bool, error) {
	err := s.db.Collection(coll).FindOne(ctx, filter).Decode(out)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return false, nil
	}
	return err == nil, err
}

// DropDatabase deletes the store's database and every read model in it.
func (s *Store) DropDatabase(ctx context.Context) error {
	if err := s.db.Drop(ctx); err != nil {
		return fmt.Errorf("mongoread: drop database: %w", err)
	}
	return nil
}
