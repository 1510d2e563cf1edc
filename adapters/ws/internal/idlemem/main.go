// Command idlemem measures what idle authenticated sockets cost the gateway.
// It serves a gateway on 127.0.0.1, has a child process (itself, with -dial)
// open the sockets, so the clients' memory stays out of the figures, and
// reports the growth of the gateway process's RSS, heap and stacks.
//
//	go run ./adapters/ws/internal/idlemem -n 1000 [-warm]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/ws"
	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/projections"
)

var key = make([]byte, 32)

func main() {
	n := flag.Int("n", 1000, "sockets to open")
	warm := flag.Bool("warm", false, "have every socket send a heartbeat and receive a push before measuring")
	dial := flag.String("dial", "", "child mode: open the sockets to this url, then wait for stdin to close")
	flag.Parse()
	var err error
	if *dial != "" {
		err = runClients(*dial, *n, *warm)
	} else {
		err = measure(*n, *warm)
	}
	if err != nil {
		log.Fatal(err)
	}
}

// auth accepts the tokens m0, m1, ... as members of tenant x0001.
type auth struct{}

func (auth) Authenticate(_ context.Context, token string) (commands.Principal, []byte, error) {
	return commands.Principal{Tenant: "x0001", MemberID: token, SessionID: token}, key, nil
}

// feed hands the gateway the one push of -warm.
type feed chan projections.Delta

func (f feed) Deltas(context.Context) (<-chan projections.Delta, error) { return f, nil }

type usage struct {
	rss, heap, stack uint64
	goroutines       int
}

func sample() usage {
	runtime.GC()
	debug.FreeOSMemory()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return usage{rss: rss(), heap: m.HeapInuse, stack: m.StackInuse, goroutines: runtime.NumGoroutine()}
}

func measure(n int, warm bool) error {
	deltas := make(feed, 1)
	gw := ws.New(ws.Config{IdleTimeout: 10 * time.Minute}, auth{}, nil, zap.NewNop())
	go func() { _ = gw.Run(context.Background(), deltas) }()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go func() { _ = http.Serve(ln, gw) }()

	before := sample()
	self, err := os.Executable()
	if err != nil {
		return err
	}
	child := exec.Command(self, "-dial", "ws://"+ln.Addr().String()+"/message-ws", "-n", strconv.Itoa(n), "-warm="+strconv.FormatBool(warm))
	child.Stderr = os.Stderr
	stdin, err := child.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := child.StdoutPipe()
	if err != nil {
		return err
	}
	if err := child.Start(); err != nil {
		return err
	}
	lines := bufio.NewScanner(stdout)
	if warm {
		if !lines.Scan() || lines.Text() != "connected" {
			return errors.New("child failed to connect")
		}
		to := make([]string, n)
		for i := range to {
			to[i] = "m" + strconv.Itoa(i)
		}
		deltas <- projections.Delta{Tenant: "x0001", To: to, Cmd: projections.CmdOnline, Data: json.RawMessage(`{"online":true}`)}
	}
	if !lines.Scan() || lines.Text() != "ready" {
		return errors.New("child failed to get ready")
	}
	for gw.Connections() < n {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // let net/http's request goroutines end
	asIs := rss()
	sample() // two cycles: the stacks shrink on the first
	after := sample()

	per := func(a, b uint64) float64 { return float64(int64(b)-int64(a)) / float64(n) * 1000 / (1 << 20) }
	fmt.Printf("sockets: %d (warm=%v), server goroutines %d -> %d\n", n, warm, before.goroutines, after.goroutines)
	fmt.Printf("server RSS   %6.1f MiB -> %6.1f MiB: %5.2f MiB per 1000 sockets (before forcing GC and scavenging: %.2f)\n",
		mib(before.rss), mib(after.rss), per(before.rss, after.rss), per(before.rss, asIs))
	fmt.Printf("server heap  %6.1f MiB -> %6.1f MiB: %5.2f MiB per 1000 sockets\n", mib(before.heap), mib(after.heap), per(before.heap, after.heap))
	fmt.Printf("server stack %6.1f MiB -> %6.1f MiB: %5.2f MiB per 1000 sockets\n", mib(before.stack), mib(after.stack), per(before.stack, after.stack))

	_ = stdin.Close()
	return child.Wait()
}

func runClients(url string, n int, warm bool) error {
	ctx := context.Background()
	clients := make([]*wsclient.Client, n)
	for i := range clients {
		c, err := wsclient.Dial(ctx, url, "m"+strconv.Itoa(i), key)
		if err != nil {
			return fmt.Errorf("socket %d: %w", i, err)
		}
		clients[i] = c
	}
	if warm {
		for _, c := range clients {
			if _, err := c.Request(ctx, projections.CmdHeartbeat, nil); err != nil {
				return err
			}
		}
		fmt.Println("connected")
		for _, c := range clients {
			if _, err := c.Next(ctx); err != nil {
				return err
			}
		}
	}
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	for _, c := range clients {
		_ = c.Close()
	}
	return nil
}

func rss() uint64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }
