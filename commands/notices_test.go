package commands_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("System notices", func() {
	var w *world
	var a, b, c commands.Principal
	BeforeEach(func() {
		w = newWorld()
		a, b, c = w.member("anna0001"), w.member("ben00001"), w.member("cleo0001")
		w.befriend(a, b) // b gets a FriendRequest, a a FriendAccepted
		_, err := w.app.RequestFriend(ctx, c, commands.RequestFriend{FriendMemberID: b.MemberID})
		Expect(err).NotTo(HaveOccurred())
		w.settle()
	})
	noticesOf := func(p commands.Principal) []projections.Notice {
		GinkgoHelper()
		w.settle()
		ns, _, err := w.reads.Notices(ctx, p.MemberID, "", 1, 100)
		Expect(err).NotTo(HaveOccurred())
		return ns
	}
	inboxLength := func(p commands.Principal) int {
		GinkgoHelper()
		recs, err := w.events.ReadStream(ctx, es.Stream("x0001", es.CategoryInbox, p.MemberID), es.Forwards, 0, 1000)
		Expect(err).NotTo(HaveOccurred())
		return len(recs)
	}
	refused := func(err error, kind fault.Kind, key string) {
		GinkgoHelper()
		Expect(fault.Is(err, kind)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(Equal(key))
	}

	It("reads one notice, once: reading it again appends nothing", func() {
		ns := noticesOf(b)
		Expect(ns).To(HaveLen(2))
		res, err := w.app.ReadNotice(ctx, b, commands.NoticeID{ID: ns[0].ID})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IDs).To(Equal([]string{ns[0].ID}))
		Expect(res.Position).NotTo(BeZero())
		Expect(noticesOf(b)[0].Read).To(BeTrue())
		Expect(noticesOf(b)[1].Read).To(BeFalse())
		n := inboxLength(b)
		res, err = w.app.ReadNotice(ctx, b, commands.NoticeID{ID: ns[0].ID})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Position).To(BeZero())
		Expect(inboxLength(b)).To(Equal(n))
	})

	It("reads all, and appends nothing when nothing is unread", func() {
		res, err := w.app.ReadAllNotices(ctx, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Position).NotTo(BeZero())
		for _, n := range noticesOf(b) {
			Expect(n.Read).To(BeTrue())
		}
		Expect(noticesOf(a)[0].Read).To(BeFalse())
		n := inboxLength(b)
		res, err = w.app.ReadAllNotices(ctx, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Position).To(BeZero())
		Expect(inboxLength(b)).To(Equal(n))
	})

	It("deletes notices of the member", func() {
		ns := noticesOf(b)
		_, err := w.app.DeleteNotices(ctx, b, commands.NoticeIDs{IDs: []string{ns[1].ID}})
		Expect(err).NotTo(HaveOccurred())
		Expect(noticesOf(b)).To(Equal(ns[:1]))
	})

	It("refuses bad ids, unknown ones and another member's, and appends nothing", func() {
		theirs := noticesOf(a)[0].ID
		n := inboxLength(b)
		_, err := w.app.ReadNotice(ctx, b, commands.NoticeID{})
		refused(err, fault.Invalid, fault.MsgNoticeIDInvalid)
		_, err = w.app.ReadNotice(ctx, b, commands.NoticeID{ID: "12x"})
		refused(err, fault.Invalid, fault.MsgNoticeIDInvalid)
		_, err = w.app.ReadNotice(ctx, b, commands.NoticeID{ID: theirs})
		refused(err, fault.NotFound, fault.MsgNoticeNotFound)
		_, err = w.app.DeleteNotices(ctx, b, commands.NoticeIDs{})
		refused(err, fault.Invalid, fault.MsgNoticesNone)
		_, err = w.app.DeleteNotices(ctx, b, commands.NoticeIDs{IDs: []string{noticesOf(b)[0].ID, theirs}})
		refused(err, fault.NotFound, fault.MsgNoticeNotFound)
		many := make([]string, 101)
		for i := range many {
			many[i] = "1"
		}
		_, err = w.app.DeleteNotices(ctx, b, commands.NoticeIDs{IDs: many})
		refused(err, fault.Invalid, fault.MsgNoticesTooMany)
		Expect(inboxLength(b)).To(Equal(n))
		Expect(noticesOf(a)).To(HaveLen(1))
	})
})
