package projections_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/personal"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("The personal projector", func() {
	items := func(store projections.ReadStore, kind string) []string {
		GinkgoHelper()
		list, _, err := store.PersonalItems(ctx, "1", kind, 1, -1)
		Expect(err).NotTo(HaveOccurred())
		out := []string{}
		for _, it := range list {
			out = append(out, it.ID+"="+string(it.Doc))
		}
		return out
	}
	l := newLog().
		add(inboxOf1, &personal.FavouriteAdded{Member: "1", Favourite: personal.Favourite{ID: "f1", MessageID: "m1", MsgType: "Text", Content: "a", At: 1}}).
		add(inboxOf1, &personal.FavouriteAdded{Member: "1", Favourite: personal.Favourite{ID: "f2", MessageID: "m2", MsgType: "Text", Content: "b", At: 2}}).
		add(inboxOf1, &personal.FavouriteEdited{Member: "1", Favourite: personal.Favourite{ID: "f1", MessageID: "m1", MsgType: "Text", Content: "a2", At: 1, EditTime: 3}}).
		add(inboxOf1, &personal.FavouritesDeleted{Member: "1", IDs: []string{"f2"}, At: 4}).
		add(inboxOf1, &personal.StickerAdded{Member: "1", Sticker: personal.Sticker{ID: "s1", FilePath: "/p", Content: "{}", At: 5}}).
		add(inboxOf1, &personal.StickerAdded{Member: "1", Sticker: personal.Sticker{ID: "s2", FilePath: "/q", Content: "{}", At: 6}}).
		add(inboxOf1, &personal.StickersDeleted{Member: "1", IDs: []string{"s1"}, At: 7}).
		add(inboxOf1, &personal.BatchSent{Member: "1", Batch: personal.Batch{ID: "b1", Recipients: []string{"2"}, At: 8}}).
		add(inboxOf1, &personal.BatchesCleared{Member: "1", At: 9}).
		add(inboxOf1, &personal.BatchSent{Member: "1", Batch: personal.Batch{ID: "b2", Recipients: []string{"3"}, At: 10}}).
		add(inboxOf1, &personal.BatchSendSet{Member: "1", Setting: "Disable", At: 11})

	expectModels := func(store projections.ReadStore) {
		GinkgoHelper()
		Expect(items(store, personal.KindFavourite)).To(Equal([]string{
			`f1={"id":"f1","messageId":"m1","chatType":"","from":"","peer":"","msgType":"Text","content":"a2","sendTime":0,"createTime":1,"editTime":3}`}))
		Expect(items(store, personal.KindSticker)).To(Equal([]string{`s2={"id":"s2","filePath":"/q","content":"{}","createTime":6}`}))
		Expect(items(store, personal.KindBatch)).To(HaveLen(1))
		Expect(items(store, personal.KindBatch)[0]).To(HavePrefix(`b2=`))
		Expect(items(store, personal.KindSetting)).To(Equal([]string{`sendBatchMessage={"value":"Disable"}`}))
		Expect(projections.Lookups{Q: store}.BatchSendSetting(ctx, "x0001", "1")).To(Equal("Disable"))
		Expect(projections.Lookups{Q: store}.BatchSendSetting(ctx, "x0001", "2")).To(Equal("Enable"))
		Expect(projections.Lookups{Q: store}.KeepsSticker(ctx, "1", "/q")).To(BeTrue())
		Expect(projections.Lookups{Q: store}.KeepsSticker(ctx, "1", "/p")).To(BeFalse(), "a deleted sticker")
		Expect(projections.Lookups{Q: store}.KeepsSticker(ctx, "2", "/q")).To(BeFalse(), "another member's sticker")
	}

	It("folds favourites, stickers, mass messages and the setting, pushing 43 to the member on sticker changes", func() {
		store := openStore()
		ds := fold(store, projections.Personal{}, l.envs, 0)
		expectModels(store)
		Expect(ds).To(HaveLen(3))
		for _, d := range ds {
			Expect(d.Cmd).To(Equal(projections.CmdStickers))
			Expect(d.To).To(Equal([]string{"1"}))
		}
	})

	It("ends the same whether the log is folded whole or one event a batch", func() {
		whole, single := openStore(), openStore()
		fold(whole, projections.Personal{}, l.envs, 0)
		fold(single, projections.Personal{}, l.envs, 1)
		expectModels(whole)
		expectModels(single)
	})
})

var _ = Describe("The personal projector's delivered positions", func() {
	It("keeps each login's delivered position, and Lookups reads it", func() {
		store := openStore()
		l := newLog().
			add(inboxOf1, &personal.MessagesDelivered{Member: "1", Session: "s1", Position: 7, At: 1}).
			add(inboxOf1, &personal.MessagesDelivered{Member: "1", Session: "s2", Position: 3, At: 2}).
			add(inboxOf1, &personal.MessagesDelivered{Member: "1", Session: "s1", Position: 9, At: 3})
		Expect(fold(store, projections.Personal{}, l.envs, 1)).To(BeEmpty())
		lookups := projections.Lookups{Q: store}
		Expect(lookups.Delivered(ctx, "x0001", "1", "s1")).To(Equal(uint64(9)))
		Expect(lookups.Delivered(ctx, "x0001", "1", "s2")).To(Equal(uint64(3)))
		Expect(lookups.Delivered(ctx, "x0001", "1", "s3")).To(BeZero())
		Expect(lookups.Delivered(ctx, "x0001", "2", "s1")).To(BeZero())
	})
})
