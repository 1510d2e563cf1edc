package main

import (
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Groups unknown to whoever is not in them", func() {
	const (
		unknownGroup   = "1234567890123456789"
		unknownMessage = "1234567890123456788"
		unknownRequest = "1234567890123456787"
	)
	var s *testServer
	var alice, bob, carol, rita, dave, zed member
	var groupID, messageID, requestID string
	BeforeEach(func() {
		dir := GinkgoT().TempDir()
		createTenant(dir, "x0002")
		s = startServer(dir)
		alice, bob, carol, rita, dave = s.register("alice001"), s.register("bob00001"), s.register("carol001"), s.register("rita0001"), s.register("dave0001")
		zed = s.registerIn("x0002", "zed00001")
		s.befriend(alice, bob)
		s.befriend(alice, rita)
		s.befriend(bob, dave)
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "memberIds": []string{bob.ID, rita.ID}}, &created)
		groupID = created.GroupID
		var sent sendResult
		s.ok("POST", "/v1/message/send", bob.Token, map[string]string{"uuid": "g-1", "chatType": "Group", "groupId": groupID, "content": "hello"}, &sent)
		messageID = sent.ID
		s.written("POST", "/v1/chat/applyInfo/batchMemberToGroup", bob, map[string]any{"groupId": groupID, "memberIds": []string{dave.ID}})
		pos := s.written("PUT", "/v1/chat/groupInfo/deleteGroupMember", alice, map[string]any{"groupId": groupID, "memberIds": []string{rita.ID}})
		var requests struct{ Records []struct{ ID string } }
		s.ok("GET", fmt.Sprintf("/v1/chat/applyInfo/listGroupApplyInfo?after=%d", pos), alice.Token, nil, &requests)
		Expect(requests.Records).To(HaveLen(1))
		requestID = requests.Records[0].ID
	})

	// ids names a group, a message of it and a join request to it.
	type ids struct{ group, message, request string }
	type call struct {
		method, path string
		body         func(ids) any
	}
	conversation := func(i ids) any { return map[string]string{"chatType": "Group", "groupId": i.group} }
	calls := func() []call {
		return []call{
			{"DELETE", "/v1/chat/groupInfo/delete?groupId=%[1]s", nil},
			{"DELETE", "/v1/chat/groupInfo/deleteRemoteGroupMessage?groupId=%[1]s&messageIds=%[2]s", nil},
			{"POST", "/v1/chat/groupInfo/pinMessage", func(i ids) any { return map[string]string{"groupId": i.group, "messageId": i.message} }},
			{"DELETE", "/v1/chat/groupInfo/unpinMessage", func(i ids) any { return map[string]string{"groupId": i.group, "messageId": i.message} }},
			{"PUT", "/v1/chat/groupInfo/deleteGroupMember", func(i ids) any { return map[string]any{"groupId": i.group, "memberIds": []string{bob.ID}} }},
			{"PUT", "/v1/chat/groupInfo/leave", func(i ids) any { return map[string]string{"groupId": i.group} }},
			{"PUT", "/v1/chat/groupInfo/modify", func(i ids) any { return map[string]string{"groupId": i.group, "name": "Mine"} }},
			{"PUT", "/v1/chat/groupInfo/modifyMemberNickname", func(i ids) any { return map[string]string{"groupId": i.group, "nickname": "x"} }},
			{"PUT", "/v1/chat/groupInfo/muteMember", func(i ids) any { return map[string]any{"groupId": i.group, "memberId": bob.ID, "minutes": 10} }},
			{"PUT", "/v1/chat/groupInfo/setMemberRole", func(i ids) any {
				return map[string]string{"groupId": i.group, "memberId": bob.ID, "role": "Admin"}
			}},
			{"PUT", "/v1/chat/groupInfo/transfer", func(i ids) any { return map[string]string{"groupId": i.group, "memberId": bob.ID} }},
			{"POST", "/v1/chat/topInfo/build", conversation},
			{"DELETE", "/v1/chat/topInfo/delete", conversation},
			{"POST", "/v1/chat/applyInfo/batchMemberToGroup", func(i ids) any { return map[string]any{"groupId": i.group, "memberIds": []string{alice.ID}} }},
			{"POST", "/v1/message/clearHistory", conversation},
			{"POST", "/v1/message/send", func(i ids) any {
				return map[string]string{"uuid": "x-1", "chatType": "Group", "groupId": i.group, "content": "hi"}
			}},
			{"PUT", "/v1/message/reply", func(i ids) any {
				return map[string]string{"uuid": "x-2", "chatType": "Group", "groupId": i.group, "msgType": "Reply", "content": "hi", "parentMessageId": i.message}
			}},
			{"PUT", "/v1/message/sessionInfo/add", conversation},
			{"PUT", "/v1/message/sessionInfo/dnd", func(i ids) any { return map[string]any{"chatType": "Group", "groupId": i.group, "on": true} }},
			{"PUT", "/v1/message/sessionInfo/markRead", conversation},
			{"PUT", "/v1/message/sessionInfo/markUnread", conversation},
			{"PUT", "/v1/message/sessionInfo/remove", conversation},
			{"POST", "/v1/chat/favoriteInfo/build", func(i ids) any { return map[string]string{"messageId": i.message} }},
			{"PUT", "/v1/message/modify", func(i ids) any { return map[string]string{"id": i.message, "content": "mine"} }},
			{"PUT", "/v1/message/recall", func(i ids) any { return map[string]string{"id": i.message} }},
			{"POST", "/v1/message/deleteMessage", func(i ids) any { return map[string]any{"messageIds": []string{i.message}} }},
			{"POST", "/v1/message/forward", func(i ids) any {
				return map[string]any{"uuid": "x-3", "messageIds": []string{i.message}, "targets": []map[string]string{{"chatType": "Group", "to": i.group}}}
			}},
			{"PUT", "/v1/chat/applyInfo/modify", func(i ids) any { return map[string]string{"id": i.request, "status": "accepted"} }},
			{"POST", "/v1/chat/applyInfo/modify", func(i ids) any { return map[string]string{"id": i.request, "status": "accepted"} }},
		}
	}
	// answer makes c as m for the ids given.
	answer := func(m member, c call, i ids) (int, envelope) {
		GinkgoHelper()
		var body any
		if c.body != nil {
			body = c.body(i)
		}
		path := c.path
		if strings.Contains(path, "%") {
			path = fmt.Sprintf(path, i.group, i.message)
		}
		return s.call(c.method, path, m.Token, body)
	}

	DescribeTable("answers a real group, message or request exactly as a made-up one, and changes nothing",
		func(who func() member) {
			m := who()
			real, madeUp := ids{groupID, messageID, requestID}, ids{unknownGroup, unknownMessage, unknownRequest}
			before := s.head()
			for _, c := range calls() {
				status, env := answer(m, c, real)
				unknownStatus, unknown := answer(m, c, madeUp)
				Expect([]any{status, env.Code, env.Info}).To(Equal([]any{unknownStatus, unknown.Code, unknown.Info}),
					"%s %s: the real ids and made-up ones answer alike", c.method, c.path)
				Expect(status).To(Equal(http.StatusNotFound), "%s %s: %s", c.method, c.path, env.Info)
				Expect(string(env.Data)).NotTo(ContainSubstring(groupID))
			}
			Expect(s.head()).To(Equal(before), "a refusal appended an event")
		},
		Entry("to a member of the tenant never in the group", func() member { return carol }),
		Entry("to a removed member", func() member { return rita }),
		Entry("to another tenant's member", func() member { return zed }),
	)

	It("gives members their usual answers", func() {
		s.refused("POST", "/v1/chat/groupInfo/pinMessage", bob, map[string]string{"groupId": groupID, "messageId": messageID}, http.StatusForbidden, "you are not allowed to do this")
		s.refused("PUT", "/v1/chat/applyInfo/modify", bob, map[string]string{"id": requestID, "status": "accepted"}, http.StatusForbidden, "you are not allowed to do this")
		s.refused("PUT", "/v1/chat/groupInfo/transfer", alice, map[string]string{"groupId": groupID, "memberId": zed.ID}, http.StatusNotFound, "not a member of this group")
		s.refused("PUT", "/v1/chat/groupInfo/transfer", alice, map[string]string{"groupId": groupID, "memberId": unknownGroup}, http.StatusNotFound, "not a member of this group")
		s.written("POST", "/v1/chat/favoriteInfo/build", bob, map[string]string{"messageId": messageID})
		s.written("POST", "/v1/chat/groupInfo/pinMessage", alice, map[string]string{"groupId": groupID, "messageId": messageID})
		s.written("PUT", "/v1/chat/applyInfo/modify", alice, map[string]string{"id": requestID, "status": "accepted"})

		By("a dissolved group is dissolved to its members and unknown to the others")
		s.written("DELETE", "/v1/chat/groupInfo/delete?groupId="+groupID, alice, nil)
		nickname := map[string]string{"groupId": groupID, "nickname": "x"}
		s.refused("PUT", "/v1/chat/groupInfo/modifyMemberNickname", bob, nickname, http.StatusConflict, "this group has been dissolved")
		for _, m := range []member{carol, rita, zed} {
			s.refused("PUT", "/v1/chat/groupInfo/modifyMemberNickname", m, nickname, http.StatusNotFound, "group not found")
			s.refused("POST", "/v1/chat/favoriteInfo/build", m, map[string]string{"messageId": messageID}, http.StatusNotFound, "message not found")
		}
	})
})
