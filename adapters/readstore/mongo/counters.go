package mongoread

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// countersColl holds the rate limits' counters in the base database, which
// a rebuild leaves alone: one document per key, for its window. A TTL index
// deletes a document a minute after its window ends (counterLinger), which
// covers clocks of the nodes and the server differing by less than that.
// FerretDB has no TTL indexes: there each handle deletes the ended windows
// once a minute (sweepEvery), on the way.
const countersColl = "rate_counters"

const (
	counterLinger = time.Minute
	sweepEvery    = time.Minute
)

type counterDoc struct {
	N int64 `bson:"n"`
}

// ensureCounters creates the counters' TTL index unless it exists.
func (s *Store) ensureCounters(ctx context.Context) error {
	if s.ferretDB {
		return nil
	}
	counters := s.client.Database(s.base).Collection(countersColl)
	specs, err := counters.Indexes().ListSpecifications(ctx)
	if err != nil {
		return fmt.Errorf("mongoread: list the counters' indexes: %w", err)
	}
	for _, spec := range specs {
		if spec.Name == "expires_1" {
			return nil
		}
	}
	_, err = counters.Indexes().CreateOne(ctx, mongo.IndexModel{
		Keys:    bson.D{{Key: "expires", Value: 1}},
		Options: options.Index().SetName("expires_1").SetExpireAfterSeconds(0),
	})
	if err != nil {
		return fmt.Errorf("mongoread: index the counters: %w", err)
	}
	return nil
}

// Add counts one event of key at now and returns the events of its
// window, which opens for d unless one is open at now. The count is one
// atomic update of the open window; opening a window takes a second,
// conditional on the old one having ended, and a node that loses the race
// to open it counts in the window the winner opened.
func (s *Store) Add(ctx context.Context, key string, now time.Time, d time.Duration) (int64, error) {
	if s.closed.Load() {
		return 0, errClosed
	}
	counters := s.client.Database(s.base).Collection(countersColl)
	if err := s.sweepCounters(ctx, counters, now); err != nil {
		return 0, err
	}
	after := options.FindOneAndUpdate().SetReturnDocument(options.After)
	until := now.Add(d)
	for range 3 {
		var c counterDoc
		err := counters.FindOneAndUpdate(ctx, openAt(key, now), bson.D{{Key: "$inc", Value: bson.D{{Key: "n", Value: int64(1)}}}}, after).Decode(&c)
		if !errors.Is(err, mongo.ErrNoDocuments) {
			if err != nil {
				return 0, fmt.Errorf("mongoread: count %s: %w", key, err)
			}
			return c.N, nil
		}
		ended := bson.D{{Key: "_id", Value: key}, {Key: "until", Value: bson.D{{Key: "$lte", Value: now.UnixNano()}}}}
		open := bson.D{{Key: "$set", Value: bson.D{
			{Key: "n", Value: int64(1)}, {Key: "until", Value: until.UnixNano()}, {Key: "expires", Value: until.Add(counterLinger)},
		}}}
		_, err = counters.UpdateOne(ctx, ended, open, options.UpdateOne().SetUpsert(true))
		if err == nil {
			return 1, nil
		}
		if !mongo.IsDuplicateKeyError(err) {
			return 0, fmt.Errorf("mongoread: open a window of %s: %w", key, err)
		}
		// Another node opened the window meanwhile.
	}
	return 0, fmt.Errorf("mongoread: count %s: the window kept changing", key)
}

// sweepCounters deletes the windows ended a minute before now, on FerretDB
// once a minute.
func (s *Store) sweepCounters(ctx context.Context, counters *mongo.Collection, now time.Time) error {
	if !s.ferretDB {
		return nil
	}
	last := s.countersSwept.Load()
	if now.UnixNano()-last < int64(sweepEvery) || !s.countersSwept.CompareAndSwap(last, now.UnixNano()) {
		return nil
	}
	_, err := counters.DeleteMany(ctx, bson.D{{Key: "expires", Value: bson.D{{Key: "$lte", Value: now}}}})
	if err != nil {
		return fmt.Errorf("mongoread: delete ended counters: %w", err)
	}
	return nil
}

// Counted returns the events of key in its window open at now, 0 when
// none is.
func (s *Store) Counted(ctx context.Context, key string, now time.Time) (int64, error) {
	if s.closed.Load() {
		return 0, errClosed
	}
	var c counterDoc
	err := s.client.Database(s.base).Collection(countersColl).FindOne(ctx, openAt(key, now)).Decode(&c)
	switch {
	case errors.Is(err, mongo.ErrNoDocuments):
		return 0, nil
	case err != nil:
		return 0, fmt.Errorf("mongoread: read the count of %s: %w", key, err)
	}
	return c.N, nil
}

// openAt selects the window of key open at now.
func openAt(key string, now time.Time) bson.D {
	return bson.D{{Key: "_id", Value: key}, {Key: "until", Value: bson.D{{Key: "$gt", Value: now.UnixNano()}}}}
}
