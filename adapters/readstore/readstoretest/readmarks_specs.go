package readstoretest

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

func describeReadMarks(store func() projections.ReadStore) {
	Describe("MarkRead and CountUnread", func() {
		// c1: odd seqs alice -> bob, even seqs bob -> alice; c2 the same.
		BeforeEach(func() {
			update(store(), func(tx projections.Tx) error {
				if err := tx.InsertMessages(ctx, messages("c1", 1, 8)); err != nil {
					return err
				}
				return tx.InsertMessages(ctx, messages("c2", 1, 4))
			})
		})

		markRead := func(chatID, reader string, upTo uint64) []string {
			GinkgoHelper()
			var changed []string
			update(store(), func(tx projections.Tx) error {
				var err error
				changed, err = tx.MarkRead(ctx, chatID, reader, upTo)
				return err
			})
			return changed
		}
		countUnread := func(chatID, reader string) int {
			GinkgoHelper()
			var n int
			update(store(), func(tx projections.Tx) error {
				var err error
				n, err = tx.CountUnread(ctx, chatID, reader)
				return err
			})
			return n
		}
		statuses := func(chatID string) map[uint64]string {
			GinkgoHelper()
			page, err := store().HistoryPage(ctx, as("alice"), chatID, nil, projections.Up, 200)
			Expect(err).NotTo(HaveOccurred())
			out := map[uint64]string{}
			for _, m := range page {
				out[m.Seq] = m.Status
			}
			return out
		}

		It("counts the unread messages to a reader", func() {
			Expect(countUnread("c1", "bob")).To(Equal(4))
			Expect(countUnread("c1", "alice")).To(Equal(4))
			Expect(countUnread("c1", "carol")).To(BeZero())
			Expect(countUnread("empty", "bob")).To(BeZero())
		})

		It("marks the reader's messages up to a sequence and returns their ids in order", func() {
			Expect(markRead("c1", "bob", 5)).To(Equal([]string{"c1-m1", "c1-m3", "c1-m5"}))

			Expect(statuses("c1")).To(Equal(map[uint64]string{
				1: projections.StatusRead, 2: projections.StatusUnread, 3: projections.StatusRead, 4: projections.StatusUnread,
				5: projections.StatusRead, 6: projections.StatusUnread, 7: projections.StatusUnread, 8: projections.StatusUnread,
			}))
			Expect(countUnread("c1", "bob")).To(Equal(1))
			Expect(countUnread("c1", "alice")).To(Equal(4))
			Expect(countUnread("c2", "bob")).To(Equal(2))
		})

		It("returns only the messages it changed", func() {
			markRead("c1", "bob", 3)

			Expect(markRead("c1", "bob", 3)).To(BeEmpty())
			Expect(markRead("c1", "bob", 8)).To(Equal([]string{"c1-m5", "c1-m7"}))
			Expect(markRead("c1", "carol", 8)).To(BeEmpty())
			Expect(countUnread("c1", "bob")).To(BeZero())
		})

		It("leaves messages stored as Read alone", func() {
			read := message("c3", 1, "alice", "bob")
			read.Status = projections.StatusRead
			update(store(), func(tx projections.Tx) error {
				return tx.InsertMessages(ctx, []projections.Message{read, message("c3", 2, "alice", "bob")})
			})

			Expect(countUnread("c3", "bob")).To(Equal(1))
			Expect(markRead("c3", "bob", 2)).To(Equal([]string{"c3-m2"}))
		})

		It("marks a message that arrives after a later one was read", func() {
			update(store(), func(tx projections.Tx) error {
				return tx.InsertMessages(ctx, []projections.Message{message("c3", 5, "alice", "bob")})
			})
			Expect(markRead("c3", "bob", 10)).To(Equal([]string{"c3-m5"}))
			update(store(), func(tx projections.Tx) error {
				return tx.InsertMessages(ctx, []projections.Message{message("c3", 2, "alice", "bob")})
			})

			Expect(countUnread("c3", "bob")).To(Equal(1))
			Expect(markRead("c3", "bob", 10)).To(Equal([]string{"c3-m2"}))
			Expect(countUnread("c3", "bob")).To(BeZero())
		})

		It("marks and counts inside one batch", func() {
			update(store(), func(tx projections.Tx) error {
				changed, err := tx.MarkRead(ctx, "c1", "alice", 100)
				Expect(err).NotTo(HaveOccurred())
				Expect(changed).To(Equal([]string{"c1-m2", "c1-m4", "c1-m6", "c1-m8"}))
				Expect(tx.CountUnread(ctx, "c1", "alice")).To(BeZero())
				return nil
			})
		})
	})
}
