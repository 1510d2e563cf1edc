package friend_test

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/friend"
)

var now = time.UnixMilli(1_800_000_000_000)

func given(events ...es.Event) *friend.Friendship {
	var f friend.Friendship
	for _, e := range events {
		f.Apply(e)
	}
	return &f
}

var (
	asked    = &friend.Requested{ApplyID: "a1", From: "1", To: "2"}
	accepted = &friend.RequestAccepted{ApplyID: "a1", By: "2"}
	rejected = &friend.RequestRejected{ApplyID: "a1", By: "2"}
)

var _ = Describe("Friend requests", func() {
	DescribeTable("asking",
		func(past []es.Event, from, to string, want []es.Event, wantID string, kind fault.Kind) {
			events, id, err := given(past...).Ask("new", from, to, "", "hi", now)
			if kind != 0 {
				Expect(fault.Is(err, kind)).To(BeTrue(), "%v", err)
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(events).To(Equal(want))
			Expect(id).To(Equal(wantID))
		},
		Entry("a first request", nil, "1", "2",
			[]es.Event{&friend.Requested{ApplyID: "new", From: "1", To: "2", Content: "hi", At: now.UnixMilli()}}, "new", fault.Kind(0)),
		Entry("a repeat while pending decides nothing", []es.Event{asked}, "1", "2", []es.Event(nil), "a1", fault.Kind(0)),
		Entry("a crossing request is an agreement", []es.Event{asked}, "2", "1",
			[]es.Event{&friend.RequestAccepted{ApplyID: "a1", By: "2", At: now.UnixMilli()}}, "a1", fault.Kind(0)),
		Entry("after a rejection a new request is filed", []es.Event{asked, rejected}, "1", "2",
			[]es.Event{&friend.Requested{ApplyID: "new", From: "1", To: "2", Content: "hi", At: now.UnixMilli()}}, "new", fault.Kind(0)),
		Entry("friends already", []es.Event{asked, accepted}, "1", "2", nil, "", fault.Conflict),
		Entry("oneself", nil, "1", "1", nil, "", fault.Invalid),
	)

	DescribeTable("answering",
		func(past []es.Event, by string, accept bool, want es.Event, kind fault.Kind, key string) {
			events, err := given(past...).Answer("a1", by, accept, now)
			if kind != 0 {
				f, ok := fault.As(err)
				Expect(ok).To(BeTrue())
				Expect(f.Kind).To(Equal(kind))
				if key != "" {
					Expect(f.Key).To(Equal(key))
				}
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(events).To(Equal([]es.Event{want}))
		},
		Entry("the recipient accepts", []es.Event{asked}, "2", true,
			&friend.RequestAccepted{ApplyID: "a1", By: "2", At: now.UnixMilli()}, fault.Kind(0), ""),
		Entry("the recipient rejects", []es.Event{asked}, "2", false,
			&friend.RequestRejected{ApplyID: "a1", By: "2", At: now.UnixMilli()}, fault.Kind(0), ""),
		Entry("the sender cannot answer", []es.Event{asked}, "1", true, nil, fault.Forbidden, ""),
		Entry("an unknown request", nil, "2", true, nil, fault.NotFound, ""),
		Entry("a processed request", []es.Event{asked, rejected}, "2", true, nil, fault.Conflict, fault.MsgAlreadyProcessed),
		Entry("an accepted request", []es.Event{asked, accepted}, "2", false, nil, fault.Conflict, fault.MsgAlreadyProcessed),
	)

	It("makes the pair friends on acceptance", func() {
		Expect(given(asked).Friends()).To(BeFalse())
		Expect(given(asked, accepted).Friends()).To(BeTrue())
	})

	It("names a pair the same whatever the order", func() {
		Expect(friend.PairID("2", "1")).To(Equal(friend.PairID("1", "2")))
		Expect(friend.Peer(friend.PairID("1", "2"), "1")).To(Equal("2"))
		Expect(friend.Peer(friend.PairID("1", "2"), "3")).To(BeEmpty())
	})

	It("clones state independently", func() {
		f := given(asked)
		c := f.Clone()
		c.Apply(accepted)
		Expect(f.Friends()).To(BeFalse())
		r, _ := f.Request("a1")
		Expect(r.Status).To(Equal(friend.StatusPending))
	})
})

var _ = Describe("Managing a friend", func() {
	at := now.UnixMilli()
	blocked := &friend.Blocked{By: "2", At: at}
	removed := &friend.Removed{By: "1", At: at}

	It("sets a trimmed remark, and the same remark again decides nothing", func() {
		f := given(asked, accepted)
		Expect(f.Remark("1", "  Bobby ", now)).To(Equal([]es.Event{&friend.Remarked{By: "1", Remark: "Bobby", At: at}}))
		f.Apply(&friend.Remarked{By: "1", Remark: "Bobby", At: at})
		Expect(f.Remark("1", "Bobby", now)).To(BeEmpty())
		Expect(f.Remark("2", "Bobby", now)).To(HaveLen(1), "each member has a remark of their own")
		_, err := f.Remark("1", strings.Repeat("x", 201), now)
		Expect(fault.Is(err, fault.Invalid)).To(BeTrue())
	})

	It("blocks and unblocks once each, one side at a time", func() {
		f := given(asked, accepted)
		Expect(f.Block("2", true, now)).To(Equal([]es.Event{blocked}))
		f.Apply(blocked)
		Expect(f.BlockedBy("2")).To(BeTrue())
		Expect(f.BlockedBy("1")).To(BeFalse())
		Expect(f.Block("2", true, now)).To(BeEmpty())
		Expect(f.Block("2", false, now)).To(Equal([]es.Event{&friend.Unblocked{By: "2", At: at}}))
		Expect(given(asked, accepted).Block("2", false, now)).To(BeEmpty())
	})

	It("ends the friendship for both, forgetting blocks, and lets them ask again", func() {
		f := given(asked, accepted, blocked)
		Expect(f.Remove("1", now)).To(Equal([]es.Event{removed}))
		f.Apply(removed)
		Expect(f.Friends()).To(BeFalse())
		Expect(f.BlockedBy("2")).To(BeFalse())
		events, id, err := f.Ask("again", "2", "1", "", "", now)
		Expect(err).NotTo(HaveOccurred())
		Expect(id).To(Equal("again"))
		Expect(events).To(HaveLen(1))
	})

	DescribeTable("refuses changes to one who is no friend",
		func(decide func(*friend.Friendship) ([]es.Event, error)) {
			for _, f := range []*friend.Friendship{given(), given(asked), given(asked, accepted, removed)} {
				_, err := decide(f)
				fe, ok := fault.As(err)
				Expect(ok).To(BeTrue())
				Expect(fe.Key).To(Equal(fault.MsgFriendMissing))
			}
		},
		Entry("remark", func(f *friend.Friendship) ([]es.Event, error) { return f.Remark("1", "x", now) }),
		Entry("block", func(f *friend.Friendship) ([]es.Event, error) { return f.Block("1", true, now) }),
		Entry("delete", func(f *friend.Friendship) ([]es.Event, error) { return f.Remove("1", now) }),
	)
})

var _ = Describe("Deleting a friend request from one's list", func() {
	It("is for either member of the request, once", func() {
		f := given(asked)
		Expect(f.DeleteRequest("a1", "2", now)).To(Equal([]es.Event{&friend.RequestDeleted{ApplyID: "a1", By: "2", At: now.UnixMilli()}}))
		f.Apply(&friend.RequestDeleted{ApplyID: "a1", By: "2"})
		Expect(f.DeleteRequest("a1", "2", now)).To(BeEmpty())
		Expect(f.DeleteRequest("a1", "1", now)).To(HaveLen(1))
		_, err := f.DeleteRequest("a1", "3", now)
		Expect(fault.Is(err, fault.NotFound)).To(BeTrue())
		_, err = f.DeleteRequest("nope", "1", now)
		Expect(fault.Is(err, fault.NotFound)).To(BeTrue())
	})
})
