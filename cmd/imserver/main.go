// Command imserver runs the instant-messaging server: the REST API, the
// websocket gateway, the projections and the web client, on the embedded
// stores by default.
package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/authtoken"
	"github.com/eventchat/eventchat/adapters/authz"
	"github.com/eventchat/eventchat/adapters/blobstore"
	"github.com/eventchat/eventchat/adapters/blobstore/gridfs"
	"github.com/eventchat/eventchat/adapters/bus"
	"github.com/eventchat/eventchat/adapters/eventstore/esdb"
	pebblestore "github.com/eventchat/eventchat/adapters/eventstore/pebble"
	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	"github.com/eventchat/eventchat/adapters/httpapi"
	"github.com/eventchat/eventchat/adapters/idgen"
	"github.com/eventchat/eventchat/adapters/kek"
	"github.com/eventchat/eventchat/adapters/keystore"
	"github.com/eventchat/eventchat/adapters/password"
	"github.com/eventchat/eventchat/adapters/payments"
	"github.com/eventchat/eventchat/adapters/presence"
	mongoread "github.com/eventchat/eventchat/adapters/readstore/mongo"
	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/adapters/sealing"
	"github.com/eventchat/eventchat/adapters/smsoutbox"
	"github.com/eventchat/eventchat/adapters/ws"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/tenant"
	"github.com/eventchat/eventchat/nodes"
	"github.com/eventchat/eventchat/projections"
	"github.com/eventchat/eventchat/ui"

	"github.com/google/uuid"
)

func main() {
	cfg, err := loadConfig(os.Args[1:], os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "imserver: configuration:", err)
		os.Exit(2)
	}
	log, err := newLogger(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "imserver:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, log, nil); err != nil {
		log.Error("imserver stopped", zap.Error(err))
		_ = log.Sync()
		os.Exit(1)
	}
	_ = log.Sync()
}

func newLogger(cfg config) (*zap.Logger, error) {
	zc := zap.NewProductionConfig()
	zc.Level = zap.NewAtomicLevelAt(cfg.LogLevel)
	zc.Sampling = nil
	return zc.Build()
}

