package pebblestore

import (
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
)

// A duplicate of an append whose fsync is under way is answered after
// syncUpTo, which must make durable and publish what was handed to Pebble.
var _ = Describe("Syncing up to the head", func() {
	It("makes durable and publishes every batch handed to Pebble before it", func() {
		s, err := Open(filepath.Join(GinkgoT().TempDir(), "events"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		evs, err := prepareAppend("t.x-1", []es.EventData{{ID: "a", Type: "T"}, {ID: "b", Type: "T"}})
		Expect(err).NotTo(HaveOccurred())

		q := &queued{stream: "t.x-1", expected: es.NoStream, evs: evs, found: make([]idEntry, len(evs))}
		g := s.write([]*queued{q})
		Expect(q.err).NotTo(HaveOccurred())
		Expect(g).NotTo(BeNil())
		Expect(s.durable.Load()).To(BeZero())

		Expect(s.syncUpTo(2)).To(Succeed())
		Expect(s.durable.Load()).To(Equal(uint64(2)))
		Expect(s.pending).To(BeEmpty())
		Expect(g.batch.SyncWait()).To(Succeed())
	})
})
