package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

// runRSS opens many authenticated sockets that send nothing and reports how
// much the server's resident set grew per 1,000 of them.
func runRSS(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("rss", flag.ContinueOnError)
	addr := fs.String("addr", "", "server address host:port (required)")
	dataDir := fs.String("data", "", "server data dir, for its SMS outbox (required)")
	pid := fs.String("pid", "", "server pid (required)")
	sockets := fs.Int("sockets", 1000, "idle sockets to open")
	members := fs.Int("members", 5, "members whose logins the sockets share")
	settle := fs.Duration("settle", 3*time.Second, "idle time before the second reading")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *addr == "" || *dataDir == "" || *pid == "" || *sockets <= 0 || *members <= 0 {
		return errors.New("need -addr, -data, -pid, -sockets > 0 and -members > 0")
	}
	srv := newServer(*addr, *dataDir)
	if err := srv.waitReady(ctx, 20*time.Second); err != nil {
		return err
	}
	ms, err := registerMembers(ctx, srv, *members, 0, *members)
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	before, err := minRSS(ctx, *pid, 5, 200*time.Millisecond)
	if err != nil {
		return err
	}
	logins := make([]member, *sockets)
	for i := range logins {
		logins[i] = ms[i%len(ms)]
	}
	cs, err := dialAll(ctx, func(int) *server { return srv }, logins, 16, wsclient.WithPushBuffer(8))
	if err != nil {
		return fmt.Errorf("dial: %w", err)
	}
	defer closeAll(cs)
	wait(ctx, *settle, nil)
	after, err := minRSS(ctx, *pid, 10, 200*time.Millisecond)
	if err != nil {
		return err
	}
	open := 0
	for _, c := range cs {
		if c.Err() == nil {
			open++
		}
	}
	if open < len(cs) {
		return fmt.Errorf("only %d of %d sockets stayed open", open, len(cs))
	}
	perThousand := float64(after-before) / 1024 * 1000 / float64(len(cs))
	result("rss_per_1000_sockets", perThousand, "MiB")
	detail("server VmRSS %.1f MiB before, %.1f MiB with %d idle sockets (%d logins shared): %.1f KiB per socket",
		float64(before)/1024, float64(after)/1024, len(cs), len(ms), float64(after-before)/float64(len(cs)))
	return ctx.Err()
}

// minRSS is the smallest of n readings of pid's VmRSS, every apart: the
// readings before and after a GC cycle differ, the floor is steadier.
func minRSS(ctx context.Context, pid string, n int, every time.Duration) (int64, error) {
	lowest := int64(-1)
	for i := range n {
		if i > 0 {
			wait(ctx, every, nil)
		}
		kb, err := rssKiB(pid)
		if err != nil {
			return 0, err
		}
		if lowest < 0 || kb < lowest {
			lowest = kb
		}
	}
	return lowest, nil
}
