package mongoread

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// keysColl holds the members' data keys in the base database, which a
// rebuild leaves alone. A destroyed key stays as a document without a key,
// so that it is never made again.
const keysColl = "data_keys"

type keyDoc struct {
	ID  string `bson:"_id"`
	Key []byte `bson:"key"`
}

func keyID(tenant, member string) string { return tenant + "/" + member }

// Key returns what is kept for member. When there is nothing and mk is not
// nil, it keeps what mk returns, unless another node kept something first,
// which it then returns. ok is false when the key was destroyed, or when
// there is none and mk is nil.
func (s *Store) Key(ctx context.Context, tenant, member string, mk func() ([]byte, error)) ([]byte, bool, error) {
	if s.closed.Load() {
		return nil, false, errClosed
	}
	keys := s.client.Database(s.base).Collection(keysColl)
	id := keyID(tenant, member)
	var d keyDoc
	err := keys.FindOne(ctx, byID(id)).Decode(&d)
	switch {
	case err == nil:
		return d.Key, d.Key != nil, nil
	case !errors.Is(err, mongo.ErrNoDocuments):
		return nil, false, fmt.Errorf("mongoread: read a data key: %w", err)
	case mk == nil:
		return nil, false, nil
	}
	fresh, err := mk()
	if err != nil {
		return nil, false, err
	}
	_, err = keys.InsertOne(ctx, keyDoc{ID: id, Key: fresh})
	if mongo.IsDuplicateKeyError(err) {
		// Another node made it, or destroyed it, first.
		return s.Key(ctx, tenant, member, nil)
	}
	if err != nil {
		return nil, false, fmt.Errorf("mongoread: add a data key: %w", err)
	}
	return fresh, true, nil
}

// Destroy destroys member's key for ever: Key never makes another.
func (s *Store) Destroy(ctx context.Context, tenant, member string) error {
	if s.closed.Load() {
		return errClosed
	}
	_, err := s.client.Database(s.base).Collection(keysColl).UpdateOne(ctx, byID(keyID(tenant, member)),
		bson.D{{Key: "$set", Value: bson.D{{Key: "key", Value: nil}}}}, options.UpdateOne().SetUpsert(true))
	if err != nil {
		return fmt.Errorf("mongoread: destroy a data key: %w", err)
	}
	return nil
}
