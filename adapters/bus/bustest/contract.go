// Package bustest holds the contract every delta bus passes.
package bustest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/bus"
	"github.com/eventchat/eventchat/projections"
)

// Bus is what the contract exercises.
type Bus interface {
	Publish(ctx context.Context, deltas []projections.Delta) error
	Deltas(ctx context.Context) (<-chan projections.Delta, error)
	Close() error
}

// Factory opens n nodes on one fresh bus: a batch any node publishes is
// delivered by every node. An in-process bus may return the same value n
// times. The factory registers its own cleanup; Close is called on every
// node by the contract as well, so it must be idempotent.
type Factory func(n int) []Bus

// deliveryTimeout bounds how long a spec waits for deliveries; it is a
// completion deadline, not a performance figure.
const deliveryTimeout = 10 * time.Second

// Contract declares the bus specs under the current container.
func Contract(open Factory) {
	var ctx context.Context

	BeforeEach(func() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(context.Background())
		DeferCleanup(cancel)
	})

	nodes := func(n int) []Bus {
		bs := open(n)
		Expect(bs).To(HaveLen(n))
		for _, b := range bs {
			DeferCleanup(b.Close)
		}
		return bs
	}

	It("delivers every delta published after subscribing, in order, with every field intact", func() {
		b := nodes(1)[0]
		ds, err := b.Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())

		first := []projections.Delta{
			{Tenant: "t1", To: []string{"m1", "m2"}, Session: "s1", Cmd: projections.CmdMessage,
				Data: json.RawMessage(`{"id":"42","text":"hi \"there\"","n":[1,2.5,null,true]}`), Position: 7},
			{Tenant: "t1", To: []string{"m3"}, Cmd: projections.CmdRecall, Data: json.RawMessage(`"plain"`), Position: 8},
		}
		second := []projections.Delta{
			{Tenant: "t2", To: []string{}, Cmd: projections.CmdFriendAdded, Data: json.RawMessage(`null`), Position: 1 << 60},
		}
		Expect(b.Publish(ctx, first)).To(Succeed())
		Expect(b.Publish(ctx, second)).To(Succeed())

		got := receive(ds, 3)
		Expect(got).To(Equal(append(append([]projections.Delta{}, first...), second...)))
	})

	It("does not deliver what was published before subscribing", func() {
		b := nodes(1)[0]
		Expect(b.Publish(ctx, batch(0, 1))).To(Succeed())
		ds, err := b.Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Publish(ctx, batch(1, 1))).To(Succeed())

		Expect(positions(receive(ds, 1))).To(Equal([]uint64{1}))
		Consistently(ds, 200*time.Millisecond).ShouldNot(Receive())
	})

	It("delivers everything to each of two subscribers on one node", func() {
		b := nodes(1)[0]
		a, err := b.Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		c, err := b.Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		for i := range 5 {
			Expect(b.Publish(ctx, batch(i*3, 3))).To(Succeed())
		}
		Expect(positions(receive(a, 15))).To(Equal(seq(0, 15)))
		Expect(positions(receive(c, 15))).To(Equal(seq(0, 15)))
	})

	It("delivers everything a node publishes to every node", func() {
		bs := nodes(2)
		a, err := bs[0].Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		c, err := bs[1].Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		for i := range 5 {
			Expect(bs[i%2].Publish(ctx, batch(i*3, 3))).To(Succeed())
		}
		Expect(positions(receive(a, 15))).To(Equal(seq(0, 15)))
		Expect(positions(receive(c, 15))).To(Equal(seq(0, 15)))
	})

	It("closes the Deltas channel when its context ends, leaving other subscribers running", func() {
		b := nodes(1)[0]
		subCtx, cancel := context.WithCancel(ctx)
		ds, err := b.Deltas(subCtx)
		Expect(err).NotTo(HaveOccurred())
		other, err := b.Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		cancel()
		Eventually(ds, deliveryTimeout).Should(BeClosed())

		Expect(b.Publish(ctx, batch(0, 2))).To(Succeed())
		Expect(positions(receive(other, 2))).To(Equal(seq(0, 2)))
	})

	It("ends every Deltas channel and refuses Publish and Deltas with ErrClosed after Close", func() {
		b := nodes(1)[0]
		ds, err := b.Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Close()).To(Succeed())
		Eventually(ds, deliveryTimeout).Should(BeClosed())

		Expect(b.Publish(ctx, batch(0, 1))).To(MatchError(bus.ErrClosed))
		_, err = b.Deltas(ctx)
		Expect(err).To(MatchError(bus.ErrClosed))
		Expect(b.Close()).To(Succeed())
	})

	It("delivers a burst of 10,000 deltas in 100 batches complete and in order to two nodes", func() {
		bs := nodes(2)
		a, err := bs[0].Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())
		c, err := bs[1].Deltas(ctx)
		Expect(err).NotTo(HaveOccurred())

		const batches, size = 100, 100
		results := make(chan []uint64, 2)
		for _, ds := range []<-chan projections.Delta{a, c} {
			go func() {
				defer GinkgoRecover()
				results <- positions(receive(ds, batches*size))
			}()
		}
		for i := range batches {
			Expect(bs[0].Publish(ctx, batch(i*size, size))).To(Succeed())
		}
		for range 2 {
			var got []uint64
			Eventually(results, deliveryTimeout).Should(Receive(&got))
			Expect(got).To(Equal(seq(0, batches*size)))
		}
	})
}

// receive takes n deltas from ds, failing if they do not all arrive.
func receive(ds <-chan projections.Delta, n int) []projections.Delta {
	GinkgoHelper()
	got := make([]projections.Delta, 0, n)
	deadline := time.After(deliveryTimeout)
	for len(got) < n {
		select {
		case d, ok := <-ds:
			if !ok {
				Fail(fmt.Sprintf("deltas closed after %d of %d", len(got), n))
			}
			got = append(got, d)
		case <-deadline:
			Fail(fmt.Sprintf("received %d of %d deltas within %s", len(got), n, deliveryTimeout))
		}
	}
	return got
}

// batch returns n deltas at positions from, from+1, ...
func batch(from, n int) []projections.Delta {
	ds := make([]projections.Delta, n)
	for i := range ds {
		p := uint64(from + i)
		ds[i] = projections.Delta{Tenant: "t", To: []string{"m"}, Cmd: projections.CmdMessage,
			Data: json.RawMessage(fmt.Sprintf(`{"p":%d}`, p)), Position: p}
	}
	return ds
}

func positions(ds []projections.Delta) []uint64 {
	ps := make([]uint64, len(ds))
	for i, d := range ds {
		ps[i] = d.Position
	}
	return ps
}

func seq(from, n int) []uint64 {
	ps := make([]uint64, n)
	for i := range ps {
		ps[i] = uint64(from + i)
	}
	return ps
}
