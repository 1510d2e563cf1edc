package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
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

// buildServer builds this command's binary into dir and returns its path.
func buildServer(dir string) string {
	GinkgoHelper()
	bin := filepath.Join(dir, "imserver")
	goTool, err := exec.LookPath("go")
	Expect(err).NotTo(HaveOccurred(), "the go tool is needed to build the server")
	out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "go build: %s", out)
	return bin
}

// process is the server binary running as a child process.
type process struct {
	*testServer
	cmd    *exec.Cmd
	exited chan struct{} // closed once the process is reaped
	err    error         // Wait's answer, set before exited closes

	mu     sync.Mutex
	stderr strings.Builder
}

// launch starts bin on a free port of 127.0.0.1 over dataDir, with env
// (KEY=value) over the defaults, without waiting for it to listen. The
// node claims last 3 s, so that a restart after a kill waits little for
// its name. A failed spec shows the requests the process logged as failed.
func launch(bin, dataDir string, env ...string) (*process, <-chan string) {
	GinkgoHelper()
	cmd := exec.Command(bin)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "IM_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "IM_HTTP_ADDR=127.0.0.1:0", "IM_DATA_DIR="+dataDir, "IM_LOG_LEVEL=info", "IM_NODE_CLAIM_TTL=3s")
	cmd.Env = append(cmd.Env, env...)
	pipe, err := cmd.StderrPipe()
	Expect(err).NotTo(HaveOccurred())
	Expect(cmd.Start()).To(Succeed())
	p := &process{testServer: &testServer{dataDir: dataDir}, cmd: cmd, exited: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(pipe)
		lines.Buffer(make([]byte, 64<<10), 1<<20)
		for lines.Scan() {
			p.mu.Lock()
			p.stderr.WriteString(lines.Text() + "\n")
			p.mu.Unlock()
			var l struct{ Msg, Addr string }
			if json.Unmarshal(lines.Bytes(), &l) == nil && l.Msg == "imserver listening" {
				addr <- l.Addr
			}
		}
		p.err = cmd.Wait()
		close(p.exited)
	}()
	DeferCleanup(p.kill)
	DeferCleanup(func() {
		if CurrentSpecReport().Failed() {
			for _, line := range strings.Split(p.log(), "\n") {
				if strings.Contains(line, "request failed") {
					GinkgoWriter.Println(line)
				}
			}
		}
	})
	return p, addr
}

// startProcess starts bin over dataDir, with the settings env besides, and
// waits until it listens.
func startProcess(bin, dataDir string, env ...string) *process {
	GinkgoHelper()
	return listening(launch(bin, dataDir, env...))
}

// listening waits until p, launched, listens on the address it sends.
func listening(p *process, addr <-chan string) *process {
	GinkgoHelper()
	select {
	case a := <-addr:
		p.base = "http://" + a
	case <-p.exited:
		Fail(fmt.Sprintf("server exited before listening: %v\n%s", p.err, p.log()))
	case <-time.After(30 * time.Second):
		Fail("server did not listen in 30 s:\n" + p.log())
	}
	return p
}

func (p *process) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// kill ends the process with SIGKILL and reaps it.
func (p *process) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL) // fails only once it has exited
	<-p.exited
}

// stop asks the process to shut down and expects a clean exit.
func (p *process) stop() {
	GinkgoHelper()
	Expect(p.cmd.Process.Signal(syscall.SIGTERM)).To(Succeed())
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		p.kill()
		Fail("server did not stop in 30 s after SIGTERM")
	}
	Expect(p.err).NotTo(HaveOccurred(), "exit after SIGTERM:\n%s", p.log())
}

// waitReady waits until /readyz answers 200: projections have caught up
// with the log as it was at start.
func (p *process) waitReady() {
	GinkgoHelper()
	Eventually(func() (int, error) {
		status, _, err := p.ready()
		return status, err
	}).WithTimeout(40*time.Second).WithPolling(20*time.Millisecond).
		Should(Equal(http.StatusOK), "projections did not catch up")
}

// ready returns the status and text of /readyz.
func (p *process) ready() (int, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", p.base+"/readyz", nil)
	if err != nil {
		return 0, "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	text, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(text), err
}

// exitCode waits for a process that must stop by itself and returns its
// exit code.
func (p *process) exitCode() int {
	GinkgoHelper()
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		p.kill()
		Fail("server kept running:\n" + p.log())
	}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return ee.ExitCode()
	}
	Expect(p.err).NotTo(HaveOccurred())
	return 0
}

// killPast polls /readyz and SIGKILLs the process soon after its
// projections are past position from but still behind the log, returning
// where they were then. It reports false when they caught up first; the
// process then still runs.
func (p *process) killPast(from uint64) (uint64, bool) {
	GinkgoHelper()
	deadline := time.Now().Add(40 * time.Second)
	for time.Now().Before(deadline) {
		status, text, err := p.ready()
		if err != nil { // a slow answer under load: ask again
			continue
		}
		if status == http.StatusOK {
			return 0, false
		}
		var at, head uint64
		_, err = fmt.Sscanf(text, "projections catching up: %d of %d", &at, &head)
		Expect(err).NotTo(HaveOccurred(), "/readyz: %s", text)
		if at > from {
			// A moment later, so that the kill does not always fall
			// right after a commit.
			time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
			p.kill()
			return at, true
		}
		time.Sleep(time.Millisecond)
	}
	Fail("projections made no progress in 40 s")
	return 0, false
}
