package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

var _ = Describe("Uploads are their uploader's to publish", func() {
	var s *testServer
	var alice, bob, carol member
	var private, madeUp string // alice's picture, and a name nobody uploaded
	var groupID string
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob, carol = s.register("alice001"), s.register("bob00001"), s.register("carol001")
		s.befriend(alice, bob)
		s.befriend(bob, carol)
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", bob.Token, map[string]any{"name": "Team", "memberIds": []string{alice.ID, carol.ID}}, &created)
		groupID = created.GroupID
		status, up := s.upload(alice.Token, "", "file", "private.png", pngOf(4, 3))
		Expect(status).To(Equal(http.StatusOK), up.Info)
		private = up.Data.FilePath
		madeUp = private[:strings.LastIndex(private, "/")+1] + strings.Repeat("7", 32) + ".png"
	})

	// pictureOf is a Picture message's content naming filePath as the
	// uploader described it.
	pictureOf := func(filePath string) string {
		raw, err := json.Marshal(map[string]any{"filePath": filePath, "fileName": "private.png",
			"size": len(pngOf(4, 3)), "contentType": "image/png", "width": 4, "height": 3})
		Expect(err).NotTo(HaveOccurred())
		return string(raw)
	}
	// friendOf is a friend of m's.
	friendOf := func(m member) string {
		if m.ID == bob.ID {
			return carol.ID
		}
		return bob.ID
	}
	// uses are the ways a member could publish a file under its own name.
	type use struct {
		method, path string
		body         func(m member, filePath string) any
	}
	uses := map[string]use{
		"a sticker": {"POST", "/v1/chat/emojInfo/build", func(_ member, f string) any { return map[string]any{"filePath": f, "width": 4, "height": 3} }},
		"an avatar": {"PUT", "/v1/member/memberInfo/modify", func(_ member, f string) any { return map[string]string{"headUrl": f} }},
		"a feedback picture": {"POST", "/v1/member/feedback/build", func(_ member, f string) any {
			return map[string]any{"type": "bug", "content": "look", "images": []string{f}}
		}},
		"a group avatar": {"POST", "/v1/chat/groupInfo/build", func(m member, f string) any {
			return map[string]any{"name": "Mine", "headUrl": f, "memberIds": []string{friendOf(m)}}
		}},
		"a message to a friend": {"POST", "/v1/message/send", func(m member, f string) any {
			return map[string]string{"uuid": "pub-1", "chatType": "Friend", "to": friendOf(m), "msgType": "Picture", "content": pictureOf(f)}
		}},
		"a group message": {"POST", "/v1/message/send", func(_ member, f string) any {
			return map[string]string{"uuid": "pub-2", "chatType": "Group", "groupId": groupID, "msgType": "Picture", "content": pictureOf(f)}
		}},
		"a mass message": {"POST", "/v1/chat/batchSend/build", func(m member, f string) any {
			return map[string]any{"uuid": "pub-3", "recipients": []string{friendOf(m)}, "msgType": "Picture", "content": pictureOf(f)}
		}},
	}

	It("lets neither a friend nor a stranger publish alice's picture, answering as for a name never uploaded", func() {
		before := s.head()
		for name, u := range uses {
			for _, m := range []member{bob, carol} {
				status, env := s.call(u.method, u.path, m.Token, u.body(m, private))
				Expect(status).To(BeNumerically(">=", 400), "%s by %s", name, m.Account)
				Expect(status).To(BeNumerically("<", 500), "%s by %s", name, m.Account)
				unknownStatus, unknown := s.call(u.method, u.path, m.Token, u.body(m, madeUp))
				Expect([]any{status, env.Code, env.Info}).To(Equal([]any{unknownStatus, unknown.Code, unknown.Info}),
					"%s by %s: alice's file and a made-up name answer alike", name, m.Account)
			}
		}

		By("sending it over the websocket (command 11) as well")
		for _, m := range []member{bob, carol} {
			c := s.dial(m)
			send := func(uuid, filePath string) wsclient.Reply {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				reply, err := c.Request(ctx, 11, map[string]string{"uuid": uuid, "chatType": "Friend", "to": friendOf(m),
					"msgType": "Picture", "content": pictureOf(filePath)})
				Expect(err).NotTo(HaveOccurred())
				return reply
			}
			got, unknown := send("ws-"+m.ID, private), send("ws-made-up-"+m.ID, madeUp)
			Expect(got.OK()).To(BeFalse(), "a picture of alice's sent by %s", m.Account)
			Expect([]string{got.Code, got.Info}).To(Equal([]string{unknown.Code, unknown.Info}), "by %s", m.Account)
		}
		Expect(s.head()).To(Equal(before), "a refusal appended an event")

		By("alice publishes her own picture in every way")
		for name, u := range uses {
			status, env := s.call(u.method, u.path, alice.Token, u.body(alice, private))
			Expect(status).To(Equal(http.StatusOK), "%s: %s", name, env.Info)
		}
	})

	It("keeps every legitimate reuse of a received picture: forwarding it, its favourite, and a sticker made of it", func() {
		var sent sendResult
		s.ok("POST", "/v1/message/send", alice.Token, map[string]string{"uuid": "p-1", "chatType": "Friend", "to": bob.ID,
			"msgType": "Picture", "content": pictureOf(private)}, &sent)

		By("bob may not send it as a new message of his own")
		send := func(m member, uuid string, to map[string]string, content string) (int, envelope) {
			body := map[string]string{"uuid": uuid, "msgType": "Picture", "content": content}
			for k, v := range to {
				body[k] = v
			}
			return s.call("POST", "/v1/message/send", m.Token, body)
		}
		toCarol := map[string]string{"chatType": "Friend", "to": carol.ID}
		toGroup := map[string]string{"chatType": "Group", "groupId": groupID}
		status, env := send(bob, "b-1", toCarol, pictureOf(private))
		Expect(status).To(Equal(http.StatusBadRequest))
		Expect(env.Info).To(Equal("the file of this message is not found, upload it again"))

		By("bob forwards it to carol and to the group")
		s.ok("POST", "/v1/message/forward", bob.Token, map[string]any{"uuid": "fw-1", "messageIds": []string{sent.ID},
			"targets": []map[string]string{{"chatType": "Friend", "to": carol.ID}, {"chatType": "Group", "to": groupID}}}, nil)

		By("bob keeps it as a favourite, forwards the favourite and makes a sticker of it")
		var fav struct{ ID string }
		s.ok("POST", "/v1/chat/favoriteInfo/build", bob.Token, map[string]string{"messageId": sent.ID}, &fav)
		s.ok("POST", "/v1/chat/favoriteInfo/forward", bob.Token, map[string]any{"uuid": "ff-1", "ids": []string{fav.ID},
			"targets": []map[string]string{{"chatType": "Friend", "to": carol.ID}}}, nil)
		var kept struct {
			ID       string
			Position uint64
		}
		s.ok("POST", "/v1/chat/emojInfo/build", bob.Token, map[string]string{"favoriteId": fav.ID}, &kept)
		var stickers page[sticker]
		s.ok("GET", fmt.Sprintf("/v1/chat/emojInfo/list?after=%d", kept.Position), bob.Token, nil, &stickers)
		Expect(stickers.Records).To(HaveLen(1))
		Expect(stickers.Records[0].FilePath).To(Equal(private))

		By("bob sends his sticker, as the web client does: to a friend, to the group and in a mass message")
		status, env = send(bob, "st-1", toCarol, stickers.Records[0].Content)
		Expect(status).To(Equal(http.StatusOK), env.Info)
		status, env = send(bob, "st-2", toGroup, stickers.Records[0].Content)
		Expect(status).To(Equal(http.StatusOK), env.Info)
		s.ok("POST", "/v1/chat/batchSend/build", bob.Token, map[string]any{"uuid": "st-3", "recipients": []string{carol.ID},
			"msgType": "Picture", "content": stickers.Records[0].Content}, nil)

		By("carol, who received it and keeps no sticker of it, may not")
		status, env = send(carol, "c-1", map[string]string{"chatType": "Friend", "to": bob.ID}, stickers.Records[0].Content)
		Expect(status).To(Equal(http.StatusBadRequest))
		Expect(env.Info).To(Equal("the file of this message is not found, upload it again"))

		By("once bob deletes the sticker, neither may he")
		s.written("DELETE", "/v1/chat/emojInfo/delete", bob, map[string][]string{"ids": {kept.ID}})
		status, env = send(bob, "st-4", toCarol, stickers.Records[0].Content)
		Expect(status).To(Equal(http.StatusBadRequest))
		Expect(env.Info).To(Equal("the file of this message is not found, upload it again"))
	})
})
