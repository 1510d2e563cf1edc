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

// retryOnConflict runs attempt, which loads its stream, decides on it and
// appends with the revision it loaded, until its append wins. A lost race
// (es.ErrConcurrency) means the state it decided on is stale: after a short
// random pause, growing with each round so that racing callers spread out,
// it loads and decides again, and the domain's refusal, when the intent no
// longer applies, is the answer. When every round loses, it answers the
// conflict fault.
func retryOnConflict[T any](ctx context.Context, attempt func() (T, error)) (T, error) {
	var zero T
	for round := 0; ; round++ {
		res, err := attempt()
		switch {
		case !errors.Is(err, es.ErrConcurrency):
			return res, err
		case round == maxDecisions-1:
			return zero, fault.New(fault.Conflict, fault.MsgConcurrentChange)
		}
		t := time.NewTimer(rand.N(min(time.Millisecond<<round, maxPause)))
		select {
		case <-ctx.Done():
			t.Stop()
			return zero, ctx.Err()
		case <-t.C:
		}
	}
}
