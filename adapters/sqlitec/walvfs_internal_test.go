package sqlitec

import (
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// deferredWALOf returns the WAL file SyncWAL syncs for c, if any.
func deferredWALOf(c *Conn) *walFile {
	walVFS.mu.Lock()
	defer walVFS.mu.Unlock()
	for _, f := range walVFS.files {
		if f.db == c.dbName && f.deferSync {
			return f
		}
	}
	return nil
}

var _ = Describe("SyncWAL", func() {
	It("finds the WAL file of its own connection only, from its opening to its closing", func() {
		dir := GinkgoT().TempDir()
		a, err := OpenWAL(filepath.Join(dir, "a.db"), DeferredSyncWAL)
		Expect(err).NotTo(HaveOccurred())
		b, err := OpenWAL(filepath.Join(dir, "b.db"), DeferredSyncWAL)
		Expect(err).NotTo(HaveOccurred())
		defer b.Close()
		Expect(deferredWALOf(a)).To(BeNil())
		for _, c := range []*Conn{a, b} {
			Expect(c.Exec("PRAGMA journal_mode = WAL; CREATE TABLE t (v); INSERT INTO t VALUES (1)")).To(Succeed())
		}
		walA, walB := deferredWALOf(a), deferredWALOf(b)
		Expect(walA).NotTo(BeNil())
		Expect(walB).NotTo(BeNil())
		Expect(walA).NotTo(BeIdenticalTo(walB))
		Expect(walA.fd).To(BeNumerically(">", 2))
		Expect(a.SyncWAL()).To(Succeed())

		Expect(a.Close()).To(Succeed())
		Expect(walA.closed).To(BeTrue())
		Expect(deferredWALOf(b)).To(BeIdenticalTo(walB))
	})
})
