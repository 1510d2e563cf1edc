package projections_test

import (
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/assistant"
	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/domain/group"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/personal"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Erasing a member in the read models", func() {
	notice := "meet at the mill"
	// Member 1's texts, folded in the clear (written before sealing, or read
	// before the erasure), then its erasure.
	l := newLog().
		add("x0001.group-g1", &group.Created{GroupID: "g1", Name: "Team", Notice: "welcome", Owner: "1", Members: []string{"2"}, At: 1}).
		add("x0001.group-g1", &group.NicknameSet{Member: "1", Nickname: "One", At: 2}).
		add("x0001.group-g1", &group.Modified{Notice: &notice, By: "1", At: 3}).
		add("x0001.group-g2", &group.Created{GroupID: "g2", Name: "Other", Notice: "by two", Owner: "2", Members: []string{"1"}, At: 3}).
		add("x0001.friendship-1_2", &friend.Requested{ApplyID: "a1", From: "1", To: "2", Remark: "Two", Content: "add me", At: 4}).
		add("x0001.friendship-1_3", &friend.Requested{ApplyID: "a2", From: "3", To: "1", Content: "add me too", At: 4}).
		add("x0001.friendship-1_2", &friend.RequestAccepted{ApplyID: "a1", By: "2", At: 5}).
		add("x0001.friendship-1_2", &friend.Remarked{By: "1", Remark: "Twofold", At: 6}).
		add("x0001.friendship-1_2", &friend.Remarked{By: "2", Remark: "Uno", At: 6}).
		add("x0001.inbox-1", &personal.FavouriteAdded{Member: "1", Favourite: personal.Favourite{ID: "f1", Content: "kept", At: 7}}).
		add("x0001.inbox-2", &personal.FavouriteAdded{Member: "2", Favourite: personal.Favourite{ID: "f2", Content: "kept too", At: 7}}).
		add("x0001.assistant-1", &assistant.Asked{ID: "q1", Member: "1", Content: "why", At: 8}).
		add("x0001.member-1", &member.FeedbackSubmitted{ID: "fb1", Type: "bug", Content: "it breaks", At: 9}).
		add("x0001.member-1", &member.Erased{By: "operator:ops", At: 10})
	projectors := []projections.Projector{projections.Groups{}, projections.Friends{}, projections.Notices{},
		projections.Personal{}, projections.Assistant{}, projections.Feedback{}}

	for _, batch := range []int{1, 0} {
		It(fmt.Sprintf("shows its texts as erased, and drops what only it saw (batches of %d)", batch), func() {
			store := openStore()
			for _, p := range projectors {
				fold(store, p, l.envs, batch)
			}

			g1, _, err := store.Group(ctx, as("2"), "g1")
			Expect(err).NotTo(HaveOccurred())
			Expect(g1.Notice).To(Equal(projections.ErasedContent))
			g2, _, err := store.Group(ctx, as("2"), "g2")
			Expect(err).NotTo(HaveOccurred())
			Expect(g2.Notice).To(Equal("by two"), "another member's notice stays")
			ms, err := store.GroupMembers(ctx, projections.Auditor("x0001"), "g1")
			Expect(err).NotTo(HaveOccurred())
			Expect(ms[0].Member).To(Equal("1"))
			Expect(ms[0].Nickname).To(Equal(projections.ErasedName))

			applies, _, err := store.Applies(ctx, "1", 1, 99)
			Expect(err).NotTo(HaveOccurred())
			texts := map[string][2]string{}
			for _, a := range applies {
				texts[a.ID] = [2]string{a.Remark, a.Content}
			}
			Expect(texts).To(Equal(map[string][2]string{"a1": {projections.ErasedName, projections.ErasedContent}, "a2": {"", "add me too"}}))
			ns, _, err := store.Notices(ctx, "2", "", 1, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(ns).To(HaveLen(2), "the request and the invitation to g2")
			for _, n := range ns {
				if n.ContentID == "a1" {
					Expect(n.Content).To(Equal(projections.ErasedContent))
				}
			}
			ns, _, err = store.Notices(ctx, "1", "", 1, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(ns).NotTo(BeEmpty())
			for _, n := range ns {
				if n.ContentID == "a2" {
					Expect(n.Content).To(Equal("add me too"), "a request to the erased member is its sender's")
				}
			}
			fs, err := store.Friends(ctx, "1")
			Expect(err).NotTo(HaveOccurred())
			Expect(fs[0].Remark).To(Equal(projections.ErasedName))
			fs, err = store.Friends(ctx, "2")
			Expect(err).NotTo(HaveOccurred())
			Expect(fs[0].Remark).To(Equal("Uno"))

			for _, kind := range []string{personal.KindFavourite, projections.KindAssistant} {
				_, total, err := store.PersonalItems(ctx, "1", kind, 1, 10)
				Expect(err).NotTo(HaveOccurred())
				Expect(total).To(BeZero(), kind)
			}
			_, total, err := store.PersonalItems(ctx, "2", personal.KindFavourite, 1, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(total).To(Equal(1))
			items, _, err := store.PersonalItems(ctx, personal.FeedbackOwner("x0001"), personal.KindFeedback, 1, 10)
			Expect(err).NotTo(HaveOccurred())
			Expect(items).To(HaveLen(1))
			var f projections.FeedbackDoc
			Expect(json.Unmarshal(items[0].Doc, &f)).To(Succeed())
			Expect(f.Content).To(Equal(projections.ErasedContent))
		})
	}
})