// run serves until ctx ends, then shuts down gracefully: in-flight requests
// finish, sockets get a close frame, projections stop between batches (each
// batch commits its checkpoints) and the event store drains its queue.
// listening, when set, is told the address once the server accepts.
func run(ctx context.Context, cfg config, log *zap.Logger, listening func(addr string)) error {
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	stored, err := openEventStore(ctx, cfg, log)
	if err != nil {
		return fmt.Errorf("IM_EVENTSTORE: %w", err)
	}
	defer stored.Close()
	reads, closeReads, err := openReadStore(ctx, cfg)
	if err != nil {
		return fmt.Errorf("IM_READSTORE: %w", err)
	}
	defer closeReads()
	keys, closeKeys, err := openKeys(cfg, reads)
	if err != nil {
		return err
	}
	defer closeKeys()
	sealer, err := newSealer(ctx, cfg, keys)
	if err != nil {
		return err
	}
	blind, err := sealer.Blind(ctx)
	if err != nil {
		return err
	}
	// Commands and projections read the log with personal fields open;
	// exports carry it as stored.
	events := sealing.NewStore(stored, sealer)
	if r, ok := reads.(interface{ Replaced() int64 }); ok && r.Replaced() != 0 {
		log.Info("read store of an older schema replaced; the projections fold the log from the start",
			zap.String("path", cfg.ReadStore), zap.Int64("oldSchemaVersion", r.Replaced()))
	}
	if r, ok := reads.(interface{ Discarded() bool }); ok && r.Discarded() {
		log.Warn("read store was open when the machine stopped, its files unsynced: discarded; the projections fold the log from the start",
			zap.String("path", cfg.ReadStore))
	}
	if err := readsWithinLog(ctx, events, reads, cfg); err != nil {
		return err
	}
	claims, closeClaims, err := openClaims(cfg, reads)
	if err != nil {
		return err
	}
	defer closeClaims()
	key, err := secret(ctx, cfg, claims)
	if err != nil {
		return err
	}
	node, err := nodes.Join(ctx, claims, cfg.NodeName, idgen.Nodes, cfg.NodeClaimTTL)
	switch {
	case errors.Is(err, nodes.ErrNameInUse):
		return fmt.Errorf("IM_NODE_NAME: %w", err)
	case err != nil:
		return fmt.Errorf("node claims: %w", err)
	}
	log.Info("node claims taken", zap.String("node", cfg.NodeName), zap.String("instance", node.Instance), zap.Int64("workerId", node.Worker))
	policy, err := authz.New()
	if err != nil {
		return err
	}
	tokens, err := authtoken.New(key, reads)
	if err != nil {
		return err
	}
	deltas, err := openBus(cfg, log.Named("bus"))
	if err != nil {
		return fmt.Errorf("IM_BUS: %w", err)
	}
	defer deltas.Close()

	counters, closeCounters, err := openCounters(cfg, reads)
	if err != nil {
		return err
	}
	defer closeCounters()
	blobs, closeBlobs, err := openBlobs(ctx, cfg, log.Named("blobs"))
	if err != nil {
		return fmt.Errorf("IM_BLOBSTORE: %w", err)
	}
	defer closeBlobs()
	ids := idgen.New(node.Worker, node.IDsUntil)
	lookups := projections.Lookups{Q: reads, Log: events}
	assistant, assistantPush, err := openAssistant(cfg, log.Named("assistant"))
	if err != nil {
		return err
	}
	app := commands.New(commands.Deps{
		Store: events, History: events, Stored: stored, Keys: sealer, Blind: blind, Authz: policy, Hasher: password.Bcrypt{}, Applies: reads, Uploads: blobs,
		Messages:   &lookups,
		Personal:   &lookups,
		Notices:    &lookups,
		Deliveries: &lookups,
		SMS:        smsoutbox.New(filepath.Join(cfg.DataDir, smsoutbox.FileName), log),
		NewID:      ids.Next, NewUUID: timeOrderedUUID, Now: time.Now, CallRingTimeout: cfg.CallRingTimeout,
		Payments: payments.Operator{}, TopUpTimeout: cfg.TopUpTimeout,
		Assistant: assistant,
	})
	if err := app.EnsureTenant(ctx, tenant.Default, "Default"); err != nil {
		return fmt.Errorf("default tenant: %w", err)
	}

	// The projections hand their deltas over without waiting on the bus.
	publisher := bus.NewAsync(deltas, bus.AsyncConfig{})
	defer func() { _ = publisher.Close() }()
	assistantPush.pub = publisher
	engine := projections.NewEngine(events, reads, publisher, catalog.Registry(),
		projections.All()...)
	search, err := engine.Trail(projections.Trailing()...)
	if err != nil {
		return err
	}
	lookups.Wait = engine.WaitFor
	// The lease names this instance, not only the node: an earlier
	// instance of the same name that resumes after a pause (its successor
	// took its claims) must fail to renew it, and must not free it on its
	// way out.
	engine.Elect(projections.Election{Owner: node.Owner(), TTL: cfg.LeaseTTL, Changed: leaderChanged(cfg, node.Owner(), log.Named("projections"))})
	head, err := events.Head(ctx)
	if err != nil {
		return err
	}
	shadowing, _ := reads.(projections.Shadowing)
	rebuilder := projections.NewRebuilder(engine, shadowing)
	engine.OnHeld = func(names []string) {
		_, err := rebuilder.Start("all")
		log.Info("new projector versions wait for a rebuild of the read store, started now",
			zap.Strings("projectors", names), zap.Error(err))
	}
	defer rebuilder.Close()
	shelf, err := sqliteread.NewShelf(filepath.Join(cfg.DataDir, auditDir))
	if err != nil {
		return err
	}
	replays, err := projections.NewReplays(engine, shelf, projections.DefaultReplayIdle)
	if err != nil {
		return fmt.Errorf("audit replays: %w", err)
	}
	replays.Opener = sealer
	defer func() { _ = replays.Close() }()
	app.Replays = replays

	gwCfg := ws.Config{AllowedOrigins: cfg.AllowedOrigins, Friends: reads}
	var cluster *presence.Cluster
	if cfg.Deltas.Kind == kindNATS {
		announcements, err := bus.NewAnnouncements(cfg.Deltas.URL, bus.DefaultAnnouncements, log.Named("presence"))
		if err != nil {
			return fmt.Errorf("IM_BUS: %w", err)
		}
		defer announcements.Close()
		cluster = presence.New(cfg.NodeName, cfg.PresenceTTL, announcements, log.Named("presence"))
		gwCfg.Cluster = cluster
	}
	gateway := ws.New(gwCfg, tokens, app, log.Named("ws"))
	api := httpapi.New(httpapi.Deps{
		Commands: app, Queries: reads, Tokens: tokens, Projections: engine, Search: search, Log: events,
		Socket: gateway, UI: webClient(), Blobs: blobs, Presence: gateway,
		Admin: projectionAdmin{engine, rebuilder}, Replays: replays, Counters: counters,
		Ready: func() error {
			if p := engine.Position(); p < head {
				return fmt.Errorf("projections catching up: %d of %d", p, head)
			}
			return nil
		},
	}, log.Named("http"))

	// Workers stop after the HTTP server has drained, so that in-flight
	// requests still see projections and deltas.
	workers, stopWorkers := context.WithCancel(context.Background())
	defer stopWorkers()
	failed := make(chan error, 4)
	var working sync.WaitGroup
	work := func(f func()) {
		working.Add(1)
		go func() {
			defer working.Done()
			f()
		}()
	}
	work(func() {
		claimLog := log.Named("nodes")
		err := node.Keep(workers, func(err error) {
			claimLog.Warn("node claims not renewed; no new ids after their end", zap.Error(err), zap.Time("idsUntil", node.IDsUntil()))
		})
		if err != nil {
			failed <- err
		}
	})
	work(func() { restarting(workers, "projections", engine.Run, log.Named("projections")) })
	work(func() {
		follow := func(ctx context.Context) error { return app.Follow(ctx, events) }
		restarting(workers, "command caches", follow, log.Named("commands"))
	})
	work(func() { restarting(workers, "call timeouts", app.EndUnansweredCalls, log.Named("calls")) })
	work(func() { restarting(workers, "erasures cut short", app.SweepErasures, log.Named("erasure")) })
	work(func() { restarting(workers, "top-up expiry", app.ExpireTopUpsEvery(time.Second), log.Named("topup")) })
	work(func() { app.RunAssistant(workers) })
	if cluster != nil {
		work(func() {
			announce := func(ctx context.Context) error { return cluster.Run(ctx, gateway) }
			restarting(workers, "presence", announce, log.Named("presence"))
		})
	}
	work(func() {
		if err := gateway.Run(workers, deltas); err != nil {
			failed <- fmt.Errorf("gateway: %w", err)
		}
	})

	if cfg.PprofAddr != "" {
		go servePprof(cfg.PprofAddr, log)
	}
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: api, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			failed <- err
		}
	}()
	log.Info("imserver listening", zap.String("addr", ln.Addr().String()), zap.String("dataDir", cfg.DataDir))
	if listening != nil {
		listening(ln.Addr().String())
	}

	var runErr error
	select {
	case <-ctx.Done():
		log.Info("shutting down")
	case runErr = <-failed:
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		log.Warn("http shutdown", zap.Error(err))
	}
	if err := gateway.Shutdown(shutdown); err != nil {
		log.Warn("websocket shutdown", zap.Error(err))
	}
	stopWorkers()
	stopped := make(chan struct{})
	go func() {
		working.Wait()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-shutdown.Done():
	}
	return runErr
}

