package commands_test

import (
	"context"
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/projections"
)

func expectFault(err error, kind fault.Kind, key string) {
	GinkgoHelper()
	f, ok := fault.As(err)
	Expect(ok).To(BeTrue(), "want a %v failure %q, got %v", kind, key, err)
	Expect(f.Kind).To(Equal(kind))
	if key != "" {
		Expect(f.Key).To(Equal(key))
	}
}

var ctx = context.Background()

var _ = Describe("Registration and login", func() {
	var w *world
	BeforeEach(func() { w = newWorld() })

	It("registers with a live SMS code and logs in by account or phone", func() {
		Expect(w.app.SendSMSCode(ctx, "x0001", "13800000001", "register")).To(Succeed())
		reg, err := w.app.RegisterMember(ctx, commands.Register{
			Phone: "13800000001", SMSCode: w.lastCode("13800000001"), Account: "alice01", Password: "abcd", TenantCode: "x0001"})
		Expect(err).NotTo(HaveOccurred())
		Expect(reg.MemberID).To(HaveLen(19))

		byAccount, err := w.app.LoginMember(ctx, commands.Login{Account: "alice01", Password: "abcd", TenantCode: "x0001"})
		Expect(err).NotTo(HaveOccurred())
		Expect(byAccount.Principal.MemberID).To(Equal(reg.MemberID))
		byPhone, err := w.app.LoginMember(ctx, commands.Login{Account: "13800000001", Password: "abcd", TenantCode: "x0001"})
		Expect(err).NotTo(HaveOccurred())
		Expect(byPhone.Principal.SessionID).NotTo(Equal(byAccount.Principal.SessionID))
	})

	It("refuses a wrong or missing SMS code, recording only the wrong try", func() {
		Expect(w.app.SendSMSCode(ctx, "x0001", "13800000002", "register")).To(Succeed())
		head, _ := w.events.Head(ctx)
		_, err := w.app.RegisterMember(ctx, commands.Register{
			Phone: "13800000002", SMSCode: "000000x", Account: "bob0001", Password: "abcd", TenantCode: "x0001"})
		expectFault(err, fault.Invalid, fault.MsgSMSCodeWrong)
		Expect(w.events.Head(ctx)).To(Equal(head + 1))
		_, err = w.app.RegisterMember(ctx, commands.Register{
			Phone: "13800000002", Account: "bob0001", Password: "abcd", TenantCode: "x0001"})
		expectFault(err, fault.Invalid, fault.MsgSMSCodeRequired)
		Expect(w.events.Head(ctx)).To(Equal(head + 1))
	})

	It("refuses an expired code", func() {
		Expect(w.app.SendSMSCode(ctx, "x0001", "13800000003", "register")).To(Succeed())
		code := w.lastCode("13800000003")
		w.advance(11 * time.Minute)
		_, err := w.app.RegisterMember(ctx, commands.Register{
			Phone: "13800000003", SMSCode: code, Account: "carol01", Password: "abcd", TenantCode: "x0001"})
		expectFault(err, fault.Invalid, fault.MsgSMSCodeInvalid)
	})

	It("refuses an account or a phone already in use", func() {
		w.member("dave0001")
		Expect(w.app.SendSMSCode(ctx, "x0001", "13800000004", "register")).To(Succeed())
		_, err := w.app.RegisterMember(ctx, commands.Register{
			Phone: "13800000004", SMSCode: w.lastCode("13800000004"), Account: "dave0001", Password: "abcd", TenantCode: "x0001"})
		expectFault(err, fault.Conflict, fault.MsgAccountInUse)

		_, err = w.app.RegisterMember(ctx, commands.Register{
			Phone: "13800000004", SMSCode: w.lastCode("13800000004"), Account: "erin0001", Password: "abcd", TenantCode: "x0001"})
		Expect(err).NotTo(HaveOccurred())
		w.advance(2 * time.Minute)
		err = w.app.SendSMSCode(ctx, "x0001", "13800000004", "register")
		expectFault(err, fault.Conflict, fault.MsgPhoneInUse)
	})

	It("limits codes to one a minute per phone", func() {
		Expect(w.app.SendSMSCode(ctx, "x0001", "13800000005", "register")).To(Succeed())
		expectFault(w.app.SendSMSCode(ctx, "x0001", "13800000005", "register"), fault.RateLimited, fault.MsgSMSTooOften)
	})

	It("refuses an unknown tenant", func() {
		expectFault(w.app.SendSMSCode(ctx, "x0009", "13800000006", "register"), fault.Invalid, fault.MsgTenantInvalid)
		_, err := w.app.LoginMember(ctx, commands.Login{Account: "alice01", Password: "abcd", TenantCode: "nope"})
		expectFault(err, fault.Invalid, fault.MsgTenantInvalid)
	})

	It("answers an unknown account like a wrong password", func() {
		w.member("frank001")
		_, err := w.app.LoginMember(ctx, commands.Login{Account: "frank001", Password: "wrong123", TenantCode: "x0001"})
		expectFault(err, fault.Invalid, fault.MsgWrongPassword)
		_, err = w.app.LoginMember(ctx, commands.Login{Account: "nobody01", Password: "wrong123", TenantCode: "x0001"})
		expectFault(err, fault.Invalid, fault.MsgWrongPassword)
	})

	It("ends a session on logout, once", func() {
		p := w.member("gina0001")
		pos, err := w.app.Logout(ctx, p)
		Expect(err).NotTo(HaveOccurred())
		Expect(pos).To(BeNumerically(">", 0))
		w.settle()
		s, found, err := w.reads.AuthSession(ctx, p.SessionID)
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeTrue())
		Expect(s.Active).To(BeFalse())
		Expect(w.app.Logout(ctx, p)).To(BeZero())
	})
})

