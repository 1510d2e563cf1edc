package sqliteread

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// shadowSuffix names the shadow a rebuild folds into, beside the store.
const shadowSuffix = ".rebuild"

var (
	_ projections.Shadowing      = (*Store)(nil)
	_ projections.ShadowSettling = (*Store)(nil)
)

// read lends fn a reader's statements; a swap waits for it, and it for a
// swap.
func (s *Store) read(ctx context.Context, fn func(st *readStatements) error) error {
	s.swapMu.RLock()
	defer s.swapMu.RUnlock()
	return s.readers.run(ctx, fn)
}

// ShadowPath is the file a rebuild of the store folds into.
func (s *Store) ShadowPath() string { return s.path + shadowSuffix }

// OpenShadow opens the shadow store beside this one: the one an
// interrupted rebuild left, to resume from its checkpoints, or a new one.
// A shadow that does not open (another schema version, damaged) is removed
// and started afresh.
func (s *Store) OpenShadow(context.Context) (projections.ReadStore, error) {
	path := s.ShadowPath()
	sh, err := Open(path)
	if err != nil {
		if err := removeDB(path); err != nil {
			return nil, err
		}
		if sh, err = Open(path); err != nil {
			return nil, err
		}
	}
	if err := sh.execSearchWriter(deferSearchMerges); err != nil {
		return nil, errors.Join(fmt.Errorf("sqliteread: defer the merges of %s's search index: %w", path, err), sh.Close())
	}
	return sh, nil
}

// CloseShadow closes a shadow, which stays on disk for a rebuild to resume.
func (s *Store) CloseShadow(shadow projections.ReadStore) error {
	sh, ok := shadow.(*Store)
	if !ok {
		return fmt.Errorf("sqliteread: %T is not a shadow of %s", shadow, s.path)
	}
	return sh.Close()
}

// SwapIn replaces the store's file with the shadow's, which it closes: the
// writer and readers are closed and reopened on the new file while queries
// wait (they see the old data before and the new after, never an error);
// the projection lease carries over. The caller keeps the projections from
// writing meanwhile and makes sure the shadow has folded what the store had.
func (s *Store) SwapIn(ctx context.Context, shadow projections.ReadStore) error {
	sh, err := s.shadowOf(shadow)
	if err != nil {
		return err
	}
	s.swapMu.Lock()
	defer s.swapMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.writer == nil {
		return errClosed
	}
	if err := s.carryLease(ctx, sh); err != nil {
		return err
	}
	// The shadow's WAL goes into its file, so that the file alone is the
	// store. From then on, the swap is finished by the next Open if this
	// process stops before it is (swapping).
	if err := sh.closeCheckpointed(); err != nil {
		return fmt.Errorf("sqliteread: close the shadow %s: %w", sh.path, err)
	}
	if err := os.WriteFile(s.path+swappingSuffix, nil, 0o600); err != nil {
		return fmt.Errorf("sqliteread: swap: %w", err)
	}
	// The old files and their WALs are replaced below: their last
	// connections need not copy the WALs into them first, which for a
	// store of some size took most of the swap.
	discard := (*sqlitec.Conn).CloseKeepingWAL
	s.tmu.Lock()
	errs := []error{s.closeTrail(discard)}
	s.tmu.Unlock()
	errs = append(errs, s.ckpt.close(), s.sckpt.close(), s.readers.close(discard), discard(s.writer))
	s.writer = nil
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sqliteread: close %s for the swap: %w", s.path, err)
	}
	// Removing or renaming over the old files and their WALs frees their
	// blocks, which for a store of some size takes longer than the rest of
	// the swap: held open, they are freed once closed, after it.
	var old []*os.File
	for _, path := range []string{s.path, s.path + "-wal", searchPath(s.path), searchPath(s.path) + "-wal"} {
		if f, err := os.Open(path); err == nil {
			old = append(old, f)
		}
	}
	defer func() { go closeAll(old) }()
	if err := moveShadowIn(s.path, false); err != nil {
		return err
	}
	w, err := openWriter(s.path)
	if err != nil {
		return fmt.Errorf("sqliteread: reopen %s: %w", s.path, err)
	}
	s.writer = w
	if err := s.init(); err != nil {
		s.writer = nil
		return errors.Join(err, w.Close())
	}
	return nil
}

// swappingSuffix names the file that tells a swap under way, from the
// shadow closed whole until its files have replaced the store's.
const swappingSuffix = ".swapping"

