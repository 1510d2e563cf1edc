// Package sqliteread is the embedded read store: every read model in one
// SQLite file, written by one connection and read by a pool.
package sqliteread

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// Store is the SQLite read store. Update calls run one at a time on the
// writer connection; Queries run on a pool of read connections and see the
// last committed Update (WAL).
type Store struct {
	path string
	// swapMu is read-held by every query and held by SwapIn, which
	// replaces the connections.
	swapMu  sync.RWMutex
	mu      sync.Mutex // serializes Update and guards writer
	writer  *sqlitec.Conn
	w       writeStatements
	readers *readers
	ckpt    *checkpointer
	// sw writes the search file on the writer until Trailing gives that
	// to trail (split).
	sw    *searchWrites
	split bool
	// tmu serializes the trailing Updates and guards trail; it is taken
	// after mu, never while waiting for it.
	tmu   sync.Mutex
	trail *trailWriter
	// sckpt checkpoints the search file.
	sckpt *checkpointer
	// leaseOwner is whom this handle last took the projection lease for
	// ("" when it holds none): Update commits only while the lease's
	// holder is the same. It is set under mu, and read by the trailing
	// writer without it.
	leaseOwner atomic.Pointer[string]
	// replaced is the schema version of the older store Open replaced, 0
	// when it opened a store of this version or created one.
	replaced int64
	// discarded tells that Open discarded a store left open when the
	// machine stopped (see openmarker.go).
	discarded bool
	// marker is this process's mark that the store is open.
	marker string
}

var _ projections.ReadStore = (*Store)(nil)

var errClosed = errors.New("sqliteread: store is closed")

// writerPragmas tune the writer connection.
var writerPragmas = []string{
	"busy_timeout = 5000",
	"temp_store = MEMORY",
	"cache_size = -32000", // KiB
	// The checkpointer copies the WAL back beside the writer, never in a
	// commit.
	"wal_autocheckpoint = 0",
	// The first commit after the WAL starts over cuts it back to that
	// commit's frames: the pages it held leave the page cache unwritten.
	"journal_size_limit = 0",
	// What an update or a delete frees is overwritten, so that a member's
	// erasure (projections.ErasedName) leaves none of its data in the file.
	"secure_delete = ON",
}

// Open opens the read store in the file at path, creating it when absent.
// A read store of an older schema version, or one that was open when the
// machine stopped, is replaced by an empty one, for the projectors to fold
// the log into from the start (Replaced and Discarded tell); any other file
// is refused. A rebuild's swap that a process left under way is finished
// first.
func Open(path string) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqliteread: resolve %s: %w", path, err)
	}
	if err := finishSwap(abs); err != nil {
		return nil, err
	}
	discarded, err := discardTorn(abs)
	if err != nil {
		return nil, err
	}
	if err := checkFile(abs); err != nil {
		return nil, err
	}
	s, err := open(abs)
	var older olderSchema
	if errors.As(err, &older) {
		if err := removeDB(abs); err != nil {
			return nil, fmt.Errorf("sqliteread: replace %s of schema version %d: %w", abs, older.version, err)
		}
		if s, err = open(abs); err == nil {
			s.replaced = older.version
		}
	}
	if err != nil {
		return nil, err
	}
	s.discarded = discarded
	if s.marker, err = markOpen(abs); err != nil {
		return nil, errors.Join(err, s.Close())
	}
	return s, nil
}

func open(path string) (*Store, error) {
	s := &Store{path: path}
	var err error
	if s.writer, err = openWriter(path); err != nil {
		return nil, fmt.Errorf("sqliteread: open %s: %w", path, err)
	}
	if err := s.init(); err != nil {
		return nil, errors.Join(err, s.Close())
	}
	return s, nil
}

// Replaced is the schema version of the older read store Open replaced
// with an empty one, 0 when it did not.
func (s *Store) Replaced() int64 { return s.replaced }

// Discarded tells whether Open discarded a store that was open when the
// machine stopped, its files unsynced, for an empty one.
func (s *Store) Discarded() bool { return s.discarded }

// openWriter opens the writer connection. Its commits write their pages
// 64 KiB at a time and are not synced: a power loss may lose the last
// batches, never corrupt the store (each batch commits with its
// checkpoints, so they replay).
func openWriter(path string) (*sqlitec.Conn, error) {
	return sqlitec.OpenWAL(path, sqlitec.DeferredSyncWAL)
}

