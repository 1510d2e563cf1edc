package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

// previewItem is a conversation-list item with what its preview needs.
type previewItem struct {
	ID                         string `json:"id"`
	Name                       string `json:"name"`
	LastMessageID              string `json:"lastMessageId"`
	LastMessageType            string `json:"lastMessageType"`
	LastMessageContent         string `json:"lastMessageContent"`
	LastMessageFrom            string `json:"lastMessageFrom"`
	LastMessageFromName        string `json:"lastMessageFromName"`
	LastMessageFileName        string `json:"lastMessageFileName"`
	LastMessageForwardFrom     string `json:"lastMessageForwardFrom"`
	LastMessageForwardType     string `json:"lastMessageForwardType"`
	LastMessageForwardFromName string `json:"lastMessageForwardFromName"`
}

var _ = Describe("The conversation list's previews", func() {
	var (
		dir               string
		s                 *testServer
		alice, bob, carol member
	)
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		s = startServer(dir)
		alice, bob, carol = s.register("alicep01"), s.register("bobpv001"), s.register("carolp01")
		s.befriend(alice, bob)
		s.befriend(alice, carol)
	})

	itemWith := func(viewer member, peer string, after uint64) previewItem {
		GinkgoHelper()
		var items []previewItem
		s.ok("GET", fmt.Sprintf("/v1/message/sessionInfo/list?after=%d", after), viewer.Token, nil, &items)
		for _, it := range items {
			if it.ID == peer {
				return it
			}
		}
		Fail("no conversation with " + peer)
		return previewItem{}
	}
	forward := func(from member, uuid, messageID string, to member) uint64 {
		GinkgoHelper()
		var fw struct{ Messages []struct{ Position uint64 } }
		s.ok("POST", "/v1/message/forward", from.Token, map[string]any{"uuid": uuid, "messageIds": []string{messageID},
			"targets": []map[string]string{{"chatType": "Friend", "to": to.ID}}}, &fw)
		Expect(fw.Messages).To(HaveLen(1))
		return fw.Messages[0].Position
	}

	It("names a file, and of a forward its original sender and what it forwarded, after a restart too; an erased sender by the placeholder", func() {
		status, up := s.upload(alice.Token, "", "file", "report.pdf", []byte("%PDF-1.7\n1 0 obj\n"))
		Expect(status).To(Equal(http.StatusOK))
		content, err := json.Marshal(map[string]any{"filePath": up.Data.FilePath, "fileName": "report.pdf",
			"size": up.Data.Size, "contentType": up.Data.ContentType})
		Expect(err).NotTo(HaveOccurred())
		var file sendResult
		s.ok("POST", "/v1/message/send", alice.Token, map[string]string{"uuid": "pv-file", "chatType": "Friend", "to": bob.ID,
			"msgType": "File", "content": string(content)}, &file)
		aliceName := itemWith(bob, alice.ID, file.Position).Name
		Expect(aliceName).NotTo(BeEmpty())
		Expect(itemWith(bob, alice.ID, file.Position)).To(Equal(previewItem{
			ID: alice.ID, Name: aliceName, LastMessageID: file.ID, LastMessageType: "File",
			LastMessageContent: "[file]", LastMessageFrom: alice.ID, LastMessageFromName: aliceName, LastMessageFileName: "report.pdf",
		}))

		By("a forwarded file: its name, its sender and its type")
		pos := forward(bob, "pv-fw-file", file.ID, alice)
		got := itemWith(alice, bob.ID, pos)
		Expect([]string{got.LastMessageType, got.LastMessageContent, got.LastMessageFileName, got.LastMessageForwardFrom,
			got.LastMessageForwardType, got.LastMessageForwardFromName}).To(Equal([]string{
			"Forward", "[file]", "report.pdf", alice.ID, "File", aliceName}))

		By("a forwarded text: the text, and no file name left from the message before")
		look := s.send(bob, alice, "pv-look", "look at this")
		pos = forward(alice, "pv-fw-text", look.ID, carol)
		got = itemWith(carol, alice.ID, pos)
		bobName := itemWith(alice, bob.ID, 0).Name
		Expect([]string{got.LastMessageType, got.LastMessageContent, got.LastMessageFileName, got.LastMessageForwardFrom,
			got.LastMessageForwardType, got.LastMessageForwardFromName}).To(Equal([]string{
			"Forward", "look at this", "", bob.ID, "Text", bobName}))
		again := s.send(alice, bob, "pv-plain", "plain")
		got = itemWith(bob, alice.ID, again.Position)
		Expect([]string{got.LastMessageType, got.LastMessageFileName, got.LastMessageForwardFrom, got.LastMessageForwardType}).To(
			Equal([]string{"Text", "", "", ""}))

		By("a recalled file: the recall's placeholder and no file name")
		s.ok("POST", "/v1/message/send", alice.Token, map[string]string{"uuid": "pv-file-2", "chatType": "Friend", "to": bob.ID,
			"msgType": "File", "content": string(content)}, &file)
		pos = s.written("PUT", "/v1/message/recall", alice, map[string]string{"id": file.ID})
		got = itemWith(bob, alice.ID, pos)
		Expect([]string{got.LastMessageType, got.LastMessageContent, got.LastMessageFileName, got.LastMessageFrom, got.LastMessageFromName}).To(
			Equal([]string{"File", "[recalled]", "", alice.ID, aliceName}), "who recalled it: its sender")

		By("after a restart")
		Expect(s.stop()).To(Succeed())
		s = startServer(dir)
		carol = s.login("carolp01")
		got = itemWith(carol, alice.ID, 0)
		Expect([]string{got.LastMessageContent, got.LastMessageForwardFrom, got.LastMessageForwardType, got.LastMessageForwardFromName}).To(
			Equal([]string{"look at this", bob.ID, "Text", bobName}))

		By("the erased original sender shows as the placeholder")
		erased := s.written("PUT", "/v1/admin/member/erase", s.operator(), map[string]string{"tenant": "x0001", "account": "bobpv001"})
		got = itemWith(carol, alice.ID, erased)
		Expect(got.LastMessageForwardFrom).To(Equal(bob.ID))
		Expect(got.LastMessageForwardFromName).To(Equal(projections.ErasedName))
	})

	It("names a group message's sender, and a recalled one's without prefixing the recall", func() {
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "memberIds": []string{bob.ID, carol.ID}}, &created)
		var hi sendResult
		s.ok("POST", "/v1/message/send", bob.Token, map[string]string{"uuid": "pv-g1", "chatType": "Group", "groupId": created.GroupID,
			"msgType": "Text", "content": "hello team"}, &hi)
		var me struct{ Name string }
		s.ok("GET", "/v1/member/memberInfo/getMemberByToken", bob.Token, nil, &me)
		bobName := me.Name
		Expect(bobName).NotTo(BeEmpty())
		got := itemWith(carol, created.GroupID, hi.Position)
		Expect([]string{got.LastMessageContent, got.LastMessageFrom, got.LastMessageFromName}).To(Equal([]string{bobName + ": hello team", bob.ID, bobName}))

		pos := s.written("PUT", "/v1/message/recall", bob, map[string]string{"id": hi.ID})
		got = itemWith(carol, created.GroupID, pos)
		Expect([]string{got.LastMessageContent, got.LastMessageFrom, got.LastMessageFromName}).To(Equal([]string{"[recalled]", bob.ID, bobName}))
	})

	It("folds the log again at start over the read store of an older build, which kept no preview fields", func() {
		status, up := s.upload(alice.Token, "", "file", "report.pdf", []byte("%PDF-1.7\n1 0 obj\n"))
		Expect(status).To(Equal(http.StatusOK))
		content, err := json.Marshal(map[string]any{"filePath": up.Data.FilePath, "fileName": "report.pdf",
			"size": up.Data.Size, "contentType": up.Data.ContentType})
		Expect(err).NotTo(HaveOccurred())
		var file sendResult
		s.ok("POST", "/v1/message/send", alice.Token, map[string]string{"uuid": "pv-old", "chatType": "Friend", "to": bob.ID,
			"msgType": "File", "content": string(content)}, &file)
		Expect(itemWith(bob, alice.ID, file.Position).LastMessageFileName).To(Equal("report.pdf"))
		Expect(s.stop()).To(Succeed())

		// The sessions table as schema 6 had it.
		db, err := sql.Open("sqlite", filepath.Join(dir, "read.db"))
		Expect(err).NotTo(HaveOccurred())
		for _, stmt := range []string{
			`ALTER TABLE sessions DROP COLUMN last_message_from`,
			`ALTER TABLE sessions DROP COLUMN last_message_file_name`,
			`ALTER TABLE sessions DROP COLUMN last_message_forward_from`,
			`ALTER TABLE sessions DROP COLUMN last_message_forward_type`,
			`PRAGMA user_version = 6`,
		} {
			_, err = db.Exec(stmt)
			Expect(err).NotTo(HaveOccurred(), stmt)
		}
		Expect(db.Close()).To(Succeed())

		s = startServer(dir)
		bob = s.login("bobpv001")
		got := itemWith(bob, alice.ID, file.Position)
		Expect([]string{got.LastMessageType, got.LastMessageFileName, got.LastMessageFrom}).To(Equal([]string{"File", "report.pdf", alice.ID}))
	})
})
