package sqlitec

import (
	"fmt"
	"math/bits"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// SQLite allocates here rather than through modernc.org/libc. That
// allocator serializes every call of the process behind one mutex, and maps
// and unmaps a 64 KiB page as the blocks of a size class come and go: a
// B-tree split, a statement's cursor or an FTS5 flush cost mmap and munmap
// calls, made under that mutex, which every other connection then waits on.
// Here a block comes from a free list of its size class, each behind its own
// mutex, or is carved from a span that stays mapped. A freed block goes back
// to its list, not to the system: the process keeps the high-water mark of
// SQLite's memory (its page caches, FTS5's buffers), not more.

const (
	// blockHeader precedes every block: its size class, or for a block
	// mapped alone, the length of its mapping.
	blockHeader = 8
	// largestClass is the largest block carved from spans; larger ones
	// are mapped alone.
	largestClass = 128 << 10
	spanSize     = 1 << 20
	pageSize     = 4096
)

// sizeClass holds the free blocks of one size: multiples of 16 up to 128,
// then four sizes a doubling, so that a block wastes at most a fifth of
// itself.
type sizeClass struct {
	mu   sync.Mutex
	size uintptr
	free uintptr // the first free block; each holds the next
	next uintptr // the uncarved part of the current span
	end  uintptr
	_    [24]byte // the next class's mutex on another cache line
}

// sizeClasses run from 16 bytes to largestClass, 2^17; init sets their
// sizes.
var sizeClasses [8 + (17-7)*4]sizeClass

// classOf returns the class of the smallest blocks that hold n bytes,
// 0 < n <= largestClass.
func classOf(n uintptr) int {
	if n <= 128 {
		return int((n+15)/16) - 1
	}
	b := bits.Len(uint(n - 1)) // 2^(b-1) < n <= 2^b
	base := uintptr(1) << (b - 1)
	step := base / 4
	k := (n - base + step - 1) / step // 1..4
	return 8 + (b-8)*4 + int(k) - 1
}

func classSize(i int) uintptr {
	if i < 8 {
		return uintptr(i+1) * 16
	}
	b := (i-8)/4 + 8
	base := uintptr(1) << (b - 1)
	return base + uintptr((i-8)%4+1)*(base/4)
}

func blockMalloc(_ *libc.TLS, n int32) uintptr {
	if n <= 0 {
		n = 1
	}
	size := uintptr(n)
	if size > largestClass {
		return mapAlone(size)
	}
	i := classOf(size)
	c := &sizeClasses[i]
	c.mu.Lock()
	p := c.free
	if p != 0 {
		c.free = readPointer(p)
		c.mu.Unlock()
		return p
	}
	if c.end-c.next < blockHeader+c.size {
		span := mapAnon(spanSize)
		if span == 0 {
			c.mu.Unlock()
			return 0
		}
		c.next, c.end = span, span+spanSize
	}
	block := c.next
	c.next += blockHeader + c.size
	c.mu.Unlock()
	writePointer(block, uintptr(i))
	return block + blockHeader
}

func mapAlone(size uintptr) uintptr {
	length := (size + blockHeader + pageSize - 1) &^ (pageSize - 1)
	block := mapAnon(length)
	if block == 0 {
		return 0
	}
	writePointer(block, length)
	return block + blockHeader
}

func mapAnon(length uintptr) uintptr {
	p, _, errno := unix.Syscall6(unix.SYS_MMAP, 0, length, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON, ^uintptr(0), 0)
	if errno != 0 {
		return 0
	}
	return p
}

func unmapAnon(p, length uintptr) { unix.Syscall(unix.SYS_MUNMAP, p, length, 0) }

func blockFree(_ *libc.TLS, p uintptr) {
	if p == 0 {
		return
	}
	h := readPointer(p - blockHeader)
	if h > largestClass {
		unmapAnon(p-blockHeader, h)
		return
	}
	c := &sizeClasses[h]
	c.mu.Lock()
	writePointer(p, c.free)
	c.free = p
	c.mu.Unlock()
}

func blockSize(_ *libc.TLS, p uintptr) int32 {
	if p == 0 {
		return 0
	}
	h := readPointer(p - blockHeader)
	if h > largestClass {
		return int32(h - blockHeader)
	}
	return int32(sizeClasses[h].size)
}

func blockRealloc(tls *libc.TLS, p uintptr, n int32) uintptr {
	if p == 0 {
		return blockMalloc(tls, n)
	}
	old := blockSize(tls, p)
	if n > 0 && blockRoundup(tls, n) == old {
		return p
	}
	q := blockMalloc(tls, n)
	if q == 0 {
		return 0
	}
	keep := int(min(old, n))
	copy(libc.GoBytes(q, keep), libc.GoBytes(p, keep))
	blockFree(tls, p)
	return q
}

func blockRoundup(_ *libc.TLS, n int32) int32 {
	if n <= 0 || uintptr(n) > largestClass {
		return n
	}
	return int32(sizeClasses[classOf(uintptr(n))].size)
}

func blockInit(*libc.TLS, uintptr) int32 { return sqlite3.SQLITE_OK }

// blockMethods are SQLite's allocator; sqlite3_config copies them.
var blockMethods = sqlite3.Tsqlite3_mem_methods{
	FxMalloc:  funcPointer(blockMalloc),
	FxFree:    funcPointer(blockFree),
	FxRealloc: funcPointer(blockRealloc),
	FxSize:    funcPointer(blockSize),
	FxRoundup: funcPointer(blockRoundup),
	FxInit:    funcPointer(blockInit),
}

// The configuration must come before SQLite initializes, which its first
// connection does.
func init() {
	for i := range sizeClasses {
		sizeClasses[i].size = classSize(i)
	}
	tls := libc.NewTLS()
	defer tls.Close()
	va := libc.NewVaList(uintptr(unsafe.Pointer(&blockMethods)))
	defer libc.Xfree(tls, va)
	if rc := sqlite3.Xsqlite3_config(tls, sqlite3.SQLITE_CONFIG_MALLOC, va); rc != sqlite3.SQLITE_OK {
		panic(fmt.Sprintf("sqlitec: configure SQLite's allocator: %d", rc))
	}
}
