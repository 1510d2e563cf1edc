package readstoretest

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

func describeHistory(store func() projections.ReadStore) {
	Describe("HistoryPage", func() {
		BeforeEach(func() {
			update(store(), func(tx projections.Tx) error {
				if err := tx.InsertMessages(ctx, messages("c1", 1, 250)); err != nil {
					return err
				}
				return tx.InsertMessages(ctx, messages("c2", 1, 30))
			})
		})

		DescribeTable("pages in ascending sequence order",
			func(chatID string, anchor *uint64, dir projections.PageDirection, size int, want []uint64) {
				page, err := store().HistoryPage(ctx, as("alice"), chatID, anchor, dir, size)
				Expect(err).NotTo(HaveOccurred())
				Expect(seqs(page)).To(Equal(want))
				for _, m := range page {
					Expect(m.ChatID).To(Equal(chatID))
				}
			},
			Entry("the newest page without an anchor", "c1", nil, projections.Up, 5, seqRange(246, 250)),
			Entry("the newest page ignores the direction", "c1", nil, projections.Down, 5, seqRange(246, 250)),
			Entry("Up: the closest older messages", "c1", ptr(100), projections.Up, 5, seqRange(95, 99)),
			Entry("Up: fewer at the start", "c1", ptr(4), projections.Up, 5, seqRange(1, 3)),
			Entry("Up: none before the first", "c1", ptr(1), projections.Up, 5, []uint64{}),
			Entry("Down: the following messages", "c1", ptr(100), projections.Down, 5, seqRange(101, 105)),
			Entry("Down: fewer at the end", "c1", ptr(248), projections.Down, 5, seqRange(249, 250)),
			Entry("Down: none after the last", "c1", ptr(250), projections.Down, 5, []uint64{}),
			Entry("an anchor past the end", "c2", ptr(1000), projections.Up, 3, seqRange(28, 30)),
			Entry("20 messages when size is zero", "c1", nil, projections.Up, 0, seqRange(231, 250)),
			Entry("20 messages when size is negative", "c1", ptr(50), projections.Down, -1, seqRange(51, 70)),
			Entry("at most 200 messages", "c1", nil, projections.Up, 1000, seqRange(51, 250)),
			Entry("only the chat's messages", "c2", nil, projections.Up, 100, seqRange(1, 30)),
			Entry("nothing for an empty chat", "empty", nil, projections.Up, 20, []uint64{}),
			Entry("nothing for an empty chat with an anchor", "empty", ptr(3), projections.Down, 20, []uint64{}),
		)
	})
}
