package commands

import (
	"context"
	"errors"
	"fmt"

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
})
