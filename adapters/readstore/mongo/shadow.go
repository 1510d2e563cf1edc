package mongoread

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/projections"
)

var _ projections.Shadowing = (*Store)(nil)

// movedFor is how long the lease of a generation a swap replaced stays with
// the marker movedOwner: past its drop, and, when a failed swap could not
// give it back, not so long that the projections stop for good.
const movedFor = time.Minute

// movedOwner holds the lease of a generation replaced by the database
// next: no node takes it or commits there any more.
func movedOwner(next string) string { return movedPrefix + next + ")" }

const movedPrefix = "(moved to "

// OpenShadow opens the database of the next generation for a rebuild to
// fold into: the one an interrupted rebuild left, to resume from its
// checkpoints, or a new one, with the indexes Open creates. A database
// that is not a shadow of the next generation of this store with the
// current documents' shape, or whose checkpoints do not read, is dropped and
// started afresh. The shadow shares the store's connection.
func (s *Store) OpenShadow(ctx context.Context) (projections.ReadStore, error) {
	if s.fixed {
		return nil, errors.New("mongoread: a shadow or a scratch store has no shadow")
	}
	if s.closed.Load() {
		return nil, errClosed
	}
	n := s.cur.Load().n + 1
	name, err := dbName(s.base, n)
	if err != nil {
		return nil, err
	}
	sh := s.fixedStore(name, n)
	err = sh.initShadow(ctx, n)
	if err == nil {
		return sh, nil
	}
	if ctx.Err() != nil {
		return nil, err
	}
	if err := sh.database().Drop(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: drop the unusable shadow %s: %w", name, err)
	}
	if err := sh.initShadow(ctx, n); err != nil {
		return nil, fmt.Errorf("mongoread: open the shadow %s: %w", name, err)
	}
	return sh, nil
}

// initShadow checks that sh is a shadow of generation n, or makes it one
// when its database is empty, and creates its indexes.
func (sh *Store) initShadow(ctx context.Context, n int64) error {
	var info infoDoc
	err := sh.coll(infoColl).FindOne(ctx, byID(infoShadow)).Decode(&info)
	switch {
	case errors.Is(err, mongo.ErrNoDocuments):
		colls, err := sh.database().ListCollectionNames(ctx, bson.D{})
		if err != nil {
			return fmt.Errorf("mongoread: list the collections of %s: %w", sh.database().Name(), err)
		}
		if len(colls) > 0 {
			return fmt.Errorf("mongoread: %s holds collections but is not marked a shadow", sh.database().Name())
		}
		info = infoDoc{ID: infoShadow, Base: sh.base, Generation: n, Schema: schemaVersion, CreatedAt: time.Now().UnixNano()}
		if err := writeInfo(ctx, sh, info); err != nil {
			return err
		}
	case err != nil:
		return fmt.Errorf("mongoread: read %s's shadow record: %w", sh.database().Name(), err)
	case info.Base != sh.base || info.Generation != n || info.Schema != schemaVersion:
		return fmt.Errorf("mongoread: %s is a shadow of generation %d of %q, schema %d: not of generation %d of %q, schema %d",
			sh.database().Name(), info.Generation, info.Base, info.Schema, n, sh.base, schemaVersion)
	}
	if err := sh.ensureAllIndexes(ctx); err != nil {
		return err
	}
	// Nobody holds a shadow's lease: a swap that failed half-way may have
	// written the live one in it. Its journal mark stays for recovery.
	_, err = sh.coll(leaseColl).UpdateOne(ctx, byID(leaseID),
		bson.D{{Key: "$set", Value: bson.D{{Key: "owner", Value: ""}, {Key: "until", Value: int64(0)}}}})
	if err != nil {
		return fmt.Errorf("mongoread: free the shadow's lease: %w", err)
	}
	if _, err := sh.Checkpoints(ctx); err != nil {
		return err
	}
	return nil
}

// CloseShadow closes a shadow, whose database stays for a rebuild to
// resume.
func (s *Store) CloseShadow(shadow projections.ReadStore) error {
	sh, ok := shadow.(*Store)
	if !ok || !sh.fixed || sh.client != s.client {
		return fmt.Errorf("mongoread: %T is not a shadow of %s", shadow, s.base)
	}
	return sh.Close(context.Background())
}

