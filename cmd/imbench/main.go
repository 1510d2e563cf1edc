// Command imbench measures the embedded profile: event-store appends and
// projection catch-up in process, and message delivery, send-to-delivery
// latency and idle-socket memory against a running imserver (or the nodes of
// scripts/cluster, with the lease holder's fold rate) over the public REST
// and websocket protocol. scripts/bench runs it and prints the figures next
// to their targets.
//
// Every subcommand prints its figures as "result <key> <value> <unit>" lines
// and its details as indented lines; every loop it runs is bounded in count
// and in time.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

type subcommand struct {
	summary string
	run     func(ctx context.Context, args []string) error
}

var subcommands = map[string]subcommand{
	"appends":   {"durable event-store appends/s from concurrent appenders (in process)", runAppends},
	"catchup":   {"projection catch-up events/s over a filled event store (in process)", runCatchup},
	"rebuild":   {"zero-downtime rebuild of every read model into a shadow, events/s (in process)", runRebuild},
	"subscribe": {"$all subscription events/s, one subscriber from 0 to the head (in process)", runSubscribe},
	"upserts":   {"read-store session upserts/s in batches with a checkpoint (in process)", runUpserts},
	"sockets":   {"delivered messages/s, then send-to-delivery latency, against a server or the nodes of a cluster", runSockets},
	"rss":       {"server RSS growth per 1,000 idle authenticated sockets", runRSS},
	"fsync":     {"fsync latency of the temp dir's disk, the floor under durable appends", runFsync},
	"relay":     {"serve a bare gobwas/ws relay, the floor sockets -relay measures the server against", runRelay},
	"freeport":  {"print a free TCP port on 127.0.0.1", runFreePort},
	"search":    {"search p50/p99 over folded messages and the fold's cost per message with text indexed (in process)", runSearch},
}

func main() {
	if len(os.Args) < 2 || subcommands[os.Args[1]].run == nil {
		usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := subcommands[os.Args[1]].run(ctx, os.Args[2:])
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "imbench %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: imbench <subcommand> [flags]   (imbench <subcommand> -h for its flags)")
	names := make([]string, 0, len(subcommands))
	for name := range subcommands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(os.Stderr, "  %-9s %s\n", name, subcommands[name].summary)
	}
}

// result prints one figure for scripts/bench.
func result(key string, value float64, unit string) {
	fmt.Printf("result %s %.6g %s\n", key, value, unit)
}

// detail prints a line of explanation under the figures.
func detail(format string, args ...any) {
	fmt.Printf("    "+format+"\n", args...)
}
