package pebblestore

import (
	"errors"
	"sync"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// On ext4 an fdatasync of a file that grew commits the journal, and one of
// blocks already written does not: it is about twice as fast, and more so
// while the disk has other writes. Pebble reuses the WAL files its flushes
// free, so a server past its first flushes mostly overwrites; but each
// process starts on a new WAL, and its first memtables (Pebble doubles them
// from 256 KiB) each open another. filledFS writes zeros into every WAL file
// a little ahead of where Pebble writes, as databases that preallocate their
// log by writing it do, so that the syncs an append waits for overwrite.
// Pebble's WAL reader takes zeros past the last record for the end of the
// log, as it takes the unwritten space it preallocates.
type filledFS struct {
	vfs.FS
}

// walWrites is the category Pebble creates and reuses WAL files under.
const walWrites vfs.DiskWriteCategory = "pebble-wal"

const (
	// fillAhead is how far past what Pebble has written the zeros reach.
	fillAhead = 4 << 20
	// fillPiece is written at a time: Pebble's writes wait for no more.
	fillPiece = 64 << 10
	// fillSync is how much the filler writes before it syncs the zeros;
	// the writer wakes it when it comes that close to their end.
	fillSync = 1 << 20
	page     = 4 << 10
)

var zeros = make([]byte, fillPiece)

func (fs filledFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.Create(name, category)
	return fill(f, err, category)
}

func (fs filledFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname, category)
	return fill(f, err, category)
}

func fill(f vfs.File, err error, category vfs.DiskWriteCategory) (vfs.File, error) {
	if err != nil || category != walWrites {
		return f, err
	}
	st, err := f.Stat()
	if err != nil {
		return nil, errors.Join(err, f.Close())
	}
	ff := &filledFile{File: f, done: make(chan struct{})}
	ff.wake = sync.NewCond(&ff.mu)
	go ff.run(st.Size())
	return ff, nil
}

// filledFile is a WAL file written by Pebble from its start, which a
// goroutine fills with zeros ahead of what Pebble has written. The zeros
// never go below what Pebble has written: both write under mu.
type filledFile struct {
	vfs.File
	done chan struct{}

	mu      sync.Mutex
	wake    *sync.Cond
	written int64 // what Pebble has written, from the start
	filled  int64 // the file holds data or zeros up to here
	closed  bool
}

func (f *filledFile) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, err := f.File.Write(p)
	f.written += int64(n)
	if f.lagging() {
		f.wake.Signal()
	}
	return n, err
}

// lagging tells whether the zeros reach less than fillAhead-fillSync past
// what Pebble has written, once it has written; f.mu is held.
func (f *filledFile) lagging() bool {
	return f.written > 0 && f.written+fillAhead-fillSync > f.filled
}

func (f *filledFile) Close() error {
	f.mu.Lock()
	f.closed = true
	f.wake.Signal()
	f.mu.Unlock()
	<-f.done
	return f.File.Close()
}

// run fills the file from size, what it held when opened, and keeps the
// zeros fillAhead past what Pebble writes until the file is closed. It
// starts with Pebble's first write: a WAL closed unwritten (a store opened
// and closed) costs no zeros. A failed write or sync stops it: Pebble's own
// will tell the error.
func (f *filledFile) run(size int64) {
	defer close(f.done)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.filled = roundUp(size)
	for {
		for !f.closed && !f.lagging() {
			f.wake.Wait()
		}
		if f.closed {
			return
		}
		for f.filled < f.written+fillAhead && !f.closed {
			if f.filled < f.written {
				f.filled = roundUp(f.written)
				continue
			}
			if _, err := f.File.WriteAt(zeros, f.filled); err != nil {
				return
			}
			f.filled += fillPiece
			f.mu.Unlock() // let Pebble write between pieces
			f.mu.Lock()
		}
		f.mu.Unlock()
		err := f.File.SyncData()
		f.mu.Lock()
		if err != nil {
			return
		}
	}
}

func roundUp(n int64) int64 { return (n + page - 1) / page * page }
