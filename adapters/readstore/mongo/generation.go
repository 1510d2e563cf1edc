package mongoread

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// Generations. A rebuild folds every read model into a new database and
// then serves it instead of the old one; several collections cannot be
// renamed together atomically, so the store is named by a generation
// document instead. The read models of generation 1 live in the database
// named base (the name given to Open), those of generation n > 1 in
// base_g<n>. The document { _id: "current", generation: n, switchedAt }
// in base's collection "generation" names the generation served (1 while
// it is absent); it stays when base's read models are dropped.
//
// Every live handle reads the document every refreshEvery and, when it
// names another generation, switches to it: queries take the database of
// the generation at their start, and a switch only replaces a pointer. The
// old generation's database is dropped dropGrace after the switch, longer
// than a refresh, so that no handle still reads it; Open drops the old
// generations a crash left, once their grace has passed.
const (
	generationColl = "generation"
	generationID   = "current"
	// infoColl holds, in a shadow or a scratch store, what it is.
	infoColl = "store_info"
	// generationSuffix and scratchSuffix join base to the number of a
	// generation and to the id of a scratch store.
	generationSuffix = "_g"
	scratchSuffix    = "_verify_"
	// maxDBName is MongoDB's limit on a database name, in bytes.
	maxDBName = 63
	// maxBase leaves room in a database name for the suffixes: 8 bytes of
	// scratchSuffix and an id of 16.
	maxBase = maxDBName - len(scratchSuffix) - 16
	// scratchMaxAge is the age past which Open drops a scratch store a
	// stopped verify left.
	scratchMaxAge = 24 * time.Hour
)

// How often a handle reads the generation document, and how long an old
// generation's database stays after the switch. Variables for the tests.
var (
	refreshEvery = time.Second
	dropGrace    = 5 * time.Second
)

// genDoc is the generation document.
type genDoc struct {
	ID string `bson:"_id"`
	N  int64  `bson:"generation"`
	// SwitchedAt is when the generation was switched, in Unix nanoseconds.
	SwitchedAt int64 `bson:"switchedAt"`
}

// checkBase refuses a name that is no MongoDB database name or leaves no
// room for the suffixes of generations and scratch stores.
func checkBase(base string) error {
	switch {
	case base == "":
		return errors.New("mongoread: the database name is empty")
	case len(base) > maxBase:
		return fmt.Errorf("mongoread: the database name %q is longer than %d bytes, which leaves no room for %s<generation> and %s<id> within MongoDB's %d",
			base, maxBase, generationSuffix, scratchSuffix, maxDBName)
	case strings.ContainsAny(base, "/\\. \"$*<>:|?\x00"):
		return fmt.Errorf("mongoread: the database name %q holds a character MongoDB refuses (/\\. \"$*<>:|? or NUL)", base)
	}
	return nil
}

// dbName is the database of generation n.
func dbName(base string, n int64) (string, error) {
	if n < 1 {
		return "", fmt.Errorf("mongoread: no generation %d", n)
	}
	name := base
	if n > 1 {
		name = base + generationSuffix + strconv.FormatInt(n, 10)
	}
	if len(name) > maxDBName {
		return "", fmt.Errorf("mongoread: the database name %q is longer than %d bytes", name, maxDBName)
	}
	return name, nil
}

// generationDB is the database of generation n.
func (s *Store) generationDB(n int64) (*mongo.Database, error) {
	name, err := dbName(s.base, n)
	if err != nil {
		return nil, err
	}
	return s.client.Database(name), nil
}

// ownRegex matches the names of the databases of the store base: its
// generations and scratch stores.
func ownRegex(base string) string {
	q := regexp.QuoteMeta(base)
	return "^" + q + "(" + generationSuffix + "[0-9]+|" + scratchSuffix + "[0-9a-z]+)?$"
}

// generations matches the names of the databases of generations above 1.
func generations(base string) *regexp.Regexp {
	return regexp.MustCompile("^" + regexp.QuoteMeta(base) + generationSuffix + "([0-9]+)$")
}

