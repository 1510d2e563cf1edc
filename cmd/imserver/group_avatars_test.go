package main

import (
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Group avatars", func() {
	const refusal = "the group avatar must be a jpg or png picture you uploaded"
	var s *testServer
	var alice, bob member
	var own, bobs, gif string
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob = s.register("alice001"), s.register("bob00001")
		s.befriend(alice, bob)
		uploadOf := func(m member, name string, content []byte) string {
			GinkgoHelper()
			status, up := s.upload(m.Token, "", "file", name, content)
			Expect(status).To(Equal(http.StatusOK), up.Info)
			return up.Data.FilePath
		}
		own, bobs, gif = uploadOf(alice, "a.png", pngOf(4, 4)), uploadOf(bob, "b.png", pngOf(4, 4)), uploadOf(alice, "a.gif", gif1x1)
	})

	build := func(headURL string) (int, envelope) {
		GinkgoHelper()
		return s.call("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "headUrl": headURL, "memberIds": []string{bob.ID}})
	}
	avatarOf := func(groupID string, after uint64) string {
		GinkgoHelper()
		var info struct{ HeadURL string }
		s.ok("GET", fmt.Sprintf("/v1/chat/groupInfo/getGroupInfoByGroupId?groupId=%s&after=%d", groupID, after), bob.Token, nil, &info)
		return info.HeadURL
	}
	hostile := func() []TableEntry {
		return []TableEntry{
			Entry("an outside address", func() string { return "https://evil.example/track.png" }),
			Entry("a scheme-relative address", func() string { return "//evil.example/track.png" }),
			Entry("a script", func() string { return "javascript:alert(1)" }),
			Entry("inline data", func() string { return "data:image/png;base64,iVBORw0KGgo=" }),
			Entry("a path out of the uploads", func() string { return "/v1/sso/im/file/x0001/../../../etc/passwd" }),
			Entry("another tenant's file", func() string { return strings.Replace(own, "/x0001/", "/x0002/", 1) }),
			Entry("another member's upload", func() string { return bobs }),
			Entry("a gif", func() string { return gif }),
			Entry("a file never uploaded", func() string { return strings.Replace(own, ".png", ".jpg", 1) }),
		}
	}

	DescribeTable("refuses a hostile avatar at creation and creates nothing",
		func(headURL func() string) {
			before := s.head()
			status, env := build(headURL())
			Expect(status).To(Equal(http.StatusBadRequest))
			Expect(env.Info).To(Equal(refusal))
			Expect(s.head()).To(Equal(before))
		},
		hostile(),
	)

	DescribeTable("refuses a hostile avatar on a change and keeps the group's",
		func(headURL func() string) {
			var created struct {
				GroupID  string
				Position uint64
			}
			s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "headUrl": own, "memberIds": []string{bob.ID}}, &created)
			before := s.head()
			s.refused("PUT", "/v1/chat/groupInfo/modify", alice, map[string]string{"groupId": created.GroupID, "headUrl": headURL()}, http.StatusBadRequest, refusal)
			Expect(s.head()).To(Equal(before))
			Expect(avatarOf(created.GroupID, created.Position)).To(Equal(own))
		},
		hostile(),
	)

	It("takes the creator's own upload, and a modifier's own upload, and lets a form send the current avatar back", func() {
		var created struct {
			GroupID  string
			Position uint64
		}
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "headUrl": own, "memberIds": []string{bob.ID}}, &created)
		Expect(avatarOf(created.GroupID, created.Position)).To(Equal(own))

		s.written("PUT", "/v1/chat/groupInfo/setMemberRole", alice, map[string]string{"groupId": created.GroupID, "memberId": bob.ID, "role": "Admin"})
		pos := s.written("PUT", "/v1/chat/groupInfo/modify", bob, map[string]string{"groupId": created.GroupID, "name": "Renamed", "headUrl": own})
		Expect(avatarOf(created.GroupID, pos)).To(Equal(own), "alice's avatar stays when bob's form sends it back")
		pos = s.written("PUT", "/v1/chat/groupInfo/modify", bob, map[string]string{"groupId": created.GroupID, "headUrl": bobs})
		Expect(avatarOf(created.GroupID, pos)).To(Equal(bobs))
		pos = s.written("PUT", "/v1/chat/groupInfo/modify", alice, map[string]string{"groupId": created.GroupID, "headUrl": ""})
		Expect(avatarOf(created.GroupID, pos)).To(BeEmpty())
	})

	It("refuses in the member's language", func() {
		for lang, text := range map[string]string{"zh-CN": "群头像必须是您自己上传的 jpg 或 png 图片", "vi": "Ảnh đại diện nhóm phải là ảnh jpg hoặc png do chính bạn tải lên"} {
			status, env := s.call("POST", "/v1/chat/groupInfo/build", alice.Token,
				map[string]any{"name": "Team", "headUrl": bobs, "memberIds": []string{bob.ID}}, "Accept-Language", lang)
			Expect(status).To(Equal(http.StatusBadRequest))
			Expect(env.Info).To(Equal(text))
		}
	})
})
