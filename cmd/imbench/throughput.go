package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// runThroughput has every sender send as fast as the server answers, with
// cfg.window sends outstanding, and reports the messages delivered and
// acknowledged per second over the measured window; then it checks that
// every acknowledged message was delivered exactly once.
// With probe, it reports the events/s the lease holder folded over the
// window too.
func runThroughput(ctx context.Context, cfg socketsConfig, pairs []pairConn, current *atomic.Pointer[phase], probe *foldProbe) error {
	perPair := max(cfg.maxMessages/len(pairs), 1)
	ph := newPhase('t', len(pairs), perPair, false)
	current.Store(ph)
	// Sends still waiting for their reply are abandoned when runCtx ends.
	runCtx, cancel := context.WithTimeout(ctx, cfg.warmup+cfg.measure+cfg.drain)
	defer cancel()

	var stop atomic.Bool
	var wg sync.WaitGroup
	for p := range pairs {
		var next atomic.Int64
		for range cfg.window {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for !stop.Load() {
					seq := int(next.Add(1) - 1)
					if seq >= perPair || !ph.send(runCtx, pairs[p], p, seq) {
						return
					}
				}
			}()
		}
	}
	finished := make(chan struct{})
	go func() {
		wg.Wait()
		close(finished)
	}()

	wait(ctx, cfg.warmup, finished)
	acked0, delivered0 := ph.ackedN.Load(), ph.deliveredN.Load()
	server, self := startCPU(cfg.pid), startCPU("self")
	var folds [2]fold
	var foldErr error
	if probe != nil {
		folds[0], foldErr = probe.sample(ctx)
	}
	start := time.Now()
	wait(ctx, cfg.measure, finished)
	acked, delivered := ph.ackedN.Load()-acked0, ph.deliveredN.Load()-delivered0
	secs := time.Since(start).Seconds()
	serverUse, selfUse := server.use(), self.use()
	if probe != nil && foldErr == nil {
		folds[1], foldErr = probe.sample(ctx)
	}
	stop.Store(true)
	<-finished
	missing, err := ph.settleDeliveries(ctx, cfg.drain, pairs)
	if err != nil {
		return err
	}

	cfg.result("deliver_per_s", float64(delivered)/secs, "msg/s")
	cfg.result("deliver_acked_per_s", float64(acked)/secs, "msg/s")
	cfg.result("deliver_missing", float64(missing), "msgs")
	cfg.result("deliver_duplicates", float64(ph.duplicateN.Load()), "msgs")
	detail("%d pairs, %d sends outstanding per sender: %d delivered, %d acknowledged in a %.1f s window after %.1f s of warm-up",
		len(pairs), cfg.window, delivered, acked, secs, cfg.warmup.Seconds())
	detail("in all %d acknowledged, %d delivered once, %d delivered twice or more, %d acknowledged but never delivered",
		ph.ackedN.Load(), ph.deliveredN.Load(), ph.duplicateN.Load(), missing)
	reportCPU(cfg, "deliver_server_cpu", serverUse, selfUse, float64(delivered)/secs, delivered)
	reportProblems(ph)
	if probe != nil {
		if foldErr == nil {
			foldErr = probe.report(ctx, cfg.result, folds[0], folds[1])
		}
		if foldErr != nil {
			return fmt.Errorf("fold rate: %w", foldErr)
		}
	}
	return ctx.Err()
}