// readGeneration reads the generation document: generation 1 when there is
// none.
func (s *Store) readGeneration(ctx context.Context) (genDoc, error) {
	d := genDoc{N: 1}
	err := s.client.Database(s.base).Collection(generationColl).FindOne(ctx, byID(generationID)).Decode(&d)
	switch {
	case errors.Is(err, mongo.ErrNoDocuments):
		return genDoc{N: 1}, nil
	case err != nil:
		return genDoc{}, fmt.Errorf("mongoread: read the generation document: %w", err)
	case d.N < 1:
		return genDoc{}, fmt.Errorf("mongoread: the generation document names generation %d", d.N)
	}
	return d, nil
}

// Generation is the generation this handle serves and the name of its
// database.
func (s *Store) Generation() (int64, string) {
	g := s.cur.Load()
	return g.n, g.db.Name()
}

// follow refreshes the generation until ctx ends; a failed read is tried
// again at the next tick.
func (s *Store) follow(ctx context.Context) {
	t := time.NewTicker(refreshEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		_ = s.refresh(ctx)
	}
}

// refresh reads the generation document and switches to the generation it
// names when that is not the one served.
func (s *Store) refresh(ctx context.Context) error {
	if s.fixed {
		return nil
	}
	d, err := s.readGeneration(ctx)
	if err != nil {
		return err
	}
	if d.N == s.cur.Load().n {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Read again under the lock: a swap through this handle may have
	// switched the document since, and what was read is then stale.
	if d, err = s.readGeneration(ctx); err != nil {
		return err
	}
	if s.closed.Load() || s.cur.Load().n == d.N {
		return nil
	}
	db, err := s.generationDB(d.N)
	if err != nil {
		return err
	}
	s.swapMu.Lock()
	defer s.swapMu.Unlock()
	s.cur.Store(&generation{n: d.N, db: db})
	// The new database's journal is its lease holder's; an engine writing
	// through this handle starts again from the new checkpoints.
	s.moved, s.unflushed = true, true
	return nil
}

// dropLeftovers drops the generations older than cur that a crash left (at
// once when cur's grace has passed, else in the background once it has)
// and the scratch stores older than scratchMaxAge.
func (s *Store) dropLeftovers(ctx, bg context.Context, cur genDoc) error {
	if err := s.dropOldScratches(ctx); err != nil {
		return err
	}
	if cur.N == 1 {
		return nil
	}
	wait := time.Until(time.Unix(0, cur.SwitchedAt).Add(dropGrace))
	if wait > 0 {
		s.dropLater(bg, cur.N, wait)
		return nil
	}
	return s.dropOlder(ctx, cur.N)
}

// dropLater drops the generations older than n after wait, unless the
// store is closed first (Open drops them then).
func (s *Store) dropLater(bg context.Context, n int64, wait time.Duration) {
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-bg.Done():
			return
		case <-t.C:
		}
		_ = s.dropOlder(bg, n)
	}()
}

// BlobBucket names the GridFS bucket of uploaded files in the base
// database: the files outlive every generation, which is rebuilt from the
// log while they are not.
const BlobBucket = "blobs"

