package main

import (
	"os"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Process readings", func() {
	It("read this process's resident set and CPU time", func() {
		kb, err := rssKiB(strconv.Itoa(os.Getpid()))
		Expect(err).NotTo(HaveOccurred())
		Expect(kb).To(BeNumerically(">", 1000))

		m := startCPU("self")
		for end := time.Now().Add(50 * time.Millisecond); time.Now().Before(end); {
		}
		cpu, err := cpuTime("self")
		Expect(err).NotTo(HaveOccurred())
		Expect(cpu).To(BeNumerically(">", 0))
		Expect(m.use().known).To(BeTrue())
	})

	It("report a process that does not exist as an error, or its use as unknown", func() {
		_, err := rssKiB("999999999")
		Expect(err).To(HaveOccurred())
		_, err = cpuTime("999999999")
		Expect(err).To(HaveOccurred())
		Expect(startCPU("999999999").use().known).To(BeFalse())
		Expect(startCPU("").use().known).To(BeFalse())
	})
})
