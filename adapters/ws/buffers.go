package ws

import "sync"

// Read and write buffers come from size-class pools, so a busy connection
// allocates no buffer per frame and an idle one holds none.
var bufClasses = [...]int{1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 2 << 20}

var bufPools [len(bufClasses)]sync.Pool

// getBuf returns an empty buffer of capacity at least n.
func getBuf(n int) *[]byte {
	for i, size := range bufClasses {
		if n <= size {
			if p, ok := bufPools[i].Get().(*[]byte); ok {
				*p = (*p)[:0]
				return p
			}
			b := make([]byte, 0, size)
			return &b
		}
	}
	b := make([]byte, 0, n)
	return &b
}

// putBuf returns a buffer of a pooled class; others are left to the GC.
func putBuf(p *[]byte) {
	for i, size := range bufClasses {
		if cap(*p) == size {
			bufPools[i].Put(p)
			return
		}
	}
}

// reserve returns p, or a larger buffer holding p's bytes, with room for n more.
func reserve(p *[]byte, n int) *[]byte {
	if p == nil {
		return getBuf(n)
	}
	if cap(*p)-len(*p) >= n {
		return p
	}
	q := getBuf(len(*p) + n)
	*q = append(*q, *p...)
	putBuf(p)
	return q
}