// dropOlder drops the databases of the generations older than n: base_g<k>
// for 1 < k < n, and base's read models, whose database keeps the
// generation document, the nodes' claims, the rate limits' counters, the
// members' data keys and the uploaded files.
func (s *Store) dropOlder(ctx context.Context, n int64) error {
	names, err := s.client.ListDatabaseNames(ctx, bson.D{{Key: "name", Value: bson.D{{Key: "$regex", Value: generations(s.base).String()}}}})
	if err != nil {
		return fmt.Errorf("mongoread: list databases: %w", err)
	}
	for _, name := range names {
		m := generations(s.base).FindStringSubmatch(name)
		if m == nil {
			continue
		}
		if k, err := strconv.ParseInt(m[1], 10, 64); err != nil || k >= n {
			continue
		}
		if err := s.client.Database(name).Drop(ctx); err != nil {
			return fmt.Errorf("mongoread: drop the old generation %s: %w", name, err)
		}
	}
	base := s.client.Database(s.base)
	colls, err := base.ListCollectionNames(ctx, bson.D{})
	if err != nil {
		return fmt.Errorf("mongoread: list the collections of %s: %w", s.base, err)
	}
	for _, c := range colls {
		if c == generationColl || c == claimsColl || c == countersColl || c == keysColl || strings.HasPrefix(c, BlobBucket+".") {
			continue
		}
		if err := base.Collection(c).Drop(ctx); err != nil {
			return fmt.Errorf("mongoread: drop the old generation's %s.%s: %w", s.base, c, err)
		}
	}
	return nil
}

// infoDoc tells what a shadow or a scratch store is.
type infoDoc struct {
	ID         string `bson:"_id"` // infoShadow or infoScratch
	Base       string `bson:"base"`
	Generation int64  `bson:"generation,omitempty"`
	Schema     int    `bson:"schema"`
	CreatedAt  int64  `bson:"createdAt"`
}

const (
	infoShadow  = "shadow"
	infoScratch = "scratch"
	// schemaVersion is the shape of the documents: a shadow of another
	// version is started afresh. Version 2: the sessions' last sender,
	// file name and forward origin (projector chats.v2); version 3 the
	// group read positions (chats.v3).
	schemaVersion = 3
)

// dropOldScratches drops the scratch stores created more than
// scratchMaxAge ago: a verify stopped with its server left them. Younger
// ones may be a running verify's, on this node or another.
func (s *Store) dropOldScratches(ctx context.Context) error {
	prefix := "^" + regexp.QuoteMeta(s.base+scratchSuffix)
	names, err := s.client.ListDatabaseNames(ctx, bson.D{{Key: "name", Value: bson.D{{Key: "$regex", Value: prefix}}}})
	if err != nil {
		return fmt.Errorf("mongoread: list databases: %w", err)
	}
	for _, name := range names {
		var info infoDoc
		err := s.client.Database(name).Collection(infoColl).FindOne(ctx, byID(infoScratch)).Decode(&info)
		if err != nil && !errors.Is(err, mongo.ErrNoDocuments) {
			return fmt.Errorf("mongoread: read %s: %w", name, err)
		}
		if err != nil || time.Since(time.Unix(0, info.CreatedAt)) < scratchMaxAge {
			continue
		}
		if err := s.client.Database(name).Drop(ctx); err != nil {
			return fmt.Errorf("mongoread: drop the old scratch store %s: %w", name, err)
		}
	}
	return nil
}

// fixedStore is a handle on database name sharing s's connection, for a
// shadow (of generation n) or a scratch store (n = 0).
func (s *Store) fixedStore(name string, n int64) *Store {
	sh := &Store{client: s.client, base: s.base, fixed: true, unflushed: true, ferretDB: s.ferretDB}
	sh.cur.Store(&generation{n: n, db: s.client.Database(name)})
	return sh
}

// writeInfo records what the fixed store sh is, unless it says so already.
func writeInfo(ctx context.Context, sh *Store, info infoDoc) error {
	fields := bson.D{{Key: "base", Value: info.Base}, {Key: "schema", Value: info.Schema}, {Key: "createdAt", Value: info.CreatedAt}}
	if info.Generation != 0 {
		fields = append(fields, bson.E{Key: "generation", Value: info.Generation})
	}
	_, err := sh.coll(infoColl).UpdateOne(ctx, byID(info.ID), bson.D{{Key: "$setOnInsert", Value: fields}},
		options.UpdateOne().SetUpsert(true))
	if err != nil {
		return fmt.Errorf("mongoread: write %s's %s: %w", sh.database().Name(), info.ID, err)
	}
	return nil
}