// moveShadowIn replaces the files of the store at path and of its search
// file with the shadow's, closed whole, and ends the swap. The old files'
// WALs go first, so that none is read as the new files'; the store's file
// is renamed first: a search file left beside another store is emptied
// when the store opens (search_pair). Resuming a swap cut short, a shadow
// file already renamed is skipped.
func moveShadowIn(path string, resuming bool) error {
	if err := removeWALs(path); err != nil {
		return fmt.Errorf("sqliteread: swap: %w", err)
	}
	shadow := path + shadowSuffix
	for _, mv := range [][2]string{{shadow, path}, {searchPath(shadow), searchPath(path)}} {
		err := os.Rename(mv[0], mv[1])
		if err != nil && !(resuming && errors.Is(err, os.ErrNotExist)) {
			return fmt.Errorf("sqliteread: swap in %s: %w", mv[0], err)
		}
	}
	if err := syncPath(filepath.Dir(path)); err != nil {
		return err
	}
	return removeFile(path + swappingSuffix)
}

// finishSwap finishes the swap a process left under way at path, if any:
// the shadow's files, closed whole, replace the store's, whose WALs were
// perhaps gone already.
func finishSwap(path string) error {
	if _, err := os.Stat(path + swappingSuffix); errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("sqliteread: %w", err)
	}
	return moveShadowIn(path, true)
}

// SettleShadow merges the shadow's search index, then copies the shadow's
// WAL into its files and syncs them while the store still serves: the
// swap's checkpoint then copies, and its directory sync writes out, only
// what the shadow folds after.
func (s *Store) SettleShadow(_ context.Context, shadow projections.ReadStore) error {
	sh, err := s.shadowOf(shadow)
	if err != nil {
		return err
	}
	if err := sh.execSearchWriter(mergeSearchIndex); err != nil {
		return fmt.Errorf("sqliteread: merge the search index of the shadow %s: %w", sh.path, err)
	}
	if err := sh.checkpointed(); err != nil {
		return fmt.Errorf("sqliteread: settle the shadow %s: %w", sh.path, err)
	}
	if err := errors.Join(syncPath(sh.path), syncPath(searchPath(sh.path))); err != nil {
		return fmt.Errorf("sqliteread: settle the shadow: %w", err)
	}
	return nil
}

// shadowOf is shadow as this store's shadow, or an error when it is not.
func (s *Store) shadowOf(shadow projections.ReadStore) (*Store, error) {
	sh, ok := shadow.(*Store)
	if !ok || sh.path != s.ShadowPath() {
		return nil, fmt.Errorf("sqliteread: %T is not the shadow of %s", shadow, s.path)
	}
	return sh, nil
}

// carryLease writes the store's projection lease into the shadow.
func (s *Store) carryLease(ctx context.Context, sh *Store) error {
	var owner string
	var until int64
	if err := s.writer.QueryRow(`SELECT owner, until_ns FROM projection_lease WHERE id = 1`, func(st *sqlitec.Stmt) {
		owner, until = st.Text(0), st.Int(1)
	}); err != nil {
		return fmt.Errorf("sqliteread: read the lease: %w", err)
	}
	if owner == "" {
		return nil
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	_, err := sh.inWrite(ctx, func() (string, error) {
		st := sh.w.takeLease
		st.BindText(owner)
		st.BindInt(until)
		st.BindInt(math.MaxInt64)
		return "", st.Exec()
	})
	if err != nil {
		return fmt.Errorf("sqliteread: carry the lease to the shadow: %w", err)
	}
	return nil
}

// closeCheckpointed copies the WAL into the file, then closes the store.
func (s *Store) closeCheckpointed() error {
	if err := s.checkpointed(); err != nil && !errors.Is(err, errClosed) {
		return err
	}
	return s.Close()
}

// checkpointed copies the WAL of the store and of its search file into
// their files and empties them.
func (s *Store) checkpointed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.writer == nil {
		return errClosed
	}
	// A checkpoint must copy a synced WAL, and the writer defers its syncs.
	err := errors.Join(s.writer.SyncWAL(), s.writer.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`))
	if !s.split {
		return err // the writer's checkpoint copied the search file's WAL too
	}
	return errors.Join(err, s.onSearchWriter(func(c *sqlitec.Conn) error {
		return errors.Join(c.SyncWAL(), c.Exec(`PRAGMA search.wal_checkpoint(TRUNCATE)`))
	}))
}

// removeDB removes a store's files and its search file's, the WALs first.
func removeDB(path string) error {
	if err := removeWALs(path); err != nil {
		return err
	}
	for _, p := range []string{path, searchPath(path)} {
		if err := removeFile(p); err != nil {
			return err
		}
	}
	return nil
}

// removeWALs removes the WAL and shm files of a store and of its search
// file: a WAL left beside a new file of the same name would be read as the
// new file's.
func removeWALs(path string) error {
	for _, p := range []string{path, searchPath(path)} {
		for _, suffix := range []string{"-wal", "-shm"} {
			if err := removeFile(p + suffix); err != nil {
				return err
			}
		}
	}
	return nil
}

// removeFile removes path, which may be gone already.
func removeFile(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("sqliteread: %w", err)
	}
	return nil
}

func closeAll(files []*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}

// syncPath syncs a file or a directory.
func syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("sqliteread: open %s: %w", path, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sqliteread: sync %s: %w", path, err)
	}
	return nil
}
