package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// runLatency sends open-loop at cfg.rate messages/s in all, round-robin over
// the pairs, for cfg.latencyFor, and reports the send-to-delivery latency:
// from just before the sender writes the frame to the receiver reading the
// push, both on this process's monotonic clock.
// A server's run also probes the disk under dataDir ("" on the relay): see
// diskProbe.
func runLatency(ctx context.Context, cfg socketsConfig, pairs []pairConn, current *atomic.Pointer[phase], dataDir string) error {
	total := max(int(float64(cfg.rate)*cfg.latencyFor.Seconds()), 1)
	ph := newPhase('l', len(pairs), (total+len(pairs)-1)/len(pairs), true)
	current.Store(ph)
	runCtx, cancel := context.WithTimeout(ctx, cfg.latencyFor+cfg.drain)
	defer cancel()

	interval := time.Second / time.Duration(cfg.rate)
	server, self := startCPU(cfg.pid), startCPU("self")
	var disk *diskProbe
	if dataDir != "" {
		disk = startDiskProbe(runCtx, dataDir)
	}
	var wg sync.WaitGroup
	start := time.Now()
	sent := 0
	// Each send is due at a fixed offset from the start, whatever the
	// earlier ones took: the load does not back off when the server is slow.
	for ; sent < total && runCtx.Err() == nil; sent++ {
		if d := time.Until(start.Add(time.Duration(sent) * interval)); d > 0 {
			time.Sleep(d)
		}
		wg.Add(1)
		go func(pair, seq int) {
			defer wg.Done()
			ph.send(runCtx, pairs[pair], pair, seq)
		}(sent%len(pairs), sent/len(pairs))
	}
	pacedFor := time.Since(start)
	serverUse, selfUse := server.use(), self.use()
	diskTook, diskErr := disk.finish()
	wg.Wait()
	missing, err := ph.settleDeliveries(ctx, cfg.drain, pairs)
	if err = errors.Join(err, diskErr); err != nil {
		return err
	}

	delivery, ack := ph.latencies()
	if len(delivery) == 0 {
		return fmt.Errorf("latency run: no message delivered (%d sent)", sent)
	}
	for _, q := range []struct {
		key string
		p   float64
	}{{"latency_p50", 50}, {"latency_p90", 90}, {"latency_p99", 99}, {"latency_max", 100}} {
		cfg.result(q.key, ms(percentile(delivery, q.p)), "ms")
		cfg.result(strings.Replace(q.key, "latency_", "latency_ack_", 1), ms(percentile(ack, q.p)), "ms")
	}
	cfg.result("latency_missing", float64(missing), "msgs")
	cfg.result("latency_duplicates", float64(ph.duplicateN.Load()), "msgs")
	detail("%d messages sent over %.1f s (%.0f/s) round-robin over %d pairs; %d delivered and acknowledged",
		sent, pacedFor.Seconds(), float64(sent)/pacedFor.Seconds(), len(pairs), len(delivery))
	detail("send to delivery: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms; send to reply: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms",
		ms(percentile(delivery, 50)), ms(percentile(delivery, 90)), ms(percentile(delivery, 99)), ms(percentile(delivery, 100)),
		ms(percentile(ack, 50)), ms(percentile(ack, 90)), ms(percentile(ack, 99)), ms(percentile(ack, 100)))
	if len(diskTook) > 0 {
		stalls := len(diskTook) - sort.Search(len(diskTook), func(i int) bool { return diskTook[i] > stallOver })
		cfg.result("latency_disk_fsync_max", ms(percentile(diskTook, 100)), "ms")
		detail("the disk meanwhile: %d fsyncs of a page, one every %s beside the server's: p50 %.2f ms, p99 %.2f ms, max %.2f ms; %d over %s",
			len(diskTook), probeEvery, ms(percentile(diskTook, 50)), ms(percentile(diskTook, 99)), ms(percentile(diskTook, 100)), stalls, stallOver)
	}
	reportCPU(cfg, "latency_server_cpu", serverUse, selfUse, float64(sent)/pacedFor.Seconds(), int64(sent))
	reportProblems(ph)
	return ctx.Err()
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
