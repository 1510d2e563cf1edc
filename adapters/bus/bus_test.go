package bus_test

import (
	"context"
	"net"
	"os"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/bus"
	"github.com/eventchat/eventchat/adapters/bus/bustest"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("In-process bus", func() {
	bustest.Contract(func(n int) []bustest.Bus {
		b := bus.NewInProcess()
		DeferCleanup(b.Close)
		nodes := make([]bustest.Bus, n)
		for i := range nodes {
			nodes[i] = b
		}
		return nodes
	})

	var (
		ctx context.Context
		b   *bus.InProcess
	)
	BeforeEach(func() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(context.Background())
		DeferCleanup(cancel)
		b = bus.NewInProcess()
		DeferCleanup(b.Close)
	})

	// full subscribes and fills the subscription's buffer without reading.
	full := func(ctx context.Context) <-chan projections.Delta {
		ds, err := b.Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Publish(ctx, numbered(0, bus.DeltaBuffer))).To(Succeed())
		return ds
	}

	It("holds a publish while a subscription's buffer is full, until its ctx ends, and delivers the rest once read", func() {
		ds := full(ctx)
		short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		Expect(b.Publish(short, numbered(bus.DeltaBuffer, 1))).To(MatchError(context.DeadlineExceeded))

		published := make(chan error, 1)
		go func() { published <- b.Publish(ctx, numbered(bus.DeltaBuffer, 2)) }()
		Consistently(published, 100*time.Millisecond).ShouldNot(Receive())
		got := take(ds, bus.DeltaBuffer+2)
		Eventually(published).Should(Receive(Succeed()))
		Expect(positionsOf(got)).To(Equal(counting(bus.DeltaBuffer + 2)))
	})

	It("stops holding a publish for a full subscription once its subscriber leaves", func() {
		live, err := b.Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		gone, leave := context.WithCancel(ctx)
		full(gone)
		take(live, bus.DeltaBuffer)

		published := make(chan error, 1)
		go func() { published <- b.Publish(ctx, numbered(bus.DeltaBuffer, 1)) }()
		Consistently(published, 100*time.Millisecond).ShouldNot(Receive())
		leave()
		Eventually(published).Should(Receive(Succeed()))
		Expect(positionsOf(take(live, 1))).To(Equal([]uint64{bus.DeltaBuffer}))
	})

	It("releases a held publish with ErrClosed when the bus closes", func() {
		full(ctx)
		published := make(chan error, 1)
		go func() { published <- b.Publish(ctx, numbered(bus.DeltaBuffer, 1)) }()
		Consistently(published, 100*time.Millisecond).ShouldNot(Receive())
		Expect(b.Close()).To(Succeed())
		Eventually(published).Should(Receive(MatchError(bus.ErrClosed)))
	})

	It("behind Async, tells a subscriber whose buffer stayed full to resync, and delivers what comes after", func() {
		ds := full(ctx)
		async := bus.NewAsync(b, bus.AsyncConfig{Timeout: 50 * time.Millisecond, Retry: 10 * time.Millisecond})
		DeferCleanup(async.Close)
		Expect(async.Publish(ctx, numbered(bus.DeltaBuffer, 1))).To(Succeed())
		Eventually(async.PublishState).Should(HaveField("Gap", BeTrue()))

		Expect(positionsOf(take(ds, bus.DeltaBuffer))).To(Equal(counting(bus.DeltaBuffer)))
		Eventually(ds).Should(Receive(Equal(projections.ResyncDelta(projections.ResyncBus))))
		Expect(async.Publish(ctx, numbered(bus.DeltaBuffer+1, 1))).To(Succeed())
		Expect(positionsOf(take(ds, 1))).To(Equal([]uint64{bus.DeltaBuffer + 1}))
	})
})

