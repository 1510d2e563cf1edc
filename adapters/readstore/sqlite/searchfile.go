package sqliteread

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// The search model lives in a file of its own beside the store, attached
// to the store's connections as "search". The projectors the engine trails
// (projections.Trailing) fold into it on a writer of their own once the
// server asks for one (Trailing): a batch of the other projectors then
// never waits behind one of theirs, neither for the writer nor for the
// file's lock. Their checkpoints are kept in the search file, beside what
// they folded, so that each file's checkpoints tell what that file holds.
// A store nobody asked for a trailing writer (a shadow, a scratch, a
// tool's) folds both files on its one writer.
const searchSuffix = ".search"

func searchPath(storePath string) string { return storePath + searchSuffix }

// searchApplicationID marks a search file ("ECSI").
const searchApplicationID = 0x45435349

// searchSchema is the search file's, at the store's schemaVersion.
// paired_with holds the search_pair of the store the file belongs to: a
// file left beside another store (a swap cut short) is emptied.
var searchSchema = []string{
	searchTable,
	searchTextTable,
	searchVocab,
	`CREATE TABLE search_checkpoints (
		projector TEXT PRIMARY KEY, position INTEGER NOT NULL
	) WITHOUT ROWID`,
	`CREATE TABLE paired_with (id INTEGER NOT NULL)`,
	`PRAGMA application_id = ` + strconv.Itoa(searchApplicationID),
	`PRAGMA user_version = ` + strconv.Itoa(schemaVersion),
}

// trails tells whether projector's checkpoint belongs in the search file.
func trails(projector string) bool {
	for _, p := range projections.Trailing() {
		if p.Name() == projector {
			return true
		}
	}
	return false
}

// ensureSearchFile makes the search file beside the store at storePath
// the store's of pair: an empty one when it is absent, of another version
// or another store's.
func ensureSearchFile(storePath string, pair int64) (err error) {
	path := searchPath(storePath)
	c, err := sqlitec.Open(path)
	if err != nil {
		return fmt.Errorf("sqliteread: open %s: %w", path, err)
	}
	defer func() { err = errors.Join(err, c.Close()) }()
	if err := c.Exec(`PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA secure_delete = ON; BEGIN IMMEDIATE`); err != nil {
		return fmt.Errorf("sqliteread: open %s: %w", path, err)
	}
	committed := false
	defer func() {
		if !committed {
			err = errors.Join(err, c.Exec(`ROLLBACK`))
		}
	}()
	var appID, version int64
	for query, dst := range map[string]*int64{`PRAGMA application_id`: &appID, `PRAGMA user_version`: &version} {
		if err := c.QueryRow(query, func(s *sqlitec.Stmt) { *dst = s.Int(0) }); err != nil {
			return fmt.Errorf("sqliteread: read %s: %w", path, err)
		}
	}
	if appID != 0 && appID != searchApplicationID {
		return fmt.Errorf("sqliteread: %s is a SQLite database but not an eventchat search file", path)
	}
	paired := int64(-1)
	if appID == searchApplicationID && version == schemaVersion {
		if err := c.QueryRow(`SELECT id FROM paired_with`, func(s *sqlitec.Stmt) { paired = s.Int(0) }); err != nil {
			return fmt.Errorf("sqliteread: read %s: %w", path, err)
		}
	}
	if paired != pair {
		if err := dropEverything(c); err != nil {
			return fmt.Errorf("sqliteread: empty %s: %w", path, err)
		}
		for _, stmt := range append(searchSchema, `INSERT INTO paired_with (id) VALUES (`+strconv.FormatInt(pair, 10)+`)`) {
			if err := c.Exec(stmt); err != nil {
				return fmt.Errorf("sqliteread: create schema in %s: %w", path, err)
			}
		}
	}
	if err := c.Exec(`COMMIT`); err != nil {
		return fmt.Errorf("sqliteread: commit %s: %w", path, err)
	}
	committed = true
	return nil
}

// dropEverything drops every table and view of c's database: virtual
// tables first, which drop their own.
func dropEverything(c *sqlitec.Conn) error {
	st, err := c.Prepare(`SELECT type, name FROM sqlite_schema
		WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite!_%' ESCAPE '!'
		ORDER BY sql LIKE 'CREATE VIRTUAL%' DESC`)
	if err != nil {
		return err
	}
	defer st.Finalize()
	var drops []string
	for st.Next() {
		drops = append(drops, `DROP `+st.Text(0)+` IF EXISTS "`+st.Text(1)+`"`)
	}
	if err := st.Done(); err != nil {
		return err
	}
	for _, d := range drops {
		if err := c.Exec(d); err != nil {
			return err
		}
	}
	return nil
}

// storePair reads the pair the store's search file must hold.
func storePair(c *sqlitec.Conn) (int64, error) {
	var pair int64
	err := c.QueryRow(`SELECT id FROM search_pair`, func(s *sqlitec.Stmt) { pair = s.Int(0) })
	return pair, err
}

// attachSearch attaches the search file of the store at storePath to c.
func attachSearch(c *sqlitec.Conn, storePath string) error {
	st, err := c.Prepare(`ATTACH DATABASE ? AS search`)
	if err != nil {
		return err
	}
	defer st.Finalize()
	st.BindText(searchPath(storePath))
	if err := st.Exec(); err != nil {
		return fmt.Errorf("sqliteread: attach %s: %w", searchPath(storePath), err)
	}
	return nil
}

