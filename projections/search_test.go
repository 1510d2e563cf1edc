package projections_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("The search projector", func() {
	It("indexes a message as it was sent, or as the chats projector stored it once the batch changed it, whatever the batch boundaries", func() {
		l := newLog().
			add(chatStream, sent("a", "1", "2", "alpha bravo")).
			add(chatStream, sent("b", "1", "2", "charlie delta")).
			add(chatStream, &chat.MessageEdited{MessageID: "b", Editor: "1", Content: "echo foxtrot", At: 1500}).
			add(chatStream, sent("c", "2", "1", "golf hotel")).
			add(chatStream, &chat.MessageRecalled{MessageID: "c", By: "2", At: 1600}).
			add(chatStream, sent("d", "2", "1", "india juliett")).
			add(chatStream, &chat.MessagesDeleted{MessageIDs: []string{"d"}, By: "2", At: 1700}).
			add(chatStream, sent("e", "2", "1", "kilo lima"))
		find := func(store projections.ReadStore, text string) []string {
			GinkgoHelper()
			ms, err := store.SearchMessages(ctx, as("1"), projections.SearchQuery{Text: text})
			Expect(err).NotTo(HaveOccurred())
			out := []string{}
			for _, m := range ms {
				out = append(out, m.ID)
			}
			return out
		}
		for _, n := range []int{0, 1, 2, 3} {
			store := openStore()
			fold(store, projections.Chats{}, l.envs, n)
			fold(store, projections.SearchIndex{}, l.envs, n)
			Expect(find(store, "alpha")).To(Equal([]string{"a"}), "batches of %d", n)
			Expect(find(store, "echo fox")).To(Equal([]string{"b"}), "batches of %d", n)
			Expect(find(store, "kilo")).To(Equal([]string{"e"}), "batches of %d", n)
			for _, gone := range []string{"charlie", "golf", "india"} {
				Expect(find(store, gone)).To(BeEmpty(), "%q in batches of %d", gone, n)
			}
		}
	})
})
