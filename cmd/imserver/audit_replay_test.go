package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"

	"github.com/eventchat/eventchat/adapters/authtoken"
	pebblestore "github.com/eventchat/eventchat/adapters/eventstore/pebble"
	"github.com/eventchat/eventchat/adapters/sqlitec"
	"github.com/eventchat/eventchat/domain/audit"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Audit replays, verify and compare", func() {
	var (
		s                  *testServer
		dir, op            string
		alice, bob, carol  member
		zed, yan           member
		groupID            string
		promoted, beforeUp uint64
	)
	// audit calls an audit route that must succeed.
	call := func(method, path string, body, out any) {
		GinkgoHelper()
		s.ok(method, "/v1/admin/audit"+path, op, body, out)
	}
	refused := func(method, path string, body any, status int, info string) {
		GinkgoHelper()
		code, env := s.call(method, "/v1/admin/audit"+path, op, body)
		Expect(code).To(Equal(status), env.Info)
		Expect(env.Info).To(Equal(info))
	}
	done := func(r projections.Replay) projections.Replay {
		GinkgoHelper()
		Eventually(func() string {
			call("GET", "/replays/"+r.ID, nil, &r)
			return r.State
		}).Should(Equal(projections.ReplayDone), "replay %s: %s", r.ID, r.Error)
		return r
	}
	replay := func(body any) projections.Replay {
		GinkgoHelper()
		var r projections.Replay
		call("POST", "/replays", body, &r)
		return done(r)
	}
	equal := func(models []projections.ModelComparison) {
		GinkgoHelper()
		Expect(models).To(HaveLen(14))
		for _, m := range models {
			Expect(m.Equal).To(BeTrue(), "%s differs at %s", m.Name, m.FirstDifference)
		}
	}
	auditFiles := func() []string {
		GinkgoHelper()
		names, err := filepath.Glob(filepath.Join(dir, "audit", "*"))
		Expect(err).NotTo(HaveOccurred())
		return names
	}

	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		createTenant(dir, "x0002")
		s = startServer(dir)
		key, err := authtoken.LoadSecret(dir, false)
		Expect(err).NotTo(HaveOccurred())
		tokens, err := authtoken.New(key, nil)
		Expect(err).NotTo(HaveOccurred())
		op = tokens.IssueOperator("auditor", time.Now().Add(authtoken.MaxOperatorTTL))

		alice, bob, carol = s.register("audita01"), s.register("auditb01"), s.register("auditc01")
		zed, yan = s.registerIn("x0002", "auditz01"), s.registerIn("x0002", "audity01")
		s.befriend(alice, bob)
		s.befriend(alice, carol)
		s.befriend(zed, yan)
		var created struct {
			GroupID  string
			Position uint64
		}
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Team", "memberIds": []string{bob.ID, carol.ID}}, &created)
		groupID = created.GroupID
		beforeUp = s.send(alice, bob, "au-1", "before the promotion").Position
		promoted = s.written("PUT", "/v1/chat/groupInfo/setMemberRole", alice, map[string]string{"groupId": groupID, "memberId": bob.ID, "role": "Admin"})
		s.send(alice, bob, "au-2", "after the promotion")
		s.send(zed, yan, "au-3", "in the other tenant")
	})

	It("replays a tenant as it stood before a change and browses it with the member views", func() {
		r := replay(map[string]any{"tenant": "x0001", "position": promoted - 1})
		Expect(r.Tenant).To(Equal("x0001"))
		Expect(r.Position).To(Equal(promoted - 1))
		Expect(r.Done).To(BeNumerically(">", 0), "the tenant's events folded are counted")

		var roles []struct{ MemberID, Role, Name string }
		call("GET", "/replays/"+r.ID+"/groupMembers?groupId="+groupID, nil, &roles)
		Expect(roles).To(ConsistOf(
			MatchFields(IgnoreExtras, Fields{"MemberID": Equal(alice.ID), "Role": Equal("Owner")}),
			MatchFields(IgnoreExtras, Fields{"MemberID": Equal(bob.ID), "Role": Equal("Normal")}),
			MatchFields(IgnoreExtras, Fields{"MemberID": Equal(carol.ID), "Role": Equal("Normal")}),
		))
		var groups struct {
			Managed, Joined []struct{ ID, Name, MyRole string }
		}
		call("GET", "/replays/"+r.ID+"/groups?memberId="+bob.ID, nil, &groups)
		Expect(groups.Managed).To(BeEmpty())
		Expect(groups.Joined).To(HaveLen(1))
		Expect(groups.Joined[0].MyRole).To(Equal("Normal"))

		var history []struct{ Content string }
		call("GET", "/replays/"+r.ID+"/history?memberId="+alice.ID+"&friendId="+bob.ID, nil, &history)
		Expect(history).NotTo(BeEmpty())
		Expect(history[len(history)-1].Content).To(Equal("before the promotion"))
		for _, m := range history {
			Expect(m.Content).NotTo(Equal("after the promotion"))
		}
		// The live history has the later message: the replay is apart.
		var live []struct{ Content string }
		s.ok("GET", "/v1/message/messagePush/history/list/page?friendMemberId="+bob.ID, alice.Token, nil, &live)
		Expect(live[len(live)-1].Content).To(Equal("after the promotion"))

		var sessions []struct {
			Name, LastMessageContent string
		}
		call("GET", "/replays/"+r.ID+"/sessions?memberId="+alice.ID, nil, &sessions)
		Expect(sessions).To(ContainElement(MatchFields(IgnoreExtras, Fields{"Name": Equal("auditb01"), "LastMessageContent": Equal("before the promotion")})))
		var friends []struct{ FriendMemberID string }
		call("GET", "/replays/"+r.ID+"/friends?memberId="+alice.ID, nil, &friends)
		Expect(friends).To(HaveLen(2))

		// Nothing of the other tenant.
		refused("GET", "/replays/"+r.ID+"/sessions?memberId="+zed.ID, nil, http.StatusNotFound, "member not found")
		refused("GET", "/replays/"+r.ID+"/history?memberId="+alice.ID, nil, http.StatusBadRequest, "Friend not in friend list or deleted")

		// Replays stay across a restart, and go with DELETE.
		Expect(s.stop()).To(Succeed())
		s = startServer(dir)
		var all []projections.Replay
		call("GET", "/replays?tenant=x0001", nil, &all)
		Expect(all).To(ContainElement(MatchFields(IgnoreExtras, Fields{"ID": Equal(r.ID), "State": Equal(projections.ReplayDone)})))
		call("GET", "/replays/"+r.ID+"/groupMembers?groupId="+groupID, nil, &roles)
		Expect(roles).To(HaveLen(3))
		call("DELETE", "/replays/"+r.ID, nil, nil)
		refused("GET", "/replays/"+r.ID, nil, http.StatusNotFound, "no such replay")
		Expect(auditFiles()).To(BeEmpty())
	})

	It("answers the audit page's lists, a replay's start, browsing and deletion to members and no token 401, and two starts at once each with a replay of its own", func() {
		ours := s.auditor("x0001", "ada")
		var victim projections.Replay
		s.ok("POST", "/v1/admin/audit/replays", ours.Token, map[string]any{}, &victim)
		var before []projections.Replay
		s.ok("GET", "/v1/admin/audit/replays", ours.Token, nil, &before)
		for _, who := range []member{alice, zed, {Account: "no token"}} {
			for _, call := range []struct {
				method, path string
				body         any
			}{
				{"GET", "/v1/admin/audit/replays?tenant=x0001", nil},
				{"GET", "/v1/admin/audit/events?tenant=x0001&type=MessageSent", nil},
				{"POST", "/v1/admin/audit/replays", map[string]any{"tenant": "x0001"}},
				{"GET", "/v1/admin/audit/replays/" + victim.ID, nil},
				{"GET", "/v1/admin/audit/replays/" + victim.ID + "/sessions?memberId=" + alice.ID, nil},
				{"DELETE", "/v1/admin/audit/replays/" + victim.ID, nil},
			} {
				code, env := s.call(call.method, call.path, who.Token, call.body)
				Expect(code).To(Equal(http.StatusUnauthorized), "%s %s as %s", call.method, call.path, who.Account)
				Expect(string(env.Data)).NotTo(ContainSubstring(alice.ID), "%s %s as %s", call.method, call.path, who.Account)
				Expect(string(env.Data)).NotTo(ContainSubstring("before the promotion"))
			}
		}
		var unchanged []projections.Replay
		s.ok("GET", "/v1/admin/audit/replays", ours.Token, nil, &unchanged)
		Expect(unchanged).To(HaveLen(len(before)), "no replay started")
		s.ok("GET", "/v1/admin/audit/replays/"+victim.ID, ours.Token, nil, &victim) // and none deleted

		started := make([]projections.Replay, 2)
		var wg sync.WaitGroup
		for i := range started {
			wg.Go(func() {
				defer GinkgoRecover()
				code, env := s.call("POST", "/v1/admin/audit/replays", ours.Token, map[string]any{})
				Expect(code).To(Equal(http.StatusOK), env.Info)
				Expect(json.Unmarshal(env.Data, &started[i])).To(Succeed())
			})
		}
		wg.Wait()
		Expect(started[0].ID).NotTo(Equal(started[1].ID))
		var after []projections.Replay
		s.ok("GET", "/v1/admin/audit/replays", ours.Token, nil, &after)
		Expect(after).To(HaveLen(len(before) + 2))
	})

	It("lets an auditor replay, browse and verify its own tenant only, each access recorded", func() {
		ours, theirs := s.auditor("x0001", "ada"), s.auditor("x0002", "zoe")
		var r projections.Replay
		s.ok("POST", "/v1/admin/audit/replays", ours.Token, map[string]any{"position": promoted - 1}, &r)
		Expect(r.Tenant).To(Equal("x0001"), "an auditor's tenant is its own by default")
		Eventually(func() string {
			s.ok("GET", "/v1/admin/audit/replays/"+r.ID, ours.Token, nil, &r)
			return r.State
		}).Should(Equal(projections.ReplayDone))
		var roles []struct{ MemberID, Role string }
		s.ok("GET", "/v1/admin/audit/replays/"+r.ID+"/groupMembers?groupId="+groupID, ours.Token, nil, &roles)
		Expect(roles).To(HaveLen(3))
		var v projections.Verification
		s.ok("POST", "/v1/admin/audit/verify", ours.Token, map[string]string{}, &v)
		Expect(v.Tenant).To(Equal("x0001"))

		// Another tenant's auditor sees nothing of it, and cannot start one.
		for _, call := range []struct{ method, path string }{
			{"GET", "/v1/admin/audit/replays/" + r.ID},
			{"GET", "/v1/admin/audit/replays/" + r.ID + "/sessions?memberId=" + alice.ID},
			{"GET", "/v1/admin/audit/replays?tenant=x0001"},
		} {
			s.refused(call.method, call.path, theirs, nil, http.StatusForbidden, "you are not allowed to do this")
		}
		s.refused("POST", "/v1/admin/audit/replays", theirs, map[string]any{"tenant": "x0001"}, http.StatusForbidden, "you are not allowed to do this")
		s.refused("POST", "/v1/admin/audit/verify", theirs, map[string]any{"tenant": "x0001"}, http.StatusForbidden, "you are not allowed to do this")
		var listed []projections.Replay
		s.ok("GET", "/v1/admin/audit/replays", theirs.Token, nil, &listed)
		Expect(listed).To(BeEmpty(), "the list of an auditor holds its tenant's replays only")
		code, _ := s.call("DELETE", "/v1/admin/audit/replays/"+r.ID, theirs.Token, nil)
		Expect(code).To(Equal(http.StatusForbidden))
		s.ok("GET", "/v1/admin/audit/replays/"+r.ID, ours.Token, nil, &r)

		// Every access is an AuditAccessed record of x0001, refusals too.
		recorded := map[string]int{}
		for _, e := range s.auditAll(s.operator(), url.Values{"tenant": {"x0001"}, "type": {audit.TypeAccessed}}, 500) {
			var a audit.Accessed
			Expect(json.Unmarshal(e.Data, &a)).To(Succeed())
			recorded[fmt.Sprintf("%s %s %t", a.Auditor, a.Action, a.Allowed)]++
		}
		Expect(recorded).To(HaveKey("ada replay true"))
		Expect(recorded).To(HaveKey("ada browse true"))
		Expect(recorded).To(HaveKey("ada verify true"))
		Expect(recorded).To(HaveKeyWithValue("zoe replay false", BeNumerically(">=", 4)))
		Expect(recorded).To(HaveKey("zoe browse false"))
		Expect(recorded).To(HaveKey("zoe verify false"))
	})

	It("records exactly one access for each audit call of an auditor, allowed, refused or not found", func() {
		r := replay(map[string]any{"tenant": "x0001", "position": promoted})
		ada := s.auditor("x0001", "ada")
		// once makes one call of ada's and returns the one access it appended.
		once := func(method, path string, body any, status int, info string) audit.Accessed {
			GinkgoHelper()
			head := s.head()
			code, env := s.call(method, "/v1/admin/audit"+path, ada.Token, body)
			Expect(code).To(Equal(status), env.Info)
			Expect(env.Info).To(Equal(info))
			Expect(s.head()).To(Equal(head+1), "%s %s appends exactly one event", method, path)
			page := s.auditPage(s.operator(), url.Values{"tenant": {"x0001"}, "after": {itoa(head)}, "actor": {"auditor:ada"}})
			Expect(page.Events).To(HaveLen(1))
			return accessOf(page.Events[0])
		}
		refusal := func(a audit.Accessed) string { return outcome(a) + " " + a.Refusal }
		const none = "no such replay"

		By("allowed")
		got := once("GET", "/replays/"+r.ID, nil, http.StatusOK, "success")
		Expect(outcome(got)).To(Equal("ada auditor replay x0001 true"))
		Expect(got.Filter).To(Equal(audit.Filter{Position: promoted, Replays: []string{r.ID}}))
		got = once("POST", "/compare", map[string]string{"replayA": r.ID, "replayB": r.ID}, http.StatusOK, "success")
		Expect(outcome(got)).To(Equal("ada auditor verify x0001 true"))
		Expect(got.Filter.Replays).To(Equal([]string{r.ID, r.ID}))

		By("not found")
		Expect(refusal(once("GET", "/replays/nope", nil, http.StatusNotFound, none))).To(Equal("ada auditor replay x0001 false " + none))
		Expect(refusal(once("DELETE", "/replays/nope", nil, http.StatusNotFound, none))).To(Equal("ada auditor replay x0001 false " + none))
		got = once("GET", "/replays/nope/history?memberId="+alice.ID, nil, http.StatusNotFound, none)
		Expect(refusal(got)).To(Equal("ada auditor browse x0001 false " + none))
		Expect(got.Filter.Replays).To(Equal([]string{"nope"}))
		got = once("POST", "/compare", map[string]string{"replayA": r.ID, "replayB": "nope"}, http.StatusNotFound, none)
		Expect(refusal(got)).To(Equal("ada auditor verify x0001 false " + none))
		Expect(got.Filter.Replays).To(Equal([]string{r.ID, "nope"}))
		Expect(refusal(once("POST", "/compare", map[string]string{"replayA": "nope", "replayB": "nada"}, http.StatusNotFound, none))).
			To(Equal("ada auditor verify x0001 false " + none))

		By("refused")
		notExport := "this is not an audit export: one event per line, then a checksum line"
		Expect(refusal(once("POST", "/replays/import", "not an export\n", http.StatusBadRequest, notExport))).To(Equal("ada auditor replay x0001 false " + notExport))
		Expect(refusal(once("POST", "/replays", `{"position":`, http.StatusBadRequest, "invalid request"))).To(Equal("ada auditor replay x0001 false invalid request"))
		huge := io.MultiReader(strings.NewReader(`{"position":1}`), strings.NewReader(strings.Repeat(" ", 1<<20+1<<18)))
		Expect(refusal(once("POST", "/replays", huge, http.StatusRequestEntityTooLarge, "request body too large"))).
			To(Equal("ada auditor replay x0001 false request body too large"))
		Expect(refusal(once("POST", "/verify", `[]`, http.StatusBadRequest, "invalid request"))).To(Equal("ada auditor verify x0001 false invalid request"))

		By("an operator's unknown replay names no tenant to record it in")
		head := s.head()
		refused("GET", "/replays/nope", nil, http.StatusNotFound, none)
		Expect(s.head()).To(Equal(head))
	})

	It("keeps at most 20 replays of a tenant: the next start or import is refused, in each language, and recorded, until one is deleted", func() {
		status, _, export := s.exportOf(s.operator(), url.Values{"tenant": {"x0001"}})
		Expect(status).To(Equal(http.StatusOK))
		var first projections.Replay
		for i := range projections.MaxReplaysPerTenant {
			var r projections.Replay
			call("POST", "/replays", map[string]any{"tenant": "x0001", "position": promoted}, &r)
			if i == 0 {
				first = r
			}
		}
		Expect(projections.MaxReplaysPerTenant).To(Equal(20))
		full := "tenant x0001 keeps 20 replays, the most it may: delete one to start another"
		refused("POST", "/replays", map[string]any{"tenant": "x0001"}, http.StatusConflict, full)
		refused("POST", "/replays/import", export, http.StatusConflict, full)
		for lang, text := range map[string]string{
			"zh-CN": "租户 x0001 已保留 20 个回放，已达上限：请删除一个后再开始新的回放",
			"vi-VN": "Tenant x0001 đang giữ 20 bản phát lại, mức tối đa: hãy xóa một bản để bắt đầu bản khác",
		} {
			code, env := s.call("POST", "/v1/admin/audit/replays", op, map[string]any{"tenant": "x0001"}, "Accept-Language", lang)
			Expect(code).To(Equal(http.StatusConflict))
			Expect(env.Info).To(Equal(text))
		}
		var all []projections.Replay
		call("GET", "/replays?tenant=x0001", nil, &all)
		Expect(all).To(HaveLen(20))
		Expect(filepath.Glob(filepath.Join(dir, "audit", "*.ndjson"))).To(BeEmpty(), "a refused import leaves no file")

		// Each refusal is recorded as such, with the English text.
		refusals := 0
		for _, e := range s.auditAll(s.operator(), url.Values{"tenant": {"x0001"}, "type": {audit.TypeAccessed}}, 500) {
			if a := accessOf(e); a.Action == audit.ActionReplay && !a.Allowed {
				Expect(a.Refusal).To(Equal(full))
				refusals++
			}
		}
		Expect(refusals).To(Equal(4))

		// Another tenant has room of its own; deleting one makes room.
		replay(map[string]any{"tenant": "x0002"})
		call("DELETE", "/replays/"+first.ID, nil, nil)
		var imported projections.Replay
		call("POST", "/replays/import", export, &imported)
		done(imported)
		refused("POST", "/replays", map[string]any{"tenant": "x0001"}, http.StatusConflict, full)
	})

	It("verifies the live read models of a tenant and names a tampered row", func() {
		var v projections.Verification
		call("POST", "/verify", map[string]string{"tenant": "x0001"}, &v)
		Expect(v.Tenant).To(Equal("x0001"))
		Expect(v.Position).To(BeNumerically(">", promoted))
		equal(v.Models)
		code, out, errOut := s.imctl("audit", "verify", "x0001")
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(MatchRegexp(`groupMembers\s+equal`))

		c, err := sqlitec.Open(filepath.Join(dir, "read.db"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Exec(`PRAGMA busy_timeout = 5000; UPDATE group_members SET role = 'Owner' WHERE member = '` + carol.ID + `'`)).To(Succeed())
		Expect(c.Close()).To(Succeed())

		call("POST", "/verify", map[string]string{"tenant": "x0001"}, &v)
		Expect(v.Models).To(ContainElement(projections.ModelComparison{Name: "groupMembers", FirstDifference: "group_id=" + groupID + ", member=" + carol.ID}))
		for _, m := range v.Models {
			Expect(m.Equal).To(Equal(m.Name != "groupMembers"), m.Name)
		}
		code, out, _ = s.imctl("audit", "verify", "x0001")
		Expect(code).To(Equal(1))
		Expect(out).To(MatchRegexp(`groupMembers\s+differs at group_id=` + groupID + `, member=` + carol.ID))
		code, out, errOut = s.imctl("audit", "verify", "x0002", "--json")
		Expect(code).To(Equal(0), errOut)
		Expect(json.Unmarshal([]byte(out), &v)).To(Succeed())
		equal(v.Models)
		Expect(auditFiles()).To(BeEmpty())
	})

	It("replays an export to the same read models as the log at its head, from REST and imctl", func() {
		// The export of x0001, written from the log while the server is down.
		Expect(s.stop()).To(Succeed())
		log, err := pebblestore.Open(filepath.Join(dir, "events"))
		Expect(err).NotTo(HaveOccurred())
		head, err := log.Head(context.Background())
		Expect(err).NotTo(HaveOccurred())
		recs, err := log.ReadAll(context.Background(), 0, 100000)
		Expect(err).NotTo(HaveOccurred())
		Expect(log.Close()).To(Succeed())
		var export bytes.Buffer
		w := audit.NewExportWriter(&export)
		for _, r := range recs {
			if strings.HasPrefix(r.Stream, es.TenantPrefix("x0001")) {
				Expect(w.Write(audit.EntryOf(r))).To(Succeed())
			}
		}
		Expect(w.Close("x0001", head)).To(Succeed())
		s = startServer(dir)

		// Bad input is refused and writes nothing.
		tampered := bytes.Replace(export.Bytes(), []byte(`"role":"Admin"`), []byte(`"role":"Owner"`), 1)
		Expect(tampered).NotTo(Equal(export.Bytes()))
		refused("POST", "/replays/import", tampered, http.StatusBadRequest, "export checksum does not match")
		refused("POST", "/replays/import", "not an export\n", http.StatusBadRequest, "this is not an audit export: one event per line, then a checksum line")
		// The head has moved on by the records of these refused accesses.
		code, env := s.call("POST", "/v1/admin/audit/replays", op, map[string]any{"tenant": "x0001", "position": head + 1000})
		Expect(code).To(Equal(http.StatusBadRequest))
		Expect(env.Info).To(MatchRegexp(`^position %d is beyond the head of the log, \d+$`, head+1000))
		refused("POST", "/replays", map[string]any{"tenant": "x0001", "position": 3, "time": "2026-11-24T10:00:00Z"}, http.StatusBadRequest, "give a position or a time, not both")
		refused("POST", "/replays", map[string]any{"tenant": "x0001", "time": "yesterday"}, http.StatusBadRequest, "time must be an RFC 3339 time or Unix milliseconds")
		refused("POST", "/replays", map[string]any{"tenant": "x9999"}, http.StatusBadRequest, "tenant number invalid")
		refused("POST", "/replays", map[string]any{}, http.StatusBadRequest, "server ID cannot be empty")
		refused("POST", "/verify", map[string]any{"tenant": ""}, http.StatusBadRequest, "server ID cannot be empty")
		// A point that cannot be replayed is recorded as a refused access.
		refusedPoints := map[string]bool{}
		for _, e := range s.auditAll(s.operator(), url.Values{"tenant": {"x0001"}, "type": {audit.TypeAccessed}}, 500) {
			if a := accessOf(e); a.Action == audit.ActionReplay && !a.Allowed {
				refusedPoints[a.Refusal] = true
			}
		}
		Expect(refusedPoints).To(HaveKey(MatchRegexp(`^position %d is beyond the head of the log, \d+$`, head+1000)))
		Expect(refusedPoints).To(HaveKey("time must be an RFC 3339 time or Unix milliseconds"))
		Expect(refusedPoints).To(HaveKey("give a position or a time, not both"))
		code, _ = s.call("POST", "/v1/admin/audit/replays", alice.Token, map[string]any{"tenant": "x0001"})
		Expect(code).To(Equal(http.StatusUnauthorized))
		Expect(auditFiles()).To(BeEmpty())
		var none []projections.Replay
		call("GET", "/replays", nil, &none)
		Expect(none).To(BeEmpty())

		var imported projections.Replay
		call("POST", "/replays/import", export.Bytes(), &imported)
		imported = done(imported)
		Expect(imported.Source).To(Equal(projections.ReplayOfImport))
		Expect(imported.Position).To(Equal(head))
		fromLog := replay(map[string]any{"tenant": "x0001", "position": head})
		var cmp projections.Comparison
		call("POST", "/compare", map[string]string{"replayA": imported.ID, "replayB": fromLog.ID}, &cmp)
		equal(cmp.Models)

		// A replay at a time before the promotion differs from the head's in
		// the group's members.
		early := replay(map[string]any{"tenant": "x0001", "position": beforeUp})
		call("POST", "/compare", map[string]string{"replayA": early.ID, "replayB": fromLog.ID}, &cmp)
		Expect(cmp.Models).To(ContainElement(projections.ModelComparison{Name: "groupMembers", FirstDifference: "group_id=" + groupID + ", member=" + bob.ID}))
		other := replay(map[string]any{"tenant": "x0002"})
		refused("POST", "/compare", map[string]string{"replayA": other.ID, "replayB": fromLog.ID}, http.StatusBadRequest,
			"replay "+other.ID+" is of tenant x0002, replay "+fromLog.ID+" of x0001")

		// imctl: replay from the file and at a position, list, browse, compare.
		file := filepath.Join(GinkgoT().TempDir(), "x0001.ndjson")
		Expect(os.WriteFile(file, export.Bytes(), 0o600)).To(Succeed())
		code, out, errOut := s.imctl("--json", "audit", "replay", "x0001", "--file", file)
		Expect(code).To(Equal(0), errOut)
		var fromFile projections.Replay
		Expect(json.Unmarshal([]byte(out), &fromFile)).To(Succeed())
		Expect(fromFile.State).To(Equal(projections.ReplayDone))
		code, out, errOut = s.imctl("audit", "replay", "x0001", "--position", itoa(head))
		Expect(code).To(Equal(0), errOut)
		Expect(errOut).To(MatchRegexp(`[1-9]\d* events folded  done`))
		Expect(out).To(MatchRegexp(`x0001\s+log\s+%d\s+-\s+done`, head))
		code, out, errOut = s.imctl("audit", "replays")
		Expect(code).To(Equal(0), errOut)
		Expect(strings.Count(out, "\n")).To(Equal(1 + 6))
		code, out, errOut = s.imctl("audit", "compare", fromFile.ID, fromLog.ID)
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(MatchRegexp(`messages\s+equal`))
		code, out, _ = s.imctl("audit", "compare", early.ID, fromLog.ID)
		Expect(code).To(Equal(1))
		Expect(out).To(MatchRegexp(`groupMembers\s+differs at group_id=`))
		code, out, errOut = s.imctl("audit", "browse", early.ID, "groupMembers", groupID)
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(ContainSubstring(`"role": "Normal"`))
		code, out, errOut = s.imctl("audit", "browse", early.ID, "history", alice.ID, "--friend", bob.ID, "--size", "1")
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(ContainSubstring("before the promotion"))
		code, _, errOut = s.imctl("audit", "browse", early.ID, "history", alice.ID)
		Expect(code).To(Equal(2), errOut)
		code, _, errOut = s.imctl("audit", "replay", "x0001", "--position", "1", "--time", "0")
		Expect(code).To(Equal(2), errOut)
	})
})

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }
