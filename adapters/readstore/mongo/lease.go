package mongoread

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// TakeLease gives the projection lease to owner until the time until when
// it is free, has ended at now or is owner's; it returns the holder. A
// renewal does not wait for an Update in progress; taking the lease over
// completes the batch a previous holder left half applied.
func (s *Store) TakeLease(ctx context.Context, owner string, now, until time.Time) (string, error) {
	if s.closed.Load() {
		return "", errClosed
	}
	filter := bson.D{{Key: "_id", Value: leaseID}, {Key: "$or", Value: bson.A{
		bson.D{{Key: "owner", Value: owner}},
		bson.D{{Key: "owner", Value: ""}},
		bson.D{{Key: "until", Value: bson.D{{Key: "$lte", Value: now.UnixNano()}}}},
	}}}
	set := bson.D{{Key: "$set", Value: bson.D{{Key: "owner", Value: owner}, {Key: "until", Value: until.UnixNano()}}}}
	_, err := s.db.Collection(leaseColl).UpdateOne(ctx, filter, set, options.UpdateOne().SetUpsert(true))
	holder := owner
	switch {
	case mongo.IsDuplicateKeyError(err):
		// Held by another owner: the upsert met its document.
		var lease leaseDoc
		if _, err := s.findOne(ctx, leaseColl, bson.D{{Key: "_id", Value: leaseID}}, &lease); err != nil {
			return "", fmt.Errorf("mongoread: read the lease: %w", err)
		}
		holder = lease.Owner
	case err != nil:
		return "", fmt.Errorf("mongoread: take the lease: %w", err)
	}
	if holder != owner {
		s.setOwner("")
		return holder, nil
	}
	if s.owner() == owner {
		return holder, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setOwner(owner)
	if err := s.recover(ctx); err != nil {
		s.unflushed = true
		return "", err
	}
	return holder, nil
}

// DropLease frees the projection lease if owner holds it. A batch its
// holder left half applied stays marked for the next one.
func (s *Store) DropLease(ctx context.Context, owner string) error {
	if s.closed.Load() {
		return errClosed
	}
	_, err := s.db.Collection(leaseColl).UpdateOne(ctx,
		bson.D{{Key: "_id", Value: leaseID}, {Key: "owner", Value: owner}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "owner", Value: ""}, {Key: "until", Value: int64(0)}}}})
	if err != nil {
		return fmt.Errorf("mongoread: drop the lease: %w", err)
	}
	if s.owner() == owner {
		s.setOwner("")
	}
	return nil
}

func (s *Store) owner() string {
	s.leaseMu.Lock()
	defer s.leaseMu.Unlock()
	return s.leaseOwner
}

func (s *Store) setOwner(owner string) {
	s.leaseMu.Lock()
	s.leaseOwner = owner
	s.leaseMu.Unlock()
}