// leaderChanged logs who folds the log into the read store; a follower
// whose deltas travel in process tells that its sockets get none.
func leaderChanged(cfg config, owner string, log *zap.Logger) func(string) {
	return func(leader string) {
		switch {
		case leader == "":
		case leader == owner:
			log.Info("this node runs the projections")
		case cfg.Deltas.Kind != kindNATS:
			log.Warn("another node runs the projections, and IM_BUS=gochannel carries deltas within one process: "+
				"this node's websockets receive none; give every node the same IM_BUS=nats://...", zap.String("leader", leader))
		default:
			log.Info("another node runs the projections", zap.String("leader", leader))
		}
	}
}

// timeOrderedUUID makes version 7 UUIDs: event ids that grow with time keep
// the event store's id index appending at its end instead of writing a random
// page per event.
func timeOrderedUUID() string {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.NewString()
	}
	return id.String()
}

// restarting runs a worker until ctx ends, restarting it after a failure
// with a pause that grows while it keeps failing. A run that lasted longer
// than the longest pause starts the pauses over: failures hours apart
// (a store's connection lost) must not each stop the worker for 10 s, as
// when the projections fail while taking the lease over.
func restarting(ctx context.Context, name string, run func(context.Context) error, log *zap.Logger) {
	const first, longest = 100 * time.Millisecond, 10 * time.Second
	pause := first
	for {
		began := time.Now()
		err := run(ctx)
		if ctx.Err() != nil {
			return
		}
		if time.Since(began) > longest {
			pause = first
		}
		log.Error(name+" failed; restarting", zap.Error(err), zap.Duration("after", pause))
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return
		}
		pause = min(2*pause, longest)
	}
}

