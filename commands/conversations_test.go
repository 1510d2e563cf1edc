package commands_test

import (
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/inbox"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Conversation settings", func() {
	var w *world
	var a, b commands.Principal
	BeforeEach(func() {
		w = newWorld()
		a, b = w.member("anna0001"), w.member("ben00001")
		w.befriend(a, b)
	})
	with := func(p commands.Principal) commands.Conversation {
		return commands.Conversation{ChatType: "Friend", FriendMemberID: p.MemberID}
	}
	inboxEvents := func(p commands.Principal) []string {
		GinkgoHelper()
		recs, err := w.events.ReadStream(ctx, es.Stream("x0001", es.CategoryInbox, p.MemberID), es.Forwards, 0, 1000)
		Expect(err).NotTo(HaveOccurred())
		out := make([]string, len(recs))
		for i, r := range recs {
			out[i] = r.Type
		}
		return out
	}
	sessionWith := func(of, peer commands.Principal) (projections.Session, bool) {
		GinkgoHelper()
		w.settle()
		ss, err := w.reads.Sessions(ctx, of.MemberID)
		Expect(err).NotTo(HaveOccurred())
		for _, s := range ss {
			if s.Peer == peer.MemberID {
				return s, true
			}
		}
		return projections.Session{}, false
	}
	// friends makes n more friends of a.
	friends := func(n int) []commands.Principal {
		var out []commands.Principal
		for i := range n {
			f := w.member(fmt.Sprintf("fr%06d", i))
			w.befriend(a, f)
			out = append(out, f)
		}
		return out
	}

	It("pins in a's inbox stream once, and unpins once", func() {
		first, err := w.app.PinConversation(ctx, a, with(b))
		Expect(err).NotTo(HaveOccurred())
		again, err := w.app.PinConversation(ctx, a, with(b))
		Expect(err).NotTo(HaveOccurred())
		Expect(again.Position).To(Equal(first.Position))
		Expect(inboxEvents(a)).To(Equal([]string{inbox.TypePinned}))
		s, _ := sessionWith(a, b)
		Expect(s.Top).To(BeTrue())

		_, err = w.app.UnpinConversation(ctx, a, with(b))
		Expect(err).NotTo(HaveOccurred())
		_, err = w.app.UnpinConversation(ctx, a, with(b))
		Expect(err).NotTo(HaveOccurred())
		Expect(inboxEvents(a)).To(Equal([]string{inbox.TypePinned, inbox.TypeUnpinned}))
		s, _ = sessionWith(a, b)
		Expect(s.Top).To(BeFalse())
		Expect(inboxEvents(b)).To(BeEmpty())
	})

	It("refuses a pin past the cap with 20065 and appends nothing", func() {
		for _, f := range friends(inbox.MaxPinned) {
			_, err := w.app.PinConversation(ctx, a, with(f))
			Expect(err).NotTo(HaveOccurred())
		}
		head, _ := w.events.Head(ctx)
		_, err := w.app.PinConversation(ctx, a, with(b))
		f, ok := fault.As(err)
		Expect(ok).To(BeTrue(), "%v", err)
		Expect(f.Code).To(Equal(inbox.CodePinLimit))
		Expect(f.Kind).To(Equal(fault.Conflict))
		Expect(w.events.Head(ctx)).To(Equal(head))
	})

	It("lets no two concurrent pins pass the cap together", func() {
		fs := friends(inbox.MaxPinned + 4)
		var wg sync.WaitGroup
		var mu sync.Mutex
		var refused int
		for _, f := range fs {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				_, err := w.app.PinConversation(ctx, a, with(f))
				if err != nil {
					f, ok := fault.As(err)
					Expect(ok).To(BeTrue(), "%v", err)
					Expect(f.Code).To(Equal(inbox.CodePinLimit))
					mu.Lock()
					refused++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		pins := 0
		for _, t := range inboxEvents(a) {
			if t == inbox.TypePinned {
				pins++
			}
		}
		Expect(pins).To(Equal(inbox.MaxPinned))
		Expect(refused).To(Equal(len(fs) - inbox.MaxPinned))
	})

	It("turns do-not-disturb on and off", func() {
		_, err := w.app.SetDoNotDisturb(ctx, a, commands.SetDoNotDisturb{Conversation: with(b), On: true})
		Expect(err).NotTo(HaveOccurred())
		s, _ := sessionWith(a, b)
		Expect(s.DoNotDisturb).To(BeTrue())
		_, err = w.app.SetDoNotDisturb(ctx, a, commands.SetDoNotDisturb{Conversation: with(b)})
		Expect(err).NotTo(HaveOccurred())
		s, _ = sessionWith(a, b)
		Expect(s.DoNotDisturb).To(BeFalse())
	})

	It("marks unread, and marks read by clearing the mark and acknowledging the newest message", func() {
		var last commands.SendResult
		for i := range 2 {
			var err error
			last, err = w.app.SendMessage(ctx, b, commands.SendMessage{UUID: fmt.Sprint("m", i), ChatType: "Friend", To: a.MemberID, Content: "hi"})
			Expect(err).NotTo(HaveOccurred())
		}
		_, err := w.app.MarkConversationUnread(ctx, a, with(b))
		Expect(err).NotTo(HaveOccurred())
		s, _ := sessionWith(a, b)
		Expect(s.MarkedUnread).To(BeTrue())
		Expect(s.UnreadCount).To(Equal(2))

		res, err := w.app.MarkConversationRead(ctx, a, with(b))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Position).To(BeNumerically(">", last.Position))
		s, _ = sessionWith(a, b)
		Expect(s.MarkedUnread).To(BeFalse())
		Expect(s.UnreadCount).To(BeZero())
		page, _ := w.reads.HistoryPage(ctx, viewer(a), s.ChatID, nil, projections.Up, 10)
		for _, m := range page {
			Expect(m.Status).To(Equal(projections.StatusRead))
		}
	})

	It("marks read a conversation without messages", func() {
		_, err := w.app.MarkConversationUnread(ctx, a, with(b))
		Expect(err).NotTo(HaveOccurred())
		_, err = w.app.MarkConversationRead(ctx, a, with(b))
		Expect(err).NotTo(HaveOccurred())
		s, found := sessionWith(a, b)
		Expect(found).To(BeTrue())
		Expect(s.MarkedUnread).To(BeFalse())
	})

	It("hides a conversation, unpinning it, until a newer message; shows it on demand", func() {
		_, err := w.app.SendMessage(ctx, b, commands.SendMessage{UUID: "m1", ChatType: "Friend", To: a.MemberID, Content: "hi"})
		Expect(err).NotTo(HaveOccurred())
		_, err = w.app.PinConversation(ctx, a, with(b))
		Expect(err).NotTo(HaveOccurred())
		_, err = w.app.HideConversation(ctx, a, with(b))
		Expect(err).NotTo(HaveOccurred())
		_, found := sessionWith(a, b)
		Expect(found).To(BeFalse())
		_, found = sessionWith(b, a)
		Expect(found).To(BeTrue(), "b's list keeps it")

		_, err = w.app.SendMessage(ctx, b, commands.SendMessage{UUID: "m2", ChatType: "Friend", To: a.MemberID, Content: "again"})
		Expect(err).NotTo(HaveOccurred())
		s, found := sessionWith(a, b)
		Expect(found).To(BeTrue())
		Expect(s.Top).To(BeFalse())
		Expect(s.UnreadCount).To(Equal(2))

		_, err = w.app.OperateSession(ctx, a, commands.SessionOperation{Type: "Friend", FriendMemberID: b.MemberID, OperationType: "Del"})
		Expect(err).NotTo(HaveOccurred())
		_, found = sessionWith(a, b)
		Expect(found).To(BeFalse())
		_, err = w.app.OperateSession(ctx, a, commands.SessionOperation{Type: "Friend", FriendMemberID: b.MemberID, OperationType: "Add"})
		Expect(err).NotTo(HaveOccurred())
		_, found = sessionWith(a, b)
		Expect(found).To(BeTrue())
	})

	It("runs the operations of command 49", func() {
		op := func(o string) error {
			_, err := w.app.OperateSession(ctx, a, commands.SessionOperation{Type: "Friend", FriendMemberID: b.MemberID, OperationType: o})
			return err
		}
		Expect(op("AddTop")).To(Succeed())
		s, _ := sessionWith(a, b)
		Expect(s.Top).To(BeTrue())
		Expect(op("DelTop")).To(Succeed())
		s, _ = sessionWith(a, b)
		Expect(s.Top).To(BeFalse())
		head, _ := w.events.Head(ctx)
		Expect(op("Report")).To(Succeed())
		expectFault(op("Sideways"), fault.Invalid, fault.MsgOperationInvalid)
		Expect(w.events.Head(ctx)).To(Equal(head))
	})

	It("refuses bad targets and non-friends, and appends nothing", func() {
		c := w.member("carl0001")
		head, _ := w.events.Head(ctx)
		for _, r := range []commands.Conversation{
			{ChatType: "Friend"},
			{ChatType: "Nope", FriendMemberID: b.MemberID},
			{FriendMemberID: b.MemberID, GroupID: "1"},
			{ChatType: "Group", FriendMemberID: b.MemberID},
			{ChatType: "Friend", FriendMemberID: a.MemberID},
		} {
			_, err := w.app.PinConversation(ctx, a, r)
			Expect(fault.Is(err, fault.Invalid)).To(BeTrue(), "%+v: %v", r, err)
		}
		_, err := w.app.PinConversation(ctx, a, commands.Conversation{ChatType: "Group", GroupID: "1"})
		expectFault(err, fault.NotFound, fault.MsgGroupNotFound)
		for _, peer := range []string{c.MemberID, "1234567890123456789"} {
			_, err := w.app.PinConversation(ctx, a, commands.Conversation{ChatType: "Friend", FriendMemberID: peer})
			expectFault(err, fault.NotFound, fault.MsgFriendMissing)
			_, err = w.app.HideConversation(ctx, a, commands.Conversation{FriendMemberID: peer})
			expectFault(err, fault.NotFound, fault.MsgFriendMissing)
		}
		Expect(w.events.Head(ctx)).To(Equal(head))
	})
})
