package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"time"

	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/projections"
)

// runRebuild fills an event store with chat traffic, folds it into the live
// read store, then rebuilds every read model into a shadow store while the
// live engine runs, swaps it in, and reports the events the shadow folded
// per second (the operator's `imctl projections rebuild all`).
func runRebuild(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("rebuild", flag.ContinueOnError)
	parsed := trafficFlags(fs, 10*time.Minute)
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
	log, _, err := filledLog(ctx, dir, t)
	if err != nil {
		return err
	}
	defer log.Close()
	head, err := log.Head(ctx)
	if err != nil {
		return err
	}
	reads, err := sqliteread.Open(filepath.Join(dir, "read.db"))
	if err != nil {
		return err
	}
	defer reads.Close()

	live := projections.NewEngine(log, reads, nil, catalog.Registry(), projections.All()...)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- live.Run(runCtx) }()
	defer func() { stop(); <-done }()
	if !live.WaitFor(ctx, head) {
		return fmt.Errorf("live engine at %d of %d: %w", live.Position(), head, ctx.Err())
	}

	r := projections.NewRebuilder(live, reads)
	defer r.Close()
	start, cpu := time.Now(), startCPU("self")
	if _, err := r.Start("all"); err != nil {
		return err
	}
	for {
		p := r.Progress()
		if p.State == projections.RebuildFailed {
			return fmt.Errorf("rebuild: %s", p.Error)
		}
		if p.State == projections.RebuildDone {
			elapsed := time.Since(start)
			result("rebuild_per_s", float64(p.Done)/elapsed.Seconds(), "events/s")
			detail("%d events rebuilt into a shadow and swapped in at %d in %.2f s%s",
				p.Done, p.SwappedAt, elapsed.Seconds(), cpu.use().perEvent(p.Done))
			return nil
		}
		select {
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
			return fmt.Errorf("rebuild at %d of %d: %w", p.Done, p.Total, ctx.Err())
		}
	}
}