func (s *Store) init() error {
	if err := ensureSchema(s.writer, s.path); err != nil {
		return err
	}
	// journal_mode is set only now, so that a foreign database is never
	// converted to WAL; the mode persists in the file for every connection.
	var mode string
	if err := s.writer.QueryRow(`PRAGMA journal_mode = WAL`, func(st *sqlitec.Stmt) { mode = st.Text(0) }); err != nil {
		return fmt.Errorf("sqliteread: enable WAL on %s: %w", s.path, err)
	}
	if mode != "wal" {
		return fmt.Errorf("sqliteread: %s: journal mode is %q, want wal", s.path, mode)
	}
	pair, err := storePair(s.writer)
	if err != nil {
		return fmt.Errorf("sqliteread: read %s: %w", s.path, err)
	}
	if err := ensureSearchFile(s.path, pair); err != nil {
		return err
	}
	if !s.split {
		if err := attachSearch(s.writer, s.path); err != nil {
			return err
		}
	}
	if err := s.writer.Exec("PRAGMA " + joinPragmas(writerPragmas)); err != nil {
		return fmt.Errorf("sqliteread: configure %s: %w", s.path, err)
	}
	if s.w, err = prepareWrites(s.writer); err != nil {
		return fmt.Errorf("sqliteread: %s: %w", s.path, err)
	}
	if !s.split {
		if s.sw, err = prepareSearchWrites(s.writer); err != nil {
			return fmt.Errorf("sqliteread: %s: %w", s.path, err)
		}
	}
	if s.readers, err = openReaders(s.path, max(4, 2*runtime.GOMAXPROCS(0))); err != nil {
		return fmt.Errorf("sqliteread: open readers of %s: %w", s.path, err)
	}
	if s.ckpt, err = startCheckpointer(s.path); err != nil {
		return fmt.Errorf("sqliteread: open checkpointer of %s: %w", s.path, err)
	}
	if s.sckpt, err = startCheckpointer(searchPath(s.path)); err != nil {
		return fmt.Errorf("sqliteread: open checkpointer of %s: %w", searchPath(s.path), err)
	}
	if s.split {
		s.tmu.Lock()
		defer s.tmu.Unlock()
		if s.trail, err = openTrailWriter(s.path); err != nil {
			return err
		}
	}
	return nil
}

func joinPragmas(ps []string) string { return strings.Join(ps, "; PRAGMA ") }

// Close closes every connection. The store must not be used afterwards.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.writer == nil {
		return nil
	}
	var errs []error
	s.tmu.Lock()
	errs = append(errs, s.closeTrail((*sqlitec.Conn).Close))
	s.tmu.Unlock()
	for _, k := range []*checkpointer{s.ckpt, s.sckpt} {
		if k != nil {
			errs = append(errs, k.close())
		}
	}
	if s.readers != nil {
		errs = append(errs, s.readers.close((*sqlitec.Conn).Close))
	}
	errs = append(errs, s.writer.Close())
	s.writer = nil
	if s.marker != "" && errors.Join(errs...) == nil {
		errs = append(errs, markClosed(s.path, s.marker))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sqliteread: close %s: %w", s.path, err)
	}
	return nil
}

// Update runs fn in one write transaction and commits it; when fn returns
// an error, every write of fn, checkpoints included, is rolled back and the
// error returned as is. The Tx must not be used after fn returns nor by
// several goroutines.
func (s *Store) Update(ctx context.Context, fn func(tx projections.Tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.writer == nil {
		return errClosed
	}
	s.ckpt.catchUp()
	if !s.split { // the writer folds the search file too, as a rebuild's shadow does
		s.sckpt.catchUp()
	}
	return update(ctx, s.writer, &s.w, s.sw, s.w.begin, s.owner(), fn)
}

// update runs fn in one transaction of c, begun by begin, committed while
// owner holds the projection lease; sw is nil when c does not write the
// search file.
func update(ctx context.Context, c *sqlitec.Conn, w *writeStatements, sw *searchWrites, begin *sqlitec.Stmt,
	owner string, fn func(tx projections.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sqliteread: update: %w", err)
	}
	if err := begin.Exec(); err != nil {
		return fmt.Errorf("sqliteread: begin update: %w", err)
	}
	t := &tx{c: c, st: w, sw: sw}
	committed := false
	defer func() {
		t.over = true
		if !committed {
			rollback(c, w)
		}
	}()
	holder, err := leaseHolder(w)
	if err != nil {
		return fmt.Errorf("sqliteread: read the lease: %w", err)
	}
	if holder != owner {
		return projections.ErrLeaseLost
	}
	if err := fn(t); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sqliteread: update: %w", err)
	}
	if err := w.commit.Exec(); err != nil {
		return fmt.Errorf("sqliteread: commit update: %w", err)
	}
	committed = true
	return nil
}

// rollback ends c's open transaction, if a failed statement has not
// already ended it, and resets statements a panic may have left running.
func rollback(c *sqlitec.Conn, w *writeStatements) {
	c.ResetAll()
	if c.InTransaction() {
		_ = w.rollback.Exec() // nothing better to do: the batch fails anyway
	}
}
