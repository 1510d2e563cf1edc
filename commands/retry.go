package commands

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// maxDecisions bounds how often one intent is decided: each lost race means
// another change of the same stream won, so a member's devices or double
// clicks settle well within it.
const maxDecisions = 16

// maxPause caps the random pause before deciding again.
const maxPause = 50 * time.Millisecond

// lane lets the intents of this process that lost a race decide again one
// at a time: a burst of writes to one stream (a double click, two devices,
// many tabs) then settles in two rounds each instead of racing round after
// round, whatever the machine's load. Only losers queue, so the first try
// of every intent stays parallel. laneWait bounds the queueing, so that an
// intent never waits on the lane for ever.
var lane = make(chan struct{}, 1)

const laneWait = time.Second

// retryOnConflict runs attempt, which loads its stream, decides on it and
// appends with the revision it loaded, until its append wins. A lost race
// (es.ErrConcurrency) means the state it decided on is stale: it takes the
// lane and loads and decides again, and the domain's refusal, when the
// intent no longer applies, is the answer. A race lost again in the lane
// (another node, or a first try of this one) is decided again after a short
// random pause, growing with each round so that racing nodes spread out.
// When every round loses, it answers the conflict fault.
func retryOnConflict[T any](ctx context.Context, attempt func() (T, error)) (T, error) {
	var zero T
	queued := false
	defer func() {
		if queued {
			<-lane
		}
	}()
	for round := 0; ; round++ {
		res, err := attempt()
		switch {
		case !errors.Is(err, es.ErrConcurrency):
			return res, err
		case round == maxDecisions-1:
			return zero, fault.New(fault.Conflict, fault.MsgConcurrentChange)
		}
		if err := settle(ctx, round, &queued); err != nil {
			return zero, err
		}
	}
}

// settle waits before an intent decides again: for the lane, at most
// laneWait, until it holds it; then a random pause growing with round.
func settle(ctx context.Context, round int, queued *bool) error {
	if !*queued {
		t := time.NewTimer(laneWait)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case lane <- struct{}{}:
			*queued = true
		case <-t.C:
		}
		return nil
	}
	t := time.NewTimer(rand.N(min(time.Millisecond<<round, maxPause)))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
