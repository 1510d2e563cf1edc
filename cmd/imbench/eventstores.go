package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/eventchat/eventchat/adapters/eventstore/esdb"
	"github.com/eventchat/eventchat/adapters/eventstore/esdb/esdbtest"
	pebblestore "github.com/eventchat/eventchat/adapters/eventstore/pebble"
	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	"github.com/eventchat/eventchat/commands"
)

// benchLog is what the event-store figures need of an adapter.
type benchLog interface {
	commands.EventStore
	commands.LiveLog
}

// eventStoreKinds names the adapters -store accepts.
const eventStoreKinds = "sqlite, pebble, esdbtest (the in-process double) or esdb (a real server at -esdb)"

// openEventStore opens the adapter kind with its files in dir; suffix is
// appended to the result keys so that each adapter has figures of its own
// ("" for Pebble, the server's default, which keeps the original keys).
func openEventStore(ctx context.Context, kind, esdbConn, dir string) (log benchLog, suffix string, closeAll func(), err error) {
	switch kind {
	case "sqlite":
		s, err := sqlitestore.Open(filepath.Join(dir, "events.db"))
		if err != nil {
			return nil, "", nil, err
		}
		return s, "_sqlite", func() { _ = s.Close() }, nil
	case "pebble":
		s, err := pebblestore.Open(filepath.Join(dir, "events"))
		if err != nil {
			return nil, "", nil, err
		}
		return s, "", func() { _ = s.Close() }, nil
	case "esdbtest":
		server, err := esdbtest.Start(filepath.Join(dir, "esdbtest.db"))
		if err != nil {
			return nil, "", nil, fmt.Errorf("start esdbtest: %w", err)
		}
		s, err := esdb.Open(ctx, server.ConnectionString())
		if err != nil {
			return nil, "", nil, errors.Join(fmt.Errorf("open esdb on the double: %w", err), server.Close())
		}
		return s, "_esdbtest", func() { _ = s.Close(); _ = server.Close() }, nil
	case "esdb":
		if esdbConn == "" {
			return nil, "", nil, errors.New("-store esdb needs -esdb <connection string>")
		}
		s, err := esdb.Open(ctx, esdbConn)
		if err != nil {
			return nil, "", nil, fmt.Errorf("open esdb: %w", err)
		}
		return s, "_esdb", func() { _ = s.Close() }, nil
	}
	return nil, "", nil, fmt.Errorf("-store %q: want %s", kind, eventStoreKinds)
}
