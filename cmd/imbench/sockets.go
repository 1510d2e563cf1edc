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
	pairs              int
	window             int // outstanding sends per sender
	warmup, measure    time.Duration
	maxMessages        int
	rate               int // latency run: messages/s in all
	latencyFor         time.Duration
	drain              time.Duration // bound on waiting for replies and deliveries after a run
	registerParallel   int
	relay              bool // then measure the bare relay too, and the ratios

	prefix  string             // of the result keys of the target measured
	figures map[string]float64 // the results printed, by key
}

// result prints one figure of the target measured and keeps it.
func (cfg socketsConfig) result(key string, value float64, unit string) {
	cfg.figures[cfg.prefix+key] = value
	result(cfg.prefix+key, value, unit)
}

// runSockets registers 2×pairs members, befriends each pair, opens a socket
// per member and runs the delivery throughput, then the latency, runs.
func runSockets(ctx context.Context, args []string) error {
	var cfg socketsConfig
	fs := flag.NewFlagSet("sockets", flag.ContinueOnError)
	fs.StringVar(&cfg.addr, "addr", "", "server address host:port (required)")
	fs.StringVar(&cfg.dataDir, "data", "", "server data dir, for its SMS outbox (required)")
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
	fs.BoolVar(&cfg.relay, "relay", false, "then measure a bare gobwas/ws relay (no storage) the same way, and print the ratios server/relay")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cfg.addr == "" || cfg.dataDir == "" || cfg.pairs <= 0 || cfg.window <= 0 || cfg.rate <= 0 {
		return errors.New("need -addr, -data, -pairs > 0, -window > 0 and -rate > 0")
	}
	cfg.figures = make(map[string]float64)
	srv := newServer(cfg.addr, cfg.dataDir)
	if err := srv.waitReady(ctx, 20*time.Second); err != nil {
		return err
	}
	setup := time.Now()
	ms, cs, err := connectPairs(ctx, srv, cfg)
	if err != nil {
		return err
	}
	detail("setup: %d members registered and logged in, %d pairs befriended, %d sockets open in %.1f s",
		len(ms), cfg.pairs, len(cs), time.Since(setup).Seconds())
	if err := measureSockets(ctx, cfg, ms, cs); err != nil || !cfg.relay {
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
	cs, err = dialAll(ctx, relay, ms, 16, wsclient.WithHeartbeat(10*time.Second), wsclient.WithPushBuffer(4096))
	if err != nil {
		return fmt.Errorf("relay: dial: %w", err)
	}
	detail("bare relay (gobwas/ws, no storage) at %s, pid %s, %d sockets open", addr, pid, len(cs))
	relayCfg := cfg
	relayCfg.pid, relayCfg.prefix = pid, "relay_"
	if err := measureSockets(ctx, relayCfg, ms, cs); err != nil {
		return err
	}
	for _, k := range []string{"deliver_per_s", "deliver_cpu_per_msg", "latency_p50", "latency_p99", "latency_ack_p99", "latency_cpu_per_msg"} {
		if r := cfg.figures["relay_"+k]; r > 0 {
			if s, ok := cfg.figures[k]; ok {
				result("ratio_"+k, s/r, "x")
			}
		}
	}
	return nil
}

// measureSockets runs the delivery throughput, then the latency, runs over
// the open sockets cs of members ms (pairs 2i, 2i+1), and closes them.
func measureSockets(ctx context.Context, cfg socketsConfig, ms []member, cs []*wsclient.Client) error {
	defer closeAll(cs)
	pairs := make([]pairConn, cfg.pairs)
	var current atomic.Pointer[phase]
	rcv := &receiver{current: &current}
	for i := range pairs {
		pairs[i] = pairConn{sender: cs[2*i], to: ms[2*i+1].ID}
		rcv.drain(cs[2*i], ms[2*i+1].ID)
		rcv.drain(cs[2*i+1], ms[2*i].ID)
	}

	if err := runThroughput(ctx, cfg, pairs, &current); err != nil {
		return err
	}
	if err := runLatency(ctx, cfg, pairs, &current); err != nil {
		return err
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

// connectPairs registers 2×pairs members, befriends each pair (members 2i
// and 2i+1) and opens a socket per member, all within a bound of its own.
func connectPairs(ctx context.Context, srv *server, cfg socketsConfig) ([]member, []*wsclient.Client, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	ms, err := registerMembers(ctx, srv, 2*cfg.pairs, 0, cfg.registerParallel)
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
	cs, err := dialAll(ctx, srv, ms, 16, wsclient.WithHeartbeat(10*time.Second), wsclient.WithPushBuffer(4096))
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
