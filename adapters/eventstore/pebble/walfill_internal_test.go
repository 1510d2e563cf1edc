package pebblestore

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"

	"github.com/cockroachdb/pebble/v2/vfs"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
)

var _ = Describe("WAL files filled with zeros ahead of the log", func() {
	var (
		fs  filledFS
		dir string
	)
	BeforeEach(func() {
		fs = filledFS{vfs.Default}
		dir = GinkgoT().TempDir()
	})

	size := func(name string) int64 {
		st, err := os.Stat(name)
		Expect(err).NotTo(HaveOccurred())
		return st.Size()
	}
	// write writes n random bytes in pieces of random sizes, now and then
	// letting the filler run between them, and returns what it wrote.
	write := func(f vfs.File, n int, rng *rand.Rand) []byte {
		pool := make([]byte, n+100<<10)
		for i := range pool {
			pool[i] = byte(1 + rng.IntN(255))
		}
		at := 0
		for at < n {
			p := pool[at : at+min(1+rng.IntN(100<<10), n-at)]
			_, err := f.Write(p)
			Expect(err).NotTo(HaveOccurred())
			at += len(p)
			if rng.IntN(16) == 0 {
				runtime.Gosched()
			}
		}
		return pool[:n]
	}

	It("never writes over what the log wrote, and holds only zeros past it", func() {
		rng := rand.New(rand.NewPCG(1, 2))
		name := filepath.Join(dir, "000002.log")
		f, err := fs.Create(name, walWrites)
		Expect(err).NotTo(HaveOccurred())
		var wrote []byte
		// Bursts longer than fillAhead overtake the filler.
		for _, burst := range []int{10 << 20, 1 << 20, 2 << 20, 12 << 20, 3 << 20} {
			wrote = append(wrote, write(f, burst, rng)...)
			n := int64(len(wrote))
			Eventually(func() int64 { return size(name) }).Should(BeNumerically(">=", n+fillAhead-fillSync),
				"the zeros reach ahead of the log")
		}
		Expect(f.Sync()).To(Succeed())
		Expect(f.Close()).To(Succeed())

		got, err := os.ReadFile(name)
		Expect(err).NotTo(HaveOccurred())
		Expect(bytes.Equal(got[:len(wrote)], wrote)).To(BeTrue(), "the log's bytes are intact")
		Expect(bytes.Count(got[len(wrote):], []byte{0})).To(Equal(len(got)-len(wrote)), "only zeros follow")
	})

	It("writes no zeros into a WAL file closed before the log wrote to it", func() {
		name := filepath.Join(dir, "000005.log")
		f, err := fs.Create(name, walWrites)
		Expect(err).NotTo(HaveOccurred())
		Consistently(func() int64 { return size(name) }, "100ms").Should(BeZero())
		Expect(f.Close()).To(Succeed())
		Expect(size(name)).To(BeZero())
	})

	It("fills a reused WAL file only past what it held, and leaves other files alone", func() {
		old := filepath.Join(dir, "000001.log")
		held := bytes.Repeat([]byte{0xee}, 1<<20+123)
		Expect(os.WriteFile(old, held, 0o644)).To(Succeed())
		name := filepath.Join(dir, "000003.log")
		f, err := fs.ReuseForWrite(old, name, walWrites)
		Expect(err).NotTo(HaveOccurred())
		wrote := write(f, 1<<20, rand.New(rand.NewPCG(3, 4)))
		Eventually(func() int64 { return size(name) }).Should(BeNumerically(">=", int64(len(wrote))+fillAhead-fillSync))
		Expect(f.Close()).To(Succeed())
		got, err := os.ReadFile(name)
		Expect(err).NotTo(HaveOccurred())
		Expect(bytes.Equal(got[:len(wrote)], wrote)).To(BeTrue())
		Expect(bytes.Equal(got[len(wrote):len(held)], held[len(wrote):])).To(BeTrue(), "what the reused file held past the log is left")
		Expect(bytes.Count(got[len(held):], []byte{0xee})).To(BeNumerically("<=", page), "past it, zeros (or the rest of its last page)")

		table := filepath.Join(dir, "000004.sst")
		t, err := fs.Create(table, "pebble-compaction")
		Expect(err).NotTo(HaveOccurred())
		_, err = t.Write([]byte("table"))
		Expect(err).NotTo(HaveOccurred())
		Expect(t.Close()).To(Succeed())
		Expect(size(table)).To(Equal(int64(5)))
	})

	It("leaves a store's log readable whole from a copy taken while it appends, zeros past its end", func() {
		src := filepath.Join(dir, "events")
		s, err := Open(src)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		ctx := context.Background()
		event := func(i int) []es.EventData {
			return []es.EventData{{ID: fmt.Sprintf("e%d", i), Type: "Tested", Data: []byte(`{"n":1}`), Metadata: es.Metadata{Tenant: "t"}}}
		}
		const n = 2000
		for i := range n {
			_, err := s.Append(ctx, "t.x-1", es.Any, event(i))
			Expect(err).NotTo(HaveOccurred())
		}
		logs, err := filepath.Glob(filepath.Join(src, "*.log"))
		Expect(err).NotTo(HaveOccurred())
		Expect(logs).NotTo(BeEmpty())
		last := logs[len(logs)-1]
		Eventually(func() int64 { return size(last) }).Should(BeNumerically(">=", fillAhead-fillSync))

		// The files as they are while the store runs are what a crash of the
		// process leaves: the zeros after the last record, too.
		dst := filepath.Join(dir, "copy")
		Expect(os.CopyFS(dst, os.DirFS(src))).To(Succeed())
		wal, err := os.ReadFile(filepath.Join(dst, filepath.Base(last)))
		Expect(err).NotTo(HaveOccurred())
		Expect(bytes.Count(wal[len(wal)-fillSync:], []byte{0})).To(Equal(fillSync), "the copied log ends in zeros")
		c, err := Open(dst)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(c.Close)
		recs, err := c.ReadStream(ctx, "t.x-1", es.Forwards, 0, n+1)
		Expect(err).NotTo(HaveOccurred())
		Expect(recs).To(HaveLen(n))
		Expect(recs[n-1].ID).To(Equal(fmt.Sprintf("e%d", n-1)))
		_, err = c.Append(ctx, "t.x-1", es.Any, event(n))
		Expect(err).NotTo(HaveOccurred())
	})
})
