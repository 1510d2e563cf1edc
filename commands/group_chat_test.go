package commands_test

import (
	"context"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/group"
)

var _ = Describe("Group chats", func() {
	var (
		w          *world
		o, ad, n   commands.Principal
		stranger   commands.Principal
		groupID    string
		ctx        = context.Background()
		uuids      int
		sendAs     func(p commands.Principal, content string) (commands.SendResult, error)
		mustSendAs func(p commands.Principal, content string) commands.SendResult
	)
	BeforeEach(func() {
		w = newWorld()
		o, ad, n, stranger = w.member("owner001"), w.member("admin001"), w.member("norm0001"), w.member("strange1")
		w.befriend(o, ad)
		w.befriend(o, n)
		w.befriend(o, stranger)
		created, err := w.app.CreateGroup(ctx, o, commands.CreateGroup{Name: "Team", MemberIDs: []string{ad.MemberID, n.MemberID}})
		Expect(err).NotTo(HaveOccurred())
		groupID = created.GroupID
		_, err = w.app.SetGroupRole(ctx, o, commands.GroupChange{GroupID: groupID, MemberID: ad.MemberID, Role: "Admin"})
		Expect(err).NotTo(HaveOccurred())
		sendAs = func(p commands.Principal, content string) (commands.SendResult, error) {
			uuids++
			return w.app.SendMessage(ctx, p, commands.SendMessage{UUID: fmt.Sprintf("g-%d", uuids), ChatType: "Group", GroupID: groupID, Content: content})
		}
		mustSendAs = func(p commands.Principal, content string) commands.SendResult {
			GinkgoHelper()
			res, err := sendAs(p, content)
			Expect(err).NotTo(HaveOccurred())
			return res
		}
	})
	expectCode := func(err error, code, key string) {
		GinkgoHelper()
		f, ok := fault.As(err)
		Expect(ok).To(BeTrue(), "%v", err)
		Expect([]string{f.Code, f.Key}).To(Equal([]string{code, key}))
	}

	It("lets members send, once per uuid, and refuses others", func() {
		first := mustSendAs(n, "hello")
		again, err := w.app.SendMessage(ctx, n, commands.SendMessage{UUID: fmt.Sprintf("g-%d", uuids), ChatType: "Group", GroupID: groupID, Content: "hello"})
		Expect(err).NotTo(HaveOccurred())
		Expect(again).To(Equal(first))

		head, _ := w.events.Head(ctx)
		_, err = sendAs(stranger, "let me in")
		expectFault(err, fault.NotFound, fault.MsgGroupNotFound)
		_, err = w.app.SendMessage(ctx, n, commands.SendMessage{UUID: "x", ChatType: "Group", Content: "no group"})
		expectFault(err, fault.Invalid, fault.MsgGroupIDMissing)
		_, err = w.app.SendMessage(ctx, n, commands.SendMessage{UUID: "x", ChatType: "Group", GroupID: "1234567890123456789", Content: "nowhere"})
		expectFault(err, fault.NotFound, fault.MsgGroupNotFound)
		Expect(w.events.Head(ctx)).To(Equal(head))

		_, err = w.app.LeaveGroup(ctx, n, commands.GroupChange{GroupID: groupID})
		Expect(err).NotTo(HaveOccurred())
		_, err = sendAs(n, "still here?")
		expectFault(err, fault.NotFound, fault.MsgGroupNotFound)
	})

	It("refuses normal members of a muted group with 30021 and a muted member with 30022 until the mute ends, never the owner or admins", func() {
		yes, no := true, false
		_, err := w.app.ModifyGroup(ctx, ad, commands.ModifyGroup{GroupID: groupID, MuteAll: &yes})
		Expect(err).NotTo(HaveOccurred())
		head, _ := w.events.Head(ctx)
		_, err = sendAs(n, "muted")
		expectCode(err, group.CodeGroupMuted, fault.MsgMuted)
		Expect(w.events.Head(ctx)).To(Equal(head))
		mustSendAs(ad, "admins speak")
		mustSendAs(o, "so does the owner")
		_, err = w.app.ModifyGroup(ctx, ad, commands.ModifyGroup{GroupID: groupID, MuteAll: &no})
		Expect(err).NotTo(HaveOccurred())

		_, err = w.app.MuteGroupMember(ctx, ad, commands.GroupChange{GroupID: groupID, MemberID: n.MemberID, Minutes: 10})
		Expect(err).NotTo(HaveOccurred())
		_, err = sendAs(n, "muted too")
		expectCode(err, group.CodeMemberMuted, fault.MsgMuted)
		w.advance(10 * time.Minute)
		mustSendAs(n, "free again")
	})

	DescribeTable("limits each member to the group's send rate per minute",
		func(rate string, limit int) {
			_, err := w.app.ModifyGroup(ctx, o, commands.ModifyGroup{GroupID: groupID, SendRate: &rate})
			Expect(err).NotTo(HaveOccurred())
			for range limit {
				mustSendAs(n, "x")
			}
			_, err = sendAs(n, "one too many")
			expectFault(err, fault.RateLimited, fault.MsgSendTooFast)
			mustSendAs(ad, "another member has its own count")
			w.advance(time.Minute)
			mustSendAs(n, "a minute later")
		},
		Entry("5 per minute", "FivePerMinute", 5),
		Entry("10 per minute", "TenPerMinute", 10),
		Entry("the backend's 60 per minute", "Backend", group.BackendPerMinute),
	)

	It("counts sends and forwards racing from several devices against the group's rate, and a retried uuid as its first send", func() {
		rate := "FivePerMinute"
		_, err := w.app.ModifyGroup(ctx, o, commands.ModifyGroup{GroupID: groupID, SendRate: &rate})
		Expect(err).NotTo(HaveOccurred())
		first := mustSendAs(n, "x")
		for range 2 {
			mustSendAs(n, "x")
		}
		w.settle()
		// Even intents send, odd ones forward the first message: each counts once.
		intent := func(i int) (string, error) {
			uuid := fmt.Sprintf("race-%d", i)
			if i%2 == 0 {
				sent, err := w.app.SendMessage(ctx, n, commands.SendMessage{UUID: uuid, ChatType: "Group", GroupID: groupID, Content: "now"})
				return sent.ID, err
			}
			fwd, err := w.app.ForwardMessages(ctx, n, commands.ForwardMessages{UUID: uuid, MessageIDs: []string{first.ID},
				Targets: []commands.ForwardTarget{{ChatType: "Group", To: groupID}}})
			if err != nil {
				return "", err
			}
			return fwd.Messages[0].ID, nil
		}
		const racing = 8
		ids := make([]string, racing)
		errs := atOnce(racing, func(i int) (err error) {
			ids[i], err = intent(i)
			return err
		})
		var won, lost []int
		for i, err := range errs {
			if err != nil {
				expectFault(err, fault.RateLimited, fault.MsgSendTooFast)
				lost = append(lost, i)
				continue
			}
			won = append(won, i)
		}
		Expect(won).To(HaveLen(2))
		for _, i := range won {
			again, err := intent(i)
			Expect(err).NotTo(HaveOccurred(), "a retried intent is answered, not counted again")
			Expect(again).To(Equal(ids[i]))
		}
		_, err = intent(lost[0])
		expectFault(err, fault.RateLimited, fault.MsgSendTooFast)
		_, err = sendAs(n, "one too many")
		expectFault(err, fault.RateLimited, fault.MsgSendTooFast)
	})

	It("answers a send or forward retried after its minute, or once its sender is muted, with its first, and refuses new ones", func() {
		rate := "FivePerMinute"
		_, err := w.app.ModifyGroup(ctx, o, commands.ModifyGroup{GroupID: groupID, SendRate: &rate})
		Expect(err).NotTo(HaveOccurred())
		first := mustSendAs(n, "first")
		resend := commands.SendMessage{UUID: fmt.Sprintf("g-%d", uuids), ChatType: "Group", GroupID: groupID, Content: "first"}
		w.settle()
		forward := commands.ForwardMessages{UUID: "fwd-1", MessageIDs: []string{first.ID},
			Targets: []commands.ForwardTarget{{ChatType: "Group", To: groupID}}}
		forwarded, err := w.app.ForwardMessages(ctx, n, forward)
		Expect(err).NotTo(HaveOccurred())

		w.advance(90 * time.Second)
		for range 5 {
			mustSendAs(n, "x")
		}
		head, _ := w.events.Head(ctx)
		agains := make([]commands.SendResult, 4)
		for _, err := range atOnce(len(agains), func(i int) (err error) {
			agains[i], err = w.app.SendMessage(ctx, n, resend)
			return err
		}) {
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(agains).To(HaveEach(first), "retried four times at once")
		forwardedAgain, err := w.app.ForwardMessages(ctx, n, forward)
		Expect(err).NotTo(HaveOccurred())
		Expect(forwardedAgain).To(Equal(forwarded))
		_, err = sendAs(n, "one too many")
		expectFault(err, fault.RateLimited, fault.MsgSendTooFast)
		_, err = w.app.ForwardMessages(ctx, n, commands.ForwardMessages{UUID: "fwd-2", MessageIDs: []string{first.ID},
			Targets: []commands.ForwardTarget{{ChatType: "Group", To: groupID}}})
		expectFault(err, fault.RateLimited, fault.MsgSendTooFast)
		Expect(w.events.Head(ctx)).To(Equal(head))

		w.advance(2 * time.Minute)
		_, err = w.app.MuteGroupMember(ctx, ad, commands.GroupChange{GroupID: groupID, MemberID: n.MemberID, Minutes: 10})
		Expect(err).NotTo(HaveOccurred())
		head, _ = w.events.Head(ctx)
		again, err := w.app.SendMessage(ctx, n, resend)
		Expect(err).NotTo(HaveOccurred())
		Expect(again).To(Equal(first))
		_, err = sendAs(n, "muted")
		expectCode(err, group.CodeMemberMuted, fault.MsgMuted)
		Expect(w.events.Head(ctx)).To(Equal(head))

		_, err = w.app.SendMessage(ctx, stranger, resend)
		expectFault(err, fault.NotFound, fault.MsgGroupNotFound)
	})

	It("lets members edit, recall, reply to, forward and delete group messages as the rules say", func() {
		m := mustSendAs(n, "draft")
		w.settle()
		edited, err := w.app.EditMessage(ctx, n, commands.EditMessage{ID: m.ID, Content: "final"})
		Expect(err).NotTo(HaveOccurred())
		Expect(edited.Content).To(Equal("final"))
		_, err = w.app.EditMessage(ctx, ad, commands.EditMessage{ID: m.ID, Content: "mine now"})
		expectFault(err, fault.Forbidden, fault.MsgNotYourMessage)
		_, err = w.app.EditMessage(ctx, stranger, commands.EditMessage{ID: m.ID, Content: "x"})
		expectFault(err, fault.NotFound, fault.MsgMessageNotFound) // as for an id that does not exist

		reply, err := w.app.SendMessage(ctx, ad, commands.SendMessage{UUID: "r1", ChatType: "Group", GroupID: groupID, MsgType: "Reply", Content: "ok", ParentMessageID: m.ID})
		Expect(err).NotTo(HaveOccurred())
		fwd, err := w.app.ForwardMessages(ctx, o, commands.ForwardMessages{UUID: "f1", MessageIDs: []string{m.ID},
			Targets: []commands.ForwardTarget{{ChatType: "Friend", To: stranger.MemberID}, {ChatType: "Group", To: groupID}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(fwd.Messages).To(HaveLen(2))
		_, err = w.app.ForwardMessages(ctx, stranger, commands.ForwardMessages{UUID: "f2", MessageIDs: []string{fwd.Messages[0].ID},
			Targets: []commands.ForwardTarget{{ChatType: "Group", To: groupID}}})
		expectFault(err, fault.NotFound, fault.MsgGroupNotFound)
		w.settle()

		_, err = w.app.DeleteRemoteGroupMessages(ctx, n, commands.DeleteGroupMessages{GroupID: groupID, MessageIDs: []string{reply.ID}})
		expectFault(err, fault.Forbidden, fault.MsgRemoteDeleteDenied)
		_, err = w.app.DeleteMessages(ctx, n, commands.DeleteMessages{MessageIDs: []string{reply.ID}, Everyone: true, GroupID: groupID})
		expectFault(err, fault.Forbidden, fault.MsgNotYourMessage)
		deleted, err := w.app.DeleteRemoteGroupMessages(ctx, ad, commands.DeleteGroupMessages{GroupID: groupID, MessageIDs: []string{m.ID}})
		Expect(err).NotTo(HaveOccurred())
		Expect(deleted.MessageIDs).To(Equal([]string{m.ID}))

		recalled, err := w.app.RecallMessage(ctx, ad, commands.RecallMessage{ID: reply.ID})
		Expect(err).NotTo(HaveOccurred())
		Expect(recalled.RecallTime).NotTo(BeZero())

		hidden, err := w.app.DeleteMessages(ctx, n, commands.DeleteMessages{MessageIDs: []string{fwd.Messages[1].ID}})
		Expect(err).NotTo(HaveOccurred())
		Expect(hidden.MessageIDs).To(Equal([]string{fwd.Messages[1].ID}))
	})

	It("acknowledges reads, clears history and pins messages for members only", func() {
		m := mustSendAs(n, "pin me")
		w.settle()
		_, err := w.app.AckRead(ctx, o, commands.AckRead{ChatType: "Group", GroupID: groupID, MessageID: m.ID})
		Expect(err).NotTo(HaveOccurred())
		_, err = w.app.AckRead(ctx, stranger, commands.AckRead{ChatType: "Group", To: groupID, MessageID: m.ID})
		expectFault(err, fault.NotFound, fault.MsgGroupNotFound)

		_, err = w.app.PinGroupMessage(ctx, n, commands.GroupMessage{GroupID: groupID, MessageID: m.ID})
		expectFault(err, fault.Forbidden, fault.MsgForbidden)
		_, err = w.app.PinGroupMessage(ctx, ad, commands.GroupMessage{GroupID: groupID, MessageID: "1234567890123456789"})
		expectFault(err, fault.NotFound, fault.MsgMessageNotFound)
		pinned, err := w.app.PinGroupMessage(ctx, ad, commands.GroupMessage{GroupID: groupID, MessageID: m.ID})
		Expect(err).NotTo(HaveOccurred())
		Expect(pinned.Position).NotTo(BeZero())
		_, err = w.app.UnpinGroupMessage(ctx, o, commands.GroupMessage{GroupID: groupID, MessageID: m.ID})
		Expect(err).NotTo(HaveOccurred())
		_, err = w.app.UnpinGroupMessage(ctx, o, commands.GroupMessage{GroupID: groupID, MessageID: m.ID})
		expectFault(err, fault.NotFound, fault.MsgMessageNotPinned)

		cleared, err := w.app.ClearHistory(ctx, n, commands.ClearHistory{ChatType: "Group", GroupID: groupID})
		Expect(err).NotTo(HaveOccurred())
		Expect(cleared.Position).NotTo(BeZero())
		_, err = w.app.ClearHistory(ctx, stranger, commands.ClearHistory{ChatType: "Group", GroupID: groupID})
		expectFault(err, fault.NotFound, fault.MsgGroupNotFound)
	})
})
