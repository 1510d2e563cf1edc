package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

// socketsConfig holds the flags of the sockets subcommand.
type socketsConfig struct {
	addr, dataDir, pid string
	// With several nodes, addr and dataDir list them comma separated:
	// members register through the first, and each pair's sockets are on
	// two different nodes.
	servers          []*server
	keys             string // prefix of the result keys
	first            int    // number of the first member's account
	esdb             string // the shared log, to report the lease holder's fold rate
	latencyFirst     bool
	pairs            int
	window           int // outstanding sends per sender
	warmup, measure  time.Duration
	maxMessages      int
	rate             int // latency run: messages/s in all
	latencyFor       time.Duration
	drain            time.Duration // bound on waiting for replies and deliveries after a run
	registerParallel int
	relay            bool // then measure the bare relay too, and the ratios

	figures map[string]float64 // the results printed, by key
}

// result prints one figure of the target measured, under cfg.keys, and
// keeps it.
func (cfg socketsConfig) result(key string, value float64, unit string) {
	cfg.figures[cfg.keys+key] = value
	result(cfg.keys+key, value, unit)
}

// runSockets registers 2×pairs members, befriends each pair, opens a socket
// per member and runs the delivery throughput, then the latency, runs.
func runSockets(ctx context.Context, args []string) error {
	var cfg socketsConfig
	fs := flag.NewFlagSet("sockets", flag.ContinueOnError)
	fs.StringVar(&cfg.addr, "addr", "", "server address host:port, or the nodes' addresses comma separated (required)")
	fs.StringVar(&cfg.dataDir, "data", "", "server data dir, for its SMS outbox, or the nodes' comma separated (required)")
	fs.StringVar(&cfg.keys, "keys", "", "prefix of the result keys")
	fs.IntVar(&cfg.first, "first", 0, "number of the first member's account, so that runs against one server do not collide")
	fs.StringVar(&cfg.esdb, "esdb", "", "the nodes' shared event store (esdb://...): report the events/s the lease holder folds in the throughput run")
	fs.StringVar(&cfg.pid, "pid", "", "server pid, to report its CPU use")
	fs.IntVar(&cfg.pairs, "pairs", 50, "sender/receiver pairs")
	fs.IntVar(&cfg.window, "window", 64, "throughput run: outstanding sends per sender")
	fs.DurationVar(&cfg.warmup, "warmup", 2*time.Second, "throughput run: sending before the measured window")
	fs.DurationVar(&cfg.measure, "measure", 10*time.Second, "throughput run: measured window")
	fs.IntVar(&cfg.maxMessages, "max", 1_000_000, "throughput run: stop after this many messages in all")
	fs.IntVar(&cfg.rate, "rate", 1000, "latency run: messages/s in all, spread over the pairs")
	fs.DurationVar(&cfg.latencyFor, "latency-for", 10*time.Second, "latency run: duration")
	fs.DurationVar(&cfg.drain, "drain", 20*time.Second, "bound on waiting for replies and deliveries after each run")
	fs.IntVar(&cfg.registerParallel, "register-parallel", 4, "members registered at a time")
	fs.BoolVar(&cfg.latencyFirst, "latency-first", false, "run the latency run before the throughput run, on stores that hold only the setup")
	fs.BoolVar(&cfg.relay, "relay", false, "then measure a bare gobwas/ws relay (no storage) the same way, and print the ratios server/relay")
	if err := fs.Parse(args); err != nil {
		return err
	}
	addrs, dirs := strings.Split(cfg.addr, ","), strings.Split(cfg.dataDir, ",")
	if cfg.addr == "" || cfg.dataDir == "" || len(addrs) != len(dirs) || cfg.pairs <= 0 || cfg.window <= 0 || cfg.rate <= 0 || cfg.first < 0 {
		return errors.New("need -addr, -data (as many), -pairs > 0, -window > 0, -rate > 0 and -first >= 0")
	}
	cfg.figures = make(map[string]float64)
	for i := range addrs {
		srv := newServer(addrs[i], dirs[i])
		if err := srv.waitReady(ctx, 20*time.Second); err != nil {
			return err
		}
		cfg.servers = append(cfg.servers, srv)
	}
	var probe *foldProbe
	if cfg.esdb != "" {
		var err error
		if probe, err = newFoldProbe(ctx, cfg.servers, dirs[0], cfg.esdb); err != nil {
			return err
		}
		defer probe.Close()
	}

	setup := time.Now()
	ms, cs, err := connectPairs(ctx, cfg)
	if err != nil {
		return err
	}
	detail("setup: %d members registered and logged in, %d pairs befriended, %d sockets open on %d nodes in %.1f s",
		len(ms), cfg.pairs, len(cs), len(cfg.servers), time.Since(setup).Seconds())
	if err := measureSockets(ctx, cfg, ms, cs, probe, cfg.nodeOf); err != nil || !cfg.relay {
		return err
	}

	addr, pid, stop, err := startRelay()
	if err != nil {
		return err
	}
	defer stop()
	relay := newServer(addr, "")
	if err := relay.waitReady(ctx, 10*time.Second); err != nil {
		return err
	}
	ms = relayMembers(2 * cfg.pairs)
	cs, err = dialAll(ctx, func(int) *server { return relay }, ms, 16, wsclient.WithHeartbeat(10*time.Second), wsclient.WithPushBuffer(4096))
	if err != nil {
		return fmt.Errorf("relay: dial: %w", err)
	}
	detail("bare relay (gobwas/ws, no storage) at %s, pid %s, %d sockets open", addr, pid, len(cs))
	relayCfg := cfg
	relayCfg.pid, relayCfg.keys = pid, cfg.keys+"relay_"
	if err := measureSockets(ctx, relayCfg, ms, cs, nil, nil); err != nil {
		return err
	}
	for _, k := range []string{"deliver_per_s", "deliver_cpu_per_msg", "latency_p50", "latency_p99", "latency_ack_p99", "latency_cpu_per_msg"} {
		if r := cfg.figures[cfg.keys+"relay_"+k]; r > 0 {
			if s, ok := cfg.figures[cfg.keys+k]; ok {
				result(cfg.keys+"ratio_"+k, s/r, "x")
			}
		}
	}
	return nil
}

