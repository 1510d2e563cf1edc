package readstoretest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

func describeMessages(store func() projections.ReadStore) {
	Describe("messages", func() {
		It("stores every field of a message", func() {
			m := message("c1", 1, "alice", "bob")
			g := message("g1", 1, "alice", "")
			g.ChatType, g.GroupID, g.Status = "Group", "group-1", projections.StatusRead
			update(store(), func(tx projections.Tx) error {
				if err := tx.PutGroupMembers(ctx, []projections.GroupMember{{GroupID: "group-1", Tenant: tenantA, Member: "alice"}}); err != nil {
					return err
				}
				return tx.InsertMessages(ctx, []projections.Message{m, g})
			})

			Expect(store().HistoryPage(ctx, as("alice"), "c1", nil, projections.Up, 20)).To(Equal([]projections.Message{m}))
			Expect(store().HistoryPage(ctx, as("alice"), "g1", nil, projections.Up, 20)).To(Equal([]projections.Message{g}))
		})

		It("keeps any text intact", func() {
			odd := "quote\" backslash\\ newline\n tab\t nul\x00 bell\x07 é 😀 \u2028 \U0010FFFF {\"json\": [1]} '; --"
			m := projections.Message{
				ID: "odd-1", UUID: odd, Tenant: odd, ChatID: "c1", Seq: 1, Position: 1<<62 + 7, ChatType: odd,
				From: odd, To: odd, GroupID: odd, MsgType: odd, Content: odd, ServerReceiveTime: -1, Status: odd,
			}
			update(store(), func(tx projections.Tx) error { return tx.InsertMessages(ctx, []projections.Message{m}) })

			Expect(stored(store(), "c1")).To(Equal([]projections.Message{m}))
		})

		It("keeps random text intact in every field", func() {
			rnd := rand.New(rand.NewPCG(uint64(GinkgoRandomSeed()), 7))
			text := func() string {
				runes := make([]rune, rnd.IntN(30))
				for i := range runes {
					if rnd.IntN(2) == 0 {
						runes[i] = rune(rnd.IntN(128))
					} else {
						runes[i] = rune(rnd.IntN(utf8.MaxRune))
					}
				}
				return string(runes)
			}
			var ms []projections.Message
			for seq := uint64(1); seq <= 100; seq++ {
				ms = append(ms, projections.Message{
					ID: fmt.Sprintf("r%d", seq), UUID: text(), Tenant: text(), ChatID: "c1", Seq: seq, Position: rnd.Uint64N(math.MaxInt64),
					ChatType: text(), From: text(), To: text(), GroupID: text(), MsgType: text(), Content: text(),
					ServerReceiveTime: rnd.Int64() - rnd.Int64(), Status: text(),
				})
			}
			update(store(), func(tx projections.Tx) error { return tx.InsertMessages(ctx, ms) })

			Expect(stored(store(), "c1")).To(Equal(ms))
		})

		It("keeps a long message whole", func() {
			long := message("c1", 1, "alice", "bob")
			long.Content = strings.Repeat("0123456789abcdef", 20_000)
			long.UUID = strings.Repeat("u", 10_000)
			update(store(), func(tx projections.Tx) error {
				return tx.InsertMessages(ctx, []projections.Message{long, message("c1", 2, "bob", "alice")})
			})

			page, err := store().HistoryPage(ctx, as("alice"), "c1", nil, projections.Up, 20)
			Expect(err).NotTo(HaveOccurred())
			Expect(page).To(HaveLen(2))
			Expect(page[0]).To(Equal(long))
		})

		It("keeps the stored message when the same message is folded again", func() {
			first := message("c1", 1, "alice", "bob")
			update(store(), func(tx projections.Tx) error { return tx.InsertMessages(ctx, []projections.Message{first}) })
			update(store(), func(tx projections.Tx) error {
				return tx.InsertMessages(ctx, []projections.Message{first, first, message("c1", 2, "bob", "alice")})
			})

			page, err := store().HistoryPage(ctx, as("alice"), "c1", nil, projections.Up, 20)
			Expect(err).NotTo(HaveOccurred())
			Expect(page).To(HaveLen(2))
			Expect(page[0]).To(Equal(first))
		})

		It("fails the Update, writing nothing of it, for a different message with a stored id", func() {
			first := message("c1", 1, "alice", "bob")
			update(store(), func(tx projections.Tx) error { return tx.InsertMessages(ctx, []projections.Message{first}) })
			for _, other := range []projections.Message{withID(message("c2", 1, "carol", "bob"), first.ID), withID(message("c1", 2, "bob", "alice"), first.ID)} {
				err := store().Update(ctx, func(tx projections.Tx) error {
					if err := tx.SetCheckpoint(ctx, "chats.v1", 7); err != nil {
						return err
					}
					return tx.InsertMessages(ctx, []projections.Message{message("c1", 3, "bob", "alice"), other})
				})

				Expect(err).To(MatchError(projections.ErrIDTaken))
				Expect(err.Error()).To(ContainSubstring(first.ID))
			}
			Expect(store().Checkpoints(ctx)).To(BeEmpty())
			Expect(stored(store(), "c1")).To(Equal([]projections.Message{first}))
		})

		It("fails for two different messages with one id in one batch", func() {
			err := store().Update(ctx, func(tx projections.Tx) error {
				return tx.InsertMessages(ctx, []projections.Message{message("c1", 1, "alice", "bob"), withID(message("c1", 2, "bob", "alice"), "c1-m1")})
			})

			Expect(err).To(MatchError(projections.ErrIDTaken))
			Expect(stored(store(), "c1")).To(BeEmpty())
		})

		It("replays a whole batch without duplicating it", func() {
			batch := messages("c1", 1, 50)
			for range 2 {
				update(store(), func(tx projections.Tx) error { return tx.InsertMessages(ctx, batch) })
			}

			Expect(store().HistoryPage(ctx, as("alice"), "c1", nil, projections.Up, 200)).To(HaveLen(50))
		})

		It("stores a large batch whole", func() {
			update(store(), func(tx projections.Tx) error { return tx.InsertMessages(ctx, messages("c1", 1, 2003)) })

			page, err := store().HistoryPage(ctx, as("alice"), "c1", nil, projections.Up, 5)
			Expect(err).NotTo(HaveOccurred())
			Expect(seqs(page)).To(Equal(seqRange(1999, 2003)))
			page, err = store().HistoryPage(ctx, as("alice"), "c1", ptr(6), projections.Up, 5)
			Expect(err).NotTo(HaveOccurred())
			Expect(seqs(page)).To(Equal(seqRange(1, 5)))
		})

		It("accepts an empty batch", func() {
			update(store(), func(tx projections.Tx) error { return tx.InsertMessages(ctx, nil) })
		})

		It("looks a message up by id, inside a batch and as a query", func() {
			update(store(), func(tx projections.Tx) error { return tx.InsertMessages(ctx, messages("c1", 1, 3)) })

			chatID, seq, found, err := store().MessageSeq(ctx, as("alice"), "c1-m3")
			Expect(err).NotTo(HaveOccurred())
			Expect([]any{chatID, seq, found}).To(Equal([]any{"c1", uint64(3), true}))
			_, _, found, err = store().MessageSeq(ctx, as("alice"), "unknown")
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeFalse())

			update(store(), func(tx projections.Tx) error {
				chatID, seq, found, err := tx.LookupMessage(ctx, "c1-m2")
				Expect(err).NotTo(HaveOccurred())
				Expect([]any{chatID, seq, found}).To(Equal([]any{"c1", uint64(2), true}))
				_, _, found, err = tx.LookupMessage(ctx, "unknown")
				Expect(err).NotTo(HaveOccurred())
				Expect(found).To(BeFalse())
				return nil
			})
		})
	})
}
