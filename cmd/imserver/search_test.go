package main

import (
	"fmt"
	"net/http"
	"net/url"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Searching messages", func() {
	var (
		s                         *testServer
		alice, bob, carol, nobody member
		outsider                  member
		groupID                   string
	)
	type hit struct {
		Message      struct{ ID, Content string }
		Conversation struct{ Type, ID, Name string }
	}
	search := func(m member, after uint64, query string) []hit {
		GinkgoHelper()
		var out []hit
		s.ok("GET", fmt.Sprintf("/v1/message/search?after=%d&%s", after, query), m.Token, nil, &out)
		return out
	}
	q := func(text string) string { return "q=" + url.QueryEscape(text) }
	contents := func(hs []hit) []string {
		out := []string{}
		for _, h := range hs {
			out = append(out, h.Message.Content)
		}
		return out
	}

	BeforeEach(func() {
		dir := GinkgoT().TempDir()
		secondTenant(dir)
		s = startServer(dir)
		alice, bob, carol, nobody = s.register("alice001"), s.register("bob00001"), s.register("carol001"), s.register("nobody01")
		outsider = s.registerIn("x0002", "outside1")
		s.befriend(alice, bob)
		s.befriend(alice, carol)
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Lunch", "memberIds": []string{bob.ID}}, &created)
		groupID = created.GroupID
	})

	It("finds what a member typed, with or without diacritics, with its conversation, as soon as it is written", func() {
		sent := s.send(alice, bob, "s-1", "Tối nay ăn cơm ở đâu?")
		got := search(bob, sent.Position, q("an com"))
		Expect(got).To(HaveLen(1))
		Expect(got[0].Message.ID).To(Equal(sent.ID))
		Expect(got[0].Conversation.Type).To(Equal("Friend"))
		Expect(got[0].Conversation.ID).To(Equal(alice.ID))
		Expect(contents(search(alice, sent.Position, q("ĂN CƠM")))).To(Equal([]string{"Tối nay ăn cơm ở đâu?"}))
		Expect(contents(search(alice, sent.Position, q("o dau")))).To(Equal([]string{"Tối nay ăn cơm ở đâu?"}))
	})

	It("finds Chinese by two characters and by more, in the member's groups from when it joined, and not what was recalled", func() {
		var early, late sendResult
		s.ok("POST", "/v1/message/send", alice.Token, map[string]string{"uuid": "s-2", "chatType": "Group", "groupId": groupID,
			"msgType": "Text", "content": "我们今天去吃饭吧"}, &early)
		joined := s.written("POST", "/v1/chat/applyInfo/batchMemberToGroup", alice, map[string]any{"groupId": groupID, "memberIds": []string{carol.ID}})
		s.ok("POST", "/v1/message/send", bob.Token, map[string]string{"uuid": "s-3", "chatType": "Group", "groupId": groupID,
			"msgType": "Text", "content": "吃饭了吗"}, &late)
		after := max(joined, late.Position)

		got := search(bob, after, q("吃饭"))
		Expect(contents(got)).To(Equal([]string{"吃饭了吗", "我们今天去吃饭吧"}))
		Expect(got[0].Conversation.Type).To(Equal("Group"))
		Expect(got[0].Conversation.ID).To(Equal(groupID))
		Expect(got[0].Conversation.Name).To(Equal("Lunch"))
		Expect(contents(search(bob, after, q("今天去")))).To(Equal([]string{"我们今天去吃饭吧"}))
		Expect(contents(search(carol, after, q("吃饭")))).To(Equal([]string{"吃饭了吗"}), "carol joined after the first")
		Expect(contents(search(bob, after, "chatType=Group&to="+groupID+"&"+q("吃饭")+"&pageSize=1"))).To(Equal([]string{"吃饭了吗"}))
		Expect(contents(search(bob, after, "chatType=Group&to="+groupID+"&"+q("吃饭")+"&messageId="+late.ID))).To(Equal([]string{"我们今天去吃饭吧"}))
		Expect(contents(search(bob, after, "chatType=Friend&to="+alice.ID+"&"+q("吃饭")))).To(BeEmpty())

		recalled := s.written("PUT", "/v1/message/recall", alice, map[string]string{"id": early.ID})
		Expect(contents(search(bob, recalled, q("吃饭")))).To(Equal([]string{"吃饭了吗"}))
	})

	It("gives another tenant's member, a stranger and a non-member nothing, and a cursor of theirs as an unknown one", func() {
		sent := s.send(alice, bob, "s-4", "the secret plan")
		var inGroup sendResult
		s.ok("POST", "/v1/message/send", alice.Token, map[string]string{"uuid": "s-5", "chatType": "Group", "groupId": groupID,
			"msgType": "Text", "content": "the secret lunch"}, &inGroup)
		after := max(sent.Position, inGroup.Position)
		for _, m := range []member{outsider, nobody, carol} {
			Expect(search(m, after, q("secret"))).To(BeEmpty(), m.Account)
			Expect(search(m, after, q("se"))).To(BeEmpty(), m.Account)
			theirs, env := s.call("GET", fmt.Sprintf("/v1/message/search?after=%d&%s&messageId=%s", after, q("secret"), sent.ID), m.Token, nil)
			unknown, envUnknown := s.call("GET", fmt.Sprintf("/v1/message/search?after=%d&%s&messageId=1234567890123456789", after, q("secret")), m.Token, nil)
			Expect([]any{theirs, env}).To(Equal([]any{unknown, envUnknown}))
			Expect(theirs).To(Equal(http.StatusNotFound))
			status, _ := s.call("GET", fmt.Sprintf("/v1/message/search?after=%d&chatType=Group&to=%s&%s", after, groupID, q("secret")), m.Token, nil)
			Expect(status).To(Equal(http.StatusNotFound), m.Account)
		}
	})

	It("refuses an empty or overlong text and a conversation half named, clearly", func() {
		for query, info := range map[string]string{
			q("  "):                                     "type something to search for",
			q(string(make([]rune, 101))):                "search text too long, at most 100 characters",
			q("abc") + "&to=" + bob.ID:                  "give to and chatType together, or neither",
			q("abc") + "&chatType=Channel&to=" + bob.ID: "chatType must be Friend or Group",
			q("abc") + "&pageSize=0":                    "",
		} {
			status, env := s.call("GET", "/v1/message/search?"+query, alice.Token, nil)
			Expect(status).To(Equal(http.StatusBadRequest), query)
			if info != "" {
				Expect(env.Info).To(Equal(info), query)
			}
		}
	})
})
