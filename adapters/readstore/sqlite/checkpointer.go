package sqliteread

import (
	"errors"
	"os"
	"sync"
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

// writeBackChunk is how much of the database file a write-back hands to the
// disk at a time. It waits for each chunk to be written before it hands over
// the next, so that the disk's queue holds at most one chunk of the read
// store's pages ahead of an fsync of the event log: after a burst of
// messages, the whole file's dirty pages at once held the log's next syncs
// behind tens of megabytes.
const writeBackChunk = 1 << 20

// walLimit is the size of the WAL past which the writer, between two
// transactions, waits for a checkpoint (catchUp).
const walLimit = 32 << 20

// checkpointer copies the WAL back into the database in the background on
// its own connection, a little at a time, without syncing either file (see
// openmarker.go), and writes back what it copied a chunk at a time, on a
// goroutine of its own. The writer never checkpoints (wal_autocheckpoint is
// 0): a checkpoint inside a projection commit held back every delta behind
// it for tens of milliseconds.
type checkpointer struct {
	mu   sync.Mutex // serializes the connection's checkpoints
	conn *sqlitec.Conn
	db   *os.File
	wal  string
	stop chan struct{}
	done sync.WaitGroup
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
	k := &checkpointer{conn: c, db: db, wal: path + "-wal", stop: make(chan struct{})}
	k.done.Go(k.run)
	k.done.Go(k.writeBack)
	return k, nil
}

func (k *checkpointer) run() {
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-k.stop:
			return
		case <-t.C:
			// PASSIVE never blocks the writer or readers; what it cannot
			// copy now is copied by a later round.
			k.checkpoint()
		}
	}
}

func (k *checkpointer) checkpoint() {
	k.mu.Lock()
	defer k.mu.Unlock()
	_ = k.conn.Exec("PRAGMA wal_checkpoint(PASSIVE)")
}

// catchUp copies the WAL into the database at once when it has grown past
// walLimit; the caller holds the writer between two transactions, so that
// the next one starts the WAL over (and cuts it back). A writer that
// commits without a pause, as a catch-up or a rebuild does, otherwise
// begins each transaction before the last round has copied everything: the
// WAL never starts over, and grows by hundreds of megabytes of dirty pages
// that the kernel writes out in one burst 30 s later, ahead of the event
// log's fsyncs.
func (k *checkpointer) catchUp() {
	if info, err := os.Stat(k.wal); err == nil && info.Size() > walLimit {
		k.checkpoint()
	}
}

// writeBack hands the database's dirty pages to the disk every
// writeBackEvery, writeBackChunk at a time. Durability is not the point
// (nothing here syncs): a chunk is waited for only so that the next one
// queues behind it, not ahead of the event log's fsyncs.
func (k *checkpointer) writeBack() {
	t := time.NewTicker(writeBackEvery)
	defer t.Stop()
	fd := int(k.db.Fd())
	for {
		select {
		case <-k.stop:
			return
		case <-t.C:
		}
		info, err := k.db.Stat()
		if err != nil {
			continue
		}
		for off := int64(0); off < info.Size(); off += writeBackChunk {
			select {
			case <-k.stop:
				return
			default:
			}
			_ = unix.SyncFileRange(fd, off, writeBackChunk, unix.SYNC_FILE_RANGE_WRITE|unix.SYNC_FILE_RANGE_WAIT_AFTER)
		}
	}
}

func (k *checkpointer) close() error {
	close(k.stop)
	k.done.Wait()
	return errors.Join(k.conn.Close(), k.db.Close())
}
