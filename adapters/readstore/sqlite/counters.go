package sqliteread

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// countersSuffix names the file of the rate limits' counters, beside the
// read store: the processes sharing the read store share it, and its
// writes never wait for a batch of the projections.
const countersSuffix = ".counters"

// CountersPath is the file of the counters of the read store at path.
func CountersPath(path string) string { return path + countersSuffix }

// sweepEvery is how often a handle deletes the ended windows.
const sweepEvery = time.Minute

const (
	countersSchemaSQL = `CREATE TABLE IF NOT EXISTS counters (
		key TEXT PRIMARY KEY, n INTEGER NOT NULL, until_ns INTEGER NOT NULL
	) WITHOUT ROWID;
	CREATE INDEX IF NOT EXISTS counters_until ON counters (until_ns)`
	// The SET expressions all read the row as it was.
	addCountSQL = `INSERT INTO counters (key, n, until_ns) VALUES (?1, 1, ?3)
		ON CONFLICT (key) DO UPDATE SET
			n = CASE WHEN until_ns <= ?2 THEN 1 ELSE n + 1 END,
			until_ns = CASE WHEN until_ns <= ?2 THEN ?3 ELSE until_ns END
		RETURNING n`
	countedSQL     = `SELECT n FROM counters WHERE key = ?1 AND until_ns > ?2`
	sweepCountsSQL = `DELETE FROM counters WHERE until_ns <= ?`
)

// Counters count the rate limits' events in a SQLite file. A count is one
// upsert; a handle deletes the ended windows once a minute, on the way.
// Counts are not synced to disk: a power loss may forget the last ones.
type Counters struct {
	mu                  sync.Mutex
	conn                *sqlitec.Conn
	add, counted, sweep *sqlitec.Stmt
	swept               time.Time
}

// OpenCounters opens the counters kept in the file at path, creating it
// when absent.
func OpenCounters(path string) (*Counters, error) {
	conn, err := sqlitec.Open(path)
	if err != nil {
		return nil, fmt.Errorf("sqliteread: open counters: %w", err)
	}
	c := &Counters{conn: conn}
	err = conn.Exec(`PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; ` + countersSchemaSQL)
	if err == nil {
		err = conn.PrepareAll(map[**sqlitec.Stmt]string{&c.add: addCountSQL, &c.counted: countedSQL, &c.sweep: sweepCountsSQL})
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("sqliteread: counters in %s: %w", path, err), conn.Close())
	}
	return c, nil
}

// Add counts one event of key at now and returns the events of its
// window, which opens for d unless one is open at now.
func (c *Counters) Add(ctx context.Context, key string, now time.Time, d time.Duration) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.usable(ctx); err != nil {
		return 0, err
	}
	if now.Sub(c.swept) >= sweepEvery {
		c.sweep.BindInt(now.UnixNano())
		if err := c.sweep.Exec(); err != nil {
			return 0, fmt.Errorf("sqliteread: delete ended counters: %w", err)
		}
		c.swept = now
	}
	c.add.BindText(key)
	c.add.BindInt(now.UnixNano())
	c.add.BindInt(now.Add(d).UnixNano())
	var n int64
	for c.add.Next() {
		n = c.add.Int(0)
	}
	if err := c.add.Done(); err != nil {
		return 0, fmt.Errorf("sqliteread: count %s: %w", key, err)
	}
	return n, nil
}

// Counted returns the events of key in its window open at now, 0 when
// none is.
func (c *Counters) Counted(ctx context.Context, key string, now time.Time) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.usable(ctx); err != nil {
		return 0, err
	}
	c.counted.BindText(key)
	c.counted.BindInt(now.UnixNano())
	var n int64
	for c.counted.Next() {
		n = c.counted.Int(0)
	}
	if err := c.counted.Done(); err != nil {
		return 0, fmt.Errorf("sqliteread: read the count of %s: %w", key, err)
	}
	return n, nil
}

func (c *Counters) usable(ctx context.Context) error {
	if c.conn == nil {
		return errClosed
	}
	return ctx.Err()
}

// Close closes the file.
func (c *Counters) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		return nil
	}
	err := c.conn.Close()
	c.conn = nil
	return err
}
