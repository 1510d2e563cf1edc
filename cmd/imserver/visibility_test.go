package main

import (
	"encoding/json"
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("What a member reads of others' messages", func() {
	var (
		s                             *testServer
		alice, bob, carol, stranger   member
		outsider                      member // of another tenant
		private, inGroup              sendResult
		groupID                       string
		last                          uint64
		victims, unknown, unknownPair []string
	)
	BeforeEach(func() {
		dir := GinkgoT().TempDir()
		secondTenant(dir)
		s = startServer(dir)
		alice, bob, carol, stranger = s.register("alice001"), s.register("bob00001"), s.register("carol001"), s.register("strange1")
		outsider = s.registerIn("x0002", "outside1")
		s.befriend(alice, bob)
		s.befriend(alice, carol)
		private = s.send(alice, bob, "v-1", "our secret")
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "memberIds": []string{bob.ID, carol.ID}}, &created)
		groupID = created.GroupID
		s.ok("POST", "/v1/message/send", alice.Token, map[string]string{"uuid": "v-2", "chatType": "Group", "groupId": groupID,
			"msgType": "Text", "content": "team secret"}, &inGroup)
		s.written("POST", "/v1/chat/groupInfo/pinMessage", alice, map[string]string{"groupId": groupID, "messageId": inGroup.ID})
		last = s.written("PUT", "/v1/chat/groupInfo/deleteGroupMember", alice, map[string]any{"groupId": groupID, "memberIds": []string{carol.ID}})
		victims = []string{private.ID, inGroup.ID}
		unknown = []string{"1234567890123456789", "1234567890123456790"}
		unknownPair = []string{"1234567890123456791", "1234567890123456792"}
	})

	byIDs := func(m member, ids []string) (int, envelope) {
		GinkgoHelper()
		return s.call("POST", fmt.Sprintf("/v1/message/messagePush/getMessageByIds?after=%d", last), m.Token, ids)
	}

	It("gives the parties their chat's message and the group's current members the group's", func() {
		for _, m := range []member{alice, bob} {
			status, env := byIDs(m, victims)
			Expect(status).To(Equal(http.StatusOK))
			var got []struct{ ID, Content string }
			Expect(json.Unmarshal(env.Data, &got)).To(Succeed())
			Expect(got).To(Equal([]struct{ ID, Content string }{{private.ID, "our secret"}, {inGroup.ID, "team secret"}}), m.Account)
		}
	})

	It("answers another tenant's member, a stranger and a removed group member with the victims' ids as with ids that do not exist", func() {
		// answers reads what m gets for the victims' ids and for unknown
		// ones; they must be the same and hold none of the victims' data.
		answers := func(who string, m member, method string, request func(ids []string) (string, any)) {
			GinkgoHelper()
			path, body := request(victims)
			status, env := s.call(method, path, m.Token, body)
			path, body = request(unknown)
			unknownStatus, unknownEnv := s.call(method, path, m.Token, body)
			Expect([]any{status, env}).To(Equal([]any{unknownStatus, unknownEnv}), "%s: %s", who, path)
			for _, secret := range append([]string{"our secret", "team secret"}, victims...) {
				Expect(string(env.Data)).NotTo(ContainSubstring(secret), "%s: %s", who, path)
			}
		}
		for who, m := range map[string]member{"another tenant's member": outsider, "a stranger of the tenant": stranger, "a removed group member": carol} {
			status, env := byIDs(m, victims)
			Expect([]any{status, env.Code, string(env.Data)}).To(Equal([]any{http.StatusOK, "200", "[]"}), who)
			answers(who, m, "POST", func(ids []string) (string, any) {
				return fmt.Sprintf("/v1/message/messagePush/getMessageByIds?after=%d", last), ids
			})
			answers(who, m, "POST", func(ids []string) (string, any) {
				return fmt.Sprintf("/v1/message/messagePush/getMessageByIds?after=%d", last), append(append([]string{}, ids...), unknownPair...)
			})
			answers(who, m, "GET", func(ids []string) (string, any) {
				return fmt.Sprintf("/v1/message/messagePush/history/list/page?friendMemberId=%s&messageId=%s&after=%d", alice.ID, ids[0], last), nil
			})
			answers(who, m, "GET", func(ids []string) (string, any) {
				return fmt.Sprintf("/v1/message/messagePush/history/list/page?friendMemberId=%s&messageId=%s&after=%d", bob.ID, ids[1], last), nil
			})
			for _, route := range []string{"/v1/message/messagePush/history/list/page", "/v1/chat/groupInfo/listPinnedMessage", "/v1/chat/groupInfo/listGroupMember"} {
				answers(who, m, "GET", func(ids []string) (string, any) {
					group := groupID
					if ids[0] == unknown[0] {
						group = unknown[0]
					}
					return fmt.Sprintf("%s?groupId=%s&after=%d", route, group, last), nil
				})
			}
		}
		answers("another tenant's member", outsider, "GET", func(ids []string) (string, any) {
			member := alice.ID
			if ids[0] == unknown[0] {
				member = unknown[0]
			}
			return fmt.Sprintf("/v1/member/memberInfo/getMemberByMemberId?memberId=%s&after=%d", member, last), nil
		})
	})
})
