package sqliteread

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/eventchat/eventchat/projections"
)

// Shelf keeps replays in a directory of their own, apart from the live
// store: replay id folds into <id>.db and is described by <id>.json; an
// export imported as replay id is staged in <id>.ndjson while it folds.
type Shelf struct{ dir string }

const stagedExt = ".ndjson"

var _ projections.ReplayShelf = (*Shelf)(nil)

// NewShelf returns the shelf in dir, creating it. A store with no record
// beside it is what a stop left of a verify's temporary store or of a
// replay that never got its record: it is removed, and so are staged
// exports, as no replay resumes.
func NewShelf(dir string) (*Shelf, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("sqliteread: replays: %w", err)
	}
	s := &Shelf{dir: dir}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("sqliteread: replays: %w", err)
	}
	for _, e := range entries {
		if id, staged := strings.CutSuffix(e.Name(), stagedExt); staged {
			if err := s.Unstage(id); err != nil {
				return nil, err
			}
			continue
		}
		id, isStore := strings.CutSuffix(strings.TrimSuffix(e.Name(), searchSuffix), ".db")
		if !isStore {
			continue
		}
		if _, err := os.Stat(s.path(id, ".json")); errors.Is(err, os.ErrNotExist) {
			if err := removeDB(s.path(id, ".db")); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

func (s *Shelf) path(id, ext string) string { return filepath.Join(s.dir, id+ext) }

// Create opens a new, empty store for replay id, removing any left.
func (s *Shelf) Create(id string) (projections.ReadStore, error) {
	if err := removeDB(s.path(id, ".db")); err != nil {
		return nil, err
	}
	return Open(s.path(id, ".db"))
}

// Open opens the store of replay id.
func (s *Shelf) Open(id string) (projections.ReadStore, error) {
	path := s.path(id, ".db")
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("sqliteread: replay %s: %w", id, err)
	}
	return Open(path)
}

// Close closes a store of the shelf.
func (s *Shelf) Close(store projections.ReadStore) error {
	st, ok := store.(*Store)
	if !ok {
		return fmt.Errorf("sqliteread: %T is not a replay store", store)
	}
	return st.Close()
}

// Remove removes replay id's store, record and staged export.
func (s *Shelf) Remove(id string) error {
	return errors.Join(removeFile(s.path(id, ".json")), s.Unstage(id), removeDB(s.path(id, ".db")))
}

// Stage creates the file an export to import as replay id is read into.
func (s *Shelf) Stage(id string) (io.WriteCloser, error) {
	f, err := os.OpenFile(s.path(id, stagedExt), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("sqliteread: stage replay %s: %w", id, err)
	}
	return f, nil
}

// Staged opens the export staged for replay id.
func (s *Shelf) Staged(id string) (io.ReadCloser, error) {
	f, err := os.Open(s.path(id, stagedExt))
	if err != nil {
		return nil, fmt.Errorf("sqliteread: staged replay %s: %w", id, err)
	}
	return f, nil
}

// Unstage removes the export staged for replay id.
func (s *Shelf) Unstage(id string) error { return removeFile(s.path(id, stagedExt)) }

// Save records r, atomically.
func (s *Shelf) Save(r projections.Replay) error {
	raw, err := json.Marshal(r)
	if err != nil {
		return err
	}
	tmp := s.path(r.ID, ".json.tmp")
	if err := os.WriteFile(tmp, raw, 0o600); err != nil {
		return fmt.Errorf("sqliteread: record replay %s: %w", r.ID, err)
	}
	if err := os.Rename(tmp, s.path(r.ID, ".json")); err != nil {
		return fmt.Errorf("sqliteread: record replay %s: %w", r.ID, err)
	}
	return nil
}

// List returns every recorded replay.
func (s *Shelf) List() ([]projections.Replay, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("sqliteread: replays: %w", err)
	}
	var out []projections.Replay
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(s.dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("sqliteread: replays: %w", err)
		}
		var r projections.Replay
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("sqliteread: replay record %s: %w", e.Name(), err)
		}
		out = append(out, r)
	}
	return out, nil
}
