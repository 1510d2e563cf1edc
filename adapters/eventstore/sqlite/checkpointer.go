package sqlitestore

import (
	"context"
	"database/sql"
	"time"
)

// checkpointEvery is how often the WAL is copied back into the database.
const checkpointEvery = time.Second

// checkpointer copies the WAL back into the database in the background on
// its own connection, a little at a time. The writer never checkpoints
// (wal_autocheckpoint is 0), so no commit waits for the copy and its fsyncs:
// a checkpoint inside a commit stalled appends for tens of milliseconds.
type checkpointer struct {
	db   *sql.DB
	stop chan struct{}
	done chan struct{}
}

func startCheckpointer(path string) (*checkpointer, error) {
	db, err := sql.Open("sqlite", dsn(path, "busy_timeout(5000)", "synchronous(FULL)"))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	c := &checkpointer{db: db, stop: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c, nil
}

func (c *checkpointer) run() {
	defer close(c.done)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			// PASSIVE never blocks the writer or readers; what it cannot
			// copy now is copied by a later round.
			_, _ = c.db.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)")
		}
	}
}

func (c *checkpointer) close() error {
	close(c.stop)
	<-c.done
	return c.db.Close()
}
