// Package assistantkeys keeps the tenants' chat-assistant provider keys in
// a file of the data directory, readable by the server's user only, so
// that they never enter the event log, its exports or the read models.
package assistantkeys

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// FileName is the key file's name in the data directory.
const FileName = "assistant-keys.json"

// File is the key file: a JSON object from tenant code to key.
type File struct {
	path string
	mu   sync.Mutex
	keys map[string]string
}

// Open reads the key file at path; a missing file holds no keys.
func Open(path string) (*File, error) {
	f := &File{path: path, keys: map[string]string{}}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return f, nil
	case err != nil:
		return nil, fmt.Errorf("assistant keys: %w", err)
	}
	if err := json.Unmarshal(b, &f.keys); err != nil {
		return nil, fmt.Errorf("assistant keys: %s is not a JSON object of tenant codes to keys: %w", path, err)
	}
	return f, nil
}

// AssistantKey returns tenant's key, "" when it has none.
func (f *File) AssistantKey(tenant string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.keys[tenant], nil
}

// SetAssistantKey keeps key for tenant, or forgets it when key is "": the
// file is replaced whole, synced, mode 0600.
func (f *File) SetAssistantKey(tenant, key string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	next := make(map[string]string, len(f.keys)+1)
	for t, k := range f.keys {
		next[t] = k
	}
	if key == "" {
		delete(next, tenant)
	} else {
		next[tenant] = key
	}
	b, err := json.MarshalIndent(next, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFile(f.path, b); err != nil {
		return fmt.Errorf("assistant keys: %w", err)
	}
	f.keys = next
	return nil
}

func writeFile(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".assistant-keys-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