// SwapIn makes the shadow's database the store's, which closes the shadow.
// The caller keeps the projections from writing through this handle
// meanwhile (the rebuild pauses the live engine) and makes sure the shadow
// has folded what the store had. In order:
//
//  1. The shadow's last batch is completed if its flush failed, so that its
//     journal holds nothing.
//  2. The old generation's lease passes to the marker movedOwner, by one
//     update that matches only while this handle's owner holds it (or, for
//     a store without an election, while it is free): a node that is not
//     the lease holder, or lost the lease, gets ErrLeaseLost and nothing
//     changes. From here on no node commits into the old database.
//  3. The lease, its holder and its end, is written into the shadow: the
//     holder carries on in the new database, and the batch the old
//     database's journal may hold (one whose Update failed, so that the
//     engine has not counted it) is folded again from the new checkpoints.
//  4. The generation document names the new generation: one
//     single-document update, which matches only the generation served.
//  5. This handle serves the new database (queries take it from their next
//     call on; a query running on the old one finishes there) and the old
//     database is dropped dropGrace later, when every other handle has
//     refreshed.
//
// A failure before 4 gives the old lease back; a failure of 4 whose outcome
// is unknown is settled by reading the generation document again.
func (s *Store) SwapIn(ctx context.Context, shadow projections.ReadStore) error {
	sh, ok := shadow.(*Store)
	if !ok || !sh.fixed || s.fixed || sh.client != s.client || sh.base != s.base {
		return fmt.Errorf("mongoread: %T is not a shadow of %s", shadow, s.base)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.swapMu.Lock()
	defer s.swapMu.Unlock()
	if s.closed.Load() {
		return errClosed
	}
	old, next := s.cur.Load(), sh.cur.Load()
	if next.n != old.n+1 {
		return fmt.Errorf("mongoread: %s is not the shadow of generation %d", next.db.Name(), old.n)
	}
	sh.mu.Lock()
	var err error
	if sh.unflushed {
		err = sh.recover(ctx)
	}
	sh.mu.Unlock()
	if err != nil {
		return fmt.Errorf("mongoread: complete the shadow's last batch: %w", err)
	}
	lease, err := s.retireLease(ctx, old.db, next.db.Name())
	if err != nil {
		return err
	}
	giveBack := func(err error) error {
		c := context.WithoutCancel(ctx)
		_, berr := old.db.Collection(leaseColl).UpdateOne(c,
			bson.D{{Key: "_id", Value: leaseID}, {Key: "owner", Value: movedOwner(next.db.Name())}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "owner", Value: lease.Owner}, {Key: "until", Value: lease.Until}}}})
		_, ferr := next.db.Collection(leaseColl).UpdateOne(c, byID(leaseID),
			bson.D{{Key: "$set", Value: bson.D{{Key: "owner", Value: ""}, {Key: "until", Value: int64(0)}}}})
		return errors.Join(err, berr, ferr)
	}
	_, err = next.db.Collection(leaseColl).UpdateOne(ctx, byID(leaseID), bson.D{
		{Key: "$set", Value: bson.D{{Key: "owner", Value: lease.Owner}, {Key: "until", Value: lease.Until}}},
	}, options.UpdateOne().SetUpsert(true))
	if err != nil {
		return giveBack(fmt.Errorf("mongoread: carry the lease to the shadow: %w", err))
	}
	now := time.Now()
	_, err = s.client.Database(s.base).Collection(generationColl).UpdateOne(ctx,
		bson.D{{Key: "_id", Value: generationID}, {Key: "generation", Value: old.n}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "generation", Value: next.n}, {Key: "switchedAt", Value: now.UnixNano()}}}},
		options.UpdateOne().SetUpsert(true))
	if err != nil {
		err = fmt.Errorf("mongoread: switch the generation document to %d: %w", next.n, err)
		if d, rerr := s.readGeneration(context.WithoutCancel(ctx)); rerr != nil || d.N != next.n {
			return giveBack(errors.Join(err, rerr))
		}
	}
	s.cur.Store(&generation{n: next.n, db: next.db})
	s.unflushed, s.moved = false, false
	sh.closed.Store(true)
	if s.stop != nil {
		s.dropLater(s.bgCtx, next.n, dropGrace)
	}
	return nil
}

// retireLease passes the lease of old to the marker movedOwner(next) if
// this handle's owner holds it, and returns it as it was.
func (s *Store) retireLease(ctx context.Context, old *mongo.Database, next string) (leaseDoc, error) {
	leases := old.Collection(leaseColl)
	owner := s.owner()
	if owner == "" {
		// A store that has neither committed nor elected has no lease
		// document yet.
		_, err := leases.UpdateOne(ctx, byID(leaseID),
			bson.D{{Key: "$setOnInsert", Value: bson.D{{Key: "owner", Value: ""}, {Key: "until", Value: int64(0)}}}},
			options.UpdateOne().SetUpsert(true))
		if err != nil {
			return leaseDoc{}, fmt.Errorf("mongoread: read the lease: %w", err)
		}
	}
	var lease leaseDoc
	err := leases.FindOneAndUpdate(ctx,
		bson.D{{Key: "_id", Value: leaseID}, {Key: "owner", Value: owner}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "owner", Value: movedOwner(next)}, {Key: "until", Value: time.Now().Add(movedFor).UnixNano()}}}},
		options.FindOneAndUpdate().SetReturnDocument(options.Before)).Decode(&lease)
	if errors.Is(err, mongo.ErrNoDocuments) {
		var held leaseDoc
		if err := leases.FindOne(ctx, byID(leaseID)).Decode(&held); err != nil {
			return leaseDoc{}, fmt.Errorf("mongoread: read the lease: %w", err)
		}
		return leaseDoc{}, fmt.Errorf("%w: %s holds it, the swap needs its holder", projections.ErrLeaseLost, held.Owner)
	}
	if err != nil {
		return leaseDoc{}, fmt.Errorf("mongoread: pass the old generation's lease on: %w", err)
	}
	return lease, nil
}
