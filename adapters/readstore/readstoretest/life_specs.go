package readstoretest

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

func describeMessageLife(store func() projections.ReadStore) {
	Describe("the message life", func() {
		BeforeEach(func() {
			update(store(), func(tx projections.Tx) error { return tx.InsertMessages(ctx, messages("c1", 1, 10)) })
		})

		history := func(member string) []uint64 {
			GinkgoHelper()
			page, err := store().HistoryPage(ctx, as(member), "c1", nil, projections.Up, 50)
			Expect(err).NotTo(HaveOccurred())
			return seqs(page)
		}
		change := func(seq uint64, fn func(m *projections.Message)) {
			GinkgoHelper()
			update(store(), func(tx projections.Tx) error {
				found, err := tx.GetMessages(ctx, []string{message("c1", seq, "", "").ID})
				if err != nil {
					return err
				}
				m := found[message("c1", seq, "", "").ID]
				fn(&m)
				return tx.UpdateMessages(ctx, []projections.Message{m})
			})
		}

		It("gets stored messages by id, and only those", func() {
			update(store(), func(tx projections.Tx) error {
				found, err := tx.GetMessages(ctx, []string{"c1-m2", "c1-m9", "nope"})
				Expect(err).NotTo(HaveOccurred())
				Expect(found).To(HaveLen(2))
				Expect(found["c1-m2"].From).To(Equal("bob"))
				Expect(found["c1-m9"].Seq).To(Equal(uint64(9)))
				return nil
			})
		})

		It("keeps every field of an updated message", func() {
			change(3, func(m *projections.Message) {
				m.Content, m.EditTime, m.ParentMessageID = "changed", 42, "c1-m1"
				m.ForwardBatchID, m.ForwardBatch, m.ForwardFrom, m.ForwardType = "c1-m3", []string{"c1-m3", "c1-m4"}, "carol", "Picture"
				m.Status = projections.StatusRead
			})
			got, err := store().VisibleMessages(ctx, as("alice"), []string{"c1-m3"})
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(HaveLen(1))
			m := got[0]
			Expect(m.Content).To(Equal("changed"))
			Expect(m.EditTime).To(Equal(int64(42)))
			Expect(m.ParentMessageID).To(Equal("c1-m1"))
			Expect(m.ForwardBatch).To(Equal([]string{"c1-m3", "c1-m4"}))
			Expect([]string{m.ForwardBatchID, m.ForwardFrom, m.ForwardType, m.Status}).To(Equal([]string{"c1-m3", "carol", "Picture", projections.StatusRead}))
		})

		It("keeps the fields of a group's event line", func() {
			line := message("c1", 11, "", "")
			line.ChatType, line.GroupID, line.MsgType = "Group", "c1", "Event"
			line.OperationType, line.OperatorID, line.TargetID = "SetMemberRole", "alice", "bob,carol"
			update(store(), func(tx projections.Tx) error {
				if err := tx.PutGroupMembers(ctx, []projections.GroupMember{{GroupID: "c1", Tenant: tenantA, Member: "bob"}}); err != nil {
					return err
				}
				return tx.InsertMessages(ctx, []projections.Message{line})
			})
			got, err := store().VisibleMessages(ctx, as("bob"), []string{line.ID})
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal([]projections.Message{line}))
		})

		It("reads a chat forwards after a sequence, deleted messages and the transaction's own writes too", func() {
			change(8, func(m *projections.Message) { m.Deleted = true })
			update(store(), func(tx projections.Tx) error {
				Expect(tx.InsertMessages(ctx, messages("c1", 11, 12))).To(Succeed())
				Expect(tx.InsertMessages(ctx, messages("c2", 1, 20))).To(Succeed())
				recalled := message("c1", 9, "alice", "bob")
				recalled.RecallTime = 5
				Expect(tx.UpdateMessages(ctx, []projections.Message{recalled})).To(Succeed())
				after, err := tx.MessagesAfter(ctx, "c1", 7)
				Expect(err).NotTo(HaveOccurred())
				Expect(seqs(after)).To(Equal([]uint64{8, 9, 10, 11, 12}))
				Expect(after[0].Deleted).To(BeTrue())
				Expect(after[1].RecallTime).To(Equal(int64(5)))
				none, err := tx.MessagesAfter(ctx, "c1", 12)
				Expect(err).NotTo(HaveOccurred())
				Expect(none).To(BeEmpty())
				return nil
			})
		})

		It("finds every message a member of a tenant sent, deleted ones and the transaction's own too", func() {
			change(3, func(m *projections.Message) { m.Deleted = true })
			update(store(), func(tx projections.Tx) error {
				Expect(tx.InsertMessages(ctx, messages("c2", 1, 2))).To(Succeed())
				other := message("c3", 1, "alice", "bob")
				other.ID, other.Tenant = "c3-other", tenantB
				Expect(tx.InsertMessages(ctx, []projections.Message{other})).To(Succeed())
				from, err := tx.MessagesFrom(ctx, tenantA, "alice")
				Expect(err).NotTo(HaveOccurred())
				ids := make([]string, len(from))
				for i, m := range from {
					ids[i] = m.ID
				}
				Expect(ids).To(ConsistOf("c1-m1", "c1-m3", "c1-m5", "c1-m7", "c1-m9", "c2-m1"))
				none, err := tx.MessagesFrom(ctx, tenantA, "nobody")
				Expect(err).NotTo(HaveOccurred())
				Expect(none).To(BeEmpty())
				return nil
			})
		})

		It("sees an update within the same transaction", func() {
			update(store(), func(tx projections.Tx) error {
				m := message("c1", 4, "bob", "alice")
				m.RecallTime, m.Content = 7, ""
				Expect(tx.UpdateMessages(ctx, []projections.Message{m})).To(Succeed())
				found, err := tx.GetMessages(ctx, []string{m.ID})
				Expect(err).NotTo(HaveOccurred())
				Expect(found[m.ID].RecallTime).To(Equal(int64(7)))
				return nil
			})
		})

		It("leaves messages deleted for everyone out of every member's history", func() {
			change(10, func(m *projections.Message) { m.Deleted = true })
			change(5, func(m *projections.Message) { m.Deleted = true })
			Expect(history("alice")).To(Equal([]uint64{1, 2, 3, 4, 6, 7, 8, 9}))
			Expect(history("bob")).To(Equal([]uint64{1, 2, 3, 4, 6, 7, 8, 9}))
			got, err := store().VisibleMessages(ctx, as("bob"), []string{"c1-m10", "c1-m9"})
			Expect(err).NotTo(HaveOccurred())
			Expect(seqs(got)).To(Equal([]uint64{9}))
		})

		It("leaves messages deleted for one member out of that member's history only", func() {
			change(9, func(m *projections.Message) { m.HiddenFor = []string{"alice"} })
			change(2, func(m *projections.Message) { m.HiddenFor = []string{"bob", "alice"} })
			Expect(history("alice")).To(Equal([]uint64{1, 3, 4, 5, 6, 7, 8, 10}))
			Expect(history("bob")).To(Equal([]uint64{1, 3, 4, 5, 6, 7, 8, 9, 10}))
			ids := []string{"c1-m9", "c1-m2", "c1-m3"}
			got, err := store().VisibleMessages(ctx, as("alice"), ids)
			Expect(err).NotTo(HaveOccurred())
			Expect(seqs(got)).To(Equal([]uint64{3}))
			got, err = store().VisibleMessages(ctx, as("alice").HiddenToo(), ids)
			Expect(err).NotTo(HaveOccurred())
			Expect(seqs(got)).To(Equal([]uint64{9, 2, 3}), "a member finds again what it deleted for itself")
			change(3, func(m *projections.Message) { m.Deleted = true })
			got, err = store().VisibleMessages(ctx, as("carol").HiddenToo(), ids)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(BeEmpty(), "not another chat's")
			got, err = store().VisibleMessages(ctx, as("alice").HiddenToo(), ids)
			Expect(err).NotTo(HaveOccurred())
			Expect(seqs(got)).To(Equal([]uint64{9, 2}), "not what was deleted for everyone")
		})

		It("fills a page past hidden messages", func() {
			for _, seq := range []uint64{7, 8, 9} {
				change(seq, func(m *projections.Message) { m.HiddenFor = []string{"alice"} })
			}
			page, err := store().HistoryPage(ctx, as("alice"), "c1", ptr(10), projections.Up, 3)
			Expect(err).NotTo(HaveOccurred())
			Expect(seqs(page)).To(Equal([]uint64{4, 5, 6}))
			page, err = store().HistoryPage(ctx, as("alice"), "c1", ptr(5), projections.Down, 3)
			Expect(err).NotTo(HaveOccurred())
			Expect(seqs(page)).To(Equal([]uint64{6, 10}))
		})

		It("hides a member's history below its clear floor, which never goes down", func() {
			update(store(), func(tx projections.Tx) error { return tx.SetClearFloor(ctx, "alice", "c1", 7) })
			update(store(), func(tx projections.Tx) error { return tx.SetClearFloor(ctx, "alice", "c1", 4) })
			Expect(history("alice")).To(Equal([]uint64{7, 8, 9, 10}))
			Expect(history("bob")).To(Equal(seqRange(1, 10)))
			page, err := store().HistoryPage(ctx, as("alice"), "c1", ptr(2), projections.Down, 2)
			Expect(err).NotTo(HaveOccurred())
			Expect(seqs(page)).To(Equal([]uint64{7, 8}))
			got, err := store().VisibleMessages(ctx, as("alice"), []string{"c1-m8", "c1-m3"})
			Expect(err).NotTo(HaveOccurred())
			Expect(seqs(got)).To(Equal([]uint64{8}))
		})

		It("finds the newest message a member sees, within the transaction", func() {
			update(store(), func(tx projections.Tx) error {
				last, ok, err := tx.LastVisible(ctx, "c1", "alice")
				Expect(err).NotTo(HaveOccurred())
				Expect(ok).To(BeTrue())
				Expect(last.Seq).To(Equal(uint64(10)))

				Expect(tx.InsertMessages(ctx, messages("c1", 11, 12))).To(Succeed())
				gone := message("c1", 12, "bob", "alice")
				gone.Deleted = true
				Expect(tx.UpdateMessages(ctx, []projections.Message{gone})).To(Succeed())
				hidden := message("c1", 10, "bob", "alice")
				hidden.HiddenFor = []string{"alice"}
				Expect(tx.UpdateMessages(ctx, []projections.Message{hidden})).To(Succeed())

				last, ok, err = tx.LastVisible(ctx, "c1", "alice")
				Expect(err).NotTo(HaveOccurred())
				Expect(ok).To(BeTrue())
				Expect(last.Seq).To(Equal(uint64(11)))

				Expect(tx.SetClearFloor(ctx, "alice", "c1", 12)).To(Succeed())
				_, ok, err = tx.LastVisible(ctx, "c1", "alice")
				Expect(err).NotTo(HaveOccurred())
				Expect(ok).To(BeFalse())
				last, ok, err = tx.LastVisible(ctx, "c1", "bob")
				Expect(err).NotTo(HaveOccurred())
				Expect(last.Seq).To(Equal(uint64(11)))
				return nil
			})
		})

		It("counts a message marked Read by an update as read", func() {
			change(2, func(m *projections.Message) { m.Status = projections.StatusRead })
			update(store(), func(tx projections.Tx) error {
				n, err := tx.CountUnread(ctx, "c1", "alice")
				Expect(err).NotTo(HaveOccurred())
				Expect(n).To(Equal(4)) // 4, 6, 8, 10
				return nil
			})
		})
	})
}
