package sqlitestore

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

const (
	// checkpointEvery is the pause between two checkpoints while the WAL is
	// short.
	checkpointEvery = 100 * time.Millisecond
	// catchUpEvery is the pause between two checkpoints once the WAL is
	// past restartWALBytes.
	catchUpEvery = 5 * time.Millisecond
	// finishFrames: when a checkpoint had at most this many new frames to
	// copy, the writer copies the last ones itself, between two batches.
	finishFrames = 2048
	// forceFinish: past this many times restartWALBytes, the writer copies
	// the last frames however many they are, as rounds do not catch up.
	forceFinish = 4
)

// restartWALBytes is the WAL size past which the checkpointer works to have
// the WAL started over from its beginning; journal_size_limit then cuts it
// back to about that size. A variable for the tests.
var restartWALBytes int64 = 64 << 20

// checkpointer copies the WAL back into the database in the background on
// its own connection. The writer never checkpoints on its own (wal_auto-
// checkpoint is 0), so no commit waits for the copy and its fsyncs: a
// checkpoint inside a commit stalled appends for tens of milliseconds.
//
// The WAL starts over from its beginning at the first commit after a
// checkpoint has copied all of it; until then every commit makes it longer.
// Under a steady load the checkpointer alone never copies all of it, as
// frames keep coming while it copies: the WAL grew by a gigabyte every few
// seconds. So once the WAL is large, it checkpoints round after round, each
// copying what came during the last, and when a round had little to copy
// it asks the writer to copy the last frames, which the writer does between
// two batches, with no frame coming in: a stall of a millisecond or two.
// Overwriting the WAL also costs less than growing it: no block to
// allocate, no file size to journal at each fsync.
type checkpointer struct {
	conn    *sqlitec.Conn
	passive *sqlitec.Stmt
	// restartFrames is restartWALBytes in pages of this store's page size.
	restartFrames int64
	// copied is the number of frames in the WAL copied by the last round,
	// at last.
	copied int64
	last   time.Time
	// finish is set for the writer to run the last checkpoint, and cleared
	// by it.
	finish atomic.Bool
	stop   chan struct{}
	done   chan struct{}
}

func startCheckpointer(path string) (*checkpointer, error) {
	c, err := sqlitec.Open(path)
	if err != nil {
		return nil, err
	}
	k := &checkpointer{conn: c, last: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	if err := k.init(); err != nil {
		return nil, errors.Join(err, c.Close())
	}
	go k.run()
	return k, nil
}

// init prepares the checkpoint; FULL syncs the database file after a copy,
// before the WAL may start over on what was copied.
func (k *checkpointer) init() error {
	if err := k.conn.Exec("PRAGMA busy_timeout = 5000; PRAGMA synchronous = FULL"); err != nil {
		return err
	}
	var size int64
	if err := k.conn.QueryRow("PRAGMA page_size", func(s *sqlitec.Stmt) { size = s.Int(0) }); err != nil {
		return err
	}
	k.restartFrames = restartWALBytes / max(size, 512)
	var err error
	k.passive, err = k.conn.Prepare("PRAGMA wal_checkpoint(PASSIVE)")
	return err
}

func (k *checkpointer) run() {
	defer close(k.done)
	t := time.NewTimer(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-k.stop:
			return
		case <-t.C:
		}
		next := catchUpEvery // the writer's turn
		if !k.finish.Load() {
			next = k.round()
		}
		t.Reset(next)
	}
}

// round copies what it can of the WAL without waiting for anyone (PASSIVE)
// and returns the pause before the next round. Once the WAL is past
// restartFrames, rounds follow each other closely, each copying what was
// committed during the last; until then they come about when the WAL, at the
// rate it grew, will reach restartFrames. Should rounds not catch up, as on
// a starved CPU, the writer copies the rest at forceFinish times
// restartFrames, stalling the appends for that long rather than let the WAL
// grow without bound.
func (k *checkpointer) round() time.Duration {
	now := time.Now()
	frames, copied, err := walCheckpoint(k.passive)
	if err != nil || frames < 0 {
		return checkpointEvery
	}
	fresh := frames - k.copied // frames this round had to copy, the last not
	if frames < k.copied {     // the WAL started over
		fresh = frames
	}
	elapsed := now.Sub(k.last)
	k.copied, k.last = copied, now
	switch {
	case frames >= k.restartFrames:
		if fresh <= finishFrames || frames >= forceFinish*k.restartFrames {
			k.finish.Store(true)
		}
		return catchUpEvery
	case fresh <= 0:
		return checkpointEvery
	default:
		until := time.Duration(float64(elapsed) * float64(k.restartFrames-frames) / float64(fresh))
		return min(max(until, catchUpEvery), checkpointEvery)
	}
}

// walCheckpoint runs a prepared PRAGMA wal_checkpoint and returns the frames
// in the WAL and those copied to the database. Both are -1 when another
// checkpoint was under way.
func walCheckpoint(st *sqlitec.Stmt) (frames, copied int64, err error) {
	if st.Next() {
		frames, copied = st.Int(1), st.Int(2)
	}
	if err := st.Done(); err != nil {
		return 0, 0, fmt.Errorf("checkpoint: %w", err)
	}
	return frames, copied, nil
}

func (k *checkpointer) close() error {
	close(k.stop)
	<-k.done
	return k.conn.Close()
}
