package esdb_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/eventchat/eventchat/adapters/eventstore/esdb"
	"github.com/eventchat/eventchat/adapters/eventstore/esdb/esdbtest"
	"github.com/eventchat/eventchat/domain/es"
)

// These figures are of adapter + client + gRPC + the SQLite-backed double,
// not of EventStoreDB.

func benchStore(b *testing.B) *esdb.Store {
	b.Helper()
	server, err := esdbtest.Start(filepath.Join(b.TempDir(), "esdb.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = server.Close() })
	store, err := esdb.Open(context.Background(), server.ConnectionString())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = store.Close() })
	return store
}

func benchEvents(n int) []es.EventData {
	out := make([]es.EventData, n)
	for i := range out {
		out[i] = es.EventData{
			ID:       uuid.NewString(),
			Type:     "BenchEvent",
			Data:     []byte(`{"text":"hello"}`),
			Metadata: es.Metadata{Tenant: "b", Time: time.Now().UTC()},
		}
	}
	return out
}

// BenchmarkAppendOnDouble appends one event at a time from 16 goroutines
// per core, each to a stream of its own.
func BenchmarkAppendOnDouble(b *testing.B) {
	store := benchStore(b)
	ctx := context.Background()
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		stream := es.Stream("b", es.CategoryChat, uuid.NewString())
		for pb.Next() {
			if _, err := store.Append(ctx, stream, es.Any, benchEvents(1)); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkSubscribeOnDouble delivers b.N stored events through SubscribeAll.
func BenchmarkSubscribeOnDouble(b *testing.B) {
	store := benchStore(b)
	ctx := context.Background()
	for done := 0; done < b.N; done += 500 {
		stream := es.Stream("b", es.CategoryChat, fmt.Sprint(done))
		if _, err := store.Append(ctx, stream, es.Any, benchEvents(min(500, b.N-done))); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	sub, err := store.SubscribeAll(ctx, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer sub.Close()
	for got := 0; got < b.N; {
		evs, err := sub.Next(ctx)
		if err != nil {
			b.Fatal(err)
		}
		got += len(evs)
	}
}
