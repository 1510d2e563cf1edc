package mongoread

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/projections"
)

// Store is the MongoDB read store. Update calls run one at a time; Queries
// run concurrently with them.
//
// A live store follows the generation document (see generation.go): its
// read models are in the database of the current generation, which a
// rebuild replaces; a shadow or a scratch store stays on its one database.
type Store struct {
	client *mongo.Client
	// ownsClient is set on the handle Open made: Close disconnects it. A
	// shadow or a scratch store shares its live store's client.
	ownsClient bool
	// base names the store: the first generation's database, which holds
	// the generation document.
	base string
	// fixed is set on a shadow or a scratch store: it stays on its
	// database and has no generations.
	fixed bool
	// cur is the generation served, read by every query and Update: a
	// swap or a refresh replaces it at once.
	cur atomic.Pointer[generation]
	mu  sync.Mutex // serializes Update, recovery, switches and Close
	// unflushed is set while a committed batch may be only partly applied,
	// by this handle or by a previous holder of the lease: the next Update
	// applies the journal again first.
	unflushed bool
	// moved is set when a refresh switched this handle to a generation
	// another handle swapped in: the next Update refuses with ErrLeaseLost,
	// so that the engine writing through it reloads its checkpoints from
	// the new database instead of carrying on from its own.
	moved  bool
	closed atomic.Bool
	// swapMu is held by a switch of generation while it moves the lease,
	// and by lease calls for reading, so that they act on one database.
	// A switch takes it after mu; a lease call holds it alone, so that a
	// renewal never waits for an Update or a snapshot.
	swapMu sync.RWMutex
	// leaseOwner is whom this handle last took the projection lease for
	// ("" when it holds none): commits and recovery happen only while the
	// lease's holder is the same.
	leaseMu    sync.Mutex
	leaseOwner string
	// writesEnd is when this handle stops writing for the lease (see
	// fenced).
	writesEnd time.Time
	// ferretDB is set when the server is FerretDB, which apply works around.
	ferretDB bool
	// countersSwept is when this handle last deleted ended counters
	// (Unix ns), on FerretDB.
	countersSwept atomic.Int64

	// stop ends the background work (the generation refresh, pending
	// drops of old generations), which bg counts.
	bgCtx context.Context
	stop  context.CancelFunc
	bg    sync.WaitGroup
}

// generation is a generation of the read models and its database.
type generation struct {
	n  int64
	db *mongo.Database
}

var _ projections.ReadStore = (*Store)(nil)

var errClosed = errors.New("mongoread: store is closed")

// indexes are created at Open, by collection.
var indexes = map[string][]bson.D{
	messagesColl: {
		{{Key: "chat", Value: 1}, {Key: "seq", Value: 1}},
		{{Key: "chat", Value: 1}, {Key: "to", Value: 1}, {Key: "status", Value: 1}, {Key: "seq", Value: 1}},
	},
	searchColl: {
		{{Key: "grams", Value: 1}},
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

// Open connects to the MongoDB server at uri and serves the read models
// of the store named database: the database of its current generation (the
// database itself until a rebuild, see generation.go), whose indexes it
// creates. A batch a crash left half applied is completed before the first
// Update, or when the lease is taken. Generations older than the current
// one that a crash left are dropped, and the handle follows the generation
// document until Close.
func Open(ctx context.Context, uri, database string) (*Store, error) {
	if err := checkBase(database); err != nil {
		return nil, err
	}
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		return nil, fmt.Errorf("mongoread: connect: %w", err)
	}
	s := &Store{client: client, ownsClient: true, base: database, unflushed: true}
	if err := s.open(ctx); err != nil {
		return nil, errors.Join(err, client.Disconnect(context.WithoutCancel(ctx)))
	}
	return s, nil
}

func (s *Store) open(ctx context.Context) error {
	if err := s.client.Ping(ctx, nil); err != nil {
		return fmt.Errorf("mongoread: ping: %w", err)
	}
	var info bson.M
	if err := s.client.Database(s.base).RunCommand(ctx, bson.D{{Key: "buildInfo", Value: 1}}).Decode(&info); err != nil {
		return fmt.Errorf("mongoread: read server build info: %w", err)
	}
	_, s.ferretDB = info["ferretdbVersion"]
	cur, err := s.readGeneration(ctx)
	if err != nil {
		return err
	}
	db, err := s.generationDB(cur.N)
	if err != nil {
		return err
	}
	s.cur.Store(&generation{n: cur.N, db: db})
	if err := s.ensureAllIndexes(ctx); err != nil {
		return err
	}
	if err := s.ensureCounters(ctx); err != nil {
		return err
	}
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.bgCtx, s.stop = bg, stop
	if err := s.dropLeftovers(ctx, bg, cur); err != nil {
		stop()
		return err
	}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		s.follow(bg)
	}()
	return nil
}

