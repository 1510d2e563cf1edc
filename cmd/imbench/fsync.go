package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// runFsync appends small records to a file, each followed by an fsync, as a
// durable commit does, and reports how long the fsyncs took: the floor under
// every durable append and every send's reply.
func runFsync(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("fsync", flag.ContinueOnError)
	count := fs.Int("count", 2000, "fsyncs at most")
	limit := fs.Duration("duration", 3*time.Second, "time at most")
	dirFlag := fs.String("dir", "", "directory for the file (default: a temp dir, removed after)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir, cleanup, err := workDir(*dirFlag)
	if err != nil {
		return err
	}
	defer cleanup()
	f, err := os.Create(filepath.Join(dir, "fsync.dat"))
	if err != nil {
		return err
	}
	defer f.Close()

	record := make([]byte, 4096) // one page, as a WAL frame is
	took := make([]time.Duration, 0, *count)
	start := time.Now()
	for len(took) < *count && time.Since(start) < *limit && ctx.Err() == nil {
		if _, err := f.Write(record); err != nil {
			return fmt.Errorf("write: %w", err)
		}
		t := time.Now()
		if err := f.Sync(); err != nil {
			return fmt.Errorf("fsync: %w", err)
		}
		took = append(took, time.Since(t))
	}
	if len(took) == 0 {
		return ctx.Err()
	}
	slices.Sort(took)
	result("fsync_p50", ms(percentile(took, 50)), "ms")
	result("fsync_p99", ms(percentile(took, 99)), "ms")
	detail("%d fsyncs of a file growing by 4 KiB each, one at a time: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms",
		len(took), ms(percentile(took, 50)), ms(percentile(took, 90)), ms(percentile(took, 99)), ms(percentile(took, 100)))
	return nil
}
