package main

import (
	"bufio"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobwas/ws"

	"github.com/eventchat/eventchat/projections"
)

// The bare relay is the floor the server is measured against: gobwas/ws
// sockets speaking the part of the public websocket protocol the sockets
// benchmark uses (sealed frames, a send answered by a reply and pushed to
// its receiver, heartbeats), with no storage, no accounts and no fan-out
// beyond the one receiver. A member's token is its id and its frame key is
// relayKey(id), so the load generator needs no REST setup.

// relayKey is the frame key of relay member id.
func relayKey(id string) []byte {
	k := sha256.Sum256([]byte("imbench relay " + id))
	return k[:]
}

// relayMembers are n members of the relay, ids distinct from any server's.
func relayMembers(n int) []member {
	ms := make([]member, n)
	for i := range ms {
		id := strconv.Itoa(8_000_000 + i)
		ms[i] = member{ID: id, Token: id, Key: relayKey(id)}
	}
	return ms
}

// runRelay serves the bare relay on -addr until interrupted.
func runRelay(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("relay", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Println("listening", ln.Addr())
	return serveRelay(ctx, ln)
}

// serveRelay serves the relay on ln until ctx ends.
func serveRelay(ctx context.Context, ln net.Listener) error {
	r := &relay{conns: make(map[string]*relayConn)}
	mux := http.NewServeMux()
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	mux.HandleFunc("/message-ws", r.serve)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

type relay struct {
	mu    sync.RWMutex
	conns map[string]*relayConn
}

type relayConn struct {
	id   string
	conn net.Conn
	aead cipher.AEAD
	wmu  sync.Mutex
	wbuf []byte
}

func (r *relay) serve(w http.ResponseWriter, req *http.Request) {
	id := req.URL.Query().Get("token")
	if id == "" {
		http.Error(w, "no token", http.StatusUnauthorized)
		return
	}
	aead, err := newAEAD(relayKey(id))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	// The connection is registered under the lock its upgrade is answered
	// in: once a client has its answer, every send finds it.
	r.mu.Lock()
	conn, rw, _, err := ws.UpgradeHTTP(req, w)
	if err != nil {
		r.mu.Unlock()
		return
	}
	c := &relayConn{id: id, conn: conn, aead: aead}
	r.conns[id] = c
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		if r.conns[id] == c {
			delete(r.conns, id)
		}
		r.mu.Unlock()
		_ = conn.Close()
	}()
	_ = r.read(c, rw.Reader)
}

// relayFrame is what the relay reads of a client frame.
type relayFrame struct {
	Cmd  int             `json:"cmd"`
	ID   string          `json:"id"`
	Data json.RawMessage `json:"data"`
}

func (r *relay) read(c *relayConn, br *bufio.Reader) error {
	var payload, plain []byte
	var f relayFrame
	var to struct {
		To string `json:"to"`
	}
	for {
		h, err := ws.ReadHeader(br)
		if err != nil {
			return err
		}
		if h.Length > 1<<20 {
			return fmt.Errorf("frame of %d bytes", h.Length)
		}
		if int64(cap(payload)) < h.Length {
			payload = make([]byte, h.Length)
		}
		payload = payload[:h.Length]
		if _, err := io.ReadFull(br, payload); err != nil {
			return err
		}
		if h.Masked {
			ws.Cipher(payload, h.Mask, 0)
		}
		switch h.OpCode {
		case ws.OpClose:
			return c.write(ws.OpClose, nil)
		case ws.OpPing:
			if err := c.write(ws.OpPong, payload); err != nil {
				return err
			}
			continue
		case ws.OpText:
		default:
			continue
		}
		if plain, err = open(plain[:0], payload, c.aead); err != nil {
			return err
		}
		f = relayFrame{}
		if err := json.Unmarshal(plain, &f); err != nil {
			return err
		}
		if f.Cmd != projections.CmdMessage {
			continue // heartbeats
		}
		to.To = ""
		if err := json.Unmarshal(f.Data, &to); err != nil || len(f.Data) < 2 {
			return fmt.Errorf("send without a receiver: %s", f.Data)
		}
		r.mu.RLock()
		dst := r.conns[to.To]
		r.mu.RUnlock()
		if dst != nil {
			push := append([]byte(`{"cmd":11,"data":{"from":"`+c.id+`",`), f.Data[1:]...)
			push = append(push, '}')
			_ = dst.writeSealed(push)
		}
		reply := `{"cmd":11,"id":` + strconv.Quote(f.ID) + `,"code":"200","info":"ok","data":{}}`
		if err := c.writeSealed([]byte(reply)); err != nil {
			return err
		}
	}
}

func (c *relayConn) writeSealed(plain []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	sealed := seal(nil, c.aead, plain)
	buf := append(c.wbuf[:0], headerBytes(ws.OpText, len(sealed))...)
	c.wbuf = append(buf, sealed...)
	_, err := c.conn.Write(c.wbuf)
	return err
}

func (c *relayConn) write(op ws.OpCode, payload []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	buf := append(c.wbuf[:0], headerBytes(op, len(payload))...)
	c.wbuf = append(buf, payload...)
	_, err := c.conn.Write(c.wbuf)
	return err
}

func headerBytes(op ws.OpCode, n int) []byte {
	var b [ws.MaxHeaderSize]byte
	w := fixedWriter{buf: b[:0]}
	_ = ws.WriteHeader(&w, ws.Header{Fin: true, OpCode: op, Length: int64(n)})
	return w.buf
}

type fixedWriter struct{ buf []byte }

func (w *fixedWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	return len(p), nil
}

// The sealing of frame payloads, as the gateway does it:
// base64(nonce[12] || AES-256-GCM(plaintext)).

func newAEAD(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

func seal(dst []byte, aead cipher.AEAD, plain []byte) []byte {
	raw := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
	_, _ = rand.Read(raw)
	raw = aead.Seal(raw, raw[:aead.NonceSize()], plain, nil)
	return base64.StdEncoding.AppendEncode(dst, raw)
}

func open(dst, text []byte, aead cipher.AEAD) ([]byte, error) {
	raw, err := base64.StdEncoding.AppendDecode(dst, text)
	if err != nil || len(raw) < aead.NonceSize()+aead.Overhead() {
		return nil, errors.New("relay: frame cannot be decrypted")
	}
	n := aead.NonceSize()
	return aead.Open(raw[n:n], raw[:n], raw[n:], nil)
}

// startRelay runs this program's relay subcommand as a child process on a
// free port, and returns its address, its pid and how to stop it.
func startRelay() (addr, pid string, stop func(), err error) {
	self, err := os.Executable()
	if err != nil {
		return "", "", nil, err
	}
	cmd := exec.Command(self, "relay", "-addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", "", nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return "", "", nil, err
	}
	stop = func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if a, ok := strings.CutPrefix(strings.TrimSpace(line), "listening "); err == nil && ok {
		go func() { _, _ = io.Copy(io.Discard, out) }()
		return a, strconv.Itoa(cmd.Process.Pid), stop, nil
	}
	stop()
	return "", "", nil, fmt.Errorf("relay did not start: %q %v", line, err)
}