// eventStore is what the server needs of an event store adapter: every
// adapter is seen through the sealing decorator, which needs the same.
type eventStore = sealing.Log

// openReadStore opens the read models and returns how to close them.
func openReadStore(ctx context.Context, cfg config) (projections.ReadStore, func(), error) {
	if cfg.Reads.Kind == kindMongo {
		s, err := mongoread.Open(ctx, cfg.Reads.URL, readDatabase)
		if err != nil {
			return nil, nil, err
		}
		return s, closeWithin(s.Close), nil
	}
	s, err := sqliteread.Open(cfg.ReadStore)
	if err != nil {
		return nil, nil, err
	}
	return s, func() { _ = s.Close() }, nil
}

// deltaBus is what the server needs of the delta bus: the projections
// publish on it, the gateway reads it.
type deltaBus interface {
	bus.Sink
	ws.DeltaSource
	Close() error
}

// openBus opens the bus IM_BUS names: NATS between nodes, else Go channels
// within this process.
func openBus(cfg config, log *zap.Logger) (deltaBus, error) {
	if cfg.Deltas.Kind == kindNATS {
		return bus.NewNATS(cfg.Deltas.URL, log)
	}
	return bus.NewInProcess(), nil
}

// blobs is what the server needs of a blob store.
type blobs interface {
	httpapi.Blobs
	commands.Uploads
}

// openBlobs opens the store of uploaded files and returns how to close it.
// GridFS keeps them in the read store's base database, beside the
// generations a rebuild replaces; every node collects the chunks of
// uploads a crash cut short until the store is closed.
func openBlobs(ctx context.Context, cfg config, log *zap.Logger) (blobs, func(), error) {
	if cfg.Blobs == blobsGridFS {
		s, err := gridfs.Open(ctx, cfg.Reads.URL, readDatabase, mongoread.BlobBucket)
		if err != nil {
			return nil, nil, err
		}
		collecting, stop := context.WithCancel(context.WithoutCancel(ctx))
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.Collect(collecting, gridfs.CollectEvery, func(deleted int64, err error) {
				switch {
				case err != nil:
					log.Warn("orphaned chunks of uploads not collected", zap.Error(err))
				case deleted > 0:
					log.Info("orphaned chunks of uploads collected", zap.Int64("chunks", deleted))
				}
			})
		}()
		return s, func() {
			stop()
			<-done
			closeWithin(s.Close)()
		}, nil
	}
	s, err := blobstore.New(filepath.Join(cfg.DataDir, blobstore.Dir))
	if err != nil {
		return nil, nil, err
	}
	return s, func() {}, nil
}

// closeWithin closes a store of a server it reaches over the network,
// giving it 10 s to end its calls.
func closeWithin(close func(context.Context) error) func() {
	return func() {
		c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = close(c)
	}
}

// openClaims opens the nodes' claims kept with the read store.
func openClaims(cfg config, reads projections.ReadStore) (nodes.Claims, func(), error) {
	if claims, ok := reads.(nodes.Claims); ok {
		return claims, func() {}, nil
	}
	claims, err := sqliteread.OpenClaims(sqliteread.ClaimsPath(cfg.ReadStore))
	if err != nil {
		return nil, nil, fmt.Errorf("IM_READSTORE: %w", err)
	}
	return claims, func() { _ = claims.Close() }, nil
}

// openCounters opens the rate limits' counters kept with the read store.
func openCounters(cfg config, reads projections.ReadStore) (httpapi.Counters, func(), error) {
	if counters, ok := reads.(httpapi.Counters); ok {
		return counters, func() {}, nil
	}
	counters, err := sqliteread.OpenCounters(sqliteread.CountersPath(cfg.ReadStore))
	if err != nil {
		return nil, nil, fmt.Errorf("IM_READSTORE: %w", err)
	}
	return counters, func() { _ = counters.Close() }, nil
}

