package gridfs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// OrphanGrace is how long after its last chunk was written an upload
// without a files document is taken for one a crash cut short: an upload
// in progress writes a chunk at least every 255 KiB it receives.
const OrphanGrace = time.Hour

// CollectEvery is how often Collect looks for orphaned chunks.
const CollectEvery = time.Hour

// sweptID is the document of the bucket's .swept collection that holds
// the chunk id up to which every orphan has been collected.
const sweptID = "orphans"

// Collect collects orphaned chunks (CollectOrphans) every period until ctx
// ends, telling report what each round deleted or why it failed. Every node
// may run it: rounds running at once delete the same chunks, once.
func (s *Store) Collect(ctx context.Context, every time.Duration, report func(deleted int64, err error)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		n, err := s.CollectOrphans(ctx, time.Now())
		if ctx.Err() != nil {
			return
		}
		report(n, err)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// CollectOrphans deletes the chunks a crash in the middle of an upload left
// (Save writes the chunks first and the files document last): those of a
// file id without a files document whose last chunk was written
// OrphanGrace before now or earlier. It returns how many it deleted.
//
// A chunk's id, made by the driver when it is written, tells when: a round
// reads the chunks written between where the previous round stopped and
// now - OrphanGrace, and records how far it went. A file whose last chunk
// is newer is left for the round that reads that chunk.
func (s *Store) CollectOrphans(ctx context.Context, now time.Time) (int64, error) {
	from, err := s.sweptUpTo(ctx)
	if err != nil {
		return 0, err
	}
	to := bson.NewObjectIDFromTimestamp(now.Add(-OrphanGrace))
	if bytes.Compare(from[:], to[:]) >= 0 {
		return 0, nil
	}
	written := bson.D{{Key: "_id", Value: bson.D{{Key: "$gte", Value: from}, {Key: "$lt", Value: to}}}}
	res := s.chunks.Distinct(ctx, "files_id", written)
	var ids []bson.ObjectID
	if err := res.Decode(&ids); err != nil {
		return 0, fmt.Errorf("gridfs: read the files of the chunks written before %s: %w", to.Timestamp().UTC(), err)
	}
	orphans, err := s.orphans(ctx, ids, to)
	if err != nil {
		return 0, err
	}
	var deleted int64
	if len(orphans) > 0 {
		r, err := s.chunks.DeleteMany(ctx, bson.D{{Key: "files_id", Value: bson.D{{Key: "$in", Value: orphans}}}})
		if err != nil {
			return 0, fmt.Errorf("gridfs: delete orphaned chunks: %w", err)
		}
		deleted = r.DeletedCount
	}
	record := func(upsert bool) error {
		_, err := s.swept.UpdateOne(ctx, bson.D{{Key: "_id", Value: sweptID}},
			bson.D{{Key: "$max", Value: bson.D{{Key: "upTo", Value: to}}}}, options.UpdateOne().SetUpsert(upsert))
		return err
	}
	err = record(true)
	if mongo.IsDuplicateKeyError(err) {
		// Another round recorded its first sweep meanwhile.
		err = record(false)
	}
	if err != nil {
		return deleted, fmt.Errorf("gridfs: record the orphans collected: %w", err)
	}
	return deleted, nil
}

// sweptUpTo returns the chunk id up to which orphans have been collected.
func (s *Store) sweptUpTo(ctx context.Context) (bson.ObjectID, error) {
	var d struct {
		UpTo bson.ObjectID `bson:"upTo"`
	}
	err := s.swept.FindOne(ctx, bson.D{{Key: "_id", Value: sweptID}}).Decode(&d)
	if err != nil && !errors.Is(err, mongo.ErrNoDocuments) {
		return bson.NilObjectID, fmt.Errorf("gridfs: read how far orphans were collected: %w", err)
	}
	return d.UpTo, nil
}

// orphans returns those of the file ids that have no files document and no
// chunk written at to or later.
func (s *Store) orphans(ctx context.Context, ids []bson.ObjectID, to bson.ObjectID) ([]bson.ObjectID, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	stored, err := s.distinct(ctx, s.files, "_id", bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}})
	if err != nil {
		return nil, err
	}
	writing, err := s.distinct(ctx, s.chunks, "files_id", bson.D{
		{Key: "files_id", Value: bson.D{{Key: "$in", Value: ids}}}, {Key: "_id", Value: bson.D{{Key: "$gte", Value: to}}},
	})
	if err != nil {
		return nil, err
	}
	var out []bson.ObjectID
	for _, id := range ids {
		if !stored[id] && !writing[id] {
			out = append(out, id)
		}
	}
	return out, nil
}

func (s *Store) distinct(ctx context.Context, coll *mongo.Collection, field string, filter bson.D) (map[bson.ObjectID]bool, error) {
	var ids []bson.ObjectID
	if err := coll.Distinct(ctx, field, filter).Decode(&ids); err != nil {
		return nil, fmt.Errorf("gridfs: read %s of %s: %w", field, coll.Name(), err)
	}
	set := make(map[bson.ObjectID]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	return set, nil
}
