package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/httpapi"
)

var _ = Describe("Who has read a group message", func() {
	var (
		dir                           string
		s                             *testServer
		alice, bob, carol, dave, erin member
		groupID                       string
		hello                         sendResult
	)
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		s = startServer(dir)
		alice, bob, carol = s.register("alice001"), s.register("bob00001"), s.register("carol001")
		dave, erin = s.register("dave0001"), s.register("erin0001")
		for _, m := range []member{bob, carol, dave, erin} {
			s.befriend(alice, m)
		}
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "memberIds": []string{bob.ID, carol.ID, erin.ID}}, &created)
		groupID = created.GroupID
		hello = sendToGroup(s, alice, groupID, "r-1", "hello team")
		// Calls without ?after= read the read models as they stand: they
		// hold the group and its message from here on.
		s.ok("GET", fmt.Sprintf("/v1/chat/groupInfo/listPinnedMessage?groupId=%s&after=%d", groupID, s.head()), alice.Token, nil, nil)
	})

	readers := func(m member, messageID string) httpapi.MessageReaders {
		GinkgoHelper()
		var r httpapi.MessageReaders
		s.ok("GET", fmt.Sprintf("/v1/chat/groupInfo/readers?groupId=%s&messageId=%s&after=%d", groupID, messageID, s.head()), m.Token, nil, &r)
		return r
	}
	names := func(items []httpapi.ReaderItem) []string {
		out := make([]string, len(items))
		for i, it := range items {
			out[i] = it.Name
		}
		return out
	}
	// readUpTo acknowledges a message with socket 27; the readers' reads
	// wait for the log's head, past the acknowledgement.
	readUpTo := func(m member, messageID string) {
		GinkgoHelper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		reply, err := s.dial(m).Request(ctx, 27, map[string]string{"chatType": "Group", "groupId": groupID, "messageId": messageID})
		Expect(err).NotTo(HaveOccurred())
		Expect(reply.OK()).To(BeTrue(), reply.Info)
	}

	It("tells the sender who of the members have read its message, by acknowledgement, markRead or a message of their own, never going back", func() {
		r := readers(alice, hello.ID)
		Expect(r.GroupID).To(Equal(groupID))
		Expect(r.MessageID).To(Equal(hello.ID))
		Expect(r.Read).To(BeEmpty())
		Expect(names(r.Unread)).To(Equal([]string{"bob00001", "carol001", "erin0001"}), "the sender is in neither list")
		Expect([]int{r.ReadCount, r.UnreadCount}).To(Equal([]int{0, 3}))

		readUpTo(bob, hello.ID)
		r = readers(alice, hello.ID)
		Expect(names(r.Read)).To(Equal([]string{"bob00001"}))
		Expect(r.Read[0].MemberID).To(Equal(bob.ID))
		Expect(names(r.Unread)).To(Equal([]string{"carol001", "erin0001"}))
		Expect([]int{r.ReadCount, r.UnreadCount}).To(Equal([]int{1, 2}))

		s.written("PUT", "/v1/message/sessionInfo/markRead", carol, map[string]string{"chatType": "Group", "groupId": groupID})
		later := sendToGroup(s, erin, groupID, "r-2", "me too")
		r = readers(alice, hello.ID)
		Expect(names(r.Read)).To(Equal([]string{"bob00001", "carol001", "erin0001"}))
		Expect(r.Unread).To(BeEmpty())

		By("an acknowledgement of an older message takes nothing back")
		readUpTo(bob, hello.ID)
		r = readers(erin, later.ID)
		Expect(r.Read).To(BeEmpty())
		Expect(names(r.Unread)).To(Equal([]string{"alice001", "bob00001", "carol001"}))
		readUpTo(bob, later.ID)
		readUpTo(bob, hello.ID)
		Expect(names(readers(erin, later.ID).Read)).To(Equal([]string{"bob00001"}))
	})

	It("pushes 28 to the sender's connections when a member reads its message, so that an open list reads again", func() {
		a := s.dial(alice)
		readUpTo(bob, hello.ID)
		var ack struct{ ChatType, From, To, MessageID string }
		Expect(json.Unmarshal(next(a, 28).Data, &ack)).To(Succeed())
		Expect(ack).To(Equal(struct{ ChatType, From, To, MessageID string }{"Group", bob.ID, groupID, hello.ID}))
	})

	It("counts current members only: a member gone is in neither list, one who joined after the message is not among those who have not read it", func() {
		readUpTo(bob, hello.ID)
		s.written("PUT", "/v1/chat/groupInfo/deleteGroupMember", alice, map[string]any{"groupId": groupID, "memberIds": []string{bob.ID}})
		s.written("POST", "/v1/chat/applyInfo/batchMemberToGroup", alice, map[string]any{"groupId": groupID, "memberIds": []string{dave.ID}})
		r := readers(alice, hello.ID)
		Expect(r.Read).To(BeEmpty())
		Expect(names(r.Unread)).To(Equal([]string{"carol001", "erin0001"}))

		after := sendToGroup(s, alice, groupID, "r-3", "welcome")
		Expect(names(readers(alice, after.ID).Unread)).To(Equal([]string{"carol001", "dave0001", "erin0001"}))
	})

	It("folds the log again at start over the read store of an older build, which kept no read positions", func() {
		readUpTo(bob, hello.ID)
		Expect(names(readers(alice, hello.ID).Read)).To(Equal([]string{"bob00001"}))
		Expect(s.stop()).To(Succeed())

		// The sessions table as schema 7 had it.
		db, err := sql.Open("sqlite", filepath.Join(dir, "read.db"))
		Expect(err).NotTo(HaveOccurred())
		for _, stmt := range []string{
			`ALTER TABLE sessions DROP COLUMN join_seq`,
			`ALTER TABLE sessions DROP COLUMN read_seq`,
			`PRAGMA user_version = 7`,
		} {
			_, err = db.Exec(stmt)
			Expect(err).NotTo(HaveOccurred(), stmt)
		}
		Expect(db.Close()).To(Succeed())

		s = startServer(dir)
		alice = s.login("alice001")
		r := readers(alice, hello.ID)
		Expect(names(r.Read)).To(Equal([]string{"bob00001"}))
		Expect(names(r.Unread)).To(Equal([]string{"carol001", "erin0001"}))
	})

	It("names an erased member as the erasure placeholder", func() {
		readUpTo(erin, hello.ID)
		s.written("PUT", "/v1/admin/member/erase", s.operator(), map[string]string{"tenant": "x0001", "account": "erin0001"})
		r := readers(alice, hello.ID)
		Expect(names(r.Read)).To(Equal([]string{"[erased]"}))
		Expect(r.Read[0].HeadURL).To(BeEmpty())
	})

	It("refuses other members (403), and answers every outsider exactly as an unknown id", func() {
		s.refused("GET", "/v1/chat/groupInfo/readers?groupId="+groupID+"&messageId="+hello.ID, bob, nil, http.StatusForbidden,
			"only the sender of a message sees who has read it")
		By("an event line has no sender")
		var page []struct{ ID, MsgType string }
		s.ok("GET", fmt.Sprintf("/v1/message/messagePush/history/list/page?groupId=%s&after=%d", groupID, hello.Position), alice.Token, nil, &page)
		Expect(page[0].MsgType).To(Equal("Event"))
		s.refused("GET", "/v1/chat/groupInfo/readers?groupId="+groupID+"&messageId="+page[0].ID, alice, nil, http.StatusForbidden,
			"only the sender of a message sees who has read it")

		friendly := s.send(alice, bob, "f-1", "just us")
		s.ok("POST", "/v1/admin/tenant/create", s.operator().Token, map[string]string{"code": "x0002", "name": "B"}, nil)
		other := s.registerIn("x0002", "mallory1")
		removed := carol
		removedAt := s.written("PUT", "/v1/chat/groupInfo/deleteGroupMember", alice, map[string]any{"groupId": groupID, "memberIds": []string{carol.ID}})
		unknown := func(m member) (int, string) {
			code, env := s.call("GET", "/v1/chat/groupInfo/readers?groupId=1234567890123456789&messageId="+hello.ID, m.Token, nil)
			return code, env.Info
		}
		for _, who := range []member{other, dave, removed} {
			wantCode, wantInfo := unknown(who)
			Expect([]any{wantCode, wantInfo}).To(Equal([]any{http.StatusNotFound, "group not found"}))
			// Read once the read models know carol left (API.md: after=).
			code, env := s.call("GET", fmt.Sprintf("/v1/chat/groupInfo/readers?groupId=%s&messageId=%s&after=%d", groupID, hello.ID, removedAt), who.Token, nil)
			Expect([]any{code, env.Info, string(env.Data)}).To(Equal([]any{wantCode, wantInfo, "null"}), who.Account)
		}
		s.refused("GET", "/v1/chat/groupInfo/readers?groupId="+groupID+"&messageId="+friendly.ID, alice, nil, http.StatusNotFound, "message not found")
		s.refused("GET", "/v1/chat/groupInfo/readers?groupId="+groupID+"&messageId=1234567890123456789", alice, nil, http.StatusNotFound, "message not found")
	})

	DescribeTable("refuses hostile query values with a 400 in the envelope",
		func(query func() string, info string) {
			s.refused("GET", "/v1/chat/groupInfo/readers?"+query(), alice, nil, http.StatusBadRequest, info)
		},
		Entry("no message", func() string { return "groupId=" + groupID }, "messageId is required"),
		Entry("no group", func() string { return "messageId=" + hello.ID }, "a group chat needs its groupId"),
		Entry("a group id of 65 characters", func() string { return "groupId=" + strings.Repeat("9", 65) + "&messageId=" + hello.ID },
			"groupId and messageId are ids of at most 64 characters"),
		Entry("a message id of 10,000 characters", func() string { return "groupId=" + groupID + "&messageId=" + strings.Repeat("1,", 5000) },
			"groupId and messageId are ids of at most 64 characters"),
	)

	It("answers lookalike values as unknown ids, and twice at once without a server error", func() {
		for _, v := range []string{`{"$ne":null}`, "' OR '1'='1", "%", "*", "\x00", hello.ID + "\x00", "１２３"} {
			code, env := s.call("GET", "/v1/chat/groupInfo/readers?groupId="+groupID+"&messageId="+url.QueryEscape(v), alice.Token, nil)
			Expect([]any{code, env.Info}).To(Equal([]any{http.StatusNotFound, "message not found"}), "%q", v)
		}
		var wg sync.WaitGroup
		codes := make([]int, 8)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				codes[i], _ = s.call("GET", "/v1/chat/groupInfo/readers?groupId="+groupID+"&messageId="+hello.ID, alice.Token, nil)
			}()
		}
		wg.Wait()
		Expect(codes).To(HaveEach(http.StatusOK))
	})
})

// sendToGroup sends a text message into a group.
func sendToGroup(s *testServer, m member, groupID, uuid, content string) sendResult {
	GinkgoHelper()
	var r sendResult
	s.ok("POST", "/v1/message/send", m.Token, map[string]string{"uuid": uuid, "chatType": "Group", "groupId": groupID, "msgType": "Text", "content": content}, &r)
	return r
}