var _ = Describe("Friends", func() {
	var w *world
	var a, b commands.Principal
	BeforeEach(func() {
		w = newWorld()
		a, b = w.member("anna0001"), w.member("ben00001")
	})

	It("befriends through a request and an acceptance", func() {
		w.befriend(a, b)
		w.settle()
		fs, err := w.reads.Friends(ctx, a.MemberID)
		Expect(err).NotTo(HaveOccurred())
		Expect(fs).To(HaveLen(1))
		Expect(fs[0].FriendID).To(Equal(b.MemberID))
	})

	It("refuses to answer a processed request", func() {
		applied, err := w.app.RequestFriend(ctx, a, commands.RequestFriend{FriendMemberID: b.MemberID})
		Expect(err).NotTo(HaveOccurred())
		w.settle()
		_, err = w.app.AnswerFriendRequest(ctx, b, commands.AnswerFriendRequest{ID: applied.ID, Status: "rejected"})
		Expect(err).NotTo(HaveOccurred())
		_, err = w.app.AnswerFriendRequest(ctx, b, commands.AnswerFriendRequest{ID: applied.ID, Status: "accepted"})
		expectFault(err, fault.Conflict, fault.MsgAlreadyProcessed)
	})

	It("lets only the recipient answer, and only accepted or rejected", func() {
		applied, err := w.app.RequestFriend(ctx, a, commands.RequestFriend{FriendMemberID: b.MemberID})
		Expect(err).NotTo(HaveOccurred())
		w.settle()
		_, err = w.app.AnswerFriendRequest(ctx, a, commands.AnswerFriendRequest{ID: applied.ID, Status: "accepted"})
		expectFault(err, fault.Forbidden, "")
		_, err = w.app.AnswerFriendRequest(ctx, b, commands.AnswerFriendRequest{ID: applied.ID, Status: "maybe"})
		expectFault(err, fault.Invalid, fault.MsgStatusInvalid)
		c := w.member("carl0001")
		_, err = w.app.AnswerFriendRequest(ctx, c, commands.AnswerFriendRequest{ID: applied.ID, Status: "accepted"})
		expectFault(err, fault.NotFound, fault.MsgApplyNotFound)
	})

	It("refuses a member of another tenant exactly as an unknown id", func() {
		_, err := w.app.CreateTenant(ctx, "x0002", "Second")
		Expect(err).NotTo(HaveOccurred())
		Expect(w.app.SendSMSCode(ctx, "x0002", "13700000001", "register")).To(Succeed())
		other, err := w.app.RegisterMember(ctx, commands.Register{
			Phone: "13700000001", SMSCode: w.lastCode("13700000001"), Account: "zed00001", Password: "abcd", TenantCode: "x0002"})
		Expect(err).NotTo(HaveOccurred())
		w.settle()
		_, err = w.app.RequestFriend(ctx, a, commands.RequestFriend{FriendMemberID: other.MemberID})
		expectFault(err, fault.NotFound, fault.MsgMemberNotFound)
		_, err = w.app.SendMessage(ctx, a, commands.SendMessage{UUID: "u1", ChatType: "Friend", To: other.MemberID, Content: "hi"})
		expectFault(err, fault.NotFound, fault.MsgMemberNotFound)
		_, err = w.app.RequestFriend(ctx, a, commands.RequestFriend{FriendMemberID: "1234567890123456789"})
		expectFault(err, fault.NotFound, fault.MsgMemberNotFound)
	})
})

