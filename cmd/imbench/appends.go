package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/eventchat/eventchat/adapters/keystore"
	"github.com/eventchat/eventchat/adapters/sealing"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/tenant"
)

// runAppends runs appenders goroutines, each appending one event per call to
// a stream of its own with es.Any, and reports the rate over the window after
// the warm-up.
func runAppends(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("appends", flag.ContinueOnError)
	appenders := fs.Int("appenders", 64, "concurrent appenders")
	warmup := fs.Duration("warmup", time.Second, "appending before the measured window")
	window := fs.Duration("duration", 5*time.Second, "measured window")
	maxEvents := fs.Int64("max", 2_000_000, "stop after this many events in all")
	dirFlag := fs.String("dir", "", "directory for the store file (default: a temp dir, removed after)")
	kind := fs.String("store", "pebble", "event-store adapter: "+eventStoreKinds)
	esdbConn := fs.String("esdb", "", "EventStoreDB connection string for -store esdb")
	sealed := fs.Bool("sealed", false, "seal each message's content as the server does (adapters/sealing), with a key store in the directory")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the measured window to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir, cleanup, err := workDir(*dirFlag)
	if err != nil {
		return err
	}
	defer cleanup()
	store, suffix, closeStore, err := openEventStore(ctx, *kind, *esdbConn, dir)
	if err != nil {
		return err
	}
	defer closeStore()

	data, err := appendPayload()
	if err != nil {
		return err
	}
	seal := func(_ string, ev []es.EventData) ([]es.EventData, error) { return ev, nil }
	if *sealed {
		keys, err := keystore.Open(filepath.Join(dir, keystore.FileName))
		if err != nil {
			return err
		}
		defer keys.Close()
		sealer := sealing.New(keys, catalog.Registry())
		seal = func(stream string, ev []es.EventData) ([]es.EventData, error) { return sealer.Seal(ctx, stream, ev) }
		suffix += sealedSuffix(true)
	}
	var count atomic.Int64
	var stop atomic.Bool
	var failed error
	var failOnce sync.Once
	var wg sync.WaitGroup
	for i := range *appenders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stream := es.Stream(tenant.Default, es.CategoryChat, "bench"+strconv.Itoa(i))
			md := es.Metadata{Tenant: tenant.Default, Actor: "7000000000000000001"}
			for !stop.Load() && count.Load() < *maxEvents {
				md.Time = time.Now().UTC()
				ev, err := seal(stream, []es.EventData{{ID: uuid.NewString(), Type: chat.TypeMessageSent, Data: data, Metadata: md}})
				if err == nil {
					_, err = store.Append(ctx, stream, es.Any, ev)
				}
				if err != nil {
					failOnce.Do(func() { failed = err })
					stop.Store(true)
					return
				}
				count.Add(1)
			}
		}()
	}
	finished := make(chan struct{})
	go func() {
		wg.Wait()
		close(finished)
	}()
	wait(ctx, *warmup, finished)
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		stop.Store(true)
		<-finished
		return err
	}
	startN, start, endN, end := sampleWindow(ctx, 0, *window, count.Load, finished)
	stopProfile()
	stop.Store(true)
	<-finished
	if failed != nil {
		return fmt.Errorf("append: %w", failed)
	}
	secs := end.Sub(start).Seconds()
	rate := float64(endN-startN) / secs
	result("appends_per_s"+suffix, rate, "events/s")
	detail("%s%s: %d appenders, one %d-byte event per durable append: %d events in a %.1f s window (%d in all)",
		*kind, sealedSuffix(*sealed), *appenders, len(data), endN-startN, secs, count.Load())
	return nil
}

// appendPayload is a MessageSent of about 200 bytes, as the commands encode it.
func appendPayload() ([]byte, error) {
	return json.Marshal(&chat.MessageSent{
		MessageID: "7100000000000000001", UUID: "0b6f4f3e-9d1c-4c55-8a43-2f1c9e7d5a10", ChatType: string(chat.Friend),
		From: "7000000000000000001", To: "7000000000000000002", MsgType: string(chat.Text),
		Content: "on my way", At: time.Now().UnixMilli(),
	})
}

// sampleWindow waits out warmup, then measures window: it returns the
// counter and the time at both ends. It ends early, with what it has, when
// ctx ends or finished is closed (the run hit its count bound or failed).
func sampleWindow(ctx context.Context, warmup, window time.Duration, counter func() int64, finished <-chan struct{}) (startN int64, start time.Time, endN int64, end time.Time) {
	wait(ctx, warmup, finished)
	startN, start = counter(), time.Now()
	wait(ctx, window, finished)
	return startN, start, counter(), time.Now()
}

// wait waits d, or until ctx ends or stop is closed.
func wait(ctx context.Context, d time.Duration, stop <-chan struct{}) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	case <-stop:
	}
}

// sealedSuffix marks the figures measured with sealing.
func sealedSuffix(sealed bool) string {
	if sealed {
		return "_sealed"
	}
	return ""
}
