package sqliteread

import (
	"context"
	"fmt"
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
	sideFile
	add, counted, sweep *sqlitec.Stmt
	swept               time.Time
}

// OpenCounters opens the counters kept in the file at path, creating it
// when absent.
func OpenCounters(path string) (*Counters, error) {
	c := &Counters{}
	err := c.open(path, "counters", countersSchemaSQL,
		map[**sqlitec.Stmt]string{&c.add: addCountSQL, &c.counted: countedSQL, &c.sweep: sweepCountsSQL})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Add counts one event of key at now and returns the events of its
// window, which opens for d unless one is open at now.
func (c *Counters) Add(ctx context.Context, key string, now time.Time, d time.Duration) (int64, error) {
	var n int64
	err := c.run(ctx, func() error {
		if now.Sub(c.swept) >= sweepEvery {
			c.sweep.BindInt(now.UnixNano())
			if err := c.sweep.Exec(); err != nil {
				return fmt.Errorf("sqliteread: delete ended counters: %w", err)
			}
			c.swept = now
		}
		c.add.BindText(key)
		c.add.BindInt(now.UnixNano())
		c.add.BindInt(now.Add(d).UnixNano())
		var err error
		if n, err = oneInt(c.add); err != nil {
			return fmt.Errorf("sqliteread: count %s: %w", key, err)
		}
		return nil
	})
	return n, err
}

// Counted returns the events of key in its window open at now, 0 when
// none is.
func (c *Counters) Counted(ctx context.Context, key string, now time.Time) (int64, error) {
	var n int64
	err := c.run(ctx, func() error {
		c.counted.BindText(key)
		c.counted.BindInt(now.UnixNano())
		var err error
		if n, err = oneInt(c.counted); err != nil {
			return fmt.Errorf("sqliteread: read the count of %s: %w", key, err)
		}
		return nil
	})
	return n, err
}
