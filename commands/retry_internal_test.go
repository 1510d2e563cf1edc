package commands

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

var _ = Describe("Deciding again after a lost race", func() {
	lost := fmt.Errorf("append: %w", es.ErrConcurrency)

	It("decides again until the append wins", func() {
		tries := 0
		got, err := retryOnConflict(context.Background(), func() (int, error) {
			if tries++; tries < 3 {
				return 0, lost
			}
			return tries, nil
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(3))
	})

	It("answers the decision's own failure at once", func() {
		tries := 0
		refused := fault.New(fault.Conflict, fault.MsgAlreadyProcessed)
		_, err := retryOnConflict(context.Background(), func() (int, error) { tries++; return 0, refused })
		Expect(err).To(BeIdenticalTo(refused))
		Expect(tries).To(Equal(1))
	})

	It("answers a conflict with a text, never the store's error, when every round loses", func() {
		tries := 0
		_, err := retryOnConflict(context.Background(), func() (int, error) { tries++; return 0, lost })
		Expect(tries).To(Equal(maxDecisions))
		Expect(errors.Is(err, es.ErrConcurrency)).To(BeFalse())
		f, ok := fault.As(err)
		Expect(ok).To(BeTrue())
		Expect(f.Kind).To(Equal(fault.Conflict))
		Expect(f.Key).To(Equal(fault.MsgConcurrentChange))
	})

	It("stops when its context ends", func() {
		c, cancel := context.WithCancel(context.Background())
		_, err := retryOnConflict(c, func() (int, error) { cancel(); return 0, lost })
		Expect(err).To(MatchError(context.Canceled))
	})

	It("lets a burst's losers decide again one at a time, so that each settles within a few rounds", func() {
		var mu sync.Mutex
		revision := 0
		// decide reads the revision, takes a moment to decide, and appends
		// at the revision it read, as a handler does.
		decide := func() (int, error) {
			mu.Lock()
			read := revision
			mu.Unlock()
			time.Sleep(time.Millisecond)
			mu.Lock()
			defer mu.Unlock()
			if revision != read {
				return 0, lost
			}
			revision++
			return revision, nil
		}
		start := make(chan struct{})
		rounds := make([]int, 32)
		errs := make([]error, 32)
		var wg sync.WaitGroup
		for i := range rounds {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, errs[i] = retryOnConflict(context.Background(), func() (int, error) { rounds[i]++; return decide() })
			}()
		}
		close(start)
		wg.Wait()
		for i := range rounds {
			Expect(errs[i]).NotTo(HaveOccurred())
			Expect(rounds[i]).To(BeNumerically("<=", 3), "intent %d", i)
		}
		Expect(revision).To(Equal(32))
	})
})
