package sqlitec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
	"modernc.org/libc"
	"modernc.org/libc/sys/types"
	sqlite3 "modernc.org/sqlite/lib"
)

// The WAL file systems wrap SQLite's default one ("unix"). The database
// file and every other file are the default file system's own. A WAL file
// gathers the frames a commit writes in memory and writes them when the
// commit syncs the file, 64 KiB per system call instead of two calls per
// page; BufferedWAL then syncs it, DeferredSyncWAL leaves that to SyncWAL.
//
// Gathering is correct only because such connections run with synchronous
// FULL: SQLite syncs the WAL at every commit before it publishes the commit
// in the WAL index, so the frames are in the file, if not yet durable,
// before any other connection may read them.

// walBufferSize is the memory a WAL file gathers frames in; a commit larger
// than that is written in several rounds.
const walBufferSize = 1 << 20

// maxWrite is the most the default file system writes in one call: it
// takes a write of 128 KiB or more for a short one.
const maxWrite = 64 << 10

// walHeader is the space a wrapped file keeps before the default file
// system's own: its methods pointer, and padding to keep that aligned.
const walHeader = 16

var walVFS struct {
	once     sync.Once
	err      error
	base     uintptr    // the default sqlite3_vfs
	open     uintptr    // its xOpen
	deferred uintptr    // the sqlite3_vfs of DeferredSyncWAL
	names    [2]uintptr // the C names of BufferedWAL's and DeferredSyncWAL's
	main     uintptr    // the C string "main"

	mu    sync.Mutex
	files map[uintptr]*walFile // by the sqlite3_file SQLite holds
}

// walMethods are the methods of every wrapped WAL file; SQLite uses only
// those of version 1 on a WAL file.
var walMethods sqlite3.Tsqlite3_io_methods

// walFile is a WAL file and the frames it has not written yet. Only the
// connection that opened it calls its methods; SyncWAL, which may run on
// another goroutine, reads fd under mu, which close takes.
type walFile struct {
	real      uintptr // the default file system's sqlite3_file
	methods   sqlite3.Tsqlite3_io_methods
	db        uintptr // the database file name of the connection
	deferSync bool
	synced    bool // a first sync went to the default file system

	buf uintptr // C memory of walBufferSize bytes
	off int64   // file offset of the first byte gathered
	n   int     // bytes gathered

	mu     sync.RWMutex
	fd     int
	closed bool
}

// walVFSName returns the C name of the file system of mode, registering
// both on first use.
func walVFSName(tls *libc.TLS, mode WALWrites) (uintptr, error) {
	walVFS.once.Do(func() { walVFS.err = registerWALVFS(tls) })
	if walVFS.err != nil {
		return 0, walVFS.err
	}
	if mode == DeferredSyncWAL {
		return walVFS.names[1], nil
	}
	return walVFS.names[0], nil
}

func registerWALVFS(tls *libc.TLS) error {
	base := sqlite3.Xsqlite3_vfs_find(tls, 0)
	if base == 0 {
		return errors.New("sqlite: no default file system")
	}
	var v sqlite3.Tsqlite3_vfs
	copy(goBytesOf(&v), libc.GoBytes(base, int(unsafe.Sizeof(v))))
	walVFS.base, walVFS.open = base, v.FxOpen
	walVFS.files = make(map[uintptr]*walFile)
	var err error
	if walVFS.main, err = libc.CString("main"); err != nil {
		return err
	}
	walMethods = sqlite3.Tsqlite3_io_methods{
		FiVersion:               1,
		FxClose:                 funcPointer(walClose),
		FxRead:                  funcPointer(walRead),
		FxWrite:                 funcPointer(walWrite),
		FxTruncate:              funcPointer(walTruncate),
		FxSync:                  funcPointer(walSync),
		FxFileSize:              funcPointer(walFileSize),
		FxLock:                  funcPointer(walLock),
		FxUnlock:                funcPointer(walUnlock),
		FxCheckReservedLock:     funcPointer(walCheckReservedLock),
		FxFileControl:           funcPointer(walFileControl),
		FxSectorSize:            funcPointer(walSectorSize),
		FxDeviceCharacteristics: funcPointer(walDeviceCharacteristics),
	}
	// The structures and names live as long as the process.
	for i, vfsName := range []string{"sqlitec-walbuffered", "sqlitec-waldeferred"} {
		name, err := libc.CString(vfsName)
		if err != nil {
			return err
		}
		p := libc.Xmalloc(tls, types.Size_t(unsafe.Sizeof(v)))
		if p == 0 {
			return fmt.Errorf("sqlite: cannot allocate %d bytes", unsafe.Sizeof(v))
		}
		w := v
		w.FszOsFile += walHeader
		w.FzName, w.FpNext = name, 0
		w.FxOpen = funcPointer(walOpen)
		copy(libc.GoBytes(p, int(unsafe.Sizeof(w))), goBytesOf(&w))
		if rc := sqlite3.Xsqlite3_vfs_register(tls, p, 0); rc != sqlite3.SQLITE_OK {
			return fmt.Errorf("sqlite: register file system %s: %d", vfsName, rc)
		}
		walVFS.names[i] = name
		if i == 1 {
			walVFS.deferred = p
		}
	}
	return nil
}

