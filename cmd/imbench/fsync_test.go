package main

import (
	"context"
	"os"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("The disk probe", func() {
	It("fsyncs a page at its pace in the directory it is given, hands back the times sorted and leaves no file", func() {
		dir := GinkgoT().TempDir()
		p := startDiskProbe(context.Background(), dir)
		time.Sleep(10 * probeEvery)
		took, err := p.finish()
		Expect(err).NotTo(HaveOccurred())
		Expect(len(took)).To(BeNumerically(">=", 2))
		Expect(len(took)).To(BeNumerically("<=", 11), "one fsync a tick at most")
		Expect(slices.IsSorted(took)).To(BeTrue())
		Expect(took[0]).To(BeNumerically(">", 0))
		Expect(os.ReadDir(dir)).To(BeEmpty())
	})

	It("has nothing to hand back for a run with no disk (the relay's)", func() {
		var none *diskProbe
		took, err := none.finish()
		Expect(err).NotTo(HaveOccurred())
		Expect(took).To(BeEmpty())
	})

	It("reports a directory it cannot write in", func() {
		_, err := startDiskProbe(context.Background(), "/nonexistent/dir").finish()
		Expect(err).To(HaveOccurred())
	})
})