var _ = Describe("NATS bus on an embedded server", func() {
	bustest.Contract(func(n int) []bustest.Bus {
		url, _ := embeddedNATS()
		return asContract(openNATS(url, bus.DefaultStream, n))
	})

	It("fails fast when no server answers", func() {
		_, err := bus.NewNATS("nats://127.0.0.1:1", zap.NewNop())
		Expect(err).To(HaveOccurred())
	})

	It("keeps publishing and serving other nodes while one node stalls, and the stalled node catches up in order", func() {
		url, _ := embeddedNATS()
		bs := openNATS(url, bus.DefaultStream, 2)
		ctx, cancel := context.WithCancel(context.Background())
		DeferCleanup(cancel)
		live, err := bs[0].Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		stalled, err := bs[1].Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())

		const batches, size = 500, 100
		got := make(chan []uint64, 1)
		go func() {
			defer GinkgoRecover()
			got <- positionsOf(take(live, batches*size))
		}()
		for i := range batches {
			Expect(bs[0].Publish(ctx, numbered(i*size, size))).To(Succeed())
		}
		Eventually(got, 20*time.Second).Should(Receive(Equal(counting(batches * size))))

		Expect(positionsOf(take(stalled, batches*size))).To(Equal(counting(batches * size)))
	})

	It("resumes delivery after the server restarts", func() {
		dir := GinkgoT().TempDir()
		ns := startNATS(dir, -1)
		url := ns.ClientURL()
		port := ns.Addr().(*net.TCPAddr).Port
		b := openNATS(url, bus.DefaultStream, 1)[0]
		ctx, cancel := context.WithCancel(context.Background())
		DeferCleanup(cancel)
		ds, err := b.Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Publish(ctx, numbered(0, 1))).To(Succeed())
		Expect(positionsOf(take(ds, 1))).To(Equal(counting(1)))

		ns.Shutdown()
		ns.WaitForShutdown()
		ns = startNATS(dir, port)
		DeferCleanup(func() {
			ns.Shutdown()
			ns.WaitForShutdown()
		})

		Eventually(func() error { return b.Publish(ctx, numbered(1, 1)) }, 15*time.Second, 100*time.Millisecond).Should(Succeed())
		got := take(ds, 2)
		Expect(got).To(ContainElement(projections.ResyncDelta(projections.ResyncBus)), "the subscriber is told it may have missed batches")
		Expect(positionsOf(withoutResyncs(got))).To(Equal([]uint64{1}))
	})

	It("tells each subscriber of a node whose connection came back to resync, with nothing published", func() {
		dir := GinkgoT().TempDir()
		ns := startNATS(dir, -1)
		port := ns.Addr().(*net.TCPAddr).Port
		bs := openNATS(ns.ClientURL(), bus.DefaultStream, 1)
		ctx, cancel := context.WithCancel(context.Background())
		DeferCleanup(cancel)
		first, err := bs[0].Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		second, err := bs[0].Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		Consistently(first, 200*time.Millisecond).ShouldNot(Receive())

		ns.Shutdown()
		ns.WaitForShutdown()
		ns = startNATS(dir, port)
		DeferCleanup(func() {
			ns.Shutdown()
			ns.WaitForShutdown()
		})

		for _, ds := range []<-chan projections.Delta{first, second} {
			Eventually(ds, 15*time.Second).Should(Receive(Equal(projections.ResyncDelta(projections.ResyncBus))))
		}
	})
})

var _ = Describe("NATS bus on the server in IM_TEST_NATS", func() {
	var url string
	BeforeEach(func() {
		url = os.Getenv("IM_TEST_NATS")
		if url == "" {
			Skip("IM_TEST_NATS is not set: set it to a nats:// URL of a JetStream-enabled server to run the bus contract against it")
		}
	})
	bustest.Contract(func(n int) []bustest.Bus {
		stream := testStream()
		DeferCleanup(deleteStream, url, stream)
		return asContract(openNATS(url, stream, n))
	})
})

func take(ds <-chan projections.Delta, n int) []projections.Delta {
	GinkgoHelper()
	got := make([]projections.Delta, 0, n)
	deadline := time.After(20 * time.Second)
	for len(got) < n {
		select {
		case d, ok := <-ds:
			Expect(ok).To(BeTrue(), "deltas closed after %d of %d", len(got), n)
			got = append(got, d)
		case <-deadline:
			Fail("deltas did not all arrive")
		}
	}
	return got
}

// numbered returns n deltas at positions from, from+1, ...
func numbered(from, n int) []projections.Delta {
	ds := make([]projections.Delta, n)
	for i := range ds {
		ds[i] = projections.Delta{Tenant: "t", To: []string{"m"}, Cmd: projections.CmdMessage,
			Data: []byte(`{}`), Position: uint64(from + i)}
	}
	return ds
}

func positionsOf(ds []projections.Delta) []uint64 {
	ps := make([]uint64, len(ds))
	for i, d := range ds {
		ps[i] = d.Position
	}
	return ps
}

// counting returns 0, 1, ..., n-1.
func counting(n int) []uint64 {
	ps := make([]uint64, n)
	for i := range ps {
		ps[i] = uint64(i)
	}
	return ps
}

func withoutResyncs(ds []projections.Delta) []projections.Delta {
	var out []projections.Delta
	for _, d := range ds {
		if d.Cmd != projections.CmdResync {
			out = append(out, d)
		}
	}
	return out
}