// measureSockets runs the delivery throughput and the latency runs (in the
// order cfg asks) over the open sockets cs of members ms (pairs 2i, 2i+1),
// and closes them. probe, if any, reports the lease holder's fold rate.
// nodeOf, nil on the relay, is the server of member i, which a receiver
// told to resync reads its chat back from.
func measureSockets(ctx context.Context, cfg socketsConfig, ms []member, cs []*wsclient.Client, probe *foldProbe, nodeOf func(int) *server) error {
	defer closeAll(cs)
	pairs := make([]pairConn, cfg.pairs)
	var current atomic.Pointer[phase]
	rcv := &receiver{current: &current}
	for i := range pairs {
		pairs[i] = pairConn{sender: cs[2*i], to: ms[2*i+1].ID}
		if nodeOf != nil {
			pairs[i].readBack = nodeOf(2*i+1).chatReader(ms[2*i+1], ms[2*i].ID)
		}
		rcv.drain(cs[2*i], ms[2*i+1].ID, -1)
		rcv.drain(cs[2*i+1], ms[2*i].ID, i)
	}

	disk := "" // the relay stores nothing
	if nodeOf != nil {
		disk = cfg.servers[0].dataDir
	}
	runs := []func() error{
		func() error { return runThroughput(ctx, cfg, pairs, &current, probe) },
		func() error { return runLatency(ctx, cfg, pairs, &current, disk) },
	}
	if cfg.latencyFirst {
		runs[0], runs[1] = runs[1], runs[0]
	}
	for _, run := range runs {
		if err := run(); err != nil {
			return err
		}
	}
	current.Store(nil)
	lost, dropped := 0, uint64(0)
	for _, c := range cs {
		if c.Err() != nil {
			lost++
		}
		dropped += c.Dropped()
	}
	detail("sockets lost during the runs: %d; pushes dropped by the client: %d; error frames: %d",
		lost, dropped, rcv.errors.Load())
	if lost > 0 {
		return fmt.Errorf("%d sockets ended during the runs", lost)
	}
	return nil
}

// nodeOf is the server member i's socket is on (see connectPairs).
func (cfg socketsConfig) nodeOf(i int) *server { return cfg.servers[(i/2+i%2)%len(cfg.servers)] }

// connectPairs registers 2×pairs members, befriends each pair (members 2i
// and 2i+1) and opens a socket per member, all within a bound of its own.
// On several nodes, pair i's sender is on node i and its receiver on the
// next (modulo the nodes): every message crosses nodes, and each node
// takes as many sends as it pushes.
func connectPairs(ctx context.Context, cfg socketsConfig) ([]member, []*wsclient.Client, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	srv := cfg.servers[0]
	ms, err := registerMembers(ctx, srv, 2*cfg.pairs, cfg.first, cfg.registerParallel)
	if err != nil {
		return nil, nil, fmt.Errorf("register: %w", err)
	}
	if err := forEach(ctx, cfg.pairs, cfg.registerParallel, func(ctx context.Context, i int) error {
		return srv.befriend(ctx, ms[2*i], ms[2*i+1])
	}); err != nil {
		return nil, nil, fmt.Errorf("befriend: %w", err)
	}
	// Heartbeats as the web client sends them keep receivers, which send
	// nothing else, from the server's idle timeout.
	cs, err := dialAll(ctx, cfg.nodeOf, ms, 16, wsclient.WithHeartbeat(10*time.Second), wsclient.WithPushBuffer(4096))
	if err != nil {
		return nil, nil, fmt.Errorf("dial: %w", err)
	}
	return ms, cs, nil
}

// reportProblems tells what went wrong in a run besides what it measures.
func reportProblems(ph *phase) {
	if ph.failedN.Load() > 0 || ph.rejectedN.Load() > 0 {
		first := ""
		if p := ph.firstProblem.Load(); p != nil {
			first = "; first: " + *p
		}
		detail("sends failed: %d, refused: %d%s", ph.failedN.Load(), ph.rejectedN.Load(), first)
	}
}

// reportCPU prints the server's CPU use as the figure key and its CPU time
// per message as key's "_per_msg" sibling (messages: those delivered in the
// window measured), and both processes' use as a detail.
func reportCPU(cfg socketsConfig, key string, server, self cpuUse, perSecond float64, messages int64) {
	s := "server CPU unknown"
	if server.known {
		cfg.result(key, server.cores, "cores")
		if messages > 0 {
			cfg.result(strings.TrimSuffix(key, "_server_cpu")+"_cpu_per_msg", float64(server.total.Microseconds())/float64(messages), "µs")
		}
		s = fmt.Sprintf("server CPU %.2f cores", server.cores)
		if perSecond > 0 {
			s += fmt.Sprintf(" (%.0f µs per message)", server.cores*1e6/perSecond)
		}
	}
	if self.known {
		s += fmt.Sprintf(", load generator %.2f cores", self.cores)
	}
	detail("%s", s)
}
