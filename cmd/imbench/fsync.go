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

	record := make([]byte, pageSize)
	took := make([]time.Duration, 0, *count)
	start := time.Now()
	for len(took) < *count && time.Since(start) < *limit && ctx.Err() == nil {
		d, err := syncPage(f, record)
		if err != nil {
			return err
		}
		took = append(took, d)
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

// pageSize is what a probe writes before each fsync: one page, as a WAL
// frame is.
const pageSize = 4096

// syncPage appends record to f and returns how long the fsync after it took.
func syncPage(f *os.File, record []byte) (time.Duration, error) {
	if _, err := f.Write(record); err != nil {
		return 0, fmt.Errorf("write: %w", err)
	}
	t := time.Now()
	if err := f.Sync(); err != nil {
		return 0, fmt.Errorf("fsync: %w", err)
	}
	return time.Since(t), nil
}

// diskProbe fsyncs a page to a file of its own in a server's data directory
// every probeEvery while a run lasts, so that the run's figures can be read
// beside the disk's own stalls: a disk that stalls an fsync for 400 ms holds
// every durable reply for as long, whatever the server does.
type diskProbe struct {
	took []time.Duration
	err  error
	stop context.CancelFunc
	done chan struct{}
}

// probeEvery paces the probe: one small fsync against the server's hundreds a
// second, yet any stall longer than it holds a probe's fsync.
const probeEvery = 20 * time.Millisecond

func startDiskProbe(ctx context.Context, dir string) *diskProbe {
	ctx, stop := context.WithCancel(ctx)
	p := &diskProbe{stop: stop, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		f, err := os.CreateTemp(dir, "imbench-disk-probe-*")
		if err != nil {
			p.err = fmt.Errorf("disk probe: %w", err)
			return
		}
		defer os.Remove(f.Name())
		defer f.Close()
		record := make([]byte, pageSize)
		tick := time.NewTicker(probeEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			d, err := syncPage(f, record)
			if err != nil {
				p.err = fmt.Errorf("disk probe: %w", err)
				return
			}
			p.took = append(p.took, d)
		}
	}()
	return p
}

// stallOver is how long a probe's fsync must take for the run to count it
// as a stall of the disk.
const stallOver = 10 * time.Millisecond

// finish stops the probe and returns its fsyncs' times, sorted; a nil probe
// (a run with no disk to probe) returns none.
func (p *diskProbe) finish() ([]time.Duration, error) {
	if p == nil {
		return nil, nil
	}
	p.stop()
	<-p.done
	slices.Sort(p.took)
	return p.took, p.err
}
