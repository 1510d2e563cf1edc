package sqliteread

import (
	"errors"
	"time"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// checkpointEvery is how often the WAL is copied back into the database.
const checkpointEvery = time.Second

// checkpointer copies the WAL back into the database in the background on
// its own connection, a little at a time, without syncing either file (see
// openmarker.go). The writer never checkpoints
// (wal_autocheckpoint is 0): a checkpoint inside a projection commit held
// back every delta behind it for tens of milliseconds.
type checkpointer struct {
	conn *sqlitec.Conn
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
	k := &checkpointer{conn: c, stop: make(chan struct{}), done: make(chan struct{})}
	go k.run()
	return k, nil
}

func (k *checkpointer) run() {
	defer close(k.done)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-k.stop:
			return
		case <-t.C:
			// PASSIVE never blocks the writer or readers; what it cannot
			// copy now is copied by a later round.
			_ = k.conn.Exec("PRAGMA wal_checkpoint(PASSIVE)")
		}
	}
}

func (k *checkpointer) close() error {
	close(k.stop)
	<-k.done
	return k.conn.Close()
}
