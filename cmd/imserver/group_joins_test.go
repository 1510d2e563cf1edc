package main

import (
	"encoding/json"
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Group join requests", func() {
	var s *testServer
	var alice, bob, carol, dave member
	var groupID string
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob, carol, dave = s.register("alice001"), s.register("bob00001"), s.register("carol001"), s.register("dave0001")
		s.befriend(alice, bob)
		s.befriend(bob, carol)
		s.befriend(bob, dave)
		s.befriend(alice, dave)
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "memberIds": []string{bob.ID}}, &created)
		groupID = created.GroupID
	})

	type request struct {
		ID, GroupID, GroupName, MemberID, InviterID, Status string
		Member                                              struct{ Name string }
	}
	requests := func(m member, after uint64) []request {
		GinkgoHelper()
		var page struct {
			Records []request
			Total   int
		}
		s.ok("GET", fmt.Sprintf("/v1/chat/applyInfo/listGroupApplyInfo?after=%d", after), m.Token, nil, &page)
		Expect(page.Total).To(Equal(len(page.Records)))
		return page.Records
	}
	invite := func(by member, ids ...string) uint64 {
		GinkgoHelper()
		return s.written("POST", "/v1/chat/applyInfo/batchMemberToGroup", by, map[string]any{"groupId": groupID, "memberIds": ids})
	}

	It("makes a Normal member's invitations wait for the owner, who lets one in and refuses another", func() {
		a, c := s.dial(alice), s.dial(carol)
		at := invite(bob, carol.ID, dave.ID)
		next(a, 26)
		list := requests(alice, at)
		Expect(list).To(HaveLen(2))
		for _, r := range list {
			Expect([]string{r.GroupID, r.GroupName, r.InviterID, r.Status}).To(Equal([]string{groupID, "Team", bob.ID, "pending"}))
		}
		Expect(requests(bob, at)).To(BeEmpty(), "a Normal member manages no group")
		Expect(invite(bob, carol.ID)).To(BeZero(), "one already waiting is not asked again")

		byMember := map[string]string{list[0].MemberID: list[0].ID, list[1].MemberID: list[1].ID}
		s.written("PUT", "/v1/chat/applyInfo/modify", alice, map[string]string{"id": byMember[carol.ID], "status": "accepted"})
		var joined struct{ GroupID, OperationType string }
		Expect(json.Unmarshal(next(c, 22).Data, &joined)).To(Succeed())
		Expect(joined).To(Equal(struct{ GroupID, OperationType string }{groupID, "Joined"}))
		at = s.written("PUT", "/v1/chat/applyInfo/modify", alice, map[string]string{"id": byMember[dave.ID], "status": "rejected"})
		statuses := map[string]string{}
		for _, r := range requests(alice, at) {
			statuses[r.Member.Name] = r.Status
		}
		Expect(statuses).To(Equal(map[string]string{"carol001": "accepted", "dave0001": "rejected"}))
		Expect(members(s, alice, groupID, at)).To(Equal([]string{"alice001:Owner", "bob00001:Normal", "carol001:Normal"}))

		s.refused("PUT", "/v1/chat/applyInfo/modify", alice, map[string]string{"id": byMember[dave.ID], "status": "accepted"},
			http.StatusConflict, "the selected items have already been processed")
	})

	It("lets an admin add members at once, and answer requests; a Normal member may not answer", func() {
		invite(bob, dave.ID)
		at := s.written("PUT", "/v1/chat/groupInfo/setMemberRole", alice, map[string]string{"groupId": groupID, "memberId": bob.ID, "role": "Admin"})
		pending := requests(bob, at)
		Expect(pending).To(HaveLen(1))
		at = invite(bob, carol.ID)
		Expect(members(s, bob, groupID, at)).To(ContainElement("carol001:Normal"))
		s.refused("PUT", "/v1/chat/applyInfo/modify", carol, map[string]string{"id": pending[0].ID, "status": "accepted"},
			http.StatusForbidden, "you are not allowed to do this")
		s.written("PUT", "/v1/chat/applyInfo/modify", bob, map[string]string{"id": pending[0].ID, "status": "accepted"})
	})
})

// members lists a group's members as name:role, as m sees them after a
// position.
func members(s *testServer, m member, groupID string, after uint64) []string {
	GinkgoHelper()
	var items []struct{ Name, Role string }
	s.ok("GET", fmt.Sprintf("/v1/chat/groupInfo/listGroupMember?groupId=%s&after=%d", groupID, after), m.Token, nil, &items)
	out := []string{}
	for _, it := range items {
		out = append(out, it.Name+":"+it.Role)
	}
	return out
}
