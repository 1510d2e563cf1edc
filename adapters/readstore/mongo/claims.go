package mongoread

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/nodes"
)

// claimsColl holds the nodes' claims in the base database, beside the
// generation document: a rebuild, which replaces the read models'
// database, leaves them alone.
const claimsColl = "node_claims"

var _ nodes.Claims = (*Store)(nil)

type claimDoc struct {
	ID    string `bson:"_id"`
	Owner string `bson:"owner"`
	Until int64  `bson:"until"`
}

// TakeClaim gives the claim name to owner until the time until when it is
// free, has ended at now or is owner's; it returns the claim afterwards.
func (s *Store) TakeClaim(ctx context.Context, name, owner string, now, until time.Time) (nodes.Claim, error) {
	if s.closed.Load() {
		return nodes.Claim{}, errClosed
	}
	claims := s.client.Database(s.base).Collection(claimsColl)
	filter := bson.D{{Key: "_id", Value: name}, {Key: "$or", Value: bson.A{
		bson.D{{Key: "owner", Value: owner}},
		bson.D{{Key: "until", Value: bson.D{{Key: "$lte", Value: now.UnixNano()}}}},
	}}}
	set := bson.D{{Key: "$set", Value: bson.D{{Key: "owner", Value: owner}, {Key: "until", Value: until.UnixNano()}}}}
	_, err := claims.UpdateOne(ctx, filter, set, options.UpdateOne().SetUpsert(true))
	switch {
	case mongo.IsDuplicateKeyError(err):
		// Held by another owner: the upsert met its document.
		var d claimDoc
		if err := claims.FindOne(ctx, byID(name)).Decode(&d); err != nil {
			return nodes.Claim{}, fmt.Errorf("mongoread: read the claim %s: %w", name, err)
		}
		return nodes.Claim{Owner: d.Owner, Until: time.Unix(0, d.Until)}, nil
	case err != nil:
		return nodes.Claim{}, fmt.Errorf("mongoread: take the claim %s: %w", name, err)
	}
	return nodes.Claim{Owner: owner, Until: time.Unix(0, until.UnixNano())}, nil
}

// DropClaim frees the claim name if owner holds it.
func (s *Store) DropClaim(ctx context.Context, name, owner string) error {
	if s.closed.Load() {
		return errClosed
	}
	_, err := s.client.Database(s.base).Collection(claimsColl).DeleteOne(ctx,
		bson.D{{Key: "_id", Value: name}, {Key: "owner", Value: owner}})
	if err != nil {
		return fmt.Errorf("mongoread: drop the claim %s: %w", name, err)
	}
	return nil
}
