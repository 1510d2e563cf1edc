package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"
)

var _ = Describe("Concurrent writes of one member", func() {
	const n = 32
	var s *testServer
	var alice, bob member
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob = s.register("alice001"), s.register("bob00001")
		s.befriend(alice, bob)
	})

	// race makes n calls at once, the i-th with body(i), and expects every
	// one answered 200; it returns the highest position written.
	race := func(method, path string, m member, body func(i int) any) uint64 {
		GinkgoHelper()
		statuses, infos, positions := make([]int, n), make([]string, n), make([]uint64, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer GinkgoRecover()
				<-start
				var env envelope
				statuses[i], env = s.call(method, path, m.Token, body(i))
				infos[i] = env.Info
				var out struct{ Position uint64 }
				_ = json.Unmarshal(env.Data, &out)
				positions[i] = out.Position
			}()
		}
		close(start)
		wg.Wait()
		for i, status := range statuses {
			Expect(status).To(Equal(http.StatusOK), "%s %s #%d: %s", method, path, i, infos[i])
		}
		return slices.Max(positions)
	}

	It("records all 32 parallel feedbacks", func() {
		pos := race("POST", "/v1/member/feedback/build", alice, func(i int) any {
			return map[string]string{"type": "bug", "content": fmt.Sprintf("report %d", i)}
		})
		var page struct {
			Records []struct{ Content string }
			Total   int
		}
		s.ok("GET", fmt.Sprintf("/v1/admin/feedback/list?tenant=x0001&pageSize=100&after=%d", pos), s.operator().Token, nil, &page)
		Expect(page.Total).To(Equal(n))
	})

	It("keeps one of 32 parallel profile changes as the profile", func() {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("Alice %02d", i)
		}
		pos := race("PUT", "/v1/member/memberInfo/modify", alice, func(i int) any { return map[string]string{"name": names[i]} })
		var me struct{ Name string }
		s.ok("GET", fmt.Sprintf("/v1/member/memberInfo/getMemberByToken?after=%d", pos), alice.Token, nil, &me)
		Expect(names).To(ContainElement(me.Name))
	})

	It("keeps every setting of 32 parallel settings changes", func() {
		changes := []map[string]any{{"fontSize": 2}, {"background": "night"}, {"notifications": false}, {"imagePreviewWindow": true}}
		pos := race("PUT", "/v1/member/memberSetting/modify", alice, func(i int) any { return changes[i%len(changes)] })
		var got map[string]any
		s.ok("GET", fmt.Sprintf("/v1/member/memberSetting/get?after=%d", pos), alice.Token, nil, &got)
		Expect(got).To(MatchKeys(IgnoreExtras, Keys{"fontSize": BeEquivalentTo(2), "background": Equal("night"),
			"notifications": BeFalse(), "imagePreviewWindow": BeTrue()}))
	})

	It("logs in 32 devices at once", func() {
		race("POST", "/v1/member/memberInfo/login", member{}, func(int) any {
			return map[string]string{"account": "alice001", "password": "pass1234"}
		})
	})

	It("applies 32 parallel changes of a group by its owner, one of them last", func() {
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "memberIds": []string{bob.ID}}, &created)
		notices := make([]string, n)
		for i := range notices {
			notices[i] = fmt.Sprintf("notice %02d", i)
		}
		pos := race("PUT", "/v1/chat/groupInfo/modify", alice, func(i int) any {
			return map[string]string{"groupId": created.GroupID, "notice": notices[i]}
		})
		var info struct{ Notice string }
		s.ok("GET", fmt.Sprintf("/v1/chat/groupInfo/getGroupInfoByGroupId?groupId=%s&after=%d", created.GroupID, pos), bob.Token, nil, &info)
		Expect(notices).To(ContainElement(info.Notice))
	})

	It("keeps all 32 parallel favourites", func() {
		ids := make([]string, n)
		for i := range ids {
			ids[i] = s.send(bob, alice, fmt.Sprintf("fav-%d", i), fmt.Sprintf("keep %d", i)).ID
		}
		pos := race("POST", "/v1/chat/favoriteInfo/build", alice, func(i int) any { return map[string]string{"messageId": ids[i]} })
		var p page[favourite]
		s.ok("GET", fmt.Sprintf("/v1/chat/favoriteInfo/list?pageSize=100&after=%d", pos), alice.Token, nil, &p)
		Expect(p.Total).To(Equal(n))
	})

	It("pins a conversation once under 32 parallel pins", func() {
		s.send(bob, alice, "m1", "hello")
		pos := race("POST", "/v1/chat/topInfo/build", alice, func(int) any {
			return map[string]string{"chatType": "Friend", "friendMemberId": bob.ID}
		})
		var pinned []conversationItem
		s.ok("GET", fmt.Sprintf("/v1/chat/topInfo/list?after=%d", pos), alice.Token, nil, &pinned)
		Expect(pinned).To(HaveLen(1))
		Expect(pinned[0].ID).To(Equal(bob.ID))
	})
})
