package sqlitestore_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	"github.com/eventchat/eventchat/domain/es"
)

const appenders = 64

// benchData is a ~200-byte message payload.
var benchData = []byte(`{"chatId":"c-1866","from":"m-1870","type":"text","body":"` + strings.Repeat("x", 120) + `"}`)

func benchEvent() es.EventData { return benchEventWithID(uuid.NewString()) }

func benchEventWithID(id string) es.EventData {
	return es.EventData{ID: id, Type: "MessageSent", Data: benchData,
		Metadata: es.Metadata{Tenant: "x1", Actor: "m-1870", Time: time.Now()}}
}

// newV7 makes time-ordered ids, whose index grows at its end only.
func newV7() string { return uuid.Must(uuid.NewV7()).String() }

func openBench(b *testing.B) *sqlitestore.Store {
	b.Helper()
	s, err := sqlitestore.Open(filepath.Join(b.TempDir(), "events.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

// appendParallel appends b.N single-event appends from 64 goroutines, each
// to a stream of its own, with random (v4) event ids.
func appendParallel(b *testing.B, s *sqlitestore.Store) {
	b.Helper()
	appendParallelIDs(b, s, uuid.NewString)
}

func appendParallelIDs(b *testing.B, s *sqlitestore.Store, newID func() string) {
	b.Helper()
	var next atomic.Int64
	b.SetParallelism((appenders + 1) / 2) // GOMAXPROCS 2 on the target machine
	b.RunParallel(func(pb *testing.PB) {
		stream := fmt.Sprintf("x1.chat-%d", next.Add(1))
		for pb.Next() {
			if _, err := s.Append(context.Background(), stream, es.Any, []es.EventData{benchEventWithID(newID())}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure starts the clocks; the returned func reports events/s and the CPU
// time per event, which other load on the machine disturbs less.
func measure(b *testing.B) func(events int) {
	b.ResetTimer()
	start, cpu := time.Now(), cpuTime(b)
	return func(events int) {
		b.ReportMetric(float64(events)/time.Since(start).Seconds(), "events/s")
		b.ReportMetric(float64(cpuTime(b)-cpu)/float64(time.Microsecond)/float64(events), "cpu-µs/event")
	}
}

// BenchmarkAppendConcurrent: durable single-event appends from 64 goroutines.
func BenchmarkAppendConcurrent(b *testing.B) {
	s := openBench(b)
	done := measure(b)
	appendParallel(b, s)
	done(b.N)
}

// BenchmarkAppendConcurrentV7IDs: as BenchmarkAppendConcurrent with
// time-ordered event ids, which spare a random index page write per event.
func BenchmarkAppendConcurrentV7IDs(b *testing.B) {
	s := openBench(b)
	done := measure(b)
	appendParallelIDs(b, s, newV7)
	done(b.N)
}

// BenchmarkAppendSequential: one appender, so one fsync per append.
func BenchmarkAppendSequential(b *testing.B) {
	s := openBench(b)
	done := measure(b)
	for range b.N {
		if _, err := s.Append(context.Background(), "x1.chat-1", es.Any, []es.EventData{benchEvent()}); err != nil {
			b.Fatal(err)
		}
	}
	done(b.N)
}

// BenchmarkReadAll: projection catch-up, reading the whole log in pages of 2000.
func BenchmarkReadAll(b *testing.B) {
	const total, page = 100_000, 2000
	s := openBench(b)
	ctx := context.Background()
	for i := range total / 1000 {
		evs := make([]es.EventData, 1000)
		for j := range evs {
			evs[j] = benchEvent()
		}
		if _, err := s.Append(ctx, fmt.Sprintf("x1.chat-%d", i%50), es.Any, evs); err != nil {
			b.Fatal(err)
		}
	}
	done := measure(b)
	for range b.N {
		var after uint64
		for {
			evs, err := s.ReadAll(ctx, after, page)
			if err != nil {
				b.Fatal(err)
			}
			if len(evs) == 0 {
				break
			}
			after = evs[len(evs)-1].Position
		}
		if after != total {
			b.Fatalf("read up to %d, want %d", after, total)
		}
	}
	done(b.N * total)
}

// BenchmarkSubscriptionLive: a live subscriber receiving what 64 appenders
// append; the time runs until it has received every event.
func BenchmarkSubscriptionLive(b *testing.B) {
	s := openBench(b)
	ctx := context.Background()
	sub, err := s.SubscribeAll(ctx, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer sub.Close()
	received := make(chan int)
	go func() {
		n := 0
		for {
			evs, err := sub.Next(ctx)
			if err != nil {
				close(received)
				return
			}
			n += len(evs)
			received <- n
		}
	}()
	done := measure(b)
	appendParallel(b, s)
	for n := range received {
		if n >= b.N {
			break
		}
	}
	done(b.N)
}

// BenchmarkLiveLatency: time from calling Append to the subscriber holding
// the event, one append at a time (includes the fsync).
func BenchmarkLiveLatency(b *testing.B) {
	s := openBench(b)
	ctx := context.Background()
	sub, err := s.SubscribeAll(ctx, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer sub.Close()
	b.ResetTimer()
	for range b.N {
		if _, err := s.Append(ctx, "x1.chat-1", es.Any, []es.EventData{benchEvent()}); err != nil {
			b.Fatal(err)
		}
		if _, err := sub.Next(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
