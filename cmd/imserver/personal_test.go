package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// favourite is an item of the favourites list.
type favourite struct {
	ID        string `json:"id"`
	MessageID string `json:"messageId"`
	From      string `json:"from"`
	Peer      string `json:"peer"`
	MsgType   string `json:"msgType"`
	Content   string `json:"content"`
	SendTime  int64  `json:"sendTime"`
	EditTime  int64  `json:"editTime"`
}

type sticker struct {
	ID       string `json:"id"`
	FilePath string `json:"filePath"`
	Content  string `json:"content"`
}

type batch struct {
	ID         string   `json:"id"`
	MsgType    string   `json:"msgType"`
	Content    string   `json:"content"`
	Recipients []string `json:"recipients"`
	MessageIDs []string `json:"messageIds"`
}

type page[T any] struct {
	Records []T `json:"records"`
	Total   int `json:"total"`
}

var _ = Describe("Personal spaces", func() {
	var s *testServer
	var alice, bob, carol, dave member
	BeforeEach(func() {
		dir := GinkgoT().TempDir()
		createTenant(dir, "x0002")
		s = startServer(dir)
		alice, bob, carol, dave = s.register("alice001"), s.register("bob00001"), s.register("carol001"), s.register("dave0001")
		s.befriend(alice, bob)
		s.befriend(alice, carol)
	})

	list := func(path string, m member, after uint64, out any) {
		GinkgoHelper()
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		s.ok("GET", fmt.Sprintf("%s%safter=%d", path, sep, after), m.Token, nil, out)
	}
	favourites := func(m member, after uint64) page[favourite] {
		GinkgoHelper()
		var p page[favourite]
		list("/v1/chat/favoriteInfo/list", m, after, &p)
		return p
	}
	history := func(m, peer member, after uint64) []lifeMessage {
		GinkgoHelper()
		var out []lifeMessage
		s.ok("GET", fmt.Sprintf("/v1/message/messagePush/history/list/page?friendMemberId=%s&pageSize=50&after=%d", peer.ID, after), m.Token, nil, &out)
		return out
	}
	// head appends an event that changes none of the models looked at.
	head := func() uint64 {
		GinkgoHelper()
		return s.written("POST", "/v1/message/messagePush/at/ack/sessionId", alice, map[string]string{"sessionId": dave.ID})
	}

	It("keeps favourites as snapshots, newest first, paged, and edits and deletes them", func() {
		one := s.send(bob, alice, "f-1", "first")
		two := s.send(alice, bob, "f-2", "second")
		var kept struct{ ID string }
		s.ok("POST", "/v1/chat/favoriteInfo/build", alice.Token, map[string]string{"messageId": one.ID}, &kept)
		pos := s.written("POST", "/v1/chat/favoriteInfo/build", alice, map[string]string{"messageId": two.ID})

		p := favourites(alice, pos)
		Expect(p.Total).To(Equal(2))
		Expect([]string{p.Records[0].MessageID, p.Records[1].MessageID}).To(Equal([]string{two.ID, one.ID}))
		Expect(p.Records[1]).To(Equal(favourite{ID: kept.ID, MessageID: one.ID, From: bob.ID, Peer: bob.ID, MsgType: "Text",
			Content: "first", SendTime: one.ServerReceiveTime}))
		var second page[favourite]
		list("/v1/chat/favoriteInfo/list?curPage=2&pageSize=1", alice, pos, &second)
		Expect(second.Records).To(HaveLen(1))
		Expect(second.Records[0].ID).To(Equal(kept.ID))
		Expect(favourites(bob, pos).Total).To(BeZero())

		By("the message deleted: the favourite stays")
		pos = s.written("POST", "/v1/message/deleteMessage", alice, map[string][]string{"messageIds": {one.ID}})
		Expect(favourites(alice, pos).Total).To(Equal(2))

		By("editing a text favourite")
		var edited struct {
			Content  string
			EditTime int64
			Position uint64
		}
		s.ok("PUT", "/v1/chat/favoriteInfo/modify", alice.Token, map[string]string{"id": kept.ID, "content": "first, edited"}, &edited)
		Expect(edited.Content).To(Equal("first, edited"))
		f := favourites(alice, edited.Position).Records[1]
		Expect(f.Content).To(Equal("first, edited"))
		Expect(f.EditTime).To(Equal(edited.EditTime))
		Expect(history(bob, alice, edited.Position)[0].Content).To(Equal("first"))

		s.refused("PUT", "/v1/chat/favoriteInfo/modify", alice, map[string]string{"id": kept.ID, "content": " "}, 400, "Conversation content empty")
		s.refused("PUT", "/v1/chat/favoriteInfo/modify", bob, map[string]string{"id": kept.ID, "content": "x"}, 404, "The favourite is not found")
		s.refused("PUT", "/v1/chat/favoriteInfo/modify", alice, `{"id":`, 400, "invalid request")
		s.refused("POST", "/v1/chat/favoriteInfo/build", carol, map[string]string{"messageId": two.ID}, 404, "message not found")
		s.refused("POST", "/v1/chat/favoriteInfo/build", alice, map[string]string{"messageId": ""}, 400, "message not found")
		s.refused("GET", "/v1/chat/favoriteInfo/list?pageSize=0", alice, nil, 400, "invalid request")
		s.refused("GET", "/v1/chat/favoriteInfo/list?curPage=x", alice, nil, 400, "invalid request")

		By("deleting")
		s.refused("DELETE", "/v1/chat/favoriteInfo/delete", alice, map[string][]string{"ids": {}}, 400, "Please select the records first")
		s.refused("DELETE", "/v1/chat/favoriteInfo/delete", alice, map[string][]string{"ids": {kept.ID, "1234567890123456789"}}, 404, "The favourite is not found")
		s.refused("DELETE", "/v1/chat/favoriteInfo/delete", bob, map[string][]string{"ids": {kept.ID}}, 404, "The favourite is not found")
		Expect(favourites(alice, head()).Total).To(Equal(2))
		pos = s.written("DELETE", "/v1/chat/favoriteInfo/delete?ids="+kept.ID, alice, nil)
		p = favourites(alice, pos)
		Expect(p.Total).To(Equal(1))
		for _, r := range p.Records {
			Expect(r.ID).NotTo(Equal(kept.ID))
		}
	})

	It("refuses to keep recalled messages", func() {
		sent := s.send(alice, bob, "rc-1", "oops")
		s.written("PUT", "/v1/message/recall", alice, map[string]string{"id": sent.ID})
		s.refused("POST", "/v1/chat/favoriteInfo/build", alice, map[string]string{"messageId": sent.ID}, 400, "This message cannot be added to favourites")
		Expect(favourites(alice, head()).Total).To(BeZero())
	})

	It("forwards favourites to friends as Forward messages, also after the message was recalled", func() {
		b := s.dial(bob)
		one := s.send(carol, alice, "ff-1", "from carol")
		var kept struct{ ID string }
		s.ok("POST", "/v1/chat/favoriteInfo/build", alice.Token, map[string]string{"messageId": one.ID}, &kept)
		s.written("PUT", "/v1/message/recall", carol, map[string]string{"id": one.ID})

		body := map[string]any{"uuid": "fav-fw-1", "ids": []string{kept.ID}, "targets": []map[string]string{{"chatType": "Friend", "to": bob.ID}}}
		var out struct {
			Messages []struct {
				ID       string
				To       string
				Position uint64
			}
		}
		s.ok("POST", "/v1/chat/favoriteInfo/forward", alice.Token, body, &out)
		Expect(out.Messages).To(HaveLen(1))
		Expect(out.Messages[0].To).To(Equal(bob.ID))
		var pushed lifeMessage
		Expect(json.Unmarshal(next(b, 11).Data, &pushed)).To(Succeed())
		Expect(pushed.ID).To(Equal(out.Messages[0].ID))
		got := history(bob, alice, out.Messages[0].Position)
		Expect(got).To(HaveLen(1))
		Expect([]string{got[0].MsgType, got[0].Content, got[0].ForwardFrom, got[0].ForwardType}).To(Equal([]string{"Forward", "from carol", carol.ID, "Text"}))

		By("the same uuid again: the first result, nothing appended")
		var again struct{ Messages []struct{ ID string } }
		s.ok("POST", "/v1/chat/favoriteInfo/forward", alice.Token, body, &again)
		Expect(again.Messages[0].ID).To(Equal(out.Messages[0].ID))

		By("refusals")
		eleven := make([]string, 11)
		for i := range eleven {
			eleven[i] = kept.ID
		}
		to := func(id string) []map[string]string { return []map[string]string{{"chatType": "Friend", "to": id}} }
		path := "/v1/chat/favoriteInfo/forward"
		s.refused("POST", path, alice, map[string]any{"uuid": "x1", "ids": eleven, "targets": to(bob.ID)}, 400, "A maximum of 10 records can be forwarded at once!")
		s.refused("POST", path, alice, map[string]any{"uuid": "x2", "ids": []string{}, "targets": to(bob.ID)}, 400, "Please select the records to forward")
		s.refused("POST", path, alice, map[string]any{"uuid": "x3", "ids": []string{kept.ID}}, 400, "Please select who to forward to")
		s.refused("POST", path, alice, map[string]any{"uuid": "x4", "ids": []string{kept.ID}, "targets": to(dave.ID)}, 403, "You are not yet a friend, add first")
		s.refused("POST", path, bob, map[string]any{"uuid": "x5", "ids": []string{kept.ID}, "targets": to(alice.ID)}, 404, "The favourite is not found")
		s.refused("POST", path, alice, map[string]any{"ids": []string{kept.ID}, "targets": to(bob.ID)}, 400, "uuid is required")
		s.refused("POST", path, alice, `[1,2]`, 400, "invalid request")
		Expect(history(bob, alice, head())).To(HaveLen(1))
	})

	It("keeps stickers from uploads and favourite pictures, lists and deletes them, and tells the member's sockets", func() {
		a := s.dial(alice)
		pic := pngOf(4, 3)
		status, up := s.upload(alice.Token, "?type=chat", "file", "smile.png", pic)
		Expect(status).To(Equal(http.StatusOK), up.Info)
		var kept struct {
			ID       string
			Position uint64
		}
		s.ok("POST", "/v1/chat/emojInfo/build", alice.Token, map[string]any{"filePath": up.Data.FilePath, "width": 4, "height": 3}, &kept)
		var pushed struct {
			OperationType string
			IDs           []string
		}
		Expect(json.Unmarshal(next(a, 43).Data, &pushed)).To(Succeed())
		Expect(pushed.OperationType).To(Equal("Add"))
		Expect(pushed.IDs).To(Equal([]string{kept.ID}))

		var ps page[sticker]
		list("/v1/chat/emojInfo/list?curPage=1&pageSize=-1", alice, kept.Position, &ps)
		Expect(ps.Total).To(Equal(1))
		Expect(ps.Records[0].FilePath).To(Equal(up.Data.FilePath))
		Expect(ps.Records[0].Content).To(MatchJSON(fmt.Sprintf(`{"filePath":%q,"fileName":%q,"size":%d,"contentType":"image/png","width":4,"height":3}`,
			up.Data.FilePath, strings.TrimPrefix(up.Data.FilePath, "/v1/sso/im/file/x0001/"), len(pic))))

		By("a sticker is sent as a Picture message")
		var sent sendResult
		s.ok("POST", "/v1/message/send", alice.Token, map[string]string{"uuid": "st-1", "chatType": "Friend", "to": bob.ID, "msgType": "Picture", "content": ps.Records[0].Content}, &sent)

		By("from a favourite picture")
		var fav struct{ ID string }
		s.ok("POST", "/v1/chat/favoriteInfo/build", alice.Token, map[string]string{"messageId": sent.ID}, &fav)
		pos := s.written("POST", "/v1/chat/emojInfo/build", alice, map[string]string{"favoriteId": fav.ID})
		list("/v1/chat/emojInfo/list", alice, pos, &ps)
		Expect(ps.Total).To(Equal(2))

		text := s.send(bob, alice, "st-2", "words")
		var textFav struct{ ID string }
		s.ok("POST", "/v1/chat/favoriteInfo/build", alice.Token, map[string]string{"messageId": text.ID}, &textFav)
		s.refused("POST", "/v1/chat/emojInfo/build", alice, map[string]string{"favoriteId": textFav.ID}, 400, "A sticker must be a picture")
		s.refused("POST", "/v1/chat/emojInfo/build", alice, map[string]string{}, 400, "Choose an uploaded picture or a favourite picture")
		s.refused("POST", "/v1/chat/emojInfo/build", alice, map[string]string{"filePath": "/etc/passwd"}, 400, "the file of this message is not valid")
		s.refused("POST", "/v1/chat/emojInfo/build", alice, map[string]string{"filePath": strings.Replace(up.Data.FilePath, "x0001", "x0002", 1)}, 400, "the file of this message was not uploaded here")
		s.refused("POST", "/v1/chat/emojInfo/build", alice, map[string]string{"filePath": "/v1/sso/im/file/x0001/0123456789abcdef0123456789abcdef.png"}, 400, "the file of this message is not found, upload it again")
		_, doc := s.upload(alice.Token, "?type=chat", "file", "a.pdf", []byte("%PDF-1.4\n"+strings.Repeat("x", 100)))
		s.refused("POST", "/v1/chat/emojInfo/build", alice, map[string]string{"filePath": doc.Data.FilePath}, 400, "A sticker must be a picture")
		s.refused("POST", "/v1/chat/emojInfo/build", bob, map[string]string{"favoriteId": fav.ID}, 404, "The favourite is not found")
		s.refused("POST", "/v1/chat/emojInfo/build", alice, `{"filePath":1}`, 400, "invalid request")

		By("deleting")
		s.refused("DELETE", "/v1/chat/emojInfo/delete", alice, map[string][]string{"ids": {}}, 400, "Please select the records first")
		s.refused("DELETE", "/v1/chat/emojInfo/delete", bob, map[string][]string{"ids": {kept.ID}}, 404, "The sticker is not found")
		list("/v1/chat/emojInfo/list", alice, head(), &ps)
		Expect(ps.Total).To(Equal(2))
		pos = s.written("DELETE", "/v1/chat/emojInfo/delete", alice, map[string][]string{"ids": {kept.ID}})
		Eventually(func() string {
			Expect(json.Unmarshal(next(a, 43).Data, &pushed)).To(Succeed())
			return pushed.OperationType
		}).Should(Equal("Del"))
		Expect(pushed.IDs).To(Equal([]string{kept.ID}))
		list("/v1/chat/emojInfo/list", alice, pos, &ps)
		Expect(ps.Total).To(Equal(1))
		Expect(ps.Records[0].ID).NotTo(Equal(kept.ID))
	})

	It("sends a mass message to each friend, lists it, is idempotent, and clears the list", func() {
		b, c := s.dial(bob), s.dial(carol)
		body := map[string]any{"uuid": "mass-1", "recipients": []string{bob.ID, carol.ID}, "content": "hello all"}
		var out struct {
			ID       string
			Position uint64
			Messages []struct{ ID, To string }
		}
		s.ok("POST", "/v1/chat/batchSend/build", alice.Token, body, &out)
		Expect([]string{out.Messages[0].To, out.Messages[1].To}).To(Equal([]string{bob.ID, carol.ID}))
		for _, m := range []member{bob, carol} {
			got := history(m, alice, out.Position)
			Expect(got).To(HaveLen(1))
			Expect([]string{got[0].MsgType, got[0].Content, got[0].From}).To(Equal([]string{"Text", "hello all", alice.ID}))
		}
		var pushed lifeMessage
		Expect(json.Unmarshal(next(b, 11).Data, &pushed)).To(Succeed())
		Expect(pushed.Content).To(Equal("hello all"))
		Expect(json.Unmarshal(next(c, 11).Data, &pushed)).To(Succeed())
		Expect(pushed.Content).To(Equal("hello all"))

		var bs page[batch]
		list("/v1/chat/batchSend/list", alice, out.Position, &bs)
		Expect(bs.Total).To(Equal(1))
		Expect(bs.Records[0]).To(Equal(batch{ID: out.ID, MsgType: "Text", Content: "hello all",
			Recipients: []string{bob.ID, carol.ID}, MessageIDs: []string{out.Messages[0].ID, out.Messages[1].ID}}))

		By("the same uuid again")
		var again struct {
			ID       string
			Messages []struct{ ID string }
		}
		s.ok("POST", "/v1/chat/batchSend/build", alice.Token, body, &again)
		Expect(again.ID).To(Equal(out.ID))
		Expect(again.Messages[1].ID).To(Equal(out.Messages[1].ID))

		By("a picture to one friend")
		_, up := s.upload(alice.Token, "?type=chat", "file", "p.png", pngOf(2, 2))
		content, _ := json.Marshal(map[string]any{"filePath": up.Data.FilePath, "fileName": "p.png", "size": up.Data.Size, "contentType": up.Data.ContentType})
		pos := s.written("POST", "/v1/chat/batchSend/build", alice, map[string]any{"uuid": "mass-2", "recipients": []string{carol.ID}, "msgType": "Picture", "content": string(content)})
		list("/v1/chat/batchSend/list", alice, pos, &bs)
		Expect(bs.Total).To(Equal(2))
		Expect(bs.Records[0].MsgType).To(Equal("Picture"))
		Expect(history(bob, alice, pos)).To(HaveLen(1))
		Expect(history(carol, alice, pos)).To(HaveLen(2))

		By("clearing the list: the messages stay")
		pos = s.written("PUT", "/v1/chat/batchSend/clear", alice, nil)
		list("/v1/chat/batchSend/list", alice, pos, &bs)
		Expect(bs.Total).To(BeZero())
		Expect(bs.Records).To(BeEmpty())
		Expect(history(carol, alice, pos)).To(HaveLen(2))
	})

	It("refuses a mass message before appending anything", func() {
		By("a member of another tenant")
		phone := "13712345679"
		s.ok("GET", "/v1/member/sms/send?phone="+phone+"&type=register&tenantCode=x0002", "", nil, nil)
		var zed struct{ ID string }
		s.ok("POST", "/v1/member/memberInfo/register", "", map[string]string{
			"phone": phone, "smsCode": s.smsCode(phone), "account": "zed00002", "password": "pass1234", "tenantCode": "x0002"}, &zed)

		path := "/v1/chat/batchSend/build"
		mass := func(uuid string, to ...string) map[string]any {
			return map[string]any{"uuid": uuid, "recipients": to, "content": "hi"}
		}
		s.refused("POST", path, alice, mass("m1", bob.ID, dave.ID), 403, "You are not yet a friend, add first")
		s.refused("POST", path, alice, mass("m2", bob.ID, zed.ID), 404, "member not found")
		s.refused("POST", path, alice, mass("m3"), 400, "Please select the recipients")
		many := make([]string, 101)
		for i := range many {
			many[i] = fmt.Sprintf("%019d", i)
		}
		s.refused("POST", path, alice, mass("m4", many...), 400, "A mass message can go to at most 100 friends")
		s.refused("POST", path, alice, map[string]any{"uuid": "m5", "recipients": []string{bob.ID}, "content": " "}, 400, "Conversation content empty")
		s.refused("POST", path, alice, map[string]any{"uuid": "m6", "recipients": []string{bob.ID}, "content": "x", "msgType": "Forward"}, 400,
			"A mass message is a text, a picture, a video, a voice message or a file")
		s.refused("POST", path, alice, map[string]any{"recipients": []string{bob.ID}, "content": "x"}, 400, "uuid is required")
		s.refused("POST", path, alice, map[string]any{"uuid": "m7", "recipients": []string{bob.ID}, "msgType": "Picture", "content": "{}"}, 400, "the file of this message was not uploaded here")
		s.refused("POST", path, alice, `{"recipients":"x"}`, 400, "invalid request")

		By("turned off in the settings")
		var me struct{ SendBatchMessage string }
		s.ok("GET", "/v1/member/memberInfo/getMemberByToken", alice.Token, nil, &me)
		Expect(me.SendBatchMessage).To(Equal("Enable"))
		s.refused("PUT", "/v1/chat/batchSend/setting", alice, map[string]string{"sendBatchMessage": "Off"}, 400, "sendBatchMessage must be Enable or Disable")
		pos := s.written("PUT", "/v1/chat/batchSend/setting", alice, map[string]string{"sendBatchMessage": "Disable"})
		s.ok("GET", fmt.Sprintf("/v1/member/memberInfo/getMemberByToken?after=%d", pos), alice.Token, nil, &me)
		Expect(me.SendBatchMessage).To(Equal("Disable"))
		s.refused("POST", path, alice, mass("m8", bob.ID), 403, "Mass send is not enabled for this account")
		code, env := s.call("POST", path, alice.Token, mass("m9", bob.ID), "Accept-Language", "zh_CN")
		Expect(code).To(Equal(403))
		Expect(env.Info).To(Equal("该账号未开通群发功能"))

		pos = head()
		Expect(history(bob, alice, pos)).To(HaveLen(0))
		Expect(history(carol, alice, pos)).To(BeEmpty())
		var bs page[batch]
		list("/v1/chat/batchSend/list", alice, pos, &bs)
		Expect(bs.Total).To(BeZero())

		s.written("PUT", "/v1/chat/batchSend/setting", alice, map[string]string{"sendBatchMessage": "Enable"})
		Expect(s.written("POST", path, alice, mass("m10", bob.ID))).To(BeNumerically(">", pos))
	})

	It("needs a token for every personal route", func() {
		for _, r := range [][2]string{
			{"POST", "/v1/chat/favoriteInfo/build"}, {"GET", "/v1/chat/favoriteInfo/list"}, {"PUT", "/v1/chat/favoriteInfo/modify"},
			{"DELETE", "/v1/chat/favoriteInfo/delete"}, {"POST", "/v1/chat/favoriteInfo/forward"}, {"POST", "/v1/chat/emojInfo/build"},
			{"GET", "/v1/chat/emojInfo/list"}, {"DELETE", "/v1/chat/emojInfo/delete"}, {"POST", "/v1/chat/batchSend/build"},
			{"GET", "/v1/chat/batchSend/list"}, {"PUT", "/v1/chat/batchSend/clear"}, {"PUT", "/v1/chat/batchSend/setting"},
		} {
			code, _ := s.call(r[0], r[1], "", nil)
			Expect(code).To(Equal(http.StatusUnauthorized), r[1])
		}
	})
})
