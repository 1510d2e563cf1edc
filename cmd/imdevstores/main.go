// Command imdevstores runs the production profile's stores in one process,
// for a dev cluster on one machine without Docker: the ESDB protocol double
// (esdbtest, on SQLite), FerretDB on SQLite and nats-server with JetStream,
// each on a loopback address, their files in one directory that a restart
// finds again. It prints each store's connection string, then "ready", and
// runs until SIGINT or SIGTERM. scripts/cluster starts it beside the nodes.
//
// It is dev tooling, not part of the server: the double is not EventStoreDB
// and FerretDB on SQLite is not MongoDB, in behaviour or in performance.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"

	"github.com/eventchat/eventchat/adapters/eventstore/esdb/esdbtest"
	"github.com/eventchat/eventchat/adapters/readstore/mongo/ferrettest"
)

func main() {
	fs := flag.NewFlagSet("imdevstores", flag.ContinueOnError)
	dir := fs.String("dir", "data/cluster/stores", "directory of the stores' files, kept between runs")
	esdbAddr := fs.String("esdb", "127.0.0.1:2113", "listen address of the ESDB protocol double")
	mongoAddr := fs.String("mongo", "127.0.0.1:27017", "listen address of FerretDB")
	natsAddr := fs.String("nats", "127.0.0.1:4222", "listen address of nats-server")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *dir, *esdbAddr, *mongoAddr, *natsAddr); err != nil {
		fmt.Fprintln(os.Stderr, "imdevstores:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, dir, esdbAddr, mongoAddr, natsAddr string) error {
	for _, a := range []struct{ flag, addr string }{{"-esdb", esdbAddr}, {"-mongo", mongoAddr}, {"-nats", natsAddr}} {
		if err := free(a.addr); err != nil {
			return fmt.Errorf("%s %s: %w (another server listens there: pass another address)", a.flag, a.addr, err)
		}
	}
	mongoDir := filepath.Join(dir, "ferretdb")
	if err := os.MkdirAll(mongoDir, 0o700); err != nil {
		return err
	}
	double, err := esdbtest.StartAt(filepath.Join(dir, "esdb.db"), esdbAddr)
	if err != nil {
		return err
	}
	defer double.Close()
	ferret, err := ferrettest.StartAt(mongoDir, mongoAddr, os.Stderr)
	if err != nil {
		return err
	}
	defer ferret.Stop()
	host, port, err := net.SplitHostPort(natsAddr)
	if err != nil {
		return fmt.Errorf("-nats %s: %w", natsAddr, err)
	}
	var portN int
	if _, err := fmt.Sscan(port, &portN); err != nil {
		return fmt.Errorf("-nats %s: bad port", natsAddr)
	}
	ns, err := natsserver.NewServer(&natsserver.Options{Host: host, Port: portN, JetStream: true,
		StoreDir: filepath.Join(dir, "nats"), NoSigs: true})
	if err != nil {
		return fmt.Errorf("nats-server: %w", err)
	}
	ns.Start()
	defer func() {
		ns.Shutdown()
		ns.WaitForShutdown()
	}()
	if !ns.ReadyForConnections(10 * time.Second) {
		return errors.New("nats-server did not start listening within 10 s")
	}
	fmt.Println("esdb", double.ConnectionString())
	fmt.Println("mongodb", ferret.URI)
	fmt.Println("nats", ns.ClientURL())
	fmt.Println("ready")
	<-ctx.Done()
	return nil
}

// free tells whether addr can be listened on.
func free(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return ln.Close()
}
