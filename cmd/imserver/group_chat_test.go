package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

var _ = Describe("Group chats", func() {
	var (
		s                       *testServer
		alice, bob, carol, dave member
		groupID                 string
	)
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob, carol, dave = s.register("alice001"), s.register("bob00001"), s.register("carol001"), s.register("dave0001")
		s.befriend(alice, bob)
		s.befriend(alice, carol)
		s.befriend(alice, dave)
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "memberIds": []string{bob.ID, carol.ID}}, &created)
		groupID = created.GroupID
	})

	type message struct {
		ID, ChatType, From, GroupID, MsgType, Content, OperationType, OperatorID, TargetID string
	}
	type session struct {
		ID, Type, GroupID, Name, LastMessageContent string
		UnreadCount, AtCount                        int
	}
	// nextMessage skips pushed messages (event lines among them) to id.
	nextMessage := func(c *wsclient.Client, id string) message {
		GinkgoHelper()
		for {
			var m message
			Expect(json.Unmarshal(next(c, 11).Data, &m)).To(Succeed())
			if m.ID == id {
				return m
			}
		}
	}
	sendTo := func(m member, uuid string, body map[string]string) sendResult {
		GinkgoHelper()
		b := map[string]string{"uuid": uuid, "chatType": "Group", "groupId": groupID, "content": "x"}
		for k, v := range body {
			b[k] = v
		}
		var r sendResult
		s.ok("POST", "/v1/message/send", m.Token, b, &r)
		return r
	}
	groupSession := func(m member, after uint64) (session, bool) {
		GinkgoHelper()
		var items []session
		s.ok("GET", fmt.Sprintf("/v1/message/sessionInfo/list?after=%d", after), m.Token, nil, &items)
		for _, it := range items {
			if it.GroupID == groupID {
				return it, true
			}
		}
		return session{}, false
	}
	history := func(m member, after uint64) []message {
		GinkgoHelper()
		var page []message
		s.ok("GET", fmt.Sprintf("/v1/message/messagePush/history/list/page?groupId=%s&after=%d", groupID, after), m.Token, nil, &page)
		return page
	}

	It("delivers a message to every member's connections, lists the group with its sender's preview and unread counts, and reads on acknowledgement", func() {
		b, c := s.dial(bob), s.dial(carol)
		sent := sendTo(alice, "g-1", map[string]string{"content": "hello team"})
		got := nextMessage(b, sent.ID)
		Expect([]string{got.ChatType, got.GroupID, got.From, got.Content}).To(Equal([]string{"Group", groupID, alice.ID, "hello team"}))
		nextMessage(c, sent.ID)

		item, ok := groupSession(bob, sent.Position)
		Expect(ok).To(BeTrue())
		Expect([]any{item.Type, item.Name, item.LastMessageContent, item.UnreadCount}).To(Equal([]any{"Group", "Team", "alice001: hello team", 1}))
		mine, _ := groupSession(alice, sent.Position)
		Expect(mine.UnreadCount).To(Equal(0))

		page := history(carol, sent.Position)
		Expect(page).To(HaveLen(2))
		Expect([]string{page[0].MsgType, page[0].OperationType, page[0].Content}).To(Equal([]string{"Event", "Create", "@[" + alice.ID + "] created the group"}))
		Expect(page[1].ID).To(Equal(sent.ID))

		Expect(b.Send(27, map[string]string{"chatType": "Group", "groupId": groupID, "messageId": sent.ID})).To(Succeed())
		var changed session
		Expect(json.Unmarshal(next(b, 49).Data, &changed)).To(Succeed())
		Expect([]any{changed.GroupID, changed.UnreadCount}).To(Equal([]any{groupID, 0}))
	})

	It("refuses non-members, muted members (30021, 30022) and bad input, appending nothing", func() {
		before := sendTo(alice, "g-1", nil).Position
		s.refused("POST", "/v1/message/send", dave, map[string]string{"uuid": "d-1", "chatType": "Group", "groupId": groupID, "content": "hi"}, http.StatusNotFound, "group not found")
		s.refused("GET", "/v1/message/messagePush/history/list/page?groupId="+groupID, dave, nil, http.StatusNotFound, "group not found")
		s.refused("POST", "/v1/message/send", bob, map[string]string{"uuid": "b-1", "chatType": "Group", "content": "hi"}, http.StatusBadRequest, "a group chat needs its groupId")
		s.refused("POST", "/v1/message/send", bob, map[string]string{"uuid": "b-2", "chatType": "Group", "groupId": "1234567890123456789", "content": "hi"}, http.StatusNotFound, "group not found")
		s.refused("POST", "/v1/chat/groupInfo/pinMessage", bob, map[string]string{"groupId": groupID, "messageId": "1"}, http.StatusForbidden, "you are not allowed to do this")
		s.refused("POST", "/v1/chat/groupInfo/pinMessage", alice, map[string]string{"groupId": groupID, "messageId": "1234567890123456789"}, http.StatusNotFound, "message not found")
		s.refused("DELETE", "/v1/chat/groupInfo/unpinMessage", alice, map[string]string{"groupId": groupID, "messageId": "1234567890123456789"}, http.StatusNotFound, "this message is not pinned")
		s.refused("GET", "/v1/chat/groupInfo/listPinnedMessage?groupId="+groupID, dave, nil, http.StatusNotFound, "group not found")
		s.refused("DELETE", "/v1/chat/groupInfo/deleteRemoteGroupMessage?groupId="+groupID, alice, nil, http.StatusBadRequest, "select the messages first")
		s.refused("POST", "/v1/message/clearHistory", dave, map[string]string{"chatType": "Group", "groupId": groupID}, http.StatusNotFound, "group not found")
		Expect(sendTo(alice, "g-2", nil).Position).To(Equal(before+1), "a refused request appended an event")

		yes := true
		s.written("PUT", "/v1/chat/groupInfo/modify", alice, map[string]any{"groupId": groupID, "muteAll": yes})
		status, env := s.call("POST", "/v1/message/send", bob.Token, map[string]string{"uuid": "b-3", "chatType": "Group", "groupId": groupID, "content": "hi"})
		Expect([]any{status, env.Code, env.Info}).To(Equal([]any{http.StatusForbidden, "30021", "You have been muted in this group, you can chat with the group owner to apply to open speech!"}))
		s.written("PUT", "/v1/chat/groupInfo/modify", alice, map[string]any{"groupId": groupID, "muteAll": false})
		s.written("PUT", "/v1/chat/groupInfo/muteMember", alice, map[string]any{"groupId": groupID, "memberId": bob.ID, "minutes": 5})
		_, env = s.call("POST", "/v1/message/send", bob.Token, map[string]string{"uuid": "b-4", "chatType": "Group", "groupId": groupID, "content": "hi"})
		Expect(env.Code).To(Equal("30022"))
	})

	It("mutes the whole group for a time, shown with its end in the group's info", func() {
		at := s.written("PUT", "/v1/chat/groupInfo/modify", alice, map[string]any{"groupId": groupID, "muteAll": true, "muteAllMinutes": 30})
		var info struct {
			MuteAll      bool
			MuteAllUntil int64
			AllowSpeak   string
		}
		s.ok("GET", fmt.Sprintf("/v1/chat/groupInfo/getGroupInfoByGroupId?groupId=%s&after=%d", groupID, at), bob.Token, nil, &info)
		Expect(info.MuteAll).To(BeTrue())
		Expect(info.MuteAllUntil).To(BeNumerically("~", time.Now().Add(30*time.Minute).UnixMilli(), 60_000))
		Expect(info.AllowSpeak).To(Equal("N"))
		_, env := s.call("POST", "/v1/message/send", bob.Token, map[string]string{"uuid": "b-1", "chatType": "Group", "groupId": groupID, "content": "hi"})
		Expect(env.Code).To(Equal("30021"))
		for _, bad := range []map[string]any{
			{"groupId": groupID, "muteAll": true, "muteAllMinutes": 0},
			{"groupId": groupID, "muteAll": true, "muteAllMinutes": 30*24*60 + 1},
			{"groupId": groupID, "muteAll": false, "muteAllMinutes": 5},
			{"groupId": groupID, "muteAllMinutes": 5},
		} {
			s.refused("PUT", "/v1/chat/groupInfo/modify", alice, bad, http.StatusBadRequest, "a mute must end in the future")
		}
		s.refused("PUT", "/v1/chat/groupInfo/modify", bob, map[string]any{"groupId": groupID, "muteAll": true, "muteAllMinutes": 5}, http.StatusForbidden, "you are not allowed to do this")
	})

	It("runs the message life in the group: mentions, recall, remote deletion by admins only, pins, clearing", func() {
		b, c := s.dial(bob), s.dial(carol)
		at := sendTo(bob, "g-1", map[string]string{"msgType": "AtText", "content": "@[" + carol.ID + "] look"})
		item, _ := groupSession(carol, at.Position)
		Expect(item.AtCount).To(Equal(1))
		Expect(item.LastMessageContent).To(Equal("bob00001: @carol001 look"))
		var mentions []struct{ MessageID, SessionID, SessionType string }
		s.ok("GET", "/v1/message/messagePush/at/list", carol.Token, nil, &mentions)
		Expect(mentions).To(HaveLen(1))
		Expect([]string{mentions[0].MessageID, mentions[0].SessionID, mentions[0].SessionType}).To(Equal([]string{at.ID, groupID, "Group"}))

		s.refused("DELETE", "/v1/chat/groupInfo/deleteRemoteGroupMessage?groupId="+groupID+"&messageIds="+at.ID, carol, nil, http.StatusForbidden,
			"only the group owner and admins can delete group messages for everyone")
		s.written("DELETE", "/v1/chat/groupInfo/deleteRemoteGroupMessage?groupId="+groupID+"&messageIds="+at.ID, alice, nil)
		var change struct {
			MessageIDs    []string
			GroupID       string
			OperationType string
			Scope         string
		}
		Expect(json.Unmarshal(next(c, 16).Data, &change)).To(Succeed())
		Expect([]any{change.MessageIDs, change.GroupID, change.Scope}).To(Equal([]any{[]string{at.ID}, groupID, "Everyone"}))

		pinned := sendTo(carol, "g-2", map[string]string{"content": "the plan"})
		pos := s.written("POST", "/v1/chat/groupInfo/pinMessage", alice, map[string]string{"groupId": groupID, "messageId": pinned.ID})
		var pin struct{ GroupID, MessageID, OperationType string }
		Expect(json.Unmarshal(next(b, 50).Data, &pin)).To(Succeed())
		Expect([]string{pin.GroupID, pin.MessageID, pin.OperationType}).To(Equal([]string{groupID, pinned.ID, "AddTop"}))
		var refresh struct{ PinnedMessageIds []string }
		Expect(json.Unmarshal(next(b, 39).Data, &refresh)).To(Succeed())
		Expect(refresh.PinnedMessageIds).To(Equal([]string{pinned.ID}))
		var list []message
		s.ok("GET", fmt.Sprintf("/v1/chat/groupInfo/listPinnedMessage?groupId=%s&after=%d", groupID, pos), bob.Token, nil, &list)
		Expect(list).To(HaveLen(1))
		Expect(list[0].Content).To(Equal("the plan"))
		page := history(bob, pos)
		Expect(page[len(page)-1].OperationType).To(Equal("AddTop"))

		s.written("PUT", "/v1/message/recall", carol, map[string]string{"id": pinned.ID})
		Expect(json.Unmarshal(next(b, 16).Data, &change)).To(Succeed())
		Expect(change.OperationType).To(Equal("Recall"))

		pos = s.written("POST", "/v1/message/clearHistory", bob, map[string]string{"chatType": "Group", "groupId": groupID})
		var cleared struct{ GroupID string }
		Expect(json.Unmarshal(next(b, 29).Data, &cleared)).To(Succeed())
		Expect(cleared.GroupID).To(Equal(groupID))
		Expect(history(bob, pos)).To(BeEmpty())
		Expect(history(carol, pos)).NotTo(BeEmpty())
	})

	It("stops a removed member's messages and conversation, with event lines for the others", func() {
		c := s.dial(carol)
		pos := s.written("PUT", "/v1/chat/groupInfo/deleteGroupMember", alice, map[string]any{"groupId": groupID, "memberIds": []string{carol.ID}})
		next(c, 21)
		_, listed := groupSession(carol, pos)
		Expect(listed).To(BeFalse())
		item, _ := groupSession(bob, pos)
		Expect(item.LastMessageContent).To(Equal("@alice001 removed @carol001 from the group"))
		page := history(bob, pos)
		last := page[len(page)-1]
		Expect([]string{last.MsgType, last.OperationType, last.OperatorID, last.TargetID}).To(Equal([]string{"Event", "Remove", alice.ID, carol.ID}))

		sent := sendTo(alice, "g-1", map[string]string{"content": "without carol"})
		s.refused("GET", "/v1/message/messagePush/history/list/page?groupId="+groupID, carol, nil, http.StatusNotFound, "group not found")
		var byIDs []message
		s.ok("POST", fmt.Sprintf("/v1/message/messagePush/getMessageByIds?after=%d", sent.Position), carol.Token, []string{sent.ID}, &byIDs)
		Expect(byIDs).To(BeEmpty())
	})
})
