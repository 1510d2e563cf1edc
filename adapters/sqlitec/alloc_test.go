package sqlitec_test

import (
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"

	_ "github.com/eventchat/eventchat/adapters/sqlitec"
)

// The allocator is SQLite's: these specs reach it through sqlite3_malloc,
// as SQLite's own code does.
var _ = Describe("SQLite's allocator", func() {
	var tls *libc.TLS
	BeforeEach(func() {
		tls = libc.NewTLS()
		DeferCleanup(tls.Close)
	})

	fill := func(p uintptr, n int, b byte) {
		s := libc.GoBytes(p, n)
		for i := range s {
			s[i] = b
		}
	}
	holds := func(p uintptr, n int, b byte) bool {
		for _, v := range libc.GoBytes(p, n) {
			if v != b {
				return false
			}
		}
		return true
	}

	It("gives aligned blocks that hold what was asked and waste at most a fifth, up to mappings of their own", func() {
		var sizes []int
		for n := 1; n <= 1024; n++ {
			sizes = append(sizes, n)
		}
		for n := 1025; n <= 300_000; n = n*9/8 + 1 {
			sizes = append(sizes, n-1, n)
		}
		sizes = append(sizes, 128<<10, 128<<10+1, 1<<20)

		blocks := map[uintptr]int{}
		for i, n := range sizes {
			p := sqlite3.Xsqlite3_malloc64(tls, uint64(n))
			Expect(p).NotTo(BeZero())
			Expect(p % 8).To(BeZero())
			size := int(sqlite3.Xsqlite3_msize(tls, p))
			Expect(size).To(BeNumerically(">=", n))
			if n > 16 {
				Expect(size).To(BeNumerically("<=", n+n/4+16), "%d bytes", n)
			}
			fill(p, size, byte(i))
			blocks[p] = i
		}
		for p, i := range blocks {
			Expect(holds(p, int(sqlite3.Xsqlite3_msize(tls, p)), byte(i))).To(BeTrue(), "block of %d bytes overwritten", sizes[i])
			sqlite3.Xsqlite3_free(tls, p)
		}
	})

	It("hands a freed block out again before carving a new one", func() {
		p := sqlite3.Xsqlite3_malloc(tls, 4200)
		q := sqlite3.Xsqlite3_malloc(tls, 4200)
		Expect(q).NotTo(Equal(p))
		sqlite3.Xsqlite3_free(tls, p)
		Expect(sqlite3.Xsqlite3_malloc(tls, 4100)).To(Equal(p))
		sqlite3.Xsqlite3_free(tls, p)
		sqlite3.Xsqlite3_free(tls, q)
	})

	It("keeps a block's content as it grows and shrinks, in place while its class fits", func() {
		p := sqlite3.Xsqlite3_malloc(tls, 100)
		fill(p, 100, 7)
		Expect(sqlite3.Xsqlite3_realloc(tls, p, 112)).To(Equal(p))
		for _, n := range []int32{5000, 200_000, 3_000_000, 150, 40} {
			q := sqlite3.Xsqlite3_realloc(tls, p, n)
			Expect(q).NotTo(BeZero())
			Expect(holds(q, int(min(n, 100)), 7)).To(BeTrue(), "realloc to %d", n)
			p = q
		}
		sqlite3.Xsqlite3_free(tls, p)
	})

	It("serves connections on several goroutines at once without handing a block out twice", func() {
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				defer GinkgoRecover()
				tls := libc.NewTLS()
				defer tls.Close()
				mark := byte(g + 1)
				var held []uintptr
				for i := range 20_000 {
					n := 16 + (i*37)%6000
					p := sqlite3.Xsqlite3_malloc(tls, int32(n))
					Expect(p).NotTo(BeZero())
					fill(p, n, mark)
					held = append(held, p)
					if len(held) == 64 {
						for j, p := range held {
							Expect(holds(p, 16+((i-63+j)*37)%6000, mark)).To(BeTrue())
							sqlite3.Xsqlite3_free(tls, p)
						}
						held = held[:0]
					}
				}
				for _, p := range held {
					sqlite3.Xsqlite3_free(tls, p)
				}
			})
		}
		wg.Wait()
	})
})