// openKeys opens the members' data keys: kept with the read store when it
// keeps them (MongoDB), else in their own file in the data directory.
func openKeys(cfg config, reads projections.ReadStore) (sealing.Keys, func(), error) {
	if keys, ok := reads.(sealing.Keys); ok {
		return keys, func() {}, nil
	}
	keys, err := keystore.Open(filepath.Join(cfg.DataDir, keystore.FileName))
	if err != nil {
		return nil, nil, err
	}
	return keys, func() { _ = keys.Close() }, nil
}

// newSealer returns the sealer of the events, its keys wrapped by the KEK
// IM_KEK names, once it has checked the key store goes with that KEK.
func newSealer(ctx context.Context, cfg config, keys sealing.Keys) (*sealing.Sealer, error) {
	var opts []sealing.Option
	switch kind, where, _ := strings.Cut(cfg.KEK, ":"); kind {
	case "file":
		k, err := kek.OpenFile(where)
		if err != nil {
			return nil, fmt.Errorf("IM_KEK: %w", err)
		}
		opts = append(opts, sealing.WrappedBy(k))
	case "vault":
		k, err := kek.NewVault(where, cfg.VaultToken)
		if err != nil {
			return nil, fmt.Errorf("IM_KEK: %w", err)
		}
		opts = append(opts, sealing.WrappedBy(k))
	}
	sealer := sealing.New(keys, catalog.Registry(), opts...)
	if err := sealer.CheckKEK(ctx); err != nil {
		return nil, fmt.Errorf("IM_KEK: %w", err)
	}
	return sealer, nil
}

// auditDir, in the data directory, holds the audit replays' read stores.
const auditDir = "audit"

// readDatabase is the MongoDB database of the read models.
const readDatabase = "eventchat"

func openEventStore(ctx context.Context, cfg config, log *zap.Logger) (eventStore, error) {
	switch cfg.Events.Kind {
	case kindESDB:
		return esdb.Open(ctx, cfg.Events.URL)
	case kindSQLite:
		return sqlitestore.Open(cfg.EventStore)
	}
	if err := migrateSQLiteLog(ctx, cfg, log); err != nil {
		return nil, err
	}
	return pebblestore.Open(cfg.EventStore)
}

// readsWithinLog refuses read models that have folded more of the log than
// the log holds: the log was lost or replaced, and serving them would leave
// every new event below their checkpoints unprojected.
func readsWithinLog(ctx context.Context, events eventStore, reads projections.ReadStore, cfg config) error {
	head, err := events.Head(ctx)
	if err != nil {
		return err
	}
	checkpoints, err := reads.Checkpoints(ctx)
	if err != nil {
		return err
	}
	for name, pos := range checkpoints {
		if pos > head {
			return fmt.Errorf("the read store %s has folded the log up to position %d (%s) but the event log %s ends at %d: "+
				"restore the event log, or remove the read store to rebuild it from the log", cfg.Reads, pos, name, cfg.Events, head)
		}
	}
	return nil
}

// servePprof serves the runtime profiles on their own listener, apart from
// the public API.
func servePprof(addr string, log *zap.Logger) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Info("profiles served", zap.String("addr", addr))
	if err := srv.ListenAndServe(); err != nil {
		log.Warn("profiles not served", zap.Error(err))
	}
}

// webClient returns the embedded web client, or nil when it was not built.
func webClient() http.FileSystem {
	dist, err := fs.Sub(ui.Dist, "dist")
	if err != nil {
		return nil
	}
	if _, err := fs.Stat(dist, "index.html"); err != nil {
		return nil
	}
	return http.FS(dist)
}

// projectionAdmin serves the admin API's projections routes.
type projectionAdmin struct {
	*projections.Engine
	rebuilder *projections.Rebuilder
}

func (a projectionAdmin) StartRebuild(name string) (projections.Rebuild, error) {
	return a.rebuilder.Start(name)
}

func (a projectionAdmin) RebuildProgress() projections.Rebuild { return a.rebuilder.Progress() }

func (a projectionAdmin) CancelRebuild() (projections.Rebuild, error) { return a.rebuilder.CancelRun() }