// goBytesOf is the memory of *v.
func goBytesOf[T any](v *T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(v)), unsafe.Sizeof(*v))
}

// funcPointer is how the transpiled C code holds a pointer to function f:
// the pointer to the Go func value, static for a top-level function.
func funcPointer(f any) uintptr { return (*[2]uintptr)(unsafe.Pointer(&f))[1] }

// fn turns a function pointer held by C code into a Go func of type F.
func fn[F any](p uintptr) F { return *(*F)(unsafe.Pointer(&struct{ uintptr }{p})) }

type (
	openFunc  = func(*libc.TLS, uintptr, uintptr, uintptr, int32, uintptr) int32
	fileFunc  = func(*libc.TLS, uintptr) int32
	rwFunc    = func(*libc.TLS, uintptr, uintptr, int32, int64) int32
	intFunc   = func(*libc.TLS, uintptr, int32) int32
	int64Func = func(*libc.TLS, uintptr, int64) int32
	ptrFunc   = func(*libc.TLS, uintptr, uintptr) int32
	fcntlFunc = func(*libc.TLS, uintptr, int32, uintptr) int32
)

// writePointer stores pointer v where C code reads it, at p.
func writePointer(p, v uintptr) {
	b := libc.GoBytes(p, int(unsafe.Sizeof(v)))
	if len(b) == 8 {
		binary.NativeEndian.PutUint64(b, uint64(v))
		return
	}
	binary.NativeEndian.PutUint32(b, uint32(v))
}

func walOpen(tls *libc.TLS, vfs, name, file uintptr, flags int32, outFlags uintptr) int32 {
	open := fn[openFunc](walVFS.open)
	if flags&sqlite3.SQLITE_OPEN_WAL == 0 {
		// The default file system's file, at the start of ours.
		return open(tls, walVFS.base, name, file, flags, outFlags)
	}
	real := file + walHeader
	if rc := open(tls, walVFS.base, name, real, flags, outFlags); rc != sqlite3.SQLITE_OK {
		writePointer(file, 0)
		return rc
	}
	f := &walFile{
		real:      real,
		db:        sqlite3.Xsqlite3_filename_database(tls, name),
		deferSync: vfs == walVFS.deferred,
		buf:       libc.Xmalloc(tls, walBufferSize),
		fd:        int(int32(binary.NativeEndian.Uint32(libc.GoBytes(real+unsafe.Offsetof(sqlite3.TunixFile{}.Fh), 4)))),
	}
	copy(goBytesOf(&f.methods), libc.GoBytes(readPointer(real), int(unsafe.Sizeof(f.methods))))
	if f.buf == 0 {
		fn[fileFunc](f.methods.FxClose)(tls, real)
		writePointer(file, 0)
		return sqlite3.SQLITE_NOMEM
	}
	walVFS.mu.Lock()
	walVFS.files[file] = f
	walVFS.mu.Unlock()
	writePointer(file, uintptr(unsafe.Pointer(&walMethods)))
	return sqlite3.SQLITE_OK
}

func lookupWAL(file uintptr) *walFile {
	walVFS.mu.Lock()
	defer walVFS.mu.Unlock()
	return walVFS.files[file]
}

// flush writes the frames gathered.
func (f *walFile) flush(tls *libc.TLS) int32 {
	write := fn[rwFunc](f.methods.FxWrite)
	for at := 0; at < f.n; at += maxWrite {
		n := min(maxWrite, f.n-at)
		if rc := write(tls, f.real, f.buf+uintptr(at), int32(n), f.off+int64(at)); rc != sqlite3.SQLITE_OK {
			f.n = 0
			return rc
		}
	}
	f.n = 0
	return sqlite3.SQLITE_OK
}

