package sealing_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	"github.com/eventchat/eventchat/adapters/kek"
	"github.com/eventchat/eventchat/adapters/keystore"
	"github.com/eventchat/eventchat/adapters/sealing"
	"github.com/eventchat/eventchat/domain/assistant"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/domain/group"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/personal"
)

func TestSealing(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Sealing")
}

const (
	tenant = "x0001"
	chatID = "1001_1002"
	text   = "meet me at the blue heron"
)

var ctx = context.Background()

var _ = Describe("the sealed log", func() {
	var (
		dir    string
		raw    *sqlitestore.Store
		keys   *keystore.SQLite
		sealer *sealing.Sealer
		log    *sealing.Store
		ids    int
	)
	openKeys := func() *keystore.SQLite {
		k, err := keystore.Open(filepath.Join(dir, keystore.FileName))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(k.Close)
		return k
	}
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		var err error
		raw, err = sqlitestore.Open(filepath.Join(dir, "events.db"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(raw.Close)
		keys = openKeys()
		sealer = sealing.New(keys, catalog.Registry())
		log = sealing.NewStore(raw, sealer)
	})

	event := func(e es.Event) es.EventData {
		GinkgoHelper()
		data, err := json.Marshal(e)
		Expect(err).NotTo(HaveOccurred())
		ids++
		return es.EventData{ID: "00000000-0000-0000-0000-" + strings.Repeat("0", 11) + string(rune('a'+ids)), Type: es.StoredType(e), Data: data,
			Metadata: es.Metadata{Tenant: tenant, Actor: "1001", Time: time.Now()}}
	}
	message := func(from, content string) es.EventData {
		return event(&chat.MessageSent{MessageID: "m", ChatType: "Friend", From: from, To: "1002", MsgType: "Text", Content: content})
	}
	appendTo := func(store interface {
		Append(context.Context, string, es.ExpectedRevision, []es.EventData) (es.WriteResult, error)
	}, stream string, events ...es.EventData) {
		GinkgoHelper()
		_, err := store.Append(ctx, stream, es.Any, events)
		Expect(err).NotTo(HaveOccurred())
	}
	contents := func(recs []es.RecordedEvent) []string {
		GinkgoHelper()
		var out []string
		for _, r := range recs {
			e, err := catalog.Registry().Decode(r.Type, r.Data)
			Expect(err).NotTo(HaveOccurred())
			out = append(out, e.(*chat.MessageSent).Content)
		}
		return out
	}
	readAll := func(l interface {
		ReadAll(context.Context, uint64, int) ([]es.RecordedEvent, error)
	}) []es.RecordedEvent {
		GinkgoHelper()
		recs, err := l.ReadAll(ctx, 0, 100)
		Expect(err).NotTo(HaveOccurred())
		return recs
	}
	chatStream := es.Stream(tenant, es.CategoryChat, chatID)

	It("stores a message's content sealed and reads it open, on every read", func() {
		appendTo(log, chatStream, message("1001", text))

		stored := readAll(raw)
		Expect(string(stored[0].Data)).NotTo(ContainSubstring("blue heron"))
		Expect(string(stored[0].Data)).To(ContainSubstring(`"from":"1001"`))
		Expect(contents(readAll(log))).To(Equal([]string{text}))
		byStream, err := log.ReadStream(ctx, chatStream, es.Forwards, 0, 10)
		Expect(err).NotTo(HaveOccurred())
		Expect(contents(byStream)).To(Equal([]string{text}))
		last, _, err := log.Last(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(contents([]es.RecordedEvent{last})).To(Equal([]string{text}))
		sub, err := log.SubscribeAll(ctx, 0)
		Expect(err).NotTo(HaveOccurred())
		defer sub.Close()
		live, err := sub.Next(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(contents(live)).To(Equal([]string{text}))
	})

	It("seals and opens any text exactly, whatever the payload holds around it", func() {
		texts := []string{`say "hi" \ <b>&amp;</b>`, "line one\nline two\ttab", "日本語 — émoji 🦩", "sealed1:looks sealed", `{"content":"nested"}`}
		var events []es.EventData
		for i, t := range texts {
			e := message("1001", t)
			if i%2 == 1 { // arrays, objects and numbers before and after the content
				e = event(&chat.MessageSent{MessageID: "m", ForwardBatch: []string{"a", "b,c", `d"e`}, ForwardBatchID: "a",
					ChatType: "Friend", From: "1001", To: "1002", MsgType: "Forward", Content: t, At: 17, Parent: "p"})
			}
			events = append(events, e)
		}
		appendTo(log, chatStream, events...)
		for _, r := range readAll(raw) {
			// needles long enough that random ciphertext never spells one by chance
			Expect(string(r.Data)).NotTo(Or(ContainSubstring(`say \"hi`), ContainSubstring("line one"), ContainSubstring("émoji"), ContainSubstring("looks"), ContainSubstring("nested")))
		}
		Expect(contents(readAll(log))).To(Equal(texts))

		spaced := message("1001", "spaced out")
		spaced.Data = []byte(" {\n  \"content\" : \"in the clear\" ,\n  \"from\": \"1001\", \"forwardBatch\": [ \"x\" ] } ")
		appendTo(raw, chatStream, spaced)
		Expect(contents(readAll(log))[len(texts)]).To(Equal("in the clear"))
	})

	Describe("with a key-encryption key", func() {
		kekFile := func(fill byte) *kek.File {
			GinkgoHelper()
			path := filepath.Join(GinkgoT().TempDir(), "kek")
			Expect(os.WriteFile(path, bytes.Repeat([]byte{fill}, 32), 0o600)).To(Succeed())
			k, err := kek.OpenFile(path)
			Expect(err).NotTo(HaveOccurred())
			return k
		}
		kept := func(member string) []byte {
			GinkgoHelper()
			k, ok, err := keys.Key(ctx, tenant, member, nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(ok).To(BeTrue())
			return k
		}

		It("keeps the keys it makes wrapped, opens what it sealed, and still reads the keys made before it", func() {
			appendTo(log, chatStream, message("1001", "sealed before the KEK"))
			Expect(kept("1001")).To(HaveLen(32), "a key made without a KEK is kept as it is")

			wrapping := sealing.New(keys, catalog.Registry(), sealing.WrappedBy(kekFile(0xa1)))
			Expect(wrapping.CheckKEK(ctx)).To(Succeed())
			wrapped := sealing.NewStore(raw, wrapping)
			appendTo(wrapped, chatStream, message("1002", text))
			Expect(string(kept("1002"))).To(HavePrefix("kek1:"))
			Expect(string(readAll(raw)[1].Data)).NotTo(ContainSubstring("blue heron"))
			Expect(contents(readAll(wrapped))).To(Equal([]string{"sealed before the KEK", text}))

			By("the same KEK read again, in another process")
			again := sealing.NewStore(raw, sealing.New(openKeys(), catalog.Registry(), sealing.WrappedBy(kekFile(0xa1))))
			Expect(contents(readAll(again))).To(Equal([]string{"sealed before the KEK", text}))

			By("erasing destroys the wrapped key as any other")
			Expect(wrapping.Destroy(ctx, tenant, "1002")).To(Succeed())
			Expect(contents(readAll(wrapped))).To(Equal([]string{"sealed before the KEK", es.Erased}))
		})

		It("refuses to start without the KEK the keys were wrapped by, or with another", func() {
			Expect(sealing.New(keys, catalog.Registry()).CheckKEK(ctx)).To(Succeed(), "no KEK ever: nothing to check")
			first := sealing.New(keys, catalog.Registry(), sealing.WrappedBy(kekFile(0xa1)))
			Expect(first.CheckKEK(ctx)).To(Succeed())
			appendTo(sealing.NewStore(raw, first), chatStream, message("1001", text))

			Expect(sealing.New(openKeys(), catalog.Registry()).CheckKEK(ctx)).To(MatchError(sealing.ErrKEKNeeded))
			other := sealing.New(openKeys(), catalog.Registry(), sealing.WrappedBy(kekFile(0xb2)))
			Expect(other.CheckKEK(ctx)).To(MatchError(ContainSubstring("is IM_KEK the key-encryption key the data keys were wrapped by?")))
			_, err := sealing.NewStore(raw, sealing.New(openKeys(), catalog.Registry())).ReadAll(ctx, 0, 10)
			Expect(err).To(MatchError(sealing.ErrKEKNeeded), "a read never passes wrapped keys off as data keys")
			Expect(sealing.New(openKeys(), catalog.Registry(), sealing.WrappedBy(kekFile(0xa1))).CheckKEK(ctx)).To(Succeed())
		})
	})

	It("reads an event written before sealing as it was written", func() {
		appendTo(raw, chatStream, message("1001", "written in the clear"))
		Expect(contents(readAll(log))).To(Equal([]string{"written in the clear"}))
	})

	It("reads the member's fields as erased once its key is destroyed, in another process too, and seals nothing new of it", func() {
		appendTo(log, chatStream, message("1001", text), message("1002", "a reply"))
		Expect(sealer.Destroy(ctx, tenant, "1001")).To(Succeed())
		Expect(contents(readAll(log))).To(Equal([]string{es.Erased, "a reply"}))

		restarted := sealing.NewStore(raw, sealing.New(openKeys(), catalog.Registry()))
		Expect(contents(readAll(restarted))).To(Equal([]string{es.Erased, "a reply"}))

		appendTo(log, chatStream, message("1001", "after the erasure"))
		stored := readAll(raw)
		Expect(string(stored[2].Data)).NotTo(ContainSubstring("after the erasure"))
		Expect(contents(readAll(log))[2]).To(Equal(es.Erased))
	})

	It("seals a member's registration and profile under the member's own key", func() {
		member1 := es.Stream(tenant, es.CategoryMember, "1001")
		appendTo(log, member1,
			event(&member.Registered{MemberID: "1001", Phone: "13912345678", Account: "heron001", Name: "Grey Heron"}),
			event(&member.ProfileModified{Name: "Blue Heron", HeadURL: "/blobs/x0001/heron.png"}))
		stored := string(readAll(raw)[0].Data) + string(readAll(raw)[1].Data)
		for _, personal := range []string{"13912345678", "heron001", "Heron", "heron.png"} {
			Expect(stored).NotTo(ContainSubstring(personal))
		}
		Expect(sealer.Destroy(ctx, tenant, "1001")).To(Succeed())
		recs := readAll(log)
		reg, err := catalog.Registry().Decode(recs[0].Type, recs[0].Data)
		Expect(err).NotTo(HaveOccurred())
		Expect(reg).To(Equal(&member.Registered{MemberID: "1001", Phone: es.Erased, Account: es.Erased, Name: es.Erased}))
	})

	It("seals group notices and nicknames, friend requests and remarks, favourites, mass messages and the assistant's exchanges under their member's key", func() {
		fav := personal.Favourite{ID: "f1", MessageID: "m7", ChatType: "Friend", From: "1002", Peer: "1002", MsgType: "Text",
			Content: "favourite saffron lighthouse", SentAt: 5, At: 6}
		edited := fav
		edited.Content = "edited saffron lighthouse"
		notice := "notice amber orchard"
		events := []struct {
			stream string
			event  es.Event
		}{
			{es.Stream(tenant, es.CategoryGroup, "g1"), &group.NicknameSet{Member: "1001", Nickname: "nickname quokkabard", At: 1}},
			{es.Stream(tenant, es.CategoryFriendship, chatID), &friend.Requested{ApplyID: "a1", From: "1001", To: "1002",
				Remark: "remark marmalade otter", Content: "request tangerine walrus", At: 2}},
			{es.Stream(tenant, es.CategoryFriendship, chatID), &friend.Remarked{By: "1001", Remark: "remark ocelot pudding", At: 2}},
			{es.Stream(tenant, es.CategoryInbox, "1001"), &personal.FavouriteAdded{Member: "1001", Favourite: fav}},
			{es.Stream(tenant, es.CategoryInbox, "1001"), &personal.FavouriteEdited{Member: "1001", Favourite: edited}},
			{es.Stream(tenant, es.CategoryInbox, "1001"), &personal.BatchSent{Member: "1001", Batch: personal.Batch{ID: "b1", MsgType: "Text",
				Content: "mass vermilion kite", Recipients: []string{"1002"}, MessageIDs: []string{"m8"}}}},
			{es.Stream(tenant, es.CategoryAssistant, "1001"), &assistant.Asked{ID: "q1", Member: "1001", Model: "m",
				Content: "question periwinkle comet", At: 3}},
			{es.Stream(tenant, es.CategoryAssistant, "1001"), &assistant.Answered{QuestionID: "q1", Member: "1001", Model: "m",
				Content: "answer cobalt nebula", Outcome: "Done", At: 4}},
			{es.Stream(tenant, es.CategoryGroup, "g1"), &group.Created{GroupID: "g1", Name: "Herons", Notice: "notice lavender harbour",
				Owner: "1001", Members: []string{"1002"}, At: 5}},
			{es.Stream(tenant, es.CategoryGroup, "g1"), &group.Modified{Notice: &notice, By: "1001", At: 6}},
		}
		for _, e := range events {
			appendTo(log, e.stream, event(e.event))
		}
		needles := []string{"quokkabard", "marmalade", "tangerine", "ocelot", "saffron", "vermilion", "periwinkle", "cobalt",
			"lavender", "amber orchard"}
		for _, r := range readAll(raw) {
			for _, needle := range needles {
				Expect(string(r.Data)).NotTo(ContainSubstring(needle), r.Type)
			}
		}
		Expect(string(readAll(raw)[3].Data)).To(ContainSubstring(`"messageId":"m7"`), "a favourite's other fields stay as they were")

		decoded := func() []es.Event {
			GinkgoHelper()
			var out []es.Event
			for _, r := range readAll(log) {
				e, err := catalog.Registry().Decode(r.Type, r.Data)
				Expect(err).NotTo(HaveOccurred())
				out = append(out, e)
			}
			return out
		}
		for i, e := range decoded() {
			Expect(e).To(Equal(events[i].event))
		}

		Expect(sealer.Destroy(ctx, tenant, "1001")).To(Succeed())
		got := decoded()
		Expect(got[0].(*group.NicknameSet).Nickname).To(Equal(es.Erased))
		Expect(*got[1].(*friend.Requested)).To(Equal(friend.Requested{ApplyID: "a1", From: "1001", To: "1002", Remark: es.Erased, Content: es.Erased, At: 2}))
		Expect(got[2].(*friend.Remarked).Remark).To(Equal(es.Erased))
		erasedFav := fav
		erasedFav.Content = es.Erased
		Expect(got[3].(*personal.FavouriteAdded).Favourite).To(Equal(erasedFav))
		Expect(got[4].(*personal.FavouriteEdited).Favourite.Content).To(Equal(es.Erased))
		Expect(got[5].(*personal.BatchSent).Batch.Content).To(Equal(es.Erased))
		Expect(got[5].(*personal.BatchSent).Batch.MessageIDs).To(Equal([]string{"m8"}))
		Expect(got[6].(*assistant.Asked).Content).To(Equal(es.Erased))
		Expect(got[7].(*assistant.Answered).Content).To(Equal(es.Erased))
		Expect(got[8].(*group.Created).Notice).To(Equal(es.Erased))
		Expect(got[8].(*group.Created).Name).To(Equal("Herons"))
		Expect(*got[9].(*group.Modified).Notice).To(Equal(es.Erased))
	})

	It("seals a field of a nested object exactly, whatever the object holds around it", func() {
		member1 := es.Stream(tenant, es.CategoryInbox, "1001")
		texts := []string{`a "quoted" ultramarine \ text`, "{\"content\":\"ultramarine inside\"}", "ultramarine ☂ line\nbreak"}
		for _, t := range texts {
			appendTo(log, member1, event(&personal.FavouriteAdded{Member: "1001", Favourite: personal.Favourite{ID: "f", Content: t}}))
		}
		odd := event(&personal.FavouriteAdded{})
		odd.Data = []byte(`{"favourite": {"from": {"content": "only a path named is sealed"}, "content" : "ultramarine spaced", "x": [1, {"y": 2}]}, "member":"1001"}`)
		appendTo(log, member1, odd)
		for _, r := range readAll(raw) {
			Expect(string(r.Data)).NotTo(ContainSubstring("ultramarine"))
		}
		Expect(string(readAll(raw)[3].Data)).To(ContainSubstring("only a path named is sealed"))
		recs := readAll(log)
		for i, t := range texts {
			e, err := catalog.Registry().Decode(recs[i].Type, recs[i].Data)
			Expect(err).NotTo(HaveOccurred())
			Expect(e.(*personal.FavouriteAdded).Favourite.Content).To(Equal(t))
		}
		var opened map[string]any
		Expect(json.Unmarshal(recs[3].Data, &opened)).To(Succeed())
		Expect(opened["favourite"]).To(HaveKeyWithValue("content", "ultramarine spaced"))
	})

	It("does not open a sealed field moved into another event", func() {
		appendTo(log, chatStream, message("1001", text))
		stored := readAll(raw)[0]
		moved := event(&chat.MessageSent{})
		moved.Data = stored.Data
		appendTo(raw, chatStream, moved)
		got := contents(readAll(log))
		Expect(got[0]).To(Equal(text))
		Expect(got[1]).To(HavePrefix("sealed1:"))
	})

	It("reads a member as erased from its erasure in the log on, before its key is destroyed", func() {
		appendTo(log, chatStream, message("1001", text))
		other := sealing.NewStore(raw, sealing.New(openKeys(), catalog.Registry()))
		Expect(contents(readAll(other))).To(Equal([]string{text}))

		appendTo(log, es.Stream(tenant, es.CategoryMember, "1001"), event(&member.Erased{By: "operator:ops", Request: "ticket 7"}))
		Expect(readAll(other)).To(HaveLen(2), "the node reads the erasure")
		Expect(contents(readAll(other)[:1])).To(Equal([]string{es.Erased}))
		Expect(contents(readAll(log)[:1])).To(Equal([]string{es.Erased}), "the erasing node too")
	})

	It("names a claim by a keyed hash of its value, the same after a restart", func() {
		blind, err := sealer.Blind(ctx)
		Expect(err).NotTo(HaveOccurred())
		name := blind("13912345678")
		Expect(name).NotTo(ContainSubstring("13912345678"))
		Expect(blind("13912345678")).To(Equal(name))
		Expect(blind("13912345679")).NotTo(Equal(name))
		again, err := sealing.New(openKeys(), catalog.Registry()).Blind(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(again("13912345678")).To(Equal(name))
		Expect(es.ParseStream(es.Stream(tenant, es.CategoryPhone, name))).To(HaveField("ID", name))
	})
})