// searchWrites write the search file; they exist on a connection that
// has it attached and folds it.
type searchWrites struct {
	// begin is deferred: the trailing writer reads the store and writes
	// the search file only, which locks nothing of the store's.
	begin, rows                                           *sqlitec.Stmt
	index, unindex, indexText, unindexText, setCheckpoint *sqlitec.Stmt
}

func prepareSearchWrites(c *sqlitec.Conn) (*searchWrites, error) {
	w := &searchWrites{}
	err := c.PrepareAll(map[**sqlitec.Stmt]string{
		&w.begin:         `BEGIN`,
		&w.rows:          searchRowsSQL,
		&w.index:         indexSQL,
		&w.unindex:       unindexSQL,
		&w.indexText:     indexTextSQL,
		&w.unindexText:   unindexTextSQL,
		&w.setCheckpoint: setSearchCheckpointSQL,
	})
	return w, err
}

func (w *searchWrites) finalize() {
	for _, st := range []*sqlitec.Stmt{w.begin, w.rows, w.index, w.unindex, w.indexText, w.unindexText, w.setCheckpoint} {
		st.Finalize()
	}
}

// A rebuild's shadow indexes the whole log, and nothing searches it
// meanwhile. FTS5 merging the index's segments as it grows (automerge)
// would rewrite each gram several times over; the shadow defers that: each
// transaction leaves a segment, merged only once 256 wait on one level (far
// from FTS5's bound of 2,000 segments). Settling the shadow merges the
// index once, whole, and sets FTS5's defaults back for the folding after.
// FTS5 keeps these settings in the search file.
const (
	deferSearchMerges = `INSERT INTO message_search (message_search, rank) VALUES ('automerge', 0);
		INSERT INTO message_search (message_search, rank) VALUES ('crisismerge', 256)`
	mergeSearchIndex = `INSERT INTO message_search (message_search) VALUES ('optimize');
		INSERT INTO message_search (message_search, rank) VALUES ('automerge', 4);
		INSERT INTO message_search (message_search, rank) VALUES ('crisismerge', 16)`
)

// execSearchWriter runs sql on the connection that writes the search file.
func (s *Store) execSearchWriter(sql string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.writer == nil {
		return errClosed
	}
	return s.onSearchWriter(func(c *sqlitec.Conn) error { return c.Exec(sql) })
}

// onSearchWriter runs fn on the connection that writes the search file: the
// trailing writer once the store is split, the writer before. s.mu must be
// held, the writer open.
func (s *Store) onSearchWriter(fn func(*sqlitec.Conn) error) error {
	if !s.split {
		return fn(s.writer)
	}
	s.tmu.Lock()
	defer s.tmu.Unlock()
	if s.trail == nil {
		return errClosed
	}
	return fn(s.trail.c)
}

// trailWriter is the writer of the projectors the engine trails.
type trailWriter struct {
	c  *sqlitec.Conn
	w  writeStatements
	sw *searchWrites
}

// trailPragmas tune the trailing writer, whose commits, as the writer's,
// are not synced (see openWriter and openmarker.go).
var trailPragmas = []string{
	"busy_timeout = 5000",
	"temp_store = MEMORY",
	"cache_size = -16000", // KiB
	"wal_autocheckpoint = 0",
	"journal_size_limit = 0",
	"secure_delete = ON",
}

func openTrailWriter(storePath string) (*trailWriter, error) {
	c, err := openWriter(storePath)
	if err != nil {
		return nil, err
	}
	t := &trailWriter{c: c}
	err = attachSearch(c, storePath)
	if err == nil {
		err = c.Exec("PRAGMA " + joinPragmas(trailPragmas))
	}
	if err == nil {
		t.w, err = prepareWrites(c)
	}
	if err == nil {
		t.sw, err = prepareSearchWrites(c)
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("sqliteread: open the trailing writer of %s: %w", storePath, err), c.Close())
	}
	return t, nil
}

// trailStore is the store as the trailing engine writes it.
type trailStore struct{ *Store }

// Update runs fn on the trailing writer, as Store.Update does on the
// writer, alongside it.
func (t trailStore) Update(ctx context.Context, fn func(tx projections.Tx) error) error {
	return t.updateTrail(ctx, fn)
}

// Trailing returns the store as the engine trailing the others writes it
// (projections.TrailWriting): its Update folds on a writer of its own, into
// the search file, and the writer folds the search model no more. Queries
// see both files.
func (s *Store) Trailing() (projections.ReadStore, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.writer == nil {
		return nil, errClosed
	}
	if !s.split {
		s.sw.finalize()
		s.sw = nil
		if err := s.writer.Exec(`DETACH DATABASE search`); err != nil {
			return nil, fmt.Errorf("sqliteread: detach the search file of %s: %w", s.path, err)
		}
		s.split = true
		s.tmu.Lock()
		defer s.tmu.Unlock()
		var err error
		if s.trail, err = openTrailWriter(s.path); err != nil {
			return nil, err
		}
	}
	return trailStore{s}, nil
}

func (s *Store) updateTrail(ctx context.Context, fn func(tx projections.Tx) error) error {
	owner := s.owner()
	s.tmu.Lock()
	defer s.tmu.Unlock()
	t := s.trail
	if t == nil {
		return errClosed
	}
	s.sckpt.catchUp()
	return update(ctx, t.c, &t.w, t.sw, t.sw.begin, owner, fn)
}

// closeTrail closes the trailing writer; s.tmu must be held.
func (s *Store) closeTrail(closeConn func(*sqlitec.Conn) error) error {
	if s.trail == nil {
		return nil
	}
	err := closeConn(s.trail.c)
	s.trail = nil
	return err
}
