package projections

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Election lets the engines of several server nodes share one read store:
// the engine holding the store's lease folds the log and publishes the
// deltas; the others follow the checkpoints it commits, so that their
// Position and WaitFor still tell what reads see.
type Election struct {
	// Owner names this engine in the lease: unique per process.
	Owner string
	// TTL is how long the lease lasts unless renewed: DefaultLeaseTTL when
	// zero. The holder renews it every TTL/5 and stops writing TTL/3 before
	// it ends, which covers pauses and clocks of the nodes differing by less
	// than that. A follower tries to take the lease every TTL/5, so a
	// holder that dies without freeing it is replaced within 1.2 TTL.
	TTL time.Duration
	// Changed, when set, is told the holder each time it changes as seen by
	// this engine ("" when nobody holds the lease).
	Changed func(leader string)
}

// DefaultLeaseTTL lets another node take over within 3.6 s of the holder's
// crash, which leaves time to catch up within 5 s; the lease then costs the
// store one conditional update (with a read or two on MongoDB) every 600 ms
// from the holder and from each follower.
const DefaultLeaseTTL = 3 * time.Second

// followPoll is how often a follower reads the leader's checkpoints.
const followPoll = 50 * time.Millisecond

func (el *Election) ttl() time.Duration {
	if el.TTL <= 0 {
		return DefaultLeaseTTL
	}
	return el.TTL
}

// Elect makes Run take part in el: call it before Run.
func (e *Engine) Elect(el Election) {
	e.election = &el
}

// drainer is a Publisher that hands deltas over in the background: the
// engine waits for it to send what it holds before freeing the lease, so
// that a graceful handover loses no push.
type drainer interface {
	Drain(ctx context.Context)
}

// elect takes the lease and projects while holding it, or follows the
// holder, until ctx ends or the log or store fails. It frees the lease on
// its way out so that another node takes over at once; a drop slower than
// the lease itself would gain nothing over its end.
func (e *Engine) elect(ctx context.Context) error {
	owner, ttl := e.election.Owner, e.election.ttl()
	defer func() {
		c, cancel := context.WithTimeout(context.WithoutCancel(ctx), ttl)
		defer cancel()
		if d, ok := e.pub.(drainer); ok {
			d.Drain(c)
		}
		_ = e.store.DropLease(c, owner)
	}()
	for {
		now := time.Now()
		holder, err := e.takeLease(ctx, now)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return fmt.Errorf("projections: take the lease: %w", err)
		}
		before := e.setLeader(holder)
		if holder == owner {
			if before != "" && before != owner {
				e.resync(ctx, ResyncTakeover)
			}
			err = e.lead(ctx, now.Add(ttl))
		} else {
			err = e.follow(ctx, ttl/5)
		}
		if ctx.Err() != nil {
			return nil
		}
		if err != nil && !errors.Is(err, ErrLeaseLost) {
			return err
		}
	}
}

// lead projects while the lease, held until the time until, is renewed.
// A stop (ctx ending) lets the batch in hand commit and publish while the
// lease is still held: a commit cut short may still reach the store, and
// then the next holder carries on after events whose deltas nobody sent.
// Only the lease's loss cuts a batch short.
func (e *Engine) lead(ctx context.Context, until time.Time) error {
	held, lost := context.WithCancelCause(context.WithoutCancel(ctx))
	defer lost(nil)
	loop, stop := context.WithCancel(ctx)
	defer stop()
	defer context.AfterFunc(held, stop)()
	kept := make(chan struct{})
	go func() {
		defer close(kept)
		e.keepLease(held, until, lost)
	}()
	err := e.project(loop, held)
	lost(nil)
	<-kept
	if errors.Is(context.Cause(held), ErrLeaseLost) {
		return ErrLeaseLost
	}
	return err
}

// keepLease renews the lease until ctx ends; it cancels ctx with
// ErrLeaseLost when another owner took the lease or when it could not be
// renewed in time.
func (e *Engine) keepLease(ctx context.Context, until time.Time, lost context.CancelCauseFunc) {
	owner, ttl := e.election.Owner, e.election.ttl()
	renew := time.NewTicker(ttl / 5)
	defer renew.Stop()
	for {
		expire := time.NewTimer(time.Until(until.Add(-ttl / 3)))
		select {
		case <-ctx.Done():
			expire.Stop()
			return
		case <-expire.C:
			lost(ErrLeaseLost)
			return
		case <-renew.C:
			expire.Stop()
		}
		now := time.Now()
		holder, err := e.takeLease(ctx, now)
		switch {
		case err != nil:
			// Tried again at the next tick, until the lease ends.
			e.setErr(fmt.Errorf("projections: renew the lease: %w", err))
		case holder != owner:
			e.setLeader(holder)
			lost(ErrLeaseLost)
			return
		default:
			until = now.Add(ttl)
		}
	}
}

// takeLease takes or renews the lease from now on. A call the store has
// not answered by the time the lease it grants stops being written under
// is of no use: it fails then, so that a holder notices the end of its
// lease and a follower tries again.
func (e *Engine) takeLease(ctx context.Context, now time.Time) (string, error) {
	ttl := e.election.ttl()
	ctx, cancel := context.WithDeadline(ctx, now.Add(ttl-ttl/3))
	defer cancel()
	return e.store.TakeLease(ctx, e.election.Owner, now, now.Add(ttl))
}

// follow tracks the checkpoints the leader commits for the duration d.
func (e *Engine) follow(ctx context.Context, d time.Duration) error {
	end := time.NewTimer(d)
	defer end.Stop()
	poll := time.NewTicker(followPoll)
	defer poll.Stop()
	for {
		checkpoints, err := e.store.Checkpoints(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("projections: checkpoints: %w", err)
		}
		e.advance(e.folded(checkpoints))
		if e.trail != nil {
			e.trail.advance(e.trail.folded(checkpoints))
		}
		select {
		case <-ctx.Done():
			return nil
		case <-end.C:
			return nil
		case <-poll.C:
		}
	}
}

// setLeader records the holder of the lease ("" for none) and returns the
// last owner seen holding it before. A node may see the lease free between
// two holders: a take that found it held reads it back after its holder
// freed it.
func (e *Engine) setLeader(leader string) (before string) {
	e.mu.Lock()
	previous, before := e.leader, e.lastHolder
	e.leader = leader
	if leader != "" {
		e.lastHolder = leader
	}
	e.mu.Unlock()
	if previous != leader && e.election.Changed != nil {
		e.election.Changed(leader)
	}
	return before
}

// resync tells every socket to resync: deltas the previous holder folded
// but had not published when it stopped are lost.
func (e *Engine) resync(ctx context.Context, reason string) {
	if e.pub == nil {
		return
	}
	if err := e.pub.Publish(ctx, []Delta{ResyncDelta(reason)}); err != nil {
		e.setErr(fmt.Errorf("projections: publish a resync: %w", err))
	}
}
