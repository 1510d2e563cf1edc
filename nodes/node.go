package nodes

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	mathrand "math/rand/v2"
	"sync/atomic"
	"time"
)

// ErrNameInUse is returned by Join when a live instance holds the name.
var ErrNameInUse = errors.New("nodes: another live node has this name")

// ErrNoWorker is returned by Join when live nodes hold every worker id.
var ErrNoWorker = errors.New("nodes: every worker id is held by a live node")

// ErrLost is returned by Keep when another instance took one of the node's
// claims: it paused past their end, or its store was out of reach as long.
var ErrLost = errors.New("nodes: this node lost its claim")

// Node is one instance of a server node: its name and worker id, each
// held by a claim until it ends unless renewed.
type Node struct {
	Name string
	// Instance is new at every start: it tells this instance's claims from
	// those an earlier one of the same name left.
	Instance string
	Worker   int64

	claims Claims
	ttl    time.Duration
	// idsUntil is the end, in Unix nanoseconds, of the time the worker id
	// may carry ids.
	idsUntil atomic.Int64
}

// Join claims name and a free worker id below workers for a new instance
// of the node, each for ttl. A claim of name that an earlier instance left
// (a crash) is waited for until it ends, up to ttl; one its holder renews
// meanwhile is a live node, and Join fails with ErrNameInUse.
func Join(ctx context.Context, claims Claims, name string, workers int, ttl time.Duration) (*Node, error) {
	n := &Node{Name: name, Instance: instanceID(), claims: claims, ttl: ttl}
	if err := n.claimName(ctx); err != nil {
		return nil, err
	}
	if err := n.claimWorker(ctx, workers); err != nil {
		return nil, errors.Join(err, n.drop(ctx, nameClaim(name)))
	}
	return n, nil
}

// Owner is the owner of the node's claims.
func (n *Node) Owner() string { return n.Name + "#" + n.Instance }

// IDsUntil is when ids made under the worker id must stop: a third of the
// claim's time before its end, which covers pauses and clocks of the nodes
// differing by less than that. Another node may take the worker id once
// the claim has ended, and its ids then carry later times.
func (n *Node) IDsUntil() time.Time { return time.Unix(0, n.idsUntil.Load()) }

func (n *Node) claimName(ctx context.Context) error {
	key := nameClaim(n.Name)
	deadline := time.Now().Add(n.ttl + n.ttl/5)
	var first Claim
	for {
		claim, err := n.take(ctx, key)
		if err != nil || claim.Owner == n.Owner() {
			return err
		}
		switch {
		case first.Owner == "":
			first = claim
		case claim.Owner != first.Owner || !claim.Until.Equal(first.Until):
			return fmt.Errorf("%w: %q is held by %s, which renewed it while this instance waited: give each node its own name",
				ErrNameInUse, n.Name, claim.Owner)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w: %q is held by %s until %s: give each node its own name",
				ErrNameInUse, n.Name, claim.Owner, claim.Until.UTC().Format(time.RFC3339Nano))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(n.ttl / 5):
		}
	}
}

// claimWorker takes the first free worker id from a random one on.
func (n *Node) claimWorker(ctx context.Context, workers int) error {
	start := mathrand.IntN(workers)
	for i := range workers {
		w := int64((start + i) % workers)
		n.Worker = w
		claim, err := n.take(ctx, workerClaim(w))
		if err != nil {
			return err
		}
		if claim.Owner == n.Owner() {
			n.idsUntil.Store(claim.Until.Add(-n.ttl / 3).UnixNano())
			return nil
		}
	}
	return ErrNoWorker
}

// Keep renews the node's claims every fifth of their time until ctx ends.
// It returns ErrLost when another instance took one; a renewal that fails
// is told to failed and tried again at the next tick, while the ids stop
// at IDsUntil. On its way out it frees the name, so that the node restarts
// at once; the worker id stays claimed until the claim ends, so that the
// ids of the node taking it next carry later times.
func (n *Node) Keep(ctx context.Context, failed func(error)) error {
	defer func() {
		c, cancel := context.WithTimeout(context.WithoutCancel(ctx), n.ttl/5)
		defer cancel()
		_ = n.drop(c, nameClaim(n.Name))
	}()
	tick := time.NewTicker(n.ttl / 5)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		err := n.renew(ctx)
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, ErrLost):
			return err
		case err != nil:
			failed(err)
		}
	}
}

func (n *Node) renew(ctx context.Context) error {
	for _, key := range []string{nameClaim(n.Name), workerClaim(n.Worker)} {
		claim, err := n.take(ctx, key)
		if err != nil {
			return err
		}
		if claim.Owner != n.Owner() {
			return fmt.Errorf("%w %s: %s holds it now", ErrLost, key, claim.Owner)
		}
		if key == workerClaim(n.Worker) {
			n.idsUntil.Store(claim.Until.Add(-n.ttl / 3).UnixNano())
		}
	}
	return nil
}

// take takes or renews the claim key for ttl from now.
func (n *Node) take(ctx context.Context, key string) (Claim, error) {
	now := time.Now()
	claim, err := n.claims.TakeClaim(ctx, key, n.Owner(), now, now.Add(n.ttl))
	if err != nil {
		return Claim{}, fmt.Errorf("nodes: claim %s: %w", key, err)
	}
	return claim, nil
}

func (n *Node) drop(ctx context.Context, key string) error {
	return n.claims.DropClaim(ctx, key, n.Owner())
}

func nameClaim(name string) string { return "node/" + name }

func workerClaim(w int64) string { return fmt.Sprintf("worker/%04d", w) }

func instanceID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}
