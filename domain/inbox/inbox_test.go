package inbox_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/inbox"
)

var now = time.UnixMilli(1_800_000_000_000)

func given(events ...es.Event) *inbox.Inbox {
	x := inbox.New("1")
	for _, e := range events {
		x.Apply(e)
	}
	return x
}

func friendOf(peer string) inbox.Conversation {
	return inbox.Conversation{ChatType: "Friend", Peer: peer}
}

func ref(peer string) inbox.Ref {
	return inbox.Ref{Member: "1", ChatType: "Friend", Peer: peer, At: now.UnixMilli()}
}

func pinned(peer string) es.Event   { return &inbox.Pinned{Ref: ref(peer)} }
func unpinned(peer string) es.Event { return &inbox.Unpinned{Ref: ref(peer)} }
func hidden(peer string) es.Event   { return &inbox.Hidden{Ref: ref(peer)} }

// pins returns pin events of n different conversations.
func pins(n int) []es.Event {
	var out []es.Event
	for i := range n {
		out = append(out, pinned(fmt.Sprint("p", i)))
	}
	return out
}

var _ = Describe("A member's inbox", func() {
	DescribeTable("pinning",
		func(past []es.Event, peer string, want []es.Event, code string) {
			events, err := given(past...).Pin(friendOf(peer), now)
			if code != "" {
				f, ok := fault.As(err)
				Expect(ok).To(BeTrue(), "%v", err)
				Expect(f.Kind).To(Equal(fault.Conflict))
				Expect(f.Code).To(Equal(code))
				Expect(f.Key).To(Equal(fault.MsgPinLimit))
				Expect(events).To(BeEmpty())
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(events).To(Equal(want))
		},
		Entry("a first pin", nil, "2", []es.Event{pinned("2")}, ""),
		Entry("a pinned conversation again decides nothing", []es.Event{pinned("2")}, "2", []es.Event(nil), ""),
		Entry("up to the cap", pins(inbox.MaxPinned-1), "2", []es.Event{pinned("2")}, ""),
		Entry("past the cap: 20065", pins(inbox.MaxPinned), "2", nil, inbox.CodePinLimit),
		Entry("a pinned one at the cap decides nothing", pins(inbox.MaxPinned), "p3", []es.Event(nil), ""),
		Entry("an unpin frees a place", append(pins(inbox.MaxPinned), unpinned("p0")), "2", []es.Event{pinned("2")}, ""),
		Entry("hiding frees a place", append(pins(inbox.MaxPinned), hidden("p0")), "2", []es.Event{pinned("2")}, ""),
		Entry("a repeated pin event counts once", append(pins(inbox.MaxPinned-1), pinned("p0")), "2", []es.Event{pinned("2")}, ""),
	)

	DescribeTable("unpinning",
		func(past []es.Event, peer string, want []es.Event) {
			Expect(given(past...).Unpin(friendOf(peer), now)).To(Equal(want))
		},
		Entry("a pinned conversation", []es.Event{pinned("2")}, "2", []es.Event{unpinned("2")}),
		Entry("an unpinned one decides nothing", nil, "2", []es.Event(nil)),
		Entry("one unpinned already decides nothing", []es.Event{pinned("2"), unpinned("2")}, "2", []es.Event(nil)),
		Entry("another one decides nothing", []es.Event{pinned("3")}, "2", []es.Event(nil)),
	)

	It("turns do-not-disturb on and off, deciding nothing when it is so already", func() {
		c := friendOf("2")
		on := &inbox.DoNotDisturbSet{Ref: ref("2"), On: true}
		Expect(given().SetDoNotDisturb(c, false, now)).To(BeEmpty())
		Expect(given().SetDoNotDisturb(c, true, now)).To(Equal([]es.Event{on}))
		Expect(given(on).SetDoNotDisturb(c, true, now)).To(BeEmpty())
		Expect(given(on).SetDoNotDisturb(c, false, now)).To(Equal([]es.Event{&inbox.DoNotDisturbSet{Ref: ref("2")}}))
		Expect(given(on).DoNotDisturb(c)).To(BeTrue())
		Expect(given(on).DoNotDisturb(friendOf("3"))).To(BeFalse())
	})

	It("unpins a pinned conversation when hiding it", func() {
		Expect(given(pinned("2")).Hide(friendOf("2"), now)).To(Equal([]es.Event{unpinned("2"), hidden("2")}))
		Expect(given().Hide(friendOf("2"), now)).To(Equal([]es.Event{hidden("2")}))
		Expect(given(pinned("2"), hidden("2")).Pinned()).To(BeZero())
	})

	It("marks unread, read and shows whatever the state, as reading and messages change it unseen", func() {
		c := friendOf("2")
		Expect(given().MarkUnread(c, now)).To(Equal([]es.Event{&inbox.MarkedUnread{Ref: ref("2")}}))
		Expect(given().MarkRead(c, now)).To(Equal([]es.Event{&inbox.MarkedRead{Ref: ref("2")}}))
		Expect(given(hidden("2")).Show(c, now)).To(Equal([]es.Event{&inbox.Shown{Ref: ref("2")}}))
	})

	DescribeTable("naming the conversation of a request",
		func(chatType, friendID, groupID string, want inbox.Conversation, bad bool) {
			c, err := inbox.Target(chatType, friendID, groupID)
			if bad {
				Expect(fault.Is(err, fault.Invalid)).To(BeTrue(), "%v", err)
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(c).To(Equal(want))
		},
		Entry("a friend", "Friend", "2", "", friendOf("2"), false),
		Entry("a friend without chatType", "", "2", "", friendOf("2"), false),
		Entry("a group", "Group", "", "9", inbox.Conversation{ChatType: "Group", Peer: "9"}, false),
		Entry("neither id", "Friend", "", "", inbox.Conversation{}, true),
		Entry("both ids", "", "2", "9", inbox.Conversation{}, true),
		Entry("a chatType that does not match", "Group", "2", "", inbox.Conversation{}, true),
		Entry("an unknown chatType", "Collect", "2", "", inbox.Conversation{}, true),
	)
})
