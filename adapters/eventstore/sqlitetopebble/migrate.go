// Package sqlitetopebble moves an event log from the SQLite event store into
// a new Pebble event store, event by event with every field kept, and proves
// the copy equal to its source with a hash of both.
package sqlitetopebble

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	pebblestore "github.com/eventchat/eventchat/adapters/eventstore/pebble"
	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	"github.com/eventchat/eventchat/domain/es"
)

// ErrDiffers is returned when the copied log does not hash as its source.
var ErrDiffers = errors.New("sqlitetopebble: the copied log differs from the SQLite log")

// page is how many events one read and one import move.
const page = 4096

// Progress is how far a migration is.
type Progress struct {
	Copied uint64 // events copied
	Total  uint64 // events in the source
}

// Result is a migration done: the events copied and the hash they share in
// both stores.
type Result struct {
	Events uint64
	Head   uint64
	Hash   string
}

// Migrate copies the SQLite event log in the file src into a new Pebble
// store in the directory dst, which must not exist. The copy is made in
// dst+".migrating", which a migration interrupted earlier may have left and
// which is started over, then read back and hashed, and renamed to dst only
// when its hash is that of the source. The log in src is only read.
// progress is called at the start, each time another `every` events are
// copied, and at the end.
func Migrate(ctx context.Context, src, dst string, every uint64, progress func(Progress)) (Result, error) {
	if _, err := os.Stat(dst); !errors.Is(err, os.ErrNotExist) {
		return Result{}, fmt.Errorf("sqlitetopebble: %s exists already", dst)
	}
	tmp := dst + ".migrating"
	if err := os.RemoveAll(tmp); err != nil {
		return Result{}, fmt.Errorf("sqlitetopebble: remove an interrupted copy: %w", err)
	}
	res, err := copyLog(ctx, src, tmp, every, progress)
	if err != nil {
		return Result{}, err
	}
	after, err := hashStore(ctx, tmp)
	if err != nil {
		return Result{}, err
	}
	if after != res {
		return Result{}, fmt.Errorf("%w: %d events hashed %s read from %s, %d events hashed %s read back from the copy %s",
			ErrDiffers, res.Events, res.Hash, src, after.Events, after.Hash, tmp)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return Result{}, fmt.Errorf("sqlitetopebble: %w", err)
	}
	if err := syncDir(filepath.Dir(dst)); err != nil {
		return Result{}, fmt.Errorf("sqlitetopebble: %w", err)
	}
	return res, nil
}

// copyLog copies the log and returns the hash of what it read.
func copyLog(ctx context.Context, src, dst string, every uint64, progress func(Progress)) (res Result, err error) {
	from, err := sqlitestore.Open(src)
	if err != nil {
		return Result{}, fmt.Errorf("sqlitetopebble: source: %w", err)
	}
	defer func() { err = errors.Join(err, from.Close()) }()
	to, err := pebblestore.Open(dst)
	if err != nil {
		return Result{}, fmt.Errorf("sqlitetopebble: copy: %w", err)
	}
	defer func() { err = errors.Join(err, to.Close()) }()
	total, err := from.Head(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("sqlitetopebble: source: %w", err)
	}
	progress(Progress{Total: total})
	h := NewHash()
	var copied, reported uint64
	for after := uint64(0); ; {
		evs, err := from.ReadAll(ctx, after, page)
		if err != nil {
			return Result{}, fmt.Errorf("sqlitetopebble: source: %w", err)
		}
		if len(evs) == 0 {
			break
		}
		for i := range evs {
			h.Add(&evs[i])
		}
		if err := to.Import(evs); err != nil {
			return Result{}, fmt.Errorf("sqlitetopebble: copy: %w", err)
		}
		copied += uint64(len(evs))
		after = evs[len(evs)-1].Position
		if copied-reported >= every {
			reported = copied
			progress(Progress{Copied: copied, Total: total})
		}
	}
	progress(Progress{Copied: copied, Total: total})
	return Result{Events: copied, Head: h.head, Hash: h.Sum()}, nil
}

// hashStore hashes the Pebble store in dir, opened afresh.
func hashStore(ctx context.Context, dir string) (res Result, err error) {
	s, err := pebblestore.Open(dir)
	if err != nil {
		return Result{}, fmt.Errorf("sqlitetopebble: read back: %w", err)
	}
	defer func() { err = errors.Join(err, s.Close()) }()
	h, err := HashLog(ctx, s)
	if err != nil {
		return Result{}, fmt.Errorf("sqlitetopebble: read back: %w", err)
	}
	return Result{Events: h.events, Head: h.head, Hash: h.Sum()}, nil
}

// Log is a log read in pages.
type Log interface {
	ReadAll(ctx context.Context, after uint64, max int) ([]es.RecordedEvent, error)
}

// HashLog hashes every event of log.
func HashLog(ctx context.Context, log Log) (*Hash, error) {
	h := NewHash()
	for after := uint64(0); ; {
		evs, err := log.ReadAll(ctx, after, page)
		if err != nil {
			return nil, err
		}
		if len(evs) == 0 {
			return h, nil
		}
		for i := range evs {
			h.Add(&evs[i])
		}
		after = evs[len(evs)-1].Position
	}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}
