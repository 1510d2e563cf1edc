package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	mongoread "github.com/eventchat/eventchat/adapters/readstore/mongo"
	"github.com/eventchat/eventchat/adapters/readstore/mongo/ferrettest"
	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/projections"
)

const readStoreKinds = "sqlite, ferretdb (embedded) or mongo (a server at -mongo)"

// runUpserts writes batches of sessions with Tx.PutSessions, each batch in
// one ReadStore.Update with a checkpoint, and reports sessions upserted per
// second.
func runUpserts(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("upserts", flag.ContinueOnError)
	batches := fs.Int("batches", 100, "batches to write")
	batch := fs.Int("batch", 1000, "sessions per batch")
	members := fs.Int("members", 5000, "distinct members the sessions belong to")
	limit := fs.Duration("timeout", time.Minute, "stop writing after this long, reporting what was written")
	dirFlag := fs.String("dir", "", "directory for the store files (default: a temp dir, removed after)")
	kind := fs.String("store", "sqlite", "read-store adapter: "+readStoreKinds)
	mongoURI := fs.String("mongo", "", "MongoDB URI for -store mongo")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *batches <= 0 || *batch <= 0 || *members <= 0 {
		return errors.New("need -batches, -batch and -members > 0")
	}
	dir, cleanup, err := workDir(*dirFlag)
	if err != nil {
		return err
	}
	defer cleanup()
	store, suffix, closeStore, err := openReadStore(ctx, *kind, *mongoURI, dir)
	if err != nil {
		return err
	}
	defer closeStore()

	deadline := time.Now().Add(*limit)
	ss := make([]projections.Session, *batch)
	start := time.Now()
	written := 0
	for i := 0; i < *batches && time.Now().Before(deadline) && ctx.Err() == nil; i++ {
		for j := range ss {
			n := i*(*batch) + j
			ss[j] = projections.Session{Tenant: "x0001", Member: "member-" + strconv.Itoa(n%*members),
				Peer: "peer-" + strconv.Itoa(n / *members), ChatType: "Friend", LastMessageID: strconv.Itoa(n),
				LastMessageType: "Text", LastMessageContent: "on my way", LastMessageTime: int64(n), UnreadCount: i}
		}
		err := store.Update(ctx, func(tx projections.Tx) error {
			if err := tx.PutSessions(ctx, ss); err != nil {
				return err
			}
			return tx.SetCheckpoint(ctx, "bench", uint64(i+1))
		})
		if err != nil {
			return fmt.Errorf("batch %d: %w", i, err)
		}
		written += len(ss)
	}
	elapsed := time.Since(start)
	if written == 0 {
		return errors.New("no batch written in time")
	}
	result("upserts_per_s"+suffix, float64(written)/elapsed.Seconds(), "upserts/s")
	detail("%s: %d sessions in %d batches of %d, one Update with a checkpoint each, in %.2f s",
		*kind, written, written / *batch, *batch, elapsed.Seconds())
	return nil
}

// openReadStore opens the read-store adapter kind with its files in dir;
// suffix is appended to the result keys ("" for SQLite).
func openReadStore(ctx context.Context, kind, mongoURI, dir string) (store projections.ReadStore, suffix string, closeAll func(), err error) {
	switch kind {
	case "sqlite":
		s, err := sqliteread.Open(filepath.Join(dir, "read.db"))
		if err != nil {
			return nil, "", nil, err
		}
		return s, "", func() { _ = s.Close() }, nil
	case "ferretdb":
		server, err := ferrettest.Start(dir, io.Discard)
		if err != nil {
			return nil, "", nil, err
		}
		s, err := openMongo(ctx, server.URI)
		if err != nil {
			return nil, "", nil, errors.Join(err, server.Stop())
		}
		return s, "_ferretdb", func() { closeMongo(s); _ = server.Stop() }, nil
	case "mongo":
		if mongoURI == "" {
			return nil, "", nil, errors.New("-store mongo needs -mongo <uri>")
		}
		s, err := openMongo(ctx, mongoURI)
		if err != nil {
			return nil, "", nil, err
		}
		return s, "_mongo", func() { closeMongo(s) }, nil
	}
	return nil, "", nil, fmt.Errorf("-store %q: want %s", kind, readStoreKinds)
}

// openMongo opens a database of this run's own, dropped by closeMongo.
func openMongo(ctx context.Context, uri string) (*mongoread.Store, error) {
	s, err := mongoread.Open(ctx, uri, fmt.Sprintf("imbench_%d_%d", os.Getpid(), time.Now().Unix()))
	if err != nil {
		return nil, fmt.Errorf("open mongo read store: %w", err)
	}
	return s, nil
}

func closeMongo(s *mongoread.Store) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = s.DropDatabase(ctx)
	_ = s.Close(ctx)
}