var _ = Describe("Messages", func() {
	var w *world
	var a, b commands.Principal
	BeforeEach(func() {
		w = newWorld()
		a, b = w.member("anna0001"), w.member("ben00001")
	})

	It("lets only friends message each other", func() {
		_, err := w.app.SendMessage(ctx, a, commands.SendMessage{UUID: "u1", ChatType: "Friend", To: b.MemberID, Content: "hi"})
		expectFault(err, fault.Forbidden, fault.MsgNotFriend)
		w.befriend(a, b)
		_, err = w.app.SendMessage(ctx, a, commands.SendMessage{UUID: "u1", ChatType: "Friend", To: b.MemberID, Content: "hi"})
		Expect(err).NotTo(HaveOccurred())
	})

	It("is idempotent by uuid: a retry returns the first result and appends nothing", func() {
		w.befriend(a, b)
		first, err := w.app.SendMessage(ctx, a, commands.SendMessage{UUID: "same", ChatType: "Friend", To: b.MemberID, Content: "hi"})
		Expect(err).NotTo(HaveOccurred())
		head, _ := w.events.Head(ctx)
		w.advance(time.Hour)
		again, err := w.app.SendMessage(ctx, a, commands.SendMessage{UUID: "same", ChatType: "Friend", To: b.MemberID, Content: "hi"})
		Expect(err).NotTo(HaveOccurred())
		Expect(again).To(Equal(first))
		Expect(w.events.Head(ctx)).To(Equal(head))

		// The same uuid from the other side is another message.
		other, err := w.app.SendMessage(ctx, b, commands.SendMessage{UUID: "same", ChatType: "Friend", To: a.MemberID, Content: "yo"})
		Expect(err).NotTo(HaveOccurred())
		Expect(other.ID).NotTo(Equal(first.ID))
	})

	It("refuses bad messages and appends nothing", func() {
		w.befriend(a, b)
		head, _ := w.events.Head(ctx)
		for _, m := range []commands.SendMessage{
			{ChatType: "Friend", To: b.MemberID, Content: "no uuid"},
			{UUID: "u", ChatType: "Nope", To: b.MemberID, Content: "x"},
			{UUID: "u", ChatType: "Friend", To: b.MemberID, Content: "   "},
			{UUID: "u", ChatType: "Friend", To: b.MemberID, MsgType: "Weird", Content: "x"},
			{UUID: "u", ChatType: "Friend", To: a.MemberID, Content: "to myself"},
			{UUID: "u", ChatType: "Group", To: b.MemberID, Content: "x"},
		} {
			_, err := w.app.SendMessage(ctx, a, m)
			Expect(fault.Is(err, fault.Invalid)).To(BeTrue(), "%+v: %v", m, err)
		}
		_, err := w.app.SendMessage(ctx, a, commands.SendMessage{UUID: "u", ChatType: "Group", GroupID: "1", Content: "x"})
		Expect(fault.Is(err, fault.NotFound)).To(BeTrue(), "%v", err)
		Expect(w.events.Head(ctx)).To(Equal(head))
	})

	It("orders concurrent sends to one chat by contiguous sequence, without duplicates", func() {
		w.befriend(a, b)
		const senders, each = 16, 20
		var wg sync.WaitGroup
		ids := make(chan string, senders*each*2)
		for s := range senders {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				from := a
				to := b.MemberID
				if s%2 == 1 {
					from, to = b, a.MemberID
				}
				for i := range each {
					u := fmt.Sprintf("s%d-%d", s, i)
					r, err := w.app.SendMessage(ctx, from, commands.SendMessage{UUID: u, ChatType: "Friend", To: to, Content: u})
					Expect(err).NotTo(HaveOccurred())
					ids <- r.ID
					if i%5 == 0 { // a retry of the same uuid must not add a message
						again, err := w.app.SendMessage(ctx, from, commands.SendMessage{UUID: u, ChatType: "Friend", To: to, Content: u})
						Expect(err).NotTo(HaveOccurred())
						Expect(again.ID).To(Equal(r.ID))
					}
				}
			}()
		}
		wg.Wait()
		close(ids)
		unique := map[string]bool{}
		for id := range ids {
			unique[id] = true
		}
		Expect(unique).To(HaveLen(senders * each))

		recs, err := w.events.ReadStream(ctx, es.Stream("x0001", es.CategoryChat, friend.PairID(a.MemberID, b.MemberID)), es.Forwards, 0, 10000)
		Expect(err).NotTo(HaveOccurred())
		Expect(recs).To(HaveLen(senders * each))
		for i, r := range recs {
			Expect(r.Revision).To(Equal(uint64(i)))
		}

		w.settle()
		page, err := w.reads.HistoryPage(ctx, viewer(a), friend.PairID(a.MemberID, b.MemberID), nil, projections.Up, 200)
		Expect(err).NotTo(HaveOccurred())
		Expect(page).To(HaveLen(200))
		for i := 1; i < len(page); i++ {
			Expect(page[i].Seq).To(Equal(page[i-1].Seq + 1))
		}
	})

	It("counts unread messages and clears them on a read acknowledgement", func() {
		w.befriend(a, b)
		var last commands.SendResult
		for i := range 3 {
			var err error
			last, err = w.app.SendMessage(ctx, a, commands.SendMessage{UUID: fmt.Sprint(i), ChatType: "Friend", To: b.MemberID, Content: "m"})
			Expect(err).NotTo(HaveOccurred())
		}
		w.settle()
		ss, err := w.reads.Sessions(ctx, b.MemberID)
		Expect(err).NotTo(HaveOccurred())
		Expect(ss).To(HaveLen(1))
		Expect(ss[0].UnreadCount).To(Equal(3))
		mine, _ := w.reads.Sessions(ctx, a.MemberID)
		Expect(mine[0].UnreadCount).To(BeZero())

		_, err = w.app.AckRead(ctx, b, commands.AckRead{ChatType: "Friend", To: a.MemberID, MessageID: last.ID})
		Expect(err).NotTo(HaveOccurred())
		w.settle()
		ss, _ = w.reads.Sessions(ctx, b.MemberID)
		Expect(ss[0].UnreadCount).To(BeZero())
		page, _ := w.reads.HistoryPage(ctx, viewer(b), friend.PairID(a.MemberID, b.MemberID), nil, projections.Up, 20)
		for _, m := range page {
			Expect(m.Status).To(Equal(projections.StatusRead))
		}
	})

	It("sees on one node the friendship another node made, through the followed log", func() {
		other := w.node()
		send := func(uuid string) error {
			_, err := other.SendMessage(ctx, a, commands.SendMessage{UUID: uuid, ChatType: "Friend", To: b.MemberID, Content: "hi"})
			return err
		}
		// The second node learns, and caches, that they are strangers.
		expectFault(send("n1"), fault.Forbidden, fault.MsgNotFriend)
		expectFault(send("n2"), fault.Forbidden, fault.MsgNotFriend)
		w.befriend(a, b) // on the first node
		Eventually(func() error { return send("n3") }).WithTimeout(2 * time.Second).Should(Succeed())
	})

	It("refuses read acknowledgements outside a friendship", func() {
		c := w.member("carl0001")
		_, err := w.app.AckRead(ctx, c, commands.AckRead{ChatType: "Friend", To: a.MemberID, MessageID: "1"})
		expectFault(err, fault.Forbidden, "")
	})
})
