// Package nodes gives each server node sharing the stores a name and a
// worker id no other live node holds, through claims in the shared read
// store, and keeps them while the node lives.
package nodes

import (
	"context"
	"time"
)

// Claims are named claims in a store every node shares, each held by one
// owner until it ends unless renewed. They live apart from the read models,
// which a rebuild replaces.
type Claims interface {
	// TakeClaim gives the claim name to owner until the time until when it
	// is free, has ended at now or is owner's already (a renewal), and
	// returns the claim as it stands afterwards.
	TakeClaim(ctx context.Context, name, owner string, now, until time.Time) (Claim, error)
	// DropClaim frees the claim name if owner holds it.
	DropClaim(ctx context.Context, name, owner string) error
}

// Claim is who holds a claim and until when.
type Claim struct {
	Owner string
	Until time.Time
}
