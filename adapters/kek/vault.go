package kek

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Vault is a key of HashiCorp Vault's transit secrets engine: data keys are
// wrapped and unwrapped by Vault, and the key-encryption key never leaves
// it. Vault keeps the key's versions, so a rotation there needs nothing
// here.
type Vault struct {
	encrypt, decrypt string // endpoint URLs
	token            string
	client           *http.Client
}

// NewVault returns the transit key at address, of the form
// https://vault.example:8200/<mount>/<key> (the mount is usually
// "transit"), reached with token.
func NewVault(address, token string) (*Vault, error) {
	u, err := url.Parse(address)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("kek: %q: want http(s)://host:port/<mount>/<key>", address)
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) != 2 || parts[0] == "" || parts[1] == "" {
		return nil, fmt.Errorf("kek: %q: want the transit mount and key name as the path, such as /transit/eventchat", address)
	}
	if token == "" {
		return nil, fmt.Errorf("kek: no Vault token (VAULT_TOKEN)")
	}
	base := u.Scheme + "://" + u.Host + "/v1/" + url.PathEscape(parts[0])
	return &Vault{
		encrypt: base + "/encrypt/" + url.PathEscape(parts[1]),
		decrypt: base + "/decrypt/" + url.PathEscape(parts[1]),
		token:   token,
		client:  &http.Client{Timeout: 10 * time.Second},
	}, nil
}

// Wrap has Vault encrypt key; the wrapped key is Vault's ciphertext
// ("vault:v<version>:...").
func (v *Vault) Wrap(ctx context.Context, key []byte) ([]byte, error) {
	var out struct{ Ciphertext string }
	if err := v.call(ctx, v.encrypt, map[string]string{"plaintext": base64.StdEncoding.EncodeToString(key)}, &out); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(out.Ciphertext, "vault:") {
		return nil, fmt.Errorf("kek: Vault answered no ciphertext")
	}
	return []byte(out.Ciphertext), nil
}

// Unwrap has Vault decrypt what Wrap returned.
func (v *Vault) Unwrap(ctx context.Context, wrapped []byte) ([]byte, error) {
	var out struct{ Plaintext string }
	if err := v.call(ctx, v.decrypt, map[string]string{"ciphertext": string(wrapped)}, &out); err != nil {
		return nil, err
	}
	key, err := base64.StdEncoding.DecodeString(out.Plaintext)
	if err != nil {
		return nil, fmt.Errorf("kek: Vault's plaintext: %w", err)
	}
	return key, nil
}

// call posts body to endpoint and decodes the answer's data into out.
func (v *Vault) call(ctx context.Context, endpoint string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("X-Vault-Token", v.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := v.client.Do(req)
	if err != nil {
		return fmt.Errorf("kek: Vault: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("kek: Vault: %w", err)
	}
	var answer struct {
		Data   json.RawMessage
		Errors []string
	}
	if err := json.Unmarshal(raw, &answer); err != nil {
		return fmt.Errorf("kek: Vault answered %s: %w", resp.Status, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("kek: Vault answered %s: %s", resp.Status, strings.Join(answer.Errors, "; "))
	}
	if err := json.Unmarshal(answer.Data, out); err != nil {
		return fmt.Errorf("kek: Vault's data: %w", err)
	}
	return nil
}
