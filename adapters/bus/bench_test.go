package bus_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/bus"
	"github.com/eventchat/eventchat/adapters/bus/bustest"
)

const benchBatch = 100

// benchDeliver publishes b.N batches of benchBatch deltas and waits until
// one subscriber received them all; it reports delivered deltas per second.
func benchDeliver(b *testing.B, bs bustest.Bus) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ds, err := bs.Deltas(ctx)
	if err != nil {
		b.Fatal(err)
	}
	batch := numbered(0, benchBatch)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range b.N * benchBatch {
			<-ds
		}
	}()
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		if err := bs.Publish(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	<-done
	b.ReportMetric(float64(b.N*benchBatch)/time.Since(start).Seconds(), "deltas/s")
}

func BenchmarkInProcessDeliver(b *testing.B) {
	bs := bus.NewInProcess()
	defer bs.Close()
	benchDeliver(b, bs)
}

func BenchmarkNATSDeliver(b *testing.B) {
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: b.TempDir(), NoLog: true, NoSigs: true})
	if err != nil {
		b.Fatal(err)
	}
	ns.Start()
	defer ns.Shutdown()
	if !ns.ReadyForConnections(5 * time.Second) {
		b.Fatal("nats not ready")
	}
	bs, err := bus.NewNATS(ns.ClientURL(), zap.NewNop())
	if err != nil {
		b.Fatal(err)
	}
	defer bs.Close()
	benchDeliver(b, bs)
}
