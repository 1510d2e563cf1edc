package readstoretest

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

func describeMentions(store func() projections.ReadStore) {
	Describe("mentions", func() {
		mention := func(member, messageID, session string, at int64) projections.Mention {
			return projections.Mention{Tenant: tenantA, Member: member, MessageID: messageID, SessionID: session, SessionType: "Friend", At: at}
		}
		listed := func(member string) []string {
			GinkgoHelper()
			ms, err := store().Mentions(ctx, member)
			Expect(err).NotTo(HaveOccurred())
			out := []string{}
			for _, m := range ms {
				out = append(out, m.MessageID+"@"+m.SessionID)
			}
			return out
		}
		BeforeEach(func() {
			update(store(), func(tx projections.Tx) error {
				return tx.PutMentions(ctx, []projections.Mention{
					mention("alice", "m3", "bob", 3), mention("alice", "m1", "bob", 1), mention("alice", "m2", "carol", 2),
					mention("bob", "m2", "carol", 2),
				})
			})
		})

		It("lists a member's mentions oldest first with their fields", func() {
			Expect(listed("alice")).To(Equal([]string{"m1@bob", "m2@carol", "m3@bob"}))
			ms, err := store().Mentions(ctx, "bob")
			Expect(err).NotTo(HaveOccurred())
			Expect(ms).To(Equal([]projections.Mention{mention("bob", "m2", "carol", 2)}))
			Expect(listed("nobody")).To(BeEmpty())
		})

		It("deletes one member's mentions by message, or every member's", func() {
			update(store(), func(tx projections.Tx) error { return tx.DeleteMentions(ctx, "alice", []string{"m2", "m3"}) })
			Expect(listed("alice")).To(Equal([]string{"m1@bob"}))
			Expect(listed("bob")).To(Equal([]string{"m2@carol"}))
			update(store(), func(tx projections.Tx) error { return tx.DeleteMentions(ctx, "", []string{"m2", "m1"}) })
			Expect(listed("alice")).To(BeEmpty())
			Expect(listed("bob")).To(BeEmpty())
		})

		It("deletes a member's mentions of one conversation", func() {
			update(store(), func(tx projections.Tx) error { return tx.DeleteSessionMentions(ctx, "alice", "bob") })
			Expect(listed("alice")).To(Equal([]string{"m2@carol"}))
		})

		It("applies deletes and puts of one transaction in their order", func() {
			update(store(), func(tx projections.Tx) error {
				if err := tx.PutMentions(ctx, []projections.Mention{mention("alice", "m4", "bob", 4)}); err != nil {
					return err
				}
				if err := tx.DeleteSessionMentions(ctx, "alice", "bob"); err != nil {
					return err
				}
				return tx.PutMentions(ctx, []projections.Mention{mention("alice", "m5", "bob", 5)})
			})
			Expect(listed("alice")).To(Equal([]string{"m2@carol", "m5@bob"}))
		})
	})
}