func walWrite(tls *libc.TLS, file, data uintptr, n int32, off int64) int32 {
	f := lookupWAL(file)
	end := f.off + int64(f.n)
	switch {
	case f.n > 0 && off >= f.off && off+int64(n) <= end: // a frame written again
	case f.n > 0 && off == end && f.n+int(n) <= walBufferSize:
	default:
		if rc := f.flush(tls); rc != sqlite3.SQLITE_OK {
			return rc
		}
		if int(n) > walBufferSize { // never a frame
			return fn[rwFunc](f.methods.FxWrite)(tls, f.real, data, n, off)
		}
		f.off = off
	}
	at := int(off - f.off)
	copy(libc.GoBytes(f.buf+uintptr(at), int(n)), libc.GoBytes(data, int(n)))
	f.n = max(f.n, at+int(n))
	return sqlite3.SQLITE_OK
}

func walRead(tls *libc.TLS, file, data uintptr, n int32, off int64) int32 {
	f := lookupWAL(file)
	if f.n > 0 && off < f.off+int64(f.n) && off+int64(n) > f.off {
		if rc := f.flush(tls); rc != sqlite3.SQLITE_OK {
			return rc
		}
	}
	return fn[rwFunc](f.methods.FxRead)(tls, f.real, data, n, off)
}

// walSync writes the frames gathered and syncs the file, but for a
// deferred-sync file once it has been synced once: the default file system
// also syncs the directory of a new WAL file on its first sync.
func walSync(tls *libc.TLS, file uintptr, flags int32) int32 {
	f := lookupWAL(file)
	if rc := f.flush(tls); rc != sqlite3.SQLITE_OK {
		return rc
	}
	if f.deferSync && f.synced {
		return sqlite3.SQLITE_OK
	}
	rc := fn[intFunc](f.methods.FxSync)(tls, f.real, flags)
	f.synced = f.synced || rc == sqlite3.SQLITE_OK
	return rc
}

func walClose(tls *libc.TLS, file uintptr) int32 {
	f := lookupWAL(file)
	rc := f.flush(tls)
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	if crc := fn[fileFunc](f.methods.FxClose)(tls, f.real); rc == sqlite3.SQLITE_OK {
		rc = crc
	}
	libc.Xfree(tls, f.buf)
	walVFS.mu.Lock()
	delete(walVFS.files, file)
	walVFS.mu.Unlock()
	return rc
}

func walTruncate(tls *libc.TLS, file uintptr, size int64) int32 {
	f := lookupWAL(file)
	if rc := f.flush(tls); rc != sqlite3.SQLITE_OK {
		return rc
	}
	return fn[int64Func](f.methods.FxTruncate)(tls, f.real, size)
}

func walFileSize(tls *libc.TLS, file, size uintptr) int32 {
	f := lookupWAL(file)
	if rc := f.flush(tls); rc != sqlite3.SQLITE_OK {
		return rc
	}
	return fn[ptrFunc](f.methods.FxFileSize)(tls, f.real, size)
}

func walFileControl(tls *libc.TLS, file uintptr, op int32, arg uintptr) int32 {
	f := lookupWAL(file)
	if rc := f.flush(tls); rc != sqlite3.SQLITE_OK {
		return rc
	}
	return fn[fcntlFunc](f.methods.FxFileControl)(tls, f.real, op, arg)
}

func walLock(tls *libc.TLS, file uintptr, level int32) int32 {
	f := lookupWAL(file)
	return fn[intFunc](f.methods.FxLock)(tls, f.real, level)
}

func walUnlock(tls *libc.TLS, file uintptr, level int32) int32 {
	f := lookupWAL(file)
	return fn[intFunc](f.methods.FxUnlock)(tls, f.real, level)
}

func walCheckReservedLock(tls *libc.TLS, file, out uintptr) int32 {
	f := lookupWAL(file)
	return fn[ptrFunc](f.methods.FxCheckReservedLock)(tls, f.real, out)
}

func walSectorSize(tls *libc.TLS, file uintptr) int32 {
	f := lookupWAL(file)
	return fn[fileFunc](f.methods.FxSectorSize)(tls, f.real)
}

func walDeviceCharacteristics(tls *libc.TLS, file uintptr) int32 {
	f := lookupWAL(file)
	return fn[fileFunc](f.methods.FxDeviceCharacteristics)(tls, f.real)
}

// syncWAL fsyncs the WAL file a DeferredSyncWAL connection of database
// file name db has open, if any.
func syncWAL(db uintptr) error {
	walVFS.mu.Lock()
	var f *walFile
	for _, o := range walVFS.files {
		if o.db == db && o.deferSync {
			f = o
			break
		}
	}
	walVFS.mu.Unlock()
	if f == nil {
		return nil
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	if f.closed {
		return nil
	}
	for {
		err := unix.Fsync(f.fd)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return &Error{Code: Code(sqlite3.SQLITE_IOERR_FSYNC), Message: fmt.Sprintf("fsync of the WAL file: %v", err)}
		}
		return nil
	}
}
