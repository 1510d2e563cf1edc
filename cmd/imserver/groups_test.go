package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

var _ = Describe("Groups", func() {
	var s *testServer
	var alice, bob, carol, dave member
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob, carol, dave = s.register("alice001"), s.register("bob00001"), s.register("carol001"), s.register("dave0001")
		s.befriend(alice, bob)
		s.befriend(alice, carol)
	})

	type groupChange struct {
		GroupID, OperationType, MemberID string
	}
	type memberItem struct{ MemberID, Role, Name, AllowSpeak string }
	members := func(m member, groupID string, after uint64) []string {
		GinkgoHelper()
		var items []memberItem
		s.ok("GET", fmt.Sprintf("/v1/chat/groupInfo/listGroupMember?groupId=%s&after=%d", groupID, after), m.Token, nil, &items)
		out := []string{}
		for _, it := range items {
			out = append(out, it.Name+":"+it.Role)
		}
		return out
	}

	It("creates a group of friends, lists it, and runs its roles, removals, departures and dissolution", func() {
		b := s.dial(bob)
		var created struct {
			GroupID  string
			Position uint64
		}
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "notice": "welcome", "memberIds": []string{bob.ID, carol.ID}}, &created)
		var ch groupChange
		Expect(json.Unmarshal(next(b, 22).Data, &ch)).To(Succeed())
		Expect(ch.GroupID).To(Equal(created.GroupID))

		Expect(members(carol, created.GroupID, created.Position)).To(Equal([]string{"alice001:Owner", "bob00001:Normal", "carol001:Normal"}))
		var info struct{ Name, Notice, MyRole, Owner string }
		s.ok("GET", "/v1/chat/groupInfo/getGroupInfoByGroupId?groupId="+created.GroupID, bob.Token, nil, &info)
		Expect(info).To(Equal(struct{ Name, Notice, MyRole, Owner string }{"Team", "welcome", "Normal", alice.ID}))

		pos := s.written("PUT", "/v1/chat/groupInfo/setMemberRole", alice, map[string]string{"groupId": created.GroupID, "memberId": bob.ID, "role": "Admin"})
		Expect(json.Unmarshal(next(b, 23).Data, &ch)).To(Succeed())
		Expect(ch.OperationType).To(Equal("RoleChanged"))
		var mine struct{ Managed, Joined []struct{ ID, MyRole string } }
		s.ok("GET", fmt.Sprintf("/v1/chat/groupInfo/listMemberInGroup?after=%d", pos), bob.Token, nil, &mine)
		Expect(mine.Managed).To(HaveLen(1))
		Expect(mine.Managed[0].MyRole).To(Equal("Admin"))
		Expect(mine.Joined).To(BeEmpty())

		s.refused("PUT", "/v1/chat/groupInfo/setMemberRole", bob, map[string]string{"groupId": created.GroupID, "memberId": carol.ID, "role": "Admin"}, http.StatusForbidden, "you are not allowed to do this")
		s.written("PUT", "/v1/chat/groupInfo/muteMember", bob, map[string]any{"groupId": created.GroupID, "memberId": carol.ID, "minutes": 10})
		s.refused("PUT", "/v1/chat/groupInfo/muteMember", bob, map[string]any{"groupId": created.GroupID, "memberId": alice.ID, "minutes": 10}, http.StatusForbidden, "you can only do this to members below your role in the group")
		pos = s.written("PUT", "/v1/chat/groupInfo/deleteGroupMember", bob, map[string]any{"groupId": created.GroupID, "memberIds": []string{carol.ID}})
		Expect(members(alice, created.GroupID, pos)).To(Equal([]string{"alice001:Owner", "bob00001:Admin"}))
		s.refused("GET", "/v1/chat/groupInfo/getGroupInfoByGroupId?groupId="+created.GroupID, carol, nil, http.StatusNotFound, "group not found")

		s.refused("PUT", "/v1/chat/groupInfo/leave", alice, map[string]string{"groupId": created.GroupID}, http.StatusConflict, "the owner cannot leave the group: transfer it or dissolve it")
		s.refused("DELETE", "/v1/chat/groupInfo/delete?groupId="+created.GroupID, bob, nil, http.StatusForbidden, "you are not allowed to do this")
		s.written("DELETE", "/v1/chat/groupInfo/delete?groupId="+created.GroupID, alice, nil)
		Expect(json.Unmarshal(next(b, 21).Data, &ch)).To(Succeed())
		Expect(ch.OperationType).To(Equal("Dissolved"))
		s.refused("PUT", "/v1/chat/groupInfo/modifyMemberNickname", bob, map[string]string{"groupId": created.GroupID, "nickname": "x"}, http.StatusConflict, "this group has been dissolved")
	})

	It("changes settings with the permission each needs, and lets members leave only while allowed", func() {
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "memberIds": []string{bob.ID, carol.ID}}, &created)
		g := created.GroupID
		s.written("PUT", "/v1/chat/groupInfo/setMemberRole", alice, map[string]string{"groupId": g, "memberId": bob.ID, "role": "Admin"})
		s.written("PUT", "/v1/chat/groupInfo/modify", bob, map[string]any{"groupId": g, "name": "Renamed", "sendRate": "FivePerMinute"})
		s.written("PUT", "/v1/chat/groupInfo/modify", bob, map[string]any{"groupId": g, "muteAll": true})
		s.refused("PUT", "/v1/chat/groupInfo/modify", bob, map[string]any{"groupId": g, "allowLeave": false}, http.StatusForbidden, "you are not allowed to do this")
		s.refused("PUT", "/v1/chat/groupInfo/modify", carol, map[string]any{"groupId": g, "name": "Mine"}, http.StatusForbidden, "you are not allowed to do this")
		s.refused("PUT", "/v1/chat/groupInfo/modify", bob, map[string]any{"groupId": g, "sendRate": "Fast"}, http.StatusBadRequest, "sendRate must be NoLimit, Backend, TenPerMinute or FivePerMinute")
		pos := s.written("PUT", "/v1/chat/groupInfo/modify", alice, map[string]any{"groupId": g, "allowLeave": false})
		var info struct {
			Name, SendRate, AllowSpeak string
			AllowLeave                 bool
		}
		s.ok("GET", fmt.Sprintf("/v1/chat/groupInfo/getGroupInfoByGroupId?groupId=%s&after=%d", g, pos), carol.Token, nil, &info)
		Expect([]any{info.Name, info.SendRate, info.AllowSpeak, info.AllowLeave}).To(Equal([]any{"Renamed", "FivePerMinute", "N", false}))
		s.refused("PUT", "/v1/chat/groupInfo/leave", carol, map[string]string{"groupId": g}, http.StatusForbidden, "members are not allowed to leave this group")
		s.written("PUT", "/v1/chat/groupInfo/leave", bob, map[string]string{"groupId": g})
		s.written("PUT", "/v1/chat/groupInfo/transfer", alice, map[string]string{"groupId": g, "memberId": carol.ID})
		pos = s.written("PUT", "/v1/chat/groupInfo/leave", alice, map[string]string{"groupId": g})
		Expect(members(carol, g, pos)).To(Equal([]string{"carol001:Owner"}))
	})

	It("answers a member's send or forward retried at the group's rate with its first, and nobody else's retry of its ids", func() {
		s.ok("POST", "/v1/admin/tenant/create", s.operator().Token, map[string]string{"code": "x0002", "name": "B"}, nil)
		foreigner := s.registerIn("x0002", "foreign1")
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "memberIds": []string{bob.ID, carol.ID}}, &created)
		g := created.GroupID
		s.written("PUT", "/v1/chat/groupInfo/modify", alice, map[string]any{"groupId": g, "sendRate": "FivePerMinute"})
		send := map[string]string{"uuid": "bob-first", "chatType": "Group", "groupId": g, "content": "first"}
		var first struct{ ID string }
		s.ok("POST", "/v1/message/send", bob.Token, send, &first)
		forward := map[string]any{"uuid": "bob-fwd", "messageIds": []string{first.ID}, "targets": []map[string]string{{"chatType": "Group", "to": g}}}
		var forwarded struct{ Messages []struct{ ID string } }
		s.ok("POST", "/v1/message/forward", bob.Token, forward, &forwarded)
		for i := range 3 {
			s.ok("POST", "/v1/message/send", bob.Token, map[string]string{"uuid": fmt.Sprint("bob-", i), "chatType": "Group", "groupId": g, "content": "x"}, nil)
		}
		s.refused("POST", "/v1/message/send", bob, map[string]string{"uuid": "bob-new", "chatType": "Group", "groupId": g, "content": "x"},
			http.StatusTooManyRequests, "you are sending messages too fast in this group, try again in a moment")
		head := s.head()

		// At the rate, the member's retries get their first answers, twice at once.
		ids := make([]string, 4)
		var wg sync.WaitGroup
		for i := range ids {
			wg.Go(func() {
				defer GinkgoRecover()
				var again struct{ ID string }
				if i%2 == 0 {
					s.ok("POST", "/v1/message/send", bob.Token, send, &again)
					ids[i] = again.ID
					return
				}
				var fwd struct{ Messages []struct{ ID string } }
				s.ok("POST", "/v1/message/forward", bob.Token, forward, &fwd)
				ids[i] = fwd.Messages[0].ID
			})
		}
		wg.Wait()
		Expect(ids).To(Equal([]string{first.ID, forwarded.Messages[0].ID, first.ID, forwarded.Messages[0].ID}))
		// The same over a socket, twice at once.
		socketSend := func(c *wsclient.Client) wsclient.Reply {
			GinkgoHelper()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			reply, err := c.Request(ctx, 11, send)
			Expect(err).NotTo(HaveOccurred())
			return reply
		}
		bobSocket := s.dial(bob)
		replies := make([]wsclient.Reply, 2)
		for i := range replies {
			wg.Go(func() {
				defer GinkgoRecover()
				replies[i] = socketSend(bobSocket)
			})
		}
		wg.Wait()
		for _, reply := range replies {
			Expect(reply.OK()).To(BeTrue(), "%s %s", reply.Code, reply.Info)
			Expect(string(reply.Data)).To(ContainSubstring(first.ID))
		}
		Expect(s.head()).To(Equal(head), "the retries appended nothing")

		// Nobody else gets anything of them with their real ids: another
		// tenant's member, a same-tenant stranger, a member who left.
		s.written("PUT", "/v1/chat/groupInfo/leave", carol, map[string]string{"groupId": g})
		head = s.head()
		for _, m := range []member{foreigner, dave, carol} {
			for _, body := range []any{send, forward} {
				path := "/v1/message/send"
				if _, ok := body.(map[string]any); ok {
					path = "/v1/message/forward"
				}
				status, env := s.call("POST", path, m.Token, body)
				Expect(status).To(BeNumerically(">=", 400), "%s %s", m.ID, path)
				Expect(status).To(BeNumerically("<", 500), "%s %s", m.ID, path)
				Expect(string(env.Data)).NotTo(ContainSubstring(first.ID))
				Expect(string(env.Data)).NotTo(ContainSubstring(forwarded.Messages[0].ID))
			}
			reply := socketSend(s.dial(m))
			Expect(reply.OK()).To(BeFalse(), "%s over a socket", m.ID)
			Expect(string(reply.Data)).NotTo(ContainSubstring(first.ID))
		}
		Expect(s.head()).To(Equal(head), "nothing appended")
	})

	It("refuses bad input with a clear 4xx and appends nothing", func() {
		var created struct {
			GroupID  string
			Position uint64
		}
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "memberIds": []string{bob.ID}}, &created)
		before := created.Position
		g := created.GroupID
		hundredAndOne := make([]string, 101)
		for i := range hundredAndOne {
			hundredAndOne[i] = fmt.Sprintf("%019d", i+1)
		}
		cases := []struct {
			who          member
			method, path string
			body         any
			status       int
			info         string
		}{
			{alice, "POST", "/v1/chat/groupInfo/build", map[string]any{"name": " ", "memberIds": []string{bob.ID}}, 400, "group name cannot be empty"},
			{alice, "POST", "/v1/chat/groupInfo/build", map[string]any{"name": "T", "memberIds": []string{}}, 400, "group members cannot be empty"},
			{alice, "POST", "/v1/chat/groupInfo/build", map[string]any{"name": "T", "memberIds": hundredAndOne}, 400, "only 100 friends per invite"},
			{alice, "POST", "/v1/chat/groupInfo/build", map[string]any{"name": "T", "memberIds": []string{dave.ID}}, 403, "You are not yet a friend, add first"},
			{alice, "POST", "/v1/chat/groupInfo/build", `{"name":`, 400, "invalid request"},
			{alice, "POST", "/v1/chat/applyInfo/batchMemberToGroup", map[string]any{"groupId": g, "memberIds": []string{dave.ID}}, 403, "You are not yet a friend, add first"},
			{dave, "POST", "/v1/chat/applyInfo/batchMemberToGroup", map[string]any{"groupId": g, "memberIds": []string{alice.ID}}, 404, "group not found"},
			{alice, "PUT", "/v1/chat/groupInfo/setMemberRole", map[string]string{"groupId": "1234567890123456789", "memberId": bob.ID, "role": "Admin"}, 404, "group not found"},
			{alice, "PUT", "/v1/chat/groupInfo/setMemberRole", map[string]string{"groupId": g, "memberId": bob.ID, "role": "Owner"}, 400, "role must be Admin or Normal"},
			{alice, "PUT", "/v1/chat/groupInfo/muteMember", map[string]any{"groupId": g, "memberId": bob.ID, "minutes": -1}, 400, "a mute must end in the future"},
			{alice, "GET", "/v1/chat/groupInfo/listGroupMember?groupId=", nil, 400, "group not found"},
			{dave, "GET", "/v1/chat/groupInfo/listGroupMember?groupId=" + g, nil, 404, "group not found"},
		}
		for _, c := range cases {
			status, env := s.call(c.method, c.path, c.who.Token, c.body)
			Expect(status).To(Equal(c.status), "%s %s %v: %s", c.method, c.path, c.body, env.Info)
			Expect(env.Info).To(Equal(c.info), "%s %s %v", c.method, c.path, c.body)
		}
		after := s.written("PUT", "/v1/chat/groupInfo/modifyMemberNickname", bob, map[string]string{"groupId": g, "nickname": "Bobby"})
		Expect(after).To(Equal(before+1), "a refused request appended an event")
	})
})
