package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("scripts/cluster", Label("fault"), func() {
	It("runs two nodes on the stores' doubles as processes, carries a message sent through one to the other, and stops everything on SIGTERM", func() {
		root, err := filepath.Abs("../..")
		Expect(err).NotTo(HaveOccurred())
		dir := GinkgoT().TempDir()
		nodePort, stores := consecutiveFreePorts(2), []int{freePort(), freePort(), freePort()}
		cmd := exec.Command(filepath.Join(root, "scripts", "cluster"), "--for", "2m", "--dir", dir,
			"--node-port", fmt.Sprint(nodePort), "--esdb-port", fmt.Sprint(stores[0]),
			"--mongo-port", fmt.Sprint(stores[1]), "--nats-port", fmt.Sprint(stores[2]))
		cmd.Dir = root
		out, err := cmd.StdoutPipe()
		Expect(err).NotTo(HaveOccurred())
		cmd.Stderr = cmd.Stdout
		Expect(cmd.Start()).To(Succeed())
		var (
			mu     sync.Mutex
			output strings.Builder
			urls   = map[string]string{}
		)
		var end error
		exited := make(chan struct{}) // closed once the script has ended, with end its error
		go func() {
			lines := bufio.NewScanner(out)
			for lines.Scan() {
				mu.Lock()
				output.WriteString(lines.Text() + "\n")
				if f := strings.Fields(lines.Text()); len(f) == 3 && f[2] == "ready" {
					urls[f[0]] = f[1]
				}
				mu.Unlock()
			}
			end = cmd.Wait()
			close(exited)
		}()
		DeferCleanup(func() {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			Eventually(exited, 45*time.Second).Should(BeClosed())
		})
		shown := func() string {
			mu.Lock()
			defer mu.Unlock()
			return output.String()
		}
		Eventually(func() int {
			mu.Lock()
			defer mu.Unlock()
			return len(urls)
		}, 90*time.Second, 200*time.Millisecond).Should(Equal(2), shown)
		// imctl's status is printed after the nodes' ready lines.
		Eventually(shown, 30*time.Second).Should(MatchRegexp(`leader: node-\d`))

		one := &testServer{base: urls["node-1"], dataDir: filepath.Join(dir, "node-1")}
		two := &testServer{base: urls["node-2"], dataDir: filepath.Join(dir, "node-2")}
		Expect(one.base).To(Equal(fmt.Sprintf("http://127.0.0.1:%d", nodePort)))
		for _, s := range []*testServer{one, two} {
			resp, err := http.Get(s.base + "/readyz")
			Expect(err).NotTo(HaveOccurred())
			resp.Body.Close()
			Expect(resp.StatusCode).To(Equal(http.StatusOK))
		}
		alice, bob := one.register("alice001"), one.register("bob00001")
		one.befriend(alice, bob)
		onTwo := two.dial(bob) // bob's token, signed by node 1, is good on node 2
		sent := one.send(alice, bob, "through-one", "sent through node 1")
		Expect(next(onTwo, 11).Data).To(ContainSubstring("sent through node 1"))
		var history []struct{ ID, Content string }
		two.ok("GET", fmt.Sprintf("/v1/message/messagePush/history/list/page?friendMemberId=%s&after=%d", alice.ID, sent.Position),
			bob.Token, nil, &history)
		Expect(history).To(HaveLen(1))
		Expect(history[0].ID).To(Equal(sent.ID))
		Expect(history[0].Content).To(Equal("sent through node 1"))

		Expect(cmd.Process.Signal(syscall.SIGTERM)).To(Succeed())
		Eventually(exited, 45*time.Second).Should(BeClosed())
		Expect(end).NotTo(HaveOccurred(), shown)
		Expect(processesOf(dir)).To(BeEmpty(), "processes of the cluster still running")
	})
})

// processesOf lists the processes whose command line or environment names
// dir: the stores (-dir) and the nodes (IM_DATA_DIR) of a cluster there.
func processesOf(dir string) []string {
	GinkgoHelper()
	procs, err := filepath.Glob("/proc/[0-9]*")
	Expect(err).NotTo(HaveOccurred())
	var found []string
	for _, p := range procs {
		for _, f := range []string{"cmdline", "environ"} {
			b, err := os.ReadFile(filepath.Join(p, f))
			if err == nil && bytes.Contains(b, []byte(dir)) {
				found = append(found, filepath.Base(p)+" "+strings.ReplaceAll(string(b), "\x00", " "))
				break
			}
		}
	}
	return found
}

// freePort is a port of 127.0.0.1 nothing listens on now.
func freePort() int {
	GinkgoHelper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// consecutiveFreePorts is the first of n consecutive free ports of
// 127.0.0.1.
func consecutiveFreePorts(n int) int {
	GinkgoHelper()
	for range 100 {
		first := freePort()
		free := true
		for p := first + 1; p < first+n && free; p++ {
			ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
			if free = err == nil; free {
				ln.Close()
			}
		}
		if free {
			return first
		}
	}
	Fail(fmt.Sprintf("no %d consecutive free ports", n))
	return 0
}
