package main

import (
	"context"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	pebblestore "github.com/eventchat/eventchat/adapters/eventstore/pebble"
	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
)

var _ = Describe("Synthetic chat traffic", func() {
	It("fills the log with messages and acknowledgements the projections fold into conversations", func() {
		ctx := context.Background()
		dir := GinkgoT().TempDir()
		log, err := pebblestore.Open(filepath.Join(dir, "events"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(log.Close)

		mix, err := fillTraffic(ctx, log, traffic{events: 1000, pairs: 5, ackEvery: 10})
		Expect(err).NotTo(HaveOccurred())
		Expect(mix.sent + mix.acks).To(Equal(int64(1000)))
		Expect(mix.acks).To(Equal(int64(100)))
		head, err := log.Head(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(head).To(Equal(uint64(1000)))

		reads, err := sqliteread.Open(filepath.Join(dir, "read.db"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(reads.Close)
		_, _, err = catchUp(ctx, log, reads, head, nil)
		Expect(err).NotTo(HaveOccurred())

		unread := 0
		for _, m := range []string{memberID(0), memberID(1)} {
			sessions, err := reads.Sessions(ctx, m)
			Expect(err).NotTo(HaveOccurred())
			Expect(sessions).To(HaveLen(1))
			unread += sessions[0].UnreadCount
		}
		// Pair 0 exchanged about 180 messages; the acknowledgements read most.
		Expect(unread).To(BeNumerically("<", 30))
	})
})
