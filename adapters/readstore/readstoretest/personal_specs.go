package readstoretest

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

func describePersonal(store func() projections.ReadStore) {
	Describe("personal items", func() {
		item := func(member, kind, id string, at int64) projections.PersonalItem {
			return projections.PersonalItem{Tenant: tenantA, Member: member, Kind: kind, ID: id, At: at,
				Doc: []byte(fmt.Sprintf(`{"id":%q,"at":%d}`, id, at))}
		}
		put := func(items ...projections.PersonalItem) {
			update(store(), func(tx projections.Tx) error { return tx.PutPersonalItems(ctx, items) })
		}
		listed := func(member, kind string, page, size int) ([]string, int) {
			GinkgoHelper()
			items, total, err := store().PersonalItems(ctx, member, kind, page, size)
			Expect(err).NotTo(HaveOccurred())
			out := []string{}
			for _, it := range items {
				out = append(out, it.ID)
			}
			return out, total
		}
		BeforeEach(func() {
			put(item("alice", "favourite", "f1", 10), item("alice", "favourite", "f3", 30), item("alice", "favourite", "f2", 20),
				item("alice", "favourite", "f4", 20), item("alice", "sticker", "s1", 5), item("bob", "favourite", "f9", 90))
		})

		It("pages a member's items of one kind newest first, and counts them", func() {
			ids, total := listed("alice", "favourite", 1, 3)
			Expect(ids).To(Equal([]string{"f3", "f4", "f2"}))
			Expect(total).To(Equal(4))
			ids, _ = listed("alice", "favourite", 2, 3)
			Expect(ids).To(Equal([]string{"f1"}))
			ids, total = listed("alice", "favourite", 3, 3)
			Expect(ids).To(BeEmpty())
			Expect(total).To(Equal(4))
			ids, _ = listed("alice", "favourite", 1, -1)
			Expect(ids).To(Equal([]string{"f3", "f4", "f2", "f1"}))
			ids, total = listed("alice", "batch", 1, -1)
			Expect(ids).To(BeEmpty())
			Expect(total).To(BeZero())
		})

		It("keeps every field and finds items by id in the order asked", func() {
			items, err := store().PersonalItemsByID(ctx, as("alice"), "favourite", []string{"f2", "f9", "nope", "f1"})
			Expect(err).NotTo(HaveOccurred())
			Expect(items).To(HaveLen(2))
			Expect(items[0]).To(Equal(item("alice", "favourite", "f2", 20)))
			Expect(items[1].ID).To(Equal("f1"))
			Expect(string(items[1].Doc)).To(MatchJSON(`{"id":"f1","at":10}`))
			items, err = store().PersonalItemsByID(ctx, as("alice"), "sticker", []string{"f1"})
			Expect(err).NotTo(HaveOccurred())
			Expect(items).To(BeEmpty())
		})

		It("replaces an item put again", func() {
			edited := item("alice", "favourite", "f1", 10)
			edited.Doc = []byte(`{"content":"edited"}`)
			put(edited)
			items, err := store().PersonalItemsByID(ctx, as("alice"), "favourite", []string{"f1"})
			Expect(err).NotTo(HaveOccurred())
			Expect(string(items[0].Doc)).To(MatchJSON(`{"content":"edited"}`))
			_, total := listed("alice", "favourite", 1, -1)
			Expect(total).To(Equal(4))
		})

		It("deletes items by id, or every item of a kind of one member", func() {
			update(store(), func(tx projections.Tx) error {
				return tx.DeletePersonalItems(ctx, "alice", "favourite", []string{"f2", "f9"})
			})
			ids, _ := listed("alice", "favourite", 1, -1)
			Expect(ids).To(Equal([]string{"f3", "f4", "f1"}))
			ids, _ = listed("bob", "favourite", 1, -1)
			Expect(ids).To(Equal([]string{"f9"}))

			update(store(), func(tx projections.Tx) error { return tx.DeletePersonalItems(ctx, "alice", "favourite", nil) })
			ids, _ = listed("alice", "favourite", 1, -1)
			Expect(ids).To(BeEmpty())
			ids, _ = listed("alice", "sticker", 1, -1)
			Expect(ids).To(Equal([]string{"s1"}))
			ids, _ = listed("bob", "favourite", 1, -1)
			Expect(ids).To(Equal([]string{"f9"}))
		})

		It("applies puts and deletes of one transaction in their order", func() {
			update(store(), func(tx projections.Tx) error {
				if err := tx.PutPersonalItems(ctx, []projections.PersonalItem{item("alice", "batch", "b1", 1)}); err != nil {
					return err
				}
				if err := tx.DeletePersonalItems(ctx, "alice", "batch", nil); err != nil {
					return err
				}
				if err := tx.PutPersonalItems(ctx, []projections.PersonalItem{item("alice", "batch", "b2", 2)}); err != nil {
					return err
				}
				return tx.DeletePersonalItems(ctx, "alice", "favourite", []string{"f1"})
			})
			ids, _ := listed("alice", "batch", 1, -1)
			Expect(ids).To(Equal([]string{"b2"}))
			ids, _ = listed("alice", "favourite", 1, -1)
			Expect(ids).To(Equal([]string{"f3", "f4", "f2"}))
		})
	})
}
