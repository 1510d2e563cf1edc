// Package vaulttest is a stand-in for HashiCorp Vault's transit secrets
// engine, as much of it as kek.Vault uses (encrypt, decrypt, key versions),
// on 127.0.0.1, for specs: it is no Vault.
package vaulttest

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Server serves one transit key, under the mount "transit".
type Server struct {
	// Address is the key's address for kek.NewVault.
	Address string
	// Token is the token it accepts.
	Token string

	http     *http.Server
	name     string
	mu       sync.Mutex
	versions []cipher.AEAD // version n at n-1
	calls    int
}

// Start serves the transit key name on a free port of 127.0.0.1.
func Start(name string) (*Server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{name: name, Token: "s." + randomText(24)}
	s.Address = "http://" + l.Addr().String() + "/transit/" + name
	s.Rotate()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/transit/encrypt/{key}", s.encrypt)
	mux.HandleFunc("POST /v1/transit/decrypt/{key}", s.decrypt)
	s.http = &http.Server{Handler: mux}
	go func() { _ = s.http.Serve(l) }()
	return s, nil
}

// Close stops serving.
func (s *Server) Close() error { return s.http.Close() }

// Rotate makes a new version of the key, which encrypts from then on; the
// older ones still decrypt.
func (s *Server) Rotate() {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	block, _ := aes.NewCipher(key)
	aead, _ := cipher.NewGCM(block)
	s.mu.Lock()
	s.versions = append(s.versions, aead)
	s.mu.Unlock()
}

// Calls is how many encrypt and decrypt requests it answered.
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

func (s *Server) encrypt(w http.ResponseWriter, r *http.Request) {
	var in struct{ Plaintext string }
	if !s.accept(w, r, &in) {
		return
	}
	plain, err := base64.StdEncoding.DecodeString(in.Plaintext)
	if err != nil {
		fail(w, http.StatusBadRequest, "illegal base64 data")
		return
	}
	s.mu.Lock()
	v := len(s.versions)
	aead := s.versions[v-1]
	s.mu.Unlock()
	nonce := make([]byte, aead.NonceSize())
	_, _ = rand.Read(nonce)
	ct := aead.Seal(nonce, nonce, plain, nil)
	answer(w, map[string]any{"ciphertext": fmt.Sprintf("vault:v%d:%s", v, base64.StdEncoding.EncodeToString(ct)), "key_version": v})
}

func (s *Server) decrypt(w http.ResponseWriter, r *http.Request) {
	var in struct{ Ciphertext string }
	if !s.accept(w, r, &in) {
		return
	}
	parts := strings.SplitN(in.Ciphertext, ":", 3)
	if len(parts) != 3 || parts[0] != "vault" || !strings.HasPrefix(parts[1], "v") {
		fail(w, http.StatusBadRequest, "invalid ciphertext: no prefix")
		return
	}
	v, err := strconv.Atoi(parts[1][1:])
	ct, err2 := base64.StdEncoding.DecodeString(parts[2])
	s.mu.Lock()
	known := err == nil && v >= 1 && v <= len(s.versions)
	var aead cipher.AEAD
	if known {
		aead = s.versions[v-1]
	}
	s.mu.Unlock()
	if !known || err2 != nil || len(ct) < 12 {
		fail(w, http.StatusBadRequest, "invalid ciphertext")
		return
	}
	plain, err := aead.Open(nil, ct[:12], ct[12:], nil)
	if err != nil {
		fail(w, http.StatusBadRequest, "cipher: message authentication failed")
		return
	}
	answer(w, map[string]any{"plaintext": base64.StdEncoding.EncodeToString(plain)})
}

// accept checks the token and the key and decodes the body into in.
func (s *Server) accept(w http.ResponseWriter, r *http.Request, in any) bool {
	if r.Header.Get("X-Vault-Token") != s.Token {
		fail(w, http.StatusForbidden, "permission denied")
		return false
	}
	if r.PathValue("key") != s.name {
		fail(w, http.StatusBadRequest, "encryption key not found")
		return false
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(in); err != nil {
		fail(w, http.StatusBadRequest, "failed to parse JSON input: "+err.Error())
		return false
	}
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
	return true
}

func answer(w http.ResponseWriter, data any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
}

func fail(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": []string{msg}})
}

func randomText(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)[:n]
}
