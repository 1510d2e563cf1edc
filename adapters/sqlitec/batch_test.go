package sqlitec_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

var _ = Describe("A batch", func() {
	It("builds placeholder tuples", func() {
		Expect(sqlitec.Tuples(1, 1)).To(Equal("(?)"))
		Expect(sqlitec.Tuples(2, 3)).To(Equal("(?, ?, ?), (?, ?, ?)"))
	})

	It("refuses a chunk size that is not a power of two", func() {
		c, _ := openTemp()
		_, err := c.PrepareBatch(12, func(int) string { return "SELECT 1" })
		Expect(err).To(MatchError(ContainSubstring("power of two")))
	})

	It("covers any count with exact-size statements, largest first, in order", func() {
		c, _ := openTemp()
		Expect(c.Exec("CREATE TABLE t (v INTEGER PRIMARY KEY)")).To(Succeed())
		b, err := c.PrepareBatch(8, func(rows int) string {
			return "INSERT INTO t (v) VALUES " + sqlitec.Tuples(rows, 1)
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(b.MaxRows()).To(Equal(8))
		for _, n := range []int{0, 1, 7, 8, 9, 23, 64} {
			Expect(c.Exec("DELETE FROM t")).To(Succeed())
			var sizes []int
			next := 0
			Expect(b.Chunks(n, func(st *sqlitec.Stmt, from, to int) error {
				Expect(from).To(Equal(next))
				next = to
				sizes = append(sizes, to-from)
				for v := from; v < to; v++ {
					st.BindInt(int64(v))
				}
				return st.Exec() // a size mismatch fails to bind or leaves NULLs
			})).To(Succeed())
			Expect(next).To(Equal(n), fmt.Sprint(n))
			Expect(queryInt(c, "SELECT count(*) FROM t")).To(Equal(int64(n)))
			for i := 1; i < len(sizes); i++ {
				Expect(sizes[i]).To(BeNumerically("<=", sizes[i-1]))
			}
		}
	})

	It("stops at the first error", func() {
		c, _ := openTemp()
		b, err := c.PrepareBatch(4, func(rows int) string { return "SELECT 1" })
		Expect(err).NotTo(HaveOccurred())
		calls := 0
		Expect(b.Chunks(9, func(*sqlitec.Stmt, int, int) error {
			calls++
			return fmt.Errorf("chunk %d failed", calls)
		})).To(MatchError("chunk 1 failed"))
		Expect(calls).To(Equal(1))
	})
})
