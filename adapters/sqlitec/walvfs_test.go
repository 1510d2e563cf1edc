package sqlitec_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// walWriter opens a connection of mode on a new WAL database with a table
// t (n INTEGER PRIMARY KEY, v TEXT), closed after the spec.
func walWriter(mode sqlitec.WALWrites) (*sqlitec.Conn, string) {
	path := filepath.Join(GinkgoT().TempDir(), "wal.db")
	c, err := sqlitec.OpenWAL(path, mode)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { Expect(c.Close()).To(Succeed()) })
	Expect(c.Exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; " +
		"CREATE TABLE t (n INTEGER PRIMARY KEY, v TEXT NOT NULL)")).To(Succeed())
	return c, path
}

// insertRows inserts rows n = from..to-1 in one transaction, each with a
// value of size bytes.
func insertRows(c *sqlitec.Conn, from, to, size int) {
	st, err := c.Prepare("INSERT INTO t (n, v) VALUES (?, ?)")
	Expect(err).NotTo(HaveOccurred())
	defer st.Finalize()
	Expect(c.Exec("BEGIN IMMEDIATE")).To(Succeed())
	for n := from; n < to; n++ {
		st.BindInt(int64(n))
		st.BindText(value(n, size))
		Expect(st.Exec()).To(Succeed())
	}
	Expect(c.Exec("COMMIT")).To(Succeed())
}

func value(n, size int) string {
	v := fmt.Sprintf("row %d ", n)
	return v + strings.Repeat("x", max(size-len(v), 0))
}

// expectRows checks, on a connection of its own, that t holds rows 0..n-1
// as insertRows wrote them and that the database is intact.
func expectRows(path string, n, size int) {
	c, err := sqlitec.Open(path)
	Expect(err).NotTo(HaveOccurred())
	defer c.Close()
	st, err := c.Prepare("SELECT n, v FROM t ORDER BY n")
	Expect(err).NotTo(HaveOccurred())
	got := 0
	for st.Next() {
		Expect(st.Int(0)).To(Equal(int64(got)))
		Expect(st.Text(1)).To(Equal(value(got, size)))
		got++
	}
	Expect(st.Done()).To(Succeed())
	Expect(got).To(Equal(n))
	Expect(c.QueryRow("PRAGMA integrity_check", func(s *sqlitec.Stmt) { Expect(s.Text(0)).To(Equal("ok")) })).To(Succeed())
}

var _ = Describe("A connection writing the WAL", func() {
	for _, mode := range []sqlitec.WALWrites{sqlitec.BufferedWAL, sqlitec.DeferredSyncWAL} {
		Context(fmt.Sprintf("in mode %d", mode), func() {
			It("runs with synchronous FULL", func() {
				c, _ := walWriter(mode)
				Expect(queryInt(c, "PRAGMA synchronous")).To(Equal(int64(2)))
			})

			It("has every commit in the file for the other connections at once", func() {
				c, path := walWriter(mode)
				for i := range 20 {
					insertRows(c, i*10, i*10+10, 300)
					expectRows(path, i*10+10, 300)
				}
			})

			It("writes commits larger than its buffer", func() {
				c, path := walWriter(mode)
				insertRows(c, 0, 3000, 1000) // 3 MB
				expectRows(path, 3000, 1000)
			})

			It("reads back pages it spilled to the WAL in the middle of a transaction", func() {
				c, path := walWriter(mode)
				Expect(c.Exec("PRAGMA cache_size = 10")).To(Succeed())
				insertRows(c, 0, 2000, 500)
				Expect(queryInt(c, "SELECT count(*) FROM t WHERE v LIKE 'row %'")).To(Equal(int64(2000)))
				expectRows(path, 2000, 500)
			})

			It("keeps writing right after the WAL starts over from its beginning", func() {
				c, path := walWriter(mode)
				other, err := sqlitec.Open(path)
				Expect(err).NotTo(HaveOccurred())
				defer other.Close()
				for i := range 5 {
					insertRows(c, i*200, i*200+200, 400)
					Expect(other.Exec("PRAGMA wal_checkpoint(RESTART)")).To(Succeed())
				}
				expectRows(path, 1000, 400)
			})

			It("leaves the file whole for a copy taken without closing", func() {
				c, path := walWriter(mode)
				insertRows(c, 0, 500, 200)
				Expect(c.SyncWAL()).To(Succeed())
				copyPath := filepath.Join(GinkgoT().TempDir(), "copy.db")
				copyFile(path, copyPath)
				copyFile(path+"-wal", copyPath+"-wal")
				expectRows(copyPath, 500, 200)
			})
		})
	}

	It("syncs the WAL from another goroutine while the connection writes", func() {
		c, path := walWriter(sqlitec.DeferredSyncWAL)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer GinkgoRecover()
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					Expect(c.SyncWAL()).To(Succeed())
				}
			}
		}()
		for i := range 50 {
			insertRows(c, i*20, i*20+20, 100)
		}
		close(stop)
		wg.Wait()
		Expect(c.SyncWAL()).To(Succeed())
		expectRows(path, 1000, 100)
	})

	It("leaves checkpoints to the owner of a deferred-sync connection", func() {
		c, _ := walWriter(sqlitec.DeferredSyncWAL)
		Expect(queryInt(c, "PRAGMA wal_autocheckpoint")).To(BeZero())
	})

	It("has nothing to sync without a WAL or in the default mode", func() {
		c, err := sqlitec.OpenWAL(filepath.Join(GinkgoT().TempDir(), "rollback.db"), sqlitec.DeferredSyncWAL)
		Expect(err).NotTo(HaveOccurred())
		defer c.Close()
		Expect(c.Exec("CREATE TABLE t (v)")).To(Succeed())
		Expect(c.SyncWAL()).To(Succeed())

		d, _ := openTemp()
		Expect(d.SyncWAL()).To(Succeed())
	})
})

func copyFile(from, to string) {
	in, err := os.Open(from)
	Expect(err).NotTo(HaveOccurred())
	defer in.Close()
	out, err := os.Create(to)
	Expect(err).NotTo(HaveOccurred())
	defer out.Close()
	_, err = io.Copy(out, in)
	Expect(err).NotTo(HaveOccurred())
}
