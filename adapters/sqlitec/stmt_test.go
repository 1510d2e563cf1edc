package sqlitec_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

var _ = Describe("A statement", func() {
	var c *sqlitec.Conn
	BeforeEach(func() {
		c, _ = openTemp()
		Expect(c.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, txt TEXT, bin BLOB, n INTEGER, f REAL)")).To(Succeed())
	})

	insert := func(txt string, bin []byte, n int64) {
		st, err := c.Prepare("INSERT INTO t (txt, bin, n, f) VALUES (?, ?, ?, 1.5)")
		Expect(err).NotTo(HaveOccurred())
		defer st.Finalize()
		st.BindText(txt)
		st.BindBlob(bin)
		st.BindInt(n)
		Expect(st.Exec()).To(Succeed())
	}

	It("round-trips text, blobs, integers and floats with their storage classes", func() {
		insert("héllo 'quoted' \x00 nul", []byte{0, 1, 2, 255}, -1<<62)
		st, err := c.Prepare("SELECT txt, bin, n, f, NULL FROM t")
		Expect(err).NotTo(HaveOccurred())
		Expect(st.ColumnCount()).To(Equal(5))
		Expect(st.Next()).To(BeTrue())
		Expect(st.Text(0)).To(Equal("héllo 'quoted' \x00 nul"))
		Expect(st.Blob(1)).To(Equal([]byte{0, 1, 2, 255}))
		Expect(st.Int(2)).To(Equal(int64(-1 << 62)))
		Expect(st.Float(3)).To(Equal(1.5))
		Expect([]sqlitec.ColumnType{st.ColumnType(0), st.ColumnType(1), st.ColumnType(2), st.ColumnType(3), st.ColumnType(4)}).
			To(Equal([]sqlitec.ColumnType{sqlitec.Text, sqlitec.Blob, sqlitec.Integer, sqlitec.Float, sqlitec.Null}))
		Expect(st.Text(4)).To(BeEmpty())
		Expect(st.Blob(4)).To(BeNil())
		Expect(st.Next()).To(BeFalse())
		Expect(st.Done()).To(Succeed())
	})

	It("binds an empty blob as an empty blob, not NULL", func() {
		insert("", []byte{}, 0)
		Expect(c.QueryRow("SELECT typeof(bin), length(bin), typeof(txt) FROM t", func(s *sqlitec.Stmt) {
			Expect(s.Text(0)).To(Equal("blob"))
			Expect(s.Int(1)).To(BeZero())
			Expect(s.Text(2)).To(Equal("text"))
		})).To(Succeed())
	})

	It("binds values larger than its scratch memory, and small ones after them", func() {
		big := strings.Repeat("0123456789", 10_000)
		insert(big, []byte(big), 1)
		insert("small", []byte("small"), 2)
		st, err := c.Prepare("SELECT txt, bin FROM t ORDER BY n")
		Expect(err).NotTo(HaveOccurred())
		Expect(st.Next()).To(BeTrue())
		Expect(st.Text(0)).To(Equal(big))
		Expect(string(st.Blob(1))).To(Equal(big))
		Expect(st.Next()).To(BeTrue())
		Expect(st.Text(0)).To(Equal("small"))
		Expect(st.Done()).To(Succeed())
	})

	It("binds text from bytes the caller reuses", func() {
		st, err := c.Prepare("INSERT INTO t (txt, n) VALUES (?, ?)")
		Expect(err).NotTo(HaveOccurred())
		buf := []byte("first")
		st.BindTextBytes(buf)
		st.BindBool(true)
		Expect(st.Exec()).To(Succeed())
		copy(buf, "again")
		st.BindTextBytes(buf)
		st.BindBool(false)
		Expect(st.Exec()).To(Succeed())
		var got []string
		sel, err := c.Prepare("SELECT txt || ':' || n FROM t ORDER BY id")
		Expect(err).NotTo(HaveOccurred())
		for sel.Next() {
			got = append(got, sel.Text(0))
		}
		Expect(sel.Done()).To(Succeed())
		Expect(got).To(Equal([]string{"first:1", "again:0"}))
	})

	It("runs again after Done, bound from the first parameter", func() {
		insert("a", nil, 1)
		insert("b", nil, 2)
		insert("c", nil, 3)
		st, err := c.Prepare("SELECT txt FROM t WHERE n >= ? ORDER BY n")
		Expect(err).NotTo(HaveOccurred())
		run := func(from int64) []string {
			st.BindInt(from)
			var out []string
			for st.Next() {
				out = append(out, st.Text(0))
			}
			Expect(st.Done()).To(Succeed())
			return out
		}
		Expect(run(2)).To(Equal([]string{"b", "c"}))
		st.BindInt(1)
		Expect(st.Next()).To(BeTrue()) // abandoned after one row
		Expect(st.Done()).To(Succeed())
		Expect(run(3)).To(Equal([]string{"c"}))
	})

	It("keeps the first bind error for Exec and is usable again after it", func() {
		st, err := c.Prepare("INSERT INTO t (txt) VALUES (?)")
		Expect(err).NotTo(HaveOccurred())
		st.BindText("one")
		st.BindText("too many") // no second parameter
		Expect(st.Exec()).To(MatchError(ContainSubstring("column index out of range")))
		st.BindText("one")
		Expect(st.Exec()).To(Succeed())
		Expect(queryInt(c, "SELECT count(*) FROM t")).To(Equal(int64(1)))
	})
})
