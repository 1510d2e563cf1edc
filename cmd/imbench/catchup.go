package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/projections"
)

// runCatchup fills an event store with chat traffic, then projects it from
// position 0 into a fresh read store and reports the events folded per
// second until the engine reaches the head.
func runCatchup(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("catchup", flag.ContinueOnError)
	ctx, f, release, err := setUp(ctx, fs, 3*time.Minute, args)
	if err != nil {
		return err
	}
	defer release()
	stopProfile, err := f.profile()
	if err != nil {
		return err
	}
	defer stopProfile()
	cpu := startCPU("self")
	var used, searchUsed cpuUse
	elapsed, searched, err := catchUp(ctx, f.log, f.reads, f.head, func() { used = cpu.use() })
	if err != nil {
		return err
	}
	searchUsed = cpu.use()
	result("catchup_per_s"+sealedSuffix(f.t.sealed), float64(f.head)/elapsed.Seconds(), "events/s")
	result("catchup_search_per_s"+sealedSuffix(f.t.sealed), float64(f.head)/searched.Seconds(), "events/s")
	detail("%d events (%d MessageSent, %d ReadAcknowledged, %d pairs) projected in %.2f s%s; filled in %.1f s",
		f.head, f.mix.sent, f.mix.acks, f.t.pairs, elapsed.Seconds(), used.perEvent(f.head), f.fill.Seconds())
	detail("the search projection, folded behind them, reached the head %.2f s later%s (in all)",
		searched.Seconds(), searchUsed.perEvent(f.head))
	return nil
}

// catchUp runs the server's projections over log from position 0 into
// reads and returns how long they took to fold everything up to head, and
// how much longer the search projection, which trails them, took; caught
// is called as soon as the first have.
func catchUp(ctx context.Context, log projections.EventLog, reads projections.ReadStore, head uint64,
	caught func()) (time.Duration, time.Duration, error) {
	engine := projections.NewEngine(log, reads, nil, catalog.Registry(),
		projections.All()...)
	search, err := engine.Trail(projections.Trailing()...)
	if err != nil {
		return 0, 0, err
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- engine.Run(runCtx) }()
	reached := engine.WaitFor(ctx, head)
	elapsed := time.Since(start)
	if reached && caught != nil {
		caught()
	}
	reached = reached && search.WaitFor(ctx, head)
	searched := time.Since(start) - elapsed
	stop()
	runErr := <-done
	if !reached {
		return elapsed, searched, fmt.Errorf("engine at %d, search at %d of %d after %s: %w",
			engine.Position(), search.Position(), head, (elapsed + searched).Round(time.Millisecond), errors.Join(runErr, ctx.Err()))
	}
	if st := engine.Status(); st.Skipped > 0 {
		return elapsed, searched, fmt.Errorf("engine skipped %d events: %w", st.Skipped, st.LastErr)
	}
	return elapsed, searched, nil
}
