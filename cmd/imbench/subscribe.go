package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/tenant"
)

// runSubscribe fills an event store, then has one subscriber read $all from
// position 0 to the head and reports the events delivered per second.
func runSubscribe(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("subscribe", flag.ContinueOnError)
	events := fs.Int("events", 100_000, "events to fill the store with")
	batch := fs.Int("batch", 500, "events per append while filling")
	limit := fs.Duration("timeout", 2*time.Minute, "give up filling or reading after this long")
	dirFlag := fs.String("dir", "", "directory for the store file (default: a temp dir, removed after)")
	kind := fs.String("store", "pebble", "event-store adapter: "+eventStoreKinds)
	esdbConn := fs.String("esdb", "", "EventStoreDB connection string for -store esdb")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *events <= 0 || *batch <= 0 {
		return errors.New("need -events > 0 and -batch > 0")
	}
	ctx, cancel := context.WithTimeout(ctx, *limit)
	defer cancel()
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

	// A real server may hold events already: read from the head as found.
	// The esdb adapter's own records share $all but not the subscription's
	// filter, so the read also ends once every filled event has come.
	from, err := store.Head(ctx)
	if err != nil {
		return fmt.Errorf("head: %w", err)
	}
	fillStart := time.Now()
	if err := fillBatches(ctx, store, *events, *batch); err != nil {
		return fmt.Errorf("fill: %w", err)
	}
	fillTime := time.Since(fillStart)
	head, err := store.Head(ctx)
	if err != nil {
		return fmt.Errorf("head: %w", err)
	}

	start := time.Now()
	sub, err := store.SubscribeAll(ctx, from)
	if err != nil {
		return fmt.Errorf("subscribe: %w", err)
	}
	defer sub.Close()
	got := 0
	for last := from; last < head && got < *events; {
		evs, err := sub.Next(ctx)
		if err != nil {
			return fmt.Errorf("subscription at %d of %d: %w", last, head, err)
		}
		got += len(evs)
		if len(evs) > 0 {
			last = evs[len(evs)-1].Position
		}
	}
	elapsed := time.Since(start)
	result("subscribe_per_s"+suffix, float64(got)/elapsed.Seconds(), "events/s")
	detail("%s: %d events read through $all from %d to %d in %.2f s; filled in %.1f s (%d per append)",
		*kind, got, from, head, elapsed.Seconds(), fillTime.Seconds(), *batch)
	return nil
}

// fillBatches appends n events of about 200 bytes, batch to an append, each
// append to a stream of its own.
func fillBatches(ctx context.Context, store benchLog, n, batch int) error {
	data, err := appendPayload()
	if err != nil {
		return err
	}
	md := es.Metadata{Tenant: tenant.Default, Actor: "7000000000000000001"}
	run := uuid.NewString()[:8]
	for done := 0; done < n; done += batch {
		md.Time = time.Now().UTC()
		evs := make([]es.EventData, min(batch, n-done))
		for i := range evs {
			evs[i] = es.EventData{ID: uuid.NewString(), Type: chat.TypeMessageSent, Data: data, Metadata: md}
		}
		stream := es.Stream(tenant.Default, es.CategoryChat, "sub"+run+strconv.Itoa(done))
		if _, err := store.Append(ctx, stream, es.NoStream, evs); err != nil {
			return err
		}
	}
	return nil
}
