package mongoread

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// TakeLease gives the projection lease to owner until the time until when
// it is free, has ended at now or is owner's; it returns the holder. A
// renewal does not wait for an Update in progress; after taking the lease
// over, the next Checkpoints or Update completes the batch a previous
// holder left half applied. A live handle
// reads the generation document first, so that it takes the lease of the
// generation served: the lease of a generation a rebuild replaced stays
// with the marker movedOwner until that generation is dropped.
func (s *Store) TakeLease(ctx context.Context, owner string, now, until time.Time) (string, error) {
	if s.closed.Load() {
		return "", errClosed
	}
	if err := s.refresh(ctx); err != nil {
		return "", err
	}
	holder, err := s.takeLease(ctx, owner, now, until)
	if err == nil && strings.HasPrefix(holder, movedPrefix) {
		// A swap switched the generation after the refresh: the new
		// generation's lease is the one to take.
		if err := s.refresh(ctx); err != nil {
			return "", err
		}
		holder, err = s.takeLease(ctx, owner, now, until)
	}
	if err != nil {
		return "", err
	}
	if holder != owner {
		s.setOwner("")
		return holder, nil
	}
	s.setWritesEnd(until.Add(-until.Sub(now) / 3))
	if s.owner() == owner {
		return holder, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setOwner(owner)
	// The engine taking the lease reads its checkpoints afresh, and they
	// first complete what a previous holder left half applied: by then the
	// lease is being renewed, which the writes' fence follows.
	s.moved = false
	s.unflushed = true
	return holder, nil
}

// takeLease writes the lease for owner in the database served, if it may,
// and returns the holder.
func (s *Store) takeLease(ctx context.Context, owner string, now, until time.Time) (string, error) {
	s.swapMu.RLock()
	defer s.swapMu.RUnlock()
	leases := s.coll(leaseColl)
	filter := bson.D{{Key: "_id", Value: leaseID}, {Key: "$or", Value: bson.A{
		bson.D{{Key: "owner", Value: owner}},
		bson.D{{Key: "owner", Value: ""}},
		bson.D{{Key: "until", Value: bson.D{{Key: "$lte", Value: now.UnixNano()}}}},
	}}}
	set := bson.D{{Key: "$set", Value: bson.D{{Key: "owner", Value: owner}, {Key: "until", Value: until.UnixNano()}}}}
	_, err := leases.UpdateOne(ctx, filter, set, options.UpdateOne().SetUpsert(true))
	switch {
	case mongo.IsDuplicateKeyError(err):
		// Held by another owner: the upsert met its document.
		var lease leaseDoc
		if err := leases.FindOne(ctx, byID(leaseID)).Decode(&lease); err != nil {
			return "", fmt.Errorf("mongoread: read the lease: %w", err)
		}
		return lease.Owner, nil
	case err != nil:
		return "", fmt.Errorf("mongoread: take the lease: %w", err)
	}
	return owner, nil
}

// DropLease frees the projection lease if owner holds it. A batch its
// holder left half applied stays marked for the next one.
func (s *Store) DropLease(ctx context.Context, owner string) error {
	if s.closed.Load() {
		return errClosed
	}
	s.swapMu.RLock()
	_, err := s.coll(leaseColl).UpdateOne(ctx,
		bson.D{{Key: "_id", Value: leaseID}, {Key: "owner", Value: owner}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "owner", Value: ""}, {Key: "until", Value: int64(0)}}}})
	s.swapMu.RUnlock()
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

func (s *Store) setWritesEnd(end time.Time) {
	s.leaseMu.Lock()
	s.writesEnd = end
	s.leaseMu.Unlock()
}

// fenced runs write, while this handle holds the lease, with the deadline
// of its writes: a third of the lease before its end as last taken or
// renewed, when the engine stops too. The driver sends nothing past a
// deadline, checked against the clock before each operation, and the
// server stops at it (maxTimeMS): a node paused past its lease in the
// middle of applying a batch cannot write it over its successor's, who
// applies it itself on taking over.
func (s *Store) fenced(ctx context.Context, write func(context.Context) error) error {
	s.leaseMu.Lock()
	owned, end := s.leaseOwner != "", s.writesEnd
	s.leaseMu.Unlock()
	if !owned {
		return write(ctx)
	}
	ctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	return write(ctx)
}
