package mongoread_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	mongoread "github.com/eventchat/eventchat/adapters/readstore/mongo"
	"github.com/eventchat/eventchat/adapters/readstore/mongo/ferrettest"
	"github.com/eventchat/eventchat/projections"
)

// BenchmarkUpsertSessions reports session upserts per second in batches of
// 1000, against the embedded FerretDB and, when IM_TEST_MONGO is set,
// against MongoDB.
func BenchmarkUpsertSessions(b *testing.B) {
	server, err := ferrettest.Start(b.TempDir(), os.Stderr)
	if err != nil {
		b.Fatal(err)
	}
	defer server.Stop()
	b.Run("ferretdb", func(b *testing.B) { benchUpserts(b, server.URI) })
	b.Run("mongodb", func(b *testing.B) {
		if mongoURI == "" {
			b.Skip("IM_TEST_MONGO is not set")
		}
		benchUpserts(b, mongoURI)
	})
}

func benchUpserts(b *testing.B, uri string) {
	const batch = 1000
	ctx := context.Background()
	s, err := mongoread.Open(ctx, uri, fmt.Sprintf("eventchat_bench_%d", os.Getpid()))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close(ctx)
	defer s.DropDatabase(ctx)
	ss := make([]projections.Session, batch)
	b.ResetTimer()
	for i := range b.N {
		for j := range ss {
			ss[j] = projections.Session{Tenant: "x0001", Member: fmt.Sprintf("member-%d", j%5000),
				Peer: fmt.Sprintf("peer-%d", i), ChatType: "Friend", UnreadCount: i, LastMessageTime: int64(i)}
		}
		err := s.Update(ctx, func(tx projections.Tx) error {
			if err := tx.PutSessions(ctx, ss); err != nil {
				return err
			}
			return tx.SetCheckpoint(ctx, "bench", uint64(i))
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "upserts/s")
}
