package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/projections"
)

// runCatchup fills an event store with chat traffic, then projects it from
// position 0 into a fresh read store and reports the events folded per
// second until the engine reaches the head.
func runCatchup(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("catchup", flag.ContinueOnError)
	parsed := trafficFlags(fs, 3*time.Minute)
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the catch-up to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	t, limit, dirFlag, err := parsed()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	dir, cleanup, err := workDir(dirFlag)
	if err != nil {
		return err
	}
	defer cleanup()
	fillStart := time.Now()
	log, mix, err := filledLog(ctx, dir, t)
	if err != nil {
		return err
	}
	defer log.Close()
	fillTime := time.Since(fillStart)
	head, err := log.Head(ctx)
	if err != nil {
		return err
	}

	reads, err := sqliteread.Open(filepath.Join(dir, "read.db"))
	if err != nil {
		return err
	}
	defer reads.Close()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	cpu := startCPU("self")
	elapsed, err := catchUp(ctx, log, reads, head)
	if err != nil {
		return err
	}
	used := cpu.use()
	result("catchup_per_s", float64(head)/elapsed.Seconds(), "events/s")
	detail("%d events (%d MessageSent, %d ReadAcknowledged, %d pairs) projected in %.2f s%s; filled in %.1f s",
		head, mix.sent, mix.acks, t.pairs, elapsed.Seconds(), used.perEvent(head), fillTime.Seconds())
	return nil
}

// catchUp runs the server's projections over log from position 0 into
// reads and returns how long they took to fold everything up to head.
func catchUp(ctx context.Context, log projections.EventLog, reads projections.ReadStore, head uint64) (time.Duration, error) {
	engine := projections.NewEngine(log, reads, nil, catalog.Registry(),
		projections.All()...)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- engine.Run(runCtx) }()
	reached := engine.WaitFor(ctx, head)
	elapsed := time.Since(start)
	stop()
	runErr := <-done
	if !reached {
		return elapsed, fmt.Errorf("engine at %d of %d after %s: %w",
			engine.Position(), head, elapsed.Round(time.Millisecond), errors.Join(runErr, ctx.Err()))
	}
	if st := engine.Status(); st.Skipped > 0 {
		return elapsed, fmt.Errorf("engine skipped %d events: %w", st.Skipped, st.LastErr)
	}
	return elapsed, nil
}
