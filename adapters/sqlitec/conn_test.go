package sqlitec_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sqlite3 "modernc.org/sqlite/lib"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// openTemp opens a fresh database file, closed after the spec.
func openTemp() (*sqlitec.Conn, string) {
	path := filepath.Join(GinkgoT().TempDir(), "test.db")
	c, err := sqlitec.Open(path)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { Expect(c.Close()).To(Succeed()) })
	return c, path
}

func queryInt(c *sqlitec.Conn, query string) int64 {
	var n int64
	Expect(c.QueryRow(query, func(s *sqlitec.Stmt) { n = s.Int(0) })).To(Succeed())
	return n
}

var _ = Describe("A connection", func() {
	It("creates the file and keeps what a statement wrote", func() {
		c, path := openTemp()
		Expect(c.Exec("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1), (2)")).To(Succeed())
		Expect(path).To(BeAnExistingFile())

		other, err := sqlitec.Open(path)
		Expect(err).NotTo(HaveOccurred())
		defer other.Close()
		Expect(queryInt(other, "SELECT sum(v) FROM t")).To(Equal(int64(3)))
	})

	It("takes a path with characters that URIs reserve as a plain file name", func() {
		dir := filepath.Join(GinkgoT().TempDir(), "odd ?#% dir")
		Expect(os.MkdirAll(dir, 0o700)).To(Succeed())
		path := filepath.Join(dir, "x?mode=ro#y.db")
		c, err := sqlitec.Open(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Exec("CREATE TABLE t (v)")).To(Succeed())
		Expect(c.Close()).To(Succeed())
		Expect(path).To(BeAnExistingFile())
	})

	It("fails with CodeCantOpen for a path it cannot open", func() {
		_, err := sqlitec.Open(filepath.Join(GinkgoT().TempDir(), "missing", "x.db"))
		Expect(err).To(HaveOccurred())
		Expect(sqlitec.HasCode(err, sqlitec.CodeCantOpen)).To(BeTrue(), err.Error())
	})

	It("fails with CodeNotADB on the first statement over a file that is not a database", func() {
		path := filepath.Join(GinkgoT().TempDir(), "notes.txt")
		Expect(os.WriteFile(path, []byte(strings.Repeat("not a database, not at all. ", 10)), 0o600)).To(Succeed())
		c, err := sqlitec.Open(path)
		Expect(err).NotTo(HaveOccurred())
		defer c.Close()
		err = c.Exec("SELECT count(*) FROM sqlite_schema")
		Expect(sqlitec.HasCode(err, sqlitec.CodeNotADB)).To(BeTrue(), err.Error())
	})

	It("reports a bad statement with SQLite's message and the query", func() {
		c, _ := openTemp()
		_, err := c.Prepare("SELEC 1")
		Expect(err).To(MatchError(ContainSubstring(`syntax error`)))
		Expect(err).To(MatchError(ContainSubstring(`"SELEC 1"`)))
		Expect(c.Exec("SELECT * FROM missing")).To(MatchError(ContainSubstring("no such table: missing")))
		_, err = c.Prepare("  -- nothing")
		Expect(err).To(MatchError(ContainSubstring("no statement")))
	})

	It("tells constraint failures apart by primary and extended code", func() {
		c, _ := openTemp()
		Expect(c.Exec("CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT NOT NULL)")).To(Succeed())
		ins, err := c.Prepare("INSERT INTO t VALUES (?, ?)")
		Expect(err).NotTo(HaveOccurred())
		ins.BindText("a")
		ins.BindText("1")
		Expect(ins.Exec()).To(Succeed())
		ins.BindText("a")
		ins.BindText("2")
		err = ins.Exec()
		var se *sqlitec.Error
		Expect(err).To(BeAssignableToTypeOf(se))
		Expect(sqlitec.HasCode(err, sqlitec.CodeConstraint)).To(BeTrue())
		Expect(sqlitec.HasCode(err, sqlitec.Code(sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY))).To(BeTrue(), err.Error())
		Expect(sqlitec.HasCode(err, sqlitec.Code(sqlite3.SQLITE_CONSTRAINT_NOTNULL))).To(BeFalse())
		Expect(sqlitec.HasCode(err, sqlitec.CodeBusy)).To(BeFalse())
		Expect(err.Error()).To(ContainSubstring("UNIQUE constraint failed: t.k"))
		Expect(sqlitec.HasCode(os.ErrNotExist, sqlitec.CodeConstraint)).To(BeFalse())

		// The statement was reset: it runs again.
		ins.BindText("b")
		ins.BindText("2")
		Expect(ins.Exec()).To(Succeed())
		Expect(queryInt(c, "SELECT count(*) FROM t")).To(Equal(int64(2)))
	})

	It("runs QueryRow's reader only when there is a row", func() {
		c, _ := openTemp()
		Expect(c.Exec("CREATE TABLE t (v)")).To(Succeed())
		called := false
		Expect(c.QueryRow("SELECT v FROM t", func(*sqlitec.Stmt) { called = true })).To(Succeed())
		Expect(called).To(BeFalse())
	})

	It("tracks the open transaction and ends interrupted runs with ResetAll", func() {
		c, path := openTemp()
		Expect(c.Exec("PRAGMA journal_mode = WAL; CREATE TABLE t (v); INSERT INTO t VALUES (1), (2)")).To(Succeed())
		sel, err := c.Prepare("SELECT v FROM t")
		Expect(err).NotTo(HaveOccurred())
		Expect(c.InTransaction()).To(BeFalse())
		Expect(c.Exec("BEGIN IMMEDIATE")).To(Succeed())
		Expect(c.InTransaction()).To(BeTrue())
		Expect(sel.Next()).To(BeTrue()) // left running
		Expect(c.Exec("INSERT INTO t VALUES (3)")).To(Succeed())
		c.ResetAll()
		Expect(c.Exec("COMMIT")).To(Succeed())
		Expect(c.InTransaction()).To(BeFalse())

		other, err := sqlitec.Open(path)
		Expect(err).NotTo(HaveOccurred())
		defer other.Close()
		Expect(queryInt(other, "SELECT count(*) FROM t")).To(Equal(int64(3)))
	})

	It("finalizes a statement on its own or at Close", func() {
		c, err := sqlitec.Open(filepath.Join(GinkgoT().TempDir(), "t.db"))
		Expect(err).NotTo(HaveOccurred())
		once, err := c.Prepare("SELECT 1")
		Expect(err).NotTo(HaveOccurred())
		_, err = c.Prepare("SELECT 2")
		Expect(err).NotTo(HaveOccurred())
		once.Finalize()
		Expect(c.Close()).To(Succeed())
	})

	It("copies the WAL into the file when the last connection closes, unless it closes keeping the WAL", func() {
		for _, keep := range []bool{false, true} {
			path := filepath.Join(GinkgoT().TempDir(), "wal.db")
			c, err := sqlitec.Open(path)
			Expect(err).NotTo(HaveOccurred())
			Expect(c.Exec("PRAGMA journal_mode = WAL; CREATE TABLE t (v TEXT); INSERT INTO t VALUES (zeroblob(100000))")).To(Succeed())
			wal, err := os.Stat(path + "-wal")
			Expect(err).NotTo(HaveOccurred())
			Expect(wal.Size()).To(BeNumerically(">", 100000))
			if keep {
				Expect(c.CloseKeepingWAL()).To(Succeed())
				kept, err := os.Stat(path + "-wal")
				Expect(err).NotTo(HaveOccurred(), "the WAL is left")
				Expect(kept.Size()).To(Equal(wal.Size()))
			} else {
				Expect(c.Close()).To(Succeed())
				Expect(path+"-wal").NotTo(BeAnExistingFile(), "checkpointed and removed")
			}
			again, err := sqlitec.Open(path)
			Expect(err).NotTo(HaveOccurred())
			Expect(queryInt(again, "SELECT length(v) FROM t")).To(Equal(int64(100000)), "keep %v", keep)
			Expect(again.Close()).To(Succeed())
		}
	})
})
