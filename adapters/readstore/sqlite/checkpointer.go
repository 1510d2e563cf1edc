package sqliteread

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// checkpointEvery is how often the WAL is copied back into the database.
// Often enough that the WAL starts over from its beginning every few
// commits: the writer then cuts it back (journal_size_limit is 0), and the
// frames it held leave the page cache without ever being written to disk.
const checkpointEvery = 100 * time.Millisecond

// writeBackEvery is how often the database pages the checkpoints copied are
// handed to the disk. Left to the kernel, they would go in one burst every
// 30 s (dirty_expire_centisecs), tens of megabytes that the event log's
// next fsync would wait behind.
const writeBackEvery = time.Second

// checkpointer copies the WAL back into the database in the background on
// its own connection, a little at a time, without syncing either file (see
// openmarker.go), and starts the write-back of what it copied without
// waiting for it. The writer never checkpoints (wal_autocheckpoint is 0): a
// checkpoint inside a projection commit held back every delta behind it for
// tens of milliseconds.
type checkpointer struct {
	conn *sqlitec.Conn
	db   *os.File
	stop chan struct{}
	done chan struct{}
}

func startCheckpointer(path string) (*checkpointer, error) {
	c, err := sqlitec.Open(path)
	if err != nil {
		return nil, err
	}
	if err := c.Exec("PRAGMA busy_timeout = 5000; PRAGMA synchronous = OFF"); err != nil {
		return nil, errors.Join(err, c.Close())
	}
	db, err := os.Open(path)
	if err != nil {
		return nil, errors.Join(err, c.Close())
	}
	k := &checkpointer{conn: c, db: db, stop: make(chan struct{}), done: make(chan struct{})}
	go k.run()
	return k, nil
}

func (k *checkpointer) run() {
	defer close(k.done)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	lastWriteBack := time.Now()
	for {
		select {
		case <-k.stop:
			return
		case now := <-t.C:
			// PASSIVE never blocks the writer or readers; what it cannot
			// copy now is copied by a later round.
			_ = k.conn.Exec("PRAGMA wal_checkpoint(PASSIVE)")
			if now.Sub(lastWriteBack) >= writeBackEvery {
				lastWriteBack = now
				// Asynchronous: it queues the dirty pages for writing and
				// returns; durability is not the point (nothing here syncs).
				_ = unix.SyncFileRange(int(k.db.Fd()), 0, 0, unix.SYNC_FILE_RANGE_WRITE)
			}
		}
	}
}

func (k *checkpointer) close() error {
	close(k.stop)
	<-k.done
	return errors.Join(k.conn.Close(), k.db.Close())
}