// ensureAllIndexes creates the indexes the current database lacks.
func (s *Store) ensureAllIndexes(ctx context.Context) error {
	for coll, keys := range indexes {
		if err := s.ensureIndexes(ctx, coll, keys); err != nil {
			return fmt.Errorf("mongoread: create indexes of %s: %w", coll, err)
		}
	}
	return nil
}

// database is the database of the generation served.
func (s *Store) database() *mongo.Database { return s.cur.Load().db }

// coll is the collection name of the generation served.
func (s *Store) coll(name string) *mongo.Collection { return s.database().Collection(name) }

// ensureIndexes creates those of the indexes on keys that coll lacks.
// Asking for existing indexes again is harmless to MongoDB but crashes the
// connection to FerretDB 1.24 for some compound indexes.
func (s *Store) ensureIndexes(ctx context.Context, coll string, keys []bson.D) error {
	specs, err := s.coll(coll).Indexes().ListSpecifications(ctx)
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
	_, err = s.coll(coll).Indexes().CreateMany(ctx, models)
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

// Close stops following the generation document and disconnects from the
// server (a shadow or a scratch store leaves the connection to its live
// store). The store must not be used afterwards.
func (s *Store) Close(ctx context.Context) error {
	// Closed under mu: a swap, which starts background work, sees it.
	s.mu.Lock()
	already := s.closed.Swap(true)
	s.mu.Unlock()
	if already {
		return nil
	}
	if s.stop != nil {
		s.stop()
	}
	s.bg.Wait()
	if !s.ownsClient {
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
	if s.moved {
		s.moved = false
		return projections.ErrLeaseLost
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

// Checkpoints returns the committed position of every projector. On the
// lease's holder, a batch left half applied (its writes cut short by a
// lost connection or the end of the lease, the lease then taken again)
// is applied first: an engine carrying on from checkpoints without it
// would fold its events again over its writes. A handle that lost the
// lease leaves the batch to the holder.
func (s *Store) Checkpoints(ctx context.Context) (map[string]uint64, error) {
	if s.owner() != "" {
		s.mu.Lock()
		var err error
		if s.unflushed && !s.closed.Load() {
			err = s.recover(ctx)
		}
		s.mu.Unlock()
		if err != nil && !errors.Is(err, projections.ErrLeaseLost) {
			return nil, err
		}
	}
	return checkpointsOf(ctx, s.database())
}

// checkpointsOf reads the checkpoints of db.
func checkpointsOf(ctx context.Context, db *mongo.Database) (map[string]uint64, error) {
	var docs []checkpointDoc
	cur, err := db.Collection(checkpointsColl).Find(ctx, bson.D{})
	if err == nil {
		err = cur.All(ctx, &docs)
	}
	if err != nil {
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
	cur, err := s.coll(coll).Find(ctx, filter, opts)
	if err != nil {
		return err
	}
	return cur.All(ctx, out)
}

// findOne decodes the first document of coll matching filter into out.
func (s *Store) findOne(ctx context.Context, coll string, filter any, out any) (bool, error) {
	err := s.coll(coll).FindOne(ctx, filter).Decode(out)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return false, nil
	}
	return err == nil, err
}

// DropDatabase deletes every database of the store: each generation, the
// generation document, a rebuild's shadow and verifies' scratch stores (a
// shadow or a scratch store drops its own database only).
func (s *Store) DropDatabase(ctx context.Context) error {
	if s.fixed {
		if err := s.database().Drop(ctx); err != nil {
			return fmt.Errorf("mongoread: drop database: %w", err)
		}
		return nil
	}
	names, err := s.client.ListDatabaseNames(ctx, bson.D{{Key: "name", Value: bson.D{{Key: "$regex", Value: ownRegex(s.base)}}}})
	if err != nil {
		return fmt.Errorf("mongoread: list databases: %w", err)
	}
	for _, name := range names {
		if err := s.client.Database(name).Drop(ctx); err != nil {
			return fmt.Errorf("mongoread: drop database %s: %w", name, err)
		}
	}
	return nil
}
