package readstoretest

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

// describeSearch: alice and bob chat one to one (ab) and in group g1,
// which carol joined at its seq 3; mallory of tenantB chats with herself
// in mm. Positions grow in the order the messages are folded.
func describeSearch(store func() projections.ReadStore) {
	Describe("search", func() {
		text := func(chatID string, seq, pos uint64, from, to, content string) projections.Message {
			m := message(chatID, seq, from, to)
			m.Position, m.Content = pos, content
			if chatID == "g1" {
				m.ChatType, m.GroupID, m.To = "Group", "g1", ""
			}
			return m
		}
		hidden := text("ab", 4, 4, "bob", "alice", "cơm tấm")
		hidden.HiddenFor = []string{"alice"}
		folded := []projections.Message{
			text("ab", 1, 1, "alice", "bob", "Tôi đang ĂN CƠM với bạn"),
			text("ab", 2, 2, "bob", "alice", "我们今天去吃饭吧"),
			text("ab", 3, 3, "alice", "bob", "ăn cơm chưa"),
			hidden,
			text("g1", 1, 5, "alice", "", "cơm nhà"),
			text("g1", 2, 6, "bob", "", "吃饭 together"),
			text("g1", 3, 7, "bob", "", "com ngon"),
		}
		mallorys := text("mm", 1, 8, "mallory", "mallory", "ăn cơm")
		mallorys.Tenant = tenantB
		search := func(v projections.Viewer, q string) []string {
			GinkgoHelper()
			return searchIDs(store(), v, projections.SearchQuery{Text: q})
		}

		BeforeEach(func() {
			update(store(), func(tx projections.Tx) error {
				ss := []projections.Session{session("alice", "bob", 1), session("bob", "alice", 1)}
				ss[0].ChatID, ss[1].ChatID = "ab", "ab"
				mine := projections.Session{Tenant: tenantB, Member: "mallory", ChatType: "Friend", Peer: "mallory", ChatID: "mm"}
				if err := tx.PutSessions(ctx, append(ss, mine)); err != nil {
					return err
				}
				var gm []projections.GroupMember
				for _, id := range []string{"alice", "bob", "carol"} {
					gm = append(gm, projections.GroupMember{GroupID: "g1", Tenant: tenantA, Member: id, Role: "Normal"})
				}
				if err := tx.PutGroupMembers(ctx, gm); err != nil {
					return err
				}
				if err := tx.SetClearFloor(ctx, "carol", "g1", 3); err != nil {
					return err
				}
				return tx.InsertMessages(ctx, append(append([]projections.Message{}, folded...), mallorys))
			})
			// The search projector indexes in batches of its own, after
			// the messages are stored; an id of no message is passed over.
			index(store(), "ab-m1", "ab-m2", "ab-m3", "ab-m4", "g1-m1", "g1-m2", "g1-m3", "mm-m1", "nowhere")
			recalled := folded[2]
			recalled.Content, recalled.RecallTime = "", 1700000009000
			update(store(), func(tx projections.Tx) error { return tx.UpdateMessages(ctx, []projections.Message{recalled}) })
			index(store(), recalled.ID)
		})

		It("finds Vietnamese typed with or without diacritics, in any case, newest first", func() {
			Expect(search(as("alice"), "an com")).To(Equal([]string{"ab-m1"}))
			Expect(search(as("alice"), "Ăn  Cơm")).To(Equal([]string{"ab-m1"}))
			Expect(search(as("alice"), "dang")).To(Equal([]string{"ab-m1"}))
			Expect(search(as("alice"), "cơm")).To(Equal([]string{"g1-m3", "g1-m1", "ab-m1"}))
		})

		It("finds Chinese by any run of characters, two as well as three", func() {
			Expect(search(as("bob"), "今天去")).To(Equal([]string{"ab-m2"}))
			Expect(search(as("bob"), "吃饭")).To(Equal([]string{"g1-m2", "ab-m2"}))
			Expect(search(as("bob"), "饭")).To(Equal([]string{"g1-m2", "ab-m2"}))
		})

		It("leaves out what the viewer does not see: recalled, hidden for it, before its join, others' chats", func() {
			Expect(search(as("bob"), "com")).To(Equal([]string{"g1-m3", "g1-m1", "ab-m4", "ab-m1"}))
			Expect(search(as("carol"), "com")).To(Equal([]string{"g1-m3"}))
			Expect(search(as("stranger"), "com")).To(BeEmpty())
			Expect(search(projections.Viewer{Tenant: tenantB, Member: "mallory"}, "com")).To(Equal([]string{"mm-m1"}))
			Expect(search(projections.Viewer{Tenant: tenantB, Member: "alice"}, "com")).To(BeEmpty())
		})

		It("forgets a message deleted for everyone and finds an edited one by its new text", func() {
			edited, deleted := folded[0], folded[4]
			edited.Content, edited.EditTime = "phở bò", 1700000009000
			deleted.Deleted = true
			update(store(), func(tx projections.Tx) error {
				return tx.UpdateMessages(ctx, []projections.Message{edited, deleted})
			})
			index(store(), edited.ID, deleted.ID, edited.ID)
			Expect(search(as("alice"), "com")).To(Equal([]string{"g1-m3"}))
			Expect(search(as("alice"), "pho bo")).To(Equal([]string{"ab-m1"}))
		})

		It("indexes an edit and a newer message folded together, the newer one named first", func() {
			edited := folded[0]
			edited.Content, edited.EditTime = "phở bò", 1700000009000
			newer := text("ab", 5, 9, "bob", "alice", "bún chả")
			update(store(), func(tx projections.Tx) error {
				if err := tx.InsertMessages(ctx, []projections.Message{newer}); err != nil {
					return err
				}
				return tx.UpdateMessages(ctx, []projections.Message{edited})
			})
			index(store(), newer.ID, edited.ID)
			Expect(search(as("alice"), "bun cha")).To(Equal([]string{newer.ID}))
			Expect(search(as("alice"), "pho bo")).To(Equal([]string{edited.ID}))
			Expect(search(as("alice"), "dang an")).To(BeEmpty())
		})

		It("finds neither the text of a message erased with its sender nor its placeholder", func() {
			erased := folded[1]
			erased.Content = projections.ErasedContent
			update(store(), func(tx projections.Tx) error { return tx.UpdateMessages(ctx, []projections.Message{erased}) })
			index(store(), erased.ID)
			Expect(search(as("bob"), "吃饭")).To(Equal([]string{"g1-m2"}))
			Expect(search(as("bob"), "deleted")).To(BeEmpty())
		})

		It("pages with before and keeps to one chat when asked", func() {
			v := as("bob")
			page := func(q projections.SearchQuery) []string {
				GinkgoHelper()
				q.Text = "com"
				return searchIDs(store(), v, q)
			}
			Expect(page(projections.SearchQuery{Size: 2})).To(Equal([]string{"g1-m3", "g1-m1"}))
			Expect(page(projections.SearchQuery{Size: 2, Before: "g1-m1"})).To(Equal([]string{"ab-m4", "ab-m1"}))
			Expect(page(projections.SearchQuery{Size: 2, Before: "ab-m1"})).To(BeEmpty())
			Expect(page(projections.SearchQuery{ChatID: "ab"})).To(Equal([]string{"ab-m4", "ab-m1"}))
			Expect(page(projections.SearchQuery{ChatID: "mm"})).To(BeEmpty())
			Expect(searchIDs(store(), v, projections.SearchQuery{Text: "饭", Size: 1, Before: "g1-m2"})).To(Equal([]string{"ab-m2"}))
		})

		It("answers an empty text with nothing", func() {
			Expect(search(as("alice"), "  ")).To(BeEmpty())
		})
	})
}

// index has store index the messages of ids, as the search projector does:
// on the store's trailing writer when it has one.
func index(store projections.ReadStore, ids ...string) {
	GinkgoHelper()
	if tw, ok := store.(projections.TrailWriting); ok {
		var err error
		store, err = tw.Trailing()
		Expect(err).NotTo(HaveOccurred())
	}
	update(store, func(tx projections.Tx) error { return tx.IndexMessages(ctx, ids) })
}

func searchIDs(store projections.ReadStore, v projections.Viewer, q projections.SearchQuery) []string {
	GinkgoHelper()
	ms, err := store.SearchMessages(ctx, v, q)
	Expect(err).NotTo(HaveOccurred())
	out := []string{}
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}
