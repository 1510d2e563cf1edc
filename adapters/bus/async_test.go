package bus_test

import (
	"context"
	"net"
	"slices"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/bus"
	"github.com/eventchat/eventchat/projections"
)

// gatedSink takes batches only while its gate is open; a closed gate holds
// the sender in Publish, as a bus that does not answer does.
type gatedSink struct {
	gate chan struct{}
	mu   sync.Mutex
	got  [][]projections.Delta
}

func (s *gatedSink) Publish(ctx context.Context, ds []projections.Delta) error {
	select {
	case <-s.gate:
	case <-ctx.Done():
		return ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, ds)
	return nil
}

func (s *gatedSink) received() [][]projections.Delta {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]projections.Delta(nil), s.got...)
}

var _ = Describe("Async publisher", func() {
	It("hands every batch to the bus in order", func() {
		b := bus.NewInProcess()
		DeferCleanup(b.Close)
		ctx, cancel := context.WithCancel(context.Background())
		DeferCleanup(cancel)
		ds, err := b.Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		a := bus.NewAsync(b, bus.AsyncConfig{})
		DeferCleanup(a.Close)

		for i := range 100 {
			Expect(a.Publish(ctx, numbered(i*10, 10))).To(Succeed())
		}
		Expect(positionsOf(take(ds, 1000))).To(Equal(counting(1000)))
		Eventually(a.PublishState).Should(Equal(projections.PublishState{}))
	})

	It("never waits on a bus that does not answer, keeps no more than its buffer, and resyncs once the bus answers", func() {
		sink := &gatedSink{gate: make(chan struct{})}
		a := bus.NewAsync(sink, bus.AsyncConfig{Buffer: 50, Timeout: 10 * time.Second})
		DeferCleanup(a.Close)

		// The sender waits on the gate with its first batch or with the
		// resync; the buffer takes five batches at most; the rest is
		// dropped, and no Publish waits.
		for i := range 100 {
			Expect(a.Publish(context.Background(), numbered(i*10, 10))).To(Succeed())
		}
		st := a.PublishState()
		Expect(st.Buffered).To(BeNumerically("<=", 50))
		Expect(st.Dropped).To(BeNumerically(">=", 1000-50-10))
		Expect(st.Gap).To(BeTrue())
		Expect(st.LastError).To(Equal("bus: the buffer of deltas to send was full"))

		close(sink.gate)
		Eventually(a.PublishState).Should(HaveField("Gap", false))
		got := sink.received()
		lastResync := -1
		var delivered []projections.Delta
		for i, batch := range got {
			if batch[0].Cmd == projections.CmdResync {
				Expect(batch).To(Equal([]projections.Delta{projections.ResyncDelta(projections.ResyncBus)}))
				lastResync = i
				continue
			}
			delivered = append(delivered, batch...)
		}
		Expect(lastResync).NotTo(Equal(-1), "the drops are followed by a resync")
		Expect(slices.IsSorted(positionsOf(delivered))).To(BeTrue(), "what goes out goes out in order")
		var after []projections.Delta
		for _, batch := range got[lastResync+1:] {
			after = append(after, batch...)
		}
		if len(after) > 0 {
			Expect(positionsOf(after)).To(Equal(seqFrom(int(after[0].Position), 1000)), "nothing after the last resync is missing")
		}
		Expect(a.PublishState()).To(Equal(projections.PublishState{Dropped: uint64(1000 - len(delivered)), Resyncs: uint64(countResyncs(got))}))

		Expect(a.Publish(context.Background(), numbered(1000, 1))).To(Succeed())
		Eventually(sink.received).Should(HaveLen(len(got) + 1))
		Expect(positionsOf(sink.received()[len(got)])).To(Equal([]uint64{1000}))
	})

	It("drops what the bus refuses while NATS is down, tells the error, and sends a resync before the next batch once NATS is back", func() {
		dir := GinkgoT().TempDir()
		ns := startNATS(dir, -1)
		port := ns.Addr().(*net.TCPAddr).Port
		bs := openNATS(ns.ClientURL(), bus.DefaultStream, 2)
		ctx, cancel := context.WithCancel(context.Background())
		DeferCleanup(cancel)
		ds, err := bs[1].Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		a := bus.NewAsync(bs[0], bus.AsyncConfig{Timeout: time.Second, Retry: 50 * time.Millisecond})
		DeferCleanup(a.Close)
		Expect(a.Publish(ctx, numbered(0, 1))).To(Succeed())
		Expect(positionsOf(take(ds, 1))).To(Equal(counting(1)))

		ns.Shutdown()
		ns.WaitForShutdown()
		for i := 1; i <= 20; i++ {
			Expect(a.Publish(ctx, numbered(i, 1))).To(Succeed())
		}
		Eventually(a.PublishState, 10*time.Second).Should(SatisfyAll(
			HaveField("Gap", true),
			HaveField("Dropped", BeNumerically(">=", 1)),
			HaveField("LastError", ContainSubstring("nats")),
		))

		ns = startNATS(dir, port)
		DeferCleanup(func() {
			ns.Shutdown()
			ns.WaitForShutdown()
		})
		Eventually(a.PublishState, 15*time.Second).Should(Equal(projections.PublishState{Dropped: 20, Resyncs: 1}))
		Expect(a.Publish(ctx, numbered(21, 1))).To(Succeed())

		// The receiving node is told to resync twice at most: by its own
		// reconnect and by the publisher's resync; then the new batch.
		// A delta the stopping server stored but never acknowledged was
		// counted as dropped and may still come, but only before a resync.
		var got []projections.Delta
		for len(got) == 0 || got[len(got)-1].Position != 21 {
			got = append(got, take(ds, 1)...)
		}
		before := got[:len(got)-1]
		Expect(before).NotTo(BeEmpty())
		Expect(before[len(before)-1]).To(Equal(projections.ResyncDelta(projections.ResyncBus)))
		Expect(len(before) - len(withoutResyncs(before))).To(BeNumerically("<=", 2))
		for _, p := range positionsOf(withoutResyncs(before)) {
			Expect(p).To(BeNumerically("<=", 20), "only a delta from the outage may come before the resync")
		}
	})

	It("drains: waits until what it holds was sent, or until its context ends", func() {
		sink := &gatedSink{gate: make(chan struct{})}
		a := bus.NewAsync(sink, bus.AsyncConfig{Timeout: 10 * time.Second})
		DeferCleanup(a.Close)
		for i := range 3 {
			Expect(a.Publish(context.Background(), numbered(i*10, 10))).To(Succeed())
		}

		short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		a.Drain(short)
		Expect(sink.received()).To(BeEmpty(), "the bus took nothing yet")

		drained := make(chan struct{})
		go func() {
			defer close(drained)
			a.Drain(context.Background())
		}()
		Consistently(drained, 100*time.Millisecond).ShouldNot(BeClosed())
		close(sink.gate)
		Eventually(drained).Should(BeClosed())
		Expect(sink.received()).To(HaveLen(3), "every batch was sent before Drain returned")
	})

	It("refuses batches after Close", func() {
		a := bus.NewAsync(bus.NewInProcess(), bus.AsyncConfig{})
		Expect(a.Close()).To(Succeed())
		Expect(a.Publish(context.Background(), numbered(0, 1))).To(MatchError(bus.ErrClosed))
		Expect(a.Close()).To(Succeed())
	})
})

// seqFrom returns from, from+1, ..., to-1.
func seqFrom(from, to int) []uint64 {
	ps := make([]uint64, 0, to-from)
	for p := from; p < to; p++ {
		ps = append(ps, uint64(p))
	}
	return ps
}

func countResyncs(batches [][]projections.Delta) int {
	n := 0
	for _, b := range batches {
		if b[0].Cmd == projections.CmdResync {
			n++
		}
	}
	return n
}
