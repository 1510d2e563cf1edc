package sqlitec

import (
	"modernc.org/libc"
	"modernc.org/libc/sys/types"
)

// SQLite allocates through modernc.org/libc, whose allocator maps a shared
// page per size class and unmaps it as soon as its last block is freed. A
// B-tree page split allocates a scratch buffer of a few KiB and frees it at
// once, so every split mapped, faulted in and unmapped a page: a third of
// the CPU time of inserting messages. One block of each size class held for
// the life of the process keeps a page of every class mapped.
func init() {
	tls := libc.NewTLS()
	for size := 16; size <= 16<<10; size <<= 1 {
		if libc.Xmalloc(tls, types.Size_t(size)) == 0 {
			panic("sqlitec: out of memory at start")
		}
	}
}
