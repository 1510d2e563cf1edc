package main

import (
	"encoding/json"
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

type noticeItem struct {
	ID        string `json:"id"`
	Command   string `json:"command"`
	Tab       string `json:"tab"`
	Content   string `json:"content"`
	Message   string `json:"message"`
	ReadFlag  string `json:"readFlag"`
	ContentID string `json:"contentId"`
	FromID    string `json:"fromId"`
	FromName  string `json:"fromName"`
	GroupID   string `json:"groupId"`
	GroupName string `json:"groupName"`
	CreatedAt int64  `json:"createTime"`
}

type noticeCounts struct {
	Total    int    `json:"total"`
	Friend   int    `json:"friend"`
	System   int    `json:"system"`
	Group    int    `json:"group"`
	Position uint64 `json:"position"`
}

type noticePage struct {
	Records []noticeItem `json:"records"`
	Total   int          `json:"total"`
	Counts  noticeCounts `json:"counts"`
}

var _ = Describe("System notices", func() {
	const (
		list    = "/v1/message/messagePush/history/systemNotify/list"
		count   = "/v1/message/messagePush/history/systemNotify/count"
		read    = "/v1/message/messagePush/history/systemNotify/read"
		readAll = "/v1/message/messagePush/history/systemNotify/readAll"
		remove  = "/v1/message/deleteSystemMessageBatch"
	)
	var s *testServer
	var alice, bob, carol member
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob, carol = s.register("alice001"), s.register("bob00001"), s.register("carol001")
	})
	notices := func(m member, query string, after uint64, lang ...string) noticePage {
		GinkgoHelper()
		path := fmt.Sprintf("%s?after=%d%s", list, after, query)
		headers := []string{}
		if len(lang) > 0 {
			headers = append(headers, "Accept-Language", lang[0])
		}
		code, env := s.call("GET", path, m.Token, nil, headers...)
		Expect(code).To(Equal(http.StatusOK), env.Info)
		var p noticePage
		Expect(json.Unmarshal(env.Data, &p)).To(Succeed())
		return p
	}

	It("tells of a friend request, its answer, a group invitation and an ownership transfer, in the tabs, with names and texts", func() {
		var applied struct {
			ID       string
			Position uint64
		}
		s.ok("POST", "/v1/chat/applyInfo/build", alice.Token, map[string]string{"friendMemberId": bob.ID, "content": "hello bob"}, &applied)
		p := notices(bob, "", applied.Position)
		Expect(p.Records).To(HaveLen(1))
		n := p.Records[0]
		Expect(n.ID).To(MatchRegexp(`^[0-9]{19}$`))
		Expect(n.Command).To(Equal("FriendRequest"))
		Expect(n.Tab).To(Equal("friends"))
		Expect(n.Content).To(Equal("alice001 sent you a friend request"))
		Expect(n.Message).To(Equal("hello bob"))
		Expect(n.ReadFlag).To(Equal("Unread"))
		Expect(n.ContentID).To(Equal(applied.ID))
		Expect(n.FromID).To(Equal(alice.ID))
		Expect(p.Counts).To(Equal(noticeCounts{Total: 1, Friend: 1}))
		Expect(notices(bob, "", applied.Position, "zh-CN").Records[0].Content).To(Equal("alice001 请求添加您为好友"))

		at := s.written("PUT", "/v1/chat/applyInfo/modify", bob, map[string]string{"id": applied.ID, "status": "accepted"})
		Expect(notices(alice, "", at).Records[0].Content).To(Equal("bob00001 accepted your friend request"))
		s.befriend(alice, carol)

		var created struct {
			GroupID  string `json:"groupId"`
			Position uint64 `json:"position"`
		}
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "memberIds": []string{bob.ID}}, &created)
		s.written("POST", "/v1/chat/applyInfo/batchMemberToGroup", alice, map[string]any{"groupId": created.GroupID, "memberIds": []string{carol.ID}})
		at = s.written("PUT", "/v1/chat/groupInfo/transfer", alice, map[string]string{"groupId": created.GroupID, "memberId": bob.ID})
		p = notices(bob, "", at)
		Expect(p.Total).To(Equal(3))
		Expect(p.Records[0].Content).To(Equal("alice001 made you the owner of the group Team"))
		Expect(p.Records[0].GroupName).To(Equal("Team"))
		Expect(p.Records[1].Content).To(Equal("alice001 invited you to the group Team"))
		Expect(p.Records[1].GroupID).To(Equal(created.GroupID))
		Expect(p.Counts).To(Equal(noticeCounts{Total: 3, Friend: 1, Group: 2}))
		Expect(notices(bob, "&tab=groups", at).Records).To(HaveLen(2))
		Expect(notices(bob, "&tab=friends", at).Records).To(HaveLen(1))
		Expect(notices(bob, "&tab=system", at).Records).To(BeEmpty())
		Expect(notices(bob, "&tab=all&pageSize=2&curPage=2", at).Records).To(HaveLen(1))
		Expect(notices(carol, "&tab=groups", at).Records[0].Content).To(Equal("alice001 invited you to the group Team"))
	})

	It("reads one, reads all and deletes, pushing the counts (44) to the member's connections", func() {
		s.befriend(alice, bob)
		at := s.befriend(carol, bob)
		c := s.dial(bob)
		var pushed noticeCounts
		p := notices(bob, "", at)
		Expect(p.Counts).To(Equal(noticeCounts{Total: 2, Friend: 2}))
		at = s.written("PUT", read, bob, map[string]string{"id": p.Records[1].ID})
		Expect(json.Unmarshal(next(c, 44).Data, &pushed)).To(Succeed())
		Expect(pushed).To(Equal(noticeCounts{Total: 1, Friend: 1, Position: at}))
		p = notices(bob, "", at)
		Expect(p.Records[1].ReadFlag).To(Equal("Read"))
		Expect(p.Records[0].ReadFlag).To(Equal("Unread"))
		Expect(s.written("PUT", read, bob, map[string]string{"id": p.Records[1].ID})).To(BeZero())

		at = s.written("PUT", readAll, bob, nil)
		Expect(json.Unmarshal(next(c, 44).Data, &pushed)).To(Succeed())
		Expect(pushed).To(Equal(noticeCounts{Position: at}))
		var got noticeCounts
		s.ok("GET", fmt.Sprintf("%s?after=%d", count, at), bob.Token, nil, &got)
		Expect(got).To(Equal(noticeCounts{}))
		Expect(s.written("PUT", readAll, bob, nil)).To(BeZero())

		at = s.written("POST", remove, bob, map[string]any{"ids": []string{p.Records[0].ID}})
		next(c, 44)
		p = notices(bob, "", at)
		Expect(p.Total).To(Equal(1))
	})

	It("refuses bad input in the envelope and changes nothing", func() {
		at := s.befriend(alice, bob)
		p := notices(bob, "", at)
		theirs := notices(alice, "", at).Records[0].ID
		s.refused("GET", list+"?tab=nope", bob, nil, 400, "tab must be all, friends, system or groups")
		s.refused("GET", list+"?pageSize=0", bob, nil, 400, "invalid request")
		s.refused("GET", list+"?pageSize=101", bob, nil, 400, "invalid request")
		s.refused("PUT", read, bob, map[string]string{"id": ""}, 400, "a notice id is digits")
		s.refused("PUT", read, bob, map[string]string{"id": theirs}, 404, "The notice is not found")
		s.refused("PUT", read, bob, "{", 400, "invalid request")
		s.refused("POST", remove, bob, map[string]any{"ids": []string{}}, 400, "Please select the notices first")
		s.refused("POST", remove, bob, map[string]any{"ids": []string{p.Records[0].ID, theirs}}, 404, "The notice is not found")
		s.refused("POST", remove, bob, map[string]any{"ids": "1"}, 400, "invalid request")
		code, env := s.call("POST", remove, bob.Token, map[string]any{"ids": []string{theirs}}, "Accept-Language", "vi")
		Expect(code).To(Equal(404))
		Expect(env.Info).To(Equal("Không tìm thấy thông báo"))
		Expect(notices(bob, "", 0)).To(Equal(p))
		Expect(notices(alice, "", 0).Records).To(HaveLen(1))
	})
})
