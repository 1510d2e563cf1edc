package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"time"

	"github.com/eventchat/eventchat/adapters/sealing"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/projections"
)

// runRebuild fills an event store with chat traffic, folds it into the live
// read store, then rebuilds every read model into a shadow store while the
// live engine runs, swaps it in, and reports the events the shadow folded
// per second (the operator's `imctl projections rebuild all`), and the lag
// members see meanwhile: a message appended every liveEvery is timed until
// the live engine has folded it (when its delta goes out).
func runRebuild(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("rebuild", flag.ContinueOnError)
	ctx, f, release, err := setUp(ctx, fs, 10*time.Minute, args)
	if err != nil {
		return err
	}
	defer release()
	log, reads, head := f.log, f.reads, f.head

	live := projections.NewEngine(log, reads, nil, catalog.Registry(), projections.All()...)
	search, err := live.Trail(projections.Trailing()...)
	if err != nil {
		return err
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- live.Run(runCtx) }()
	defer func() { stop(); <-done }()
	// The rebuild starts on a settled server, as an operator's does: the
	// live search index too has folded the fill.
	for _, e := range []*projections.Engine{live, search} {
		if !e.WaitFor(ctx, head) {
			return fmt.Errorf("live engine at %d of %d: %w", e.Position(), head, ctx.Err())
		}
	}

	r := projections.NewRebuilder(live, reads)
	defer r.Close()
	stopProfile, err := f.profile()
	if err != nil {
		return err
	}
	defer stopProfile()
	rssBefore, err := rssKiB("self")
	if err != nil {
		return err
	}
	start, cpu := time.Now(), startCPU("self")
	if _, err := r.Start("all"); err != nil {
		return err
	}
	chatting, stopChat := context.WithCancel(ctx)
	lags := make(chan []time.Duration, 1)
	go func() { lags <- liveLag(chatting, log, live, f.t.pairs) }()
	memberLag := func() string {
		stopChat()
		return lagLine(<-lags)
	}
	for {
		p := r.Progress()
		if p.State == projections.RebuildFailed {
			memberLag()
			return fmt.Errorf("rebuild: %s", p.Error)
		}
		if p.State == projections.RebuildDone {
			elapsed := time.Since(start)
			result("rebuild_per_s", float64(p.Done)/elapsed.Seconds(), "events/s")
			detail("%d events rebuilt into a shadow and swapped in at %d in %.2f s%s; the swap held the live projections %.1f ms",
				p.Done, p.SwappedAt, elapsed.Seconds(), cpu.use().perEvent(p.Done), p.SwapHeldMs)
			detail("members meanwhile: %s", memberLag())
			rssAfter, err := rssKiB("self")
			if err != nil {
				return err
			}
			detail("the process's RSS: %.0f MiB before the rebuild, %.0f MiB after the swap", float64(rssBefore)/1024, float64(rssAfter)/1024)
			return nil
		}
		select {
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
			memberLag()
			return fmt.Errorf("rebuild at %d events, %.0f%% of the log's time: %w", p.Done, 100*p.Fraction, ctx.Err())
		}
	}
}

// liveEvery is how often a member sends while the rebuild runs.
const liveEvery = 20 * time.Millisecond

// liveLag sends a message every liveEvery between a pair of its own (after
// the filled ones) until ctx ends, and returns for each the time from its
// append to the live engine folding it.
func liveLag(ctx context.Context, log sealing.Log, live *projections.Engine, pair int) []time.Duration {
	c := conversation{members: [2]string{memberID(2 * pair), memberID(2*pair + 1)},
		rng: rand.New(rand.NewPCG(uint64(pair), 7)), nextMessage: new(atomic.Uint64)}
	c.nextMessage.Store(1 << 40) // ids apart from the filled ones'
	var lags []time.Duration
	tick := time.NewTicker(liveEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return lags
		case <-tick.C:
		}
		sent := time.Now()
		if _, _, err := c.write(ctx, log, 1, math.MaxInt); err != nil {
			return lags
		}
		pos, err := log.Head(ctx)
		if err != nil || !live.WaitFor(ctx, pos) {
			return lags
		}
		lags = append(lags, time.Since(sent))
	}
}

// lagLine is "n messages, lag p50 .. p99 .. max ..".
func lagLine(lags []time.Duration) string {
	if len(lags) == 0 {
		return "no message sent"
	}
	slices.Sort(lags)
	at := func(q float64) time.Duration { return lags[min(len(lags)-1, int(q*float64(len(lags))))] }
	return fmt.Sprintf("%d messages, append to live fold p50 %s p99 %s max %s", len(lags),
		at(0.5).Round(100*time.Microsecond), at(0.99).Round(100*time.Microsecond), lags[len(lags)-1].Round(100*time.Microsecond))
}
