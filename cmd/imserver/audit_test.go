package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/authtoken"
	"github.com/eventchat/eventchat/adapters/httpapi"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/audit"
)

// auditor returns a holder of an auditor token of tenant, signed with the
// data directory's secret as imctl audit token signs it.
func (s *testServer) auditor(tenant, name string) member {
	GinkgoHelper()
	key, err := authtoken.LoadSecret(s.dataDir, false)
	Expect(err).NotTo(HaveOccurred())
	tokens, err := authtoken.New(key, nil)
	Expect(err).NotTo(HaveOccurred())
	now := time.Now()
	token, err := tokens.IssueAuditor(name, tenant, now, now.Add(time.Hour))
	Expect(err).NotTo(HaveOccurred())
	return member{Token: token}
}

// auditPage asks for one page of the events page and must succeed.
func (s *testServer) auditPage(who member, query url.Values) commands.AuditPage {
	GinkgoHelper()
	var page commands.AuditPage
	s.ok("GET", "/v1/admin/audit/events?"+query.Encode(), who.Token, nil, &page)
	return page
}

// auditAll pages through the whole history query selects, size events a page.
func (s *testServer) auditAll(who member, query url.Values, size int) []audit.Entry {
	GinkgoHelper()
	var all []audit.Entry
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	q.Set("size", fmt.Sprint(size))
	for after := uint64(0); ; {
		q.Set("after", fmt.Sprint(after))
		page := s.auditPage(who, q)
		Expect(len(page.Events)).To(BeNumerically("<=", size))
		all = append(all, page.Events...)
		if page.Next == 0 {
			return all
		}
		Expect(page.Next).To(BeNumerically(">", after))
		after = page.Next
	}
}

// head is the log's head, read without an audit access.
func (s *testServer) head() uint64 {
	GinkgoHelper()
	var st struct{ Head uint64 }
	s.ok("GET", "/v1/admin/projections/status", s.operator().Token, nil, &st)
	return st.Head
}

// exportOf asks for an export and returns its status and body.
func (s *testServer) exportOf(who member, query url.Values) (int, string, []byte) {
	GinkgoHelper()
	req, err := http.NewRequest("GET", s.base+"/v1/admin/audit/export?"+query.Encode(), nil)
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Authorization", "Bearer "+who.Token)
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	return resp.StatusCode, resp.Header.Get("Content-Type"), body
}

func accessOf(e audit.Entry) audit.Accessed {
	GinkgoHelper()
	Expect(e.Type).To(Equal(audit.TypeAccessed))
	var a audit.Accessed
	Expect(json.Unmarshal(e.Data, &a)).To(Succeed())
	return a
}

var _ = Describe("The audit API", func() {
	var (
		s            *testServer
		a1, a2       member
		b1, b2       member
		sentA, sentB []sendResult
	)
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		s.ok("POST", "/v1/admin/tenant/create", s.operator().Token, map[string]string{"code": "x0002", "name": "B"}, nil)
		a1, a2 = s.register("alice001"), s.register("arthur01")
		b1, b2 = s.registerIn("x0002", "bella001"), s.registerIn("x0002", "boris001")
		s.befriend(a1, a2)
		s.befriend(b1, b2)
		sentA = []sendResult{s.send(a1, a2, "ua1", "hello from A"), s.send(a2, a1, "ua2", "hi back")}
		time.Sleep(5 * time.Millisecond) // the third message's time is later than the second's
		sentA = append(sentA, s.send(a1, a2, "ua3", "later"))
		sentB = []sendResult{s.send(b1, b2, "ub1", "hello from B")}
	})

	It("pages a tenant's history for its auditor, with each filter", func() {
		alice := s.auditor("x0001", "alice")
		all := s.auditAll(alice, nil, 3)
		positions := map[uint64]audit.Entry{}
		for _, e := range all {
			Expect(e.Stream).To(HavePrefix("x0001."))
			positions[e.Position] = e
		}
		for _, m := range sentA {
			Expect(positions).To(HaveKey(m.Position))
		}
		for _, m := range sentB {
			Expect(positions).NotTo(HaveKey(m.Position))
		}
		sent := positions[sentA[0].Position]
		Expect(sent.Type).To(Equal("MessageSent"))
		Expect(sent.Actor).To(Equal(a1.ID))
		Expect(string(sent.Data)).To(ContainSubstring(sentA[0].ID))
		Expect(all[0].Type).To(Equal("TenantCreated"))

		chatStream := sent.Stream
		chatID := strings.TrimPrefix(chatStream, "x0001.chat-")
		for _, q := range []url.Values{{"chat": {chatID}}, {"stream": {chatStream}}} {
			got := s.auditAll(alice, q, 100)
			Expect(got).NotTo(BeEmpty())
			for _, e := range got {
				Expect(e.Stream).To(Equal(chatStream))
			}
		}

		sends := s.auditAll(alice, url.Values{"type": {"MessageSent"}}, 100)
		Expect(sends).To(HaveLen(3))
		Expect([]uint64{sends[0].Position, sends[1].Position, sends[2].Position}).To(Equal(
			[]uint64{sentA[0].Position, sentA[1].Position, sentA[2].Position}))
		two := s.auditAll(alice, url.Values{"type": {"MessageSent,AuditAccessed"}}, 100)
		Expect(len(two)).To(BeNumerically(">", 3))

		mine := s.auditAll(alice, url.Values{"actor": {a1.ID}}, 100)
		Expect(mine).NotTo(BeEmpty())
		for _, e := range mine {
			Expect(e.Actor).To(Equal(a1.ID))
		}
		Expect(mine).To(ContainElement(HaveField("Position", sentA[2].Position)))

		third := positions[sentA[2].Position]
		later := s.auditAll(alice, url.Values{"from": {fmt.Sprint(third.Time)}, "type": {"MessageSent"}}, 100)
		Expect(later).To(HaveLen(1))
		Expect(later[0].Position).To(Equal(sentA[2].Position))
		before := s.auditAll(alice, url.Values{"to": {time.UnixMilli(third.Time).UTC().Format(time.RFC3339Nano)}, "type": {"MessageSent"}}, 100)
		Expect(before).To(HaveLen(2))

		By("recording every one of those reads")
		reads := s.auditAll(alice, url.Values{"type": {audit.TypeAccessed}, "stream": {"x0001.audit-auditor:alice"}}, 100)
		Expect(len(reads)).To(BeNumerically(">=", 10))
		last := accessOf(reads[len(reads)-1])
		Expect(outcome(last)).To(Equal("alice auditor read x0001 true"))
		Expect(reads[0].Actor).To(Equal("auditor:alice"))
	})

	It("exports a tenant's history with a checksum that verifies, and nothing of another tenant", func() {
		alice := s.auditor("x0001", "alice")
		paged := s.auditAll(alice, nil, 500)
		status, ctype, body := s.exportOf(alice, nil)
		Expect(status).To(Equal(http.StatusOK))
		Expect(ctype).To(Equal("application/x-ndjson"))
		var got []audit.Entry
		trailer, err := audit.ReadExport(bytes.NewReader(body), func(e audit.Entry) error { got = append(got, e); return nil })
		Expect(err).NotTo(HaveOccurred())
		Expect(trailer.Tenant).To(Equal("x0001"))
		Expect(trailer.Count).To(Equal(len(got)))
		Expect(got).To(HaveLen(len(paged)+1), "every event paged, and the export's own access")
		Expect(got[:len(paged)]).To(Equal(paged))
		Expect(accessOf(got[len(got)-1]).Action).To(Equal(audit.ActionExport))
		Expect(trailer.Head).To(Equal(got[len(got)-1].Position))
		for _, e := range got {
			Expect(e.Stream).To(HavePrefix("x0001."))
			Expect(e.Position).NotTo(Equal(sentB[0].Position))
		}

		status, _, body = s.exportOf(alice, url.Values{"type": {"MessageSent"}})
		Expect(status).To(Equal(http.StatusOK))
		got = nil
		_, err = audit.ReadExport(bytes.NewReader(body), func(e audit.Entry) error { got = append(got, e); return nil })
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(HaveLen(3))

		By("serving an operator every tenant, one at a time")
		status, _, body = s.exportOf(s.operator(), url.Values{"tenant": {"x0002"}})
		Expect(status).To(Equal(http.StatusOK))
		got = nil
		_, err = audit.ReadExport(bytes.NewReader(body), func(e audit.Entry) error { got = append(got, e); return nil })
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(ContainElement(HaveField("Position", sentB[0].Position)))
		for _, e := range got {
			Expect(e.Stream).To(HavePrefix("x0002."))
		}
		Expect(got[len(got)-1].Actor).To(Equal("operator:spec"))
	})

	It("refuses an auditor another tenant's history, and records both accesses", func() {
		alice, bob := s.auditor("x0001", "alice"), s.auditor("x0002", "bob")
		s.refused("GET", "/v1/admin/audit/events?tenant=x0001", bob, nil, 403, "you are not allowed to do this")
		status, _, body := s.exportOf(bob, url.Values{"tenant": {"x0001"}})
		Expect(status).To(Equal(http.StatusForbidden))
		Expect(string(body)).NotTo(ContainSubstring("hello from A"))
		s.refused("GET", "/v1/admin/audit/events?tenant=zz9999", bob, nil, 403, "you are not allowed to do this")
		s.auditPage(alice, url.Values{"type": {"MessageSent"}})

		accesses := s.auditAll(alice, url.Values{"type": {audit.TypeAccessed}}, 100)
		var bobs, alices []audit.Accessed
		for _, e := range accesses {
			switch e.Actor {
			case "auditor:bob":
				Expect(e.Stream).To(Equal("x0001.audit-auditor:bob"))
				bobs = append(bobs, accessOf(e))
			case "auditor:alice":
				alices = append(alices, accessOf(e))
			}
		}
		Expect(bobs).To(HaveLen(2))
		Expect(outcome(bobs[0])).To(Equal("bob auditor read x0001 false"))
		Expect(bobs[0].Refusal).To(Equal("you are not allowed to do this"))
		var st struct {
			Position, Skipped uint64
			LastError         string
		}
		s.ok("GET", "/v1/admin/projections/status?after="+fmt.Sprint(s.head()), s.operator().Token, nil, &st)
		Expect(st.Skipped).To(BeZero(), "the projections read AuditAccessed: %s", st.LastError)
		Expect(st.LastError).To(BeEmpty())
		Expect(bobs[1].Action).To(Equal(audit.ActionExport))
		Expect(alices).To(HaveLen(2))
		Expect(outcome(alices[0])).To(Equal("alice auditor read x0001 true"))
		Expect(alices[0].Filter.Type).To(Equal("MessageSent"))

		By("recording an unknown tenant's refusal in the auditor's own tenant")
		own := s.auditAll(bob, url.Values{"stream": {"x0002.audit-auditor:bob"}}, 100)
		Expect(own).NotTo(BeEmpty())
		Expect(outcome(accessOf(own[0]))).To(Equal("bob auditor read zz9999 false"))
	})

	It("refuses members' tokens on audit routes, and auditors' tokens everywhere else", func() {
		alice := s.auditor("x0001", "alice")
		head := s.head()
		s.refused("GET", "/v1/admin/audit/events", a1, nil, 401, "login expired, please log in again")
		code, _, _ := s.exportOf(a1, nil)
		Expect(code).To(Equal(http.StatusUnauthorized))
		s.refused("GET", "/v1/message/sessionInfo/list", alice, nil, 401, "login expired, please log in again")
		s.refused("POST", "/v1/message/send", alice, map[string]string{"uuid": "x1", "chatType": "Friend", "to": a2.ID, "msgType": "Text", "content": "hi"},
			401, "login expired, please log in again")
		s.refused("GET", "/v1/admin/tenant/show?code=x0001", alice, nil, 401, "login expired, please log in again")
		s.refused("PUT", "/v1/admin/member/ban", alice, map[string]string{"tenant": "x0001", "account": "alice001"}, 401, "login expired, please log in again")
		Expect(s.head()).To(Equal(head), "nothing appended")
	})

	DescribeTable("refuses malformed filters with 400, appending only the refused access, with the filter as given",
		func(query, info string, given audit.Filter) {
			alice := s.auditor("x0001", "alice")
			head := s.head()
			s.refused("GET", "/v1/admin/audit/events?"+query, alice, nil, 400, info)
			Expect(s.head()).To(Equal(head + 1))
			page := s.auditPage(s.operator(), url.Values{"tenant": {"x0001"}, "after": {fmt.Sprint(head)}, "size": {"1"}})
			Expect(page.Events).To(HaveLen(1))
			refused := accessOf(page.Events[0])
			Expect(outcome(refused)).To(Equal("alice auditor read x0001 false"))
			Expect(refused.Refusal).To(Equal(info))
			Expect(refused.Filter).To(Equal(given))
		},
		Entry("a bad time", "from=yesterday", "from must be an RFC 3339 time or Unix milliseconds", audit.Filter{From: "yesterday"}),
		Entry("an empty range", "from=2000&to=1000", "from must be before to", audit.Filter{From: "2000", To: "1000"}),
		Entry("a page of none", "size=0", "size must be 1 to 500", audit.Filter{Size: "0"}),
		Entry("a page too large", "size=501", "size must be 1 to 500", audit.Filter{Size: "501"}),
		Entry("a size that is no number", "size=ten", "size must be 1 to 500", audit.Filter{Size: "ten"}),
		Entry("a cursor that is no position", "after=-1&type=MessageSent", "after must be a log position", audit.Filter{After: "-1", Type: "MessageSent"}),
		Entry("another tenant's stream", "stream=x0002.chat-1_2", "stream must be a stream of tenant x0001", audit.Filter{Stream: "x0002.chat-1_2"}),
		Entry("stream and chat", "stream=x0001.chat-1_2&chat=1_2", "give stream or chat, not both", audit.Filter{Stream: "x0001.chat-1_2", Chat: "1_2"}),
	)

	It("names members and groups of the auditor's own tenant only, by id, account or phone, and records each lookup", func() {
		carol, phone := s.registerPhoneIn("x0001", "carol001")
		var created struct {
			GroupID  string
			Position uint64
		}
		s.ok("POST", "/v1/chat/groupInfo/build", a1.Token, map[string]any{"name": "Weekend Hikers", "memberIds": []string{a2.ID}}, &created)
		s.ok("GET", fmt.Sprintf("/v1/chat/groupInfo/getGroupInfoByGroupId?groupId=%s&after=%d", created.GroupID, created.Position), a1.Token, nil, nil)
		var foreign struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", b1.Token, map[string]any{"name": "Elsewhere", "memberIds": []string{b2.ID}}, &foreign)

		alice, bob := s.auditor("x0001", "alice"), s.auditor("x0002", "bob")
		var dir httpapi.AuditDirectory
		q := url.Values{"members": {strings.Join([]string{a1.ID, a2.ID, b1.ID, "nobody"}, ",")}, "groups": {created.GroupID + "," + foreign.GroupID}}
		s.ok("GET", "/v1/admin/audit/directory?"+q.Encode(), alice.Token, nil, &dir)
		names := map[string]string{}
		for _, m := range dir.Members {
			names[m.ID] = m.Account
		}
		Expect(names).To(Equal(map[string]string{a1.ID: "alice001", a2.ID: "arthur01"}), "nothing of x0002")
		Expect(dir.Groups).To(Equal([]httpapi.AuditGroup{{ID: created.GroupID, Name: "Weekend Hikers"}}))

		By("finding a member by account or by phone, exactly")
		for _, find := range []string{"carol001", phone} {
			s.ok("GET", "/v1/admin/audit/directory?find="+find, alice.Token, nil, &dir)
			Expect(dir.Members).To(Equal([]httpapi.AuditPerson{{ID: carol.ID, Account: "carol001", Phone: phone, Name: dir.Members[0].Name}}))
		}
		s.ok("GET", "/v1/admin/audit/directory?find=carol", alice.Token, nil, &dir)
		Expect(dir.Members).To(BeEmpty())
		s.ok("GET", "/v1/admin/audit/directory?find=bella001", alice.Token, nil, &dir)
		Expect(dir.Members).To(BeEmpty(), "another tenant's account finds nobody")

		By("refusing another tenant's auditor and too long a list, recording both")
		s.refused("GET", "/v1/admin/audit/directory?tenant=x0001&find=carol001", bob, nil, 403, "you are not allowed to do this")
		head := s.head()
		s.refused("GET", "/v1/admin/audit/directory?members="+strings.Repeat("1,", 501), alice, nil, 400, "members names at most 500 ids of up to 64 characters")
		Expect(s.head()).To(Equal(head + 1))

		var records []audit.Accessed
		for _, e := range s.auditAll(alice, url.Values{"type": {audit.TypeAccessed}}, 100) {
			if a := accessOf(e); a.Filter.Find != "" || len(a.Filter.Members) > 0 || a.Refusal != "" {
				records = append(records, a)
			}
		}
		Expect(records).To(HaveLen(7))
		Expect(records[0].Filter.Members).To(Equal([]string{a1.ID, a2.ID, b1.ID, "nobody"}))
		Expect(records[0].Filter.Groups).To(Equal([]string{created.GroupID, foreign.GroupID}))
		Expect(outcome(records[5])).To(Equal("bob auditor read x0001 false"))
		Expect(records[5].Filter.Find).To(Equal("carol001"))
		Expect(records[6].Refusal).To(Equal("members names at most 500 ids of up to 64 characters"))
	})

	It("refuses an operator naming no existing tenant, with nothing to record it in", func() {
		head := s.head()
		s.refused("GET", "/v1/admin/audit/events", s.operator(), nil, 400, "server ID cannot be empty")
		s.refused("GET", "/v1/admin/audit/events?tenant=zz9999", s.operator(), nil, 400, "tenant number invalid")
		Expect(s.head()).To(Equal(head))
	})
})

// outcome tells who did what to which tenant's history, and whether it
// was allowed.
func outcome(a audit.Accessed) string {
	return fmt.Sprintf("%s %s %s %s %t", a.Auditor, a.Role, a.Action, a.Tenant, a.Allowed)
}

var _ = Describe("imctl audit", func() {
	var (
		s    *testServer
		sent sendResult
	)
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		s.ok("POST", "/v1/admin/tenant/create", s.operator().Token, map[string]string{"code": "x0002", "name": "B"}, nil)
		a1, a2 := s.register("alice001"), s.register("arthur01")
		s.befriend(a1, a2)
		sent = s.send(a1, a2, "ua1", "hello from A")
	})

	It("prints auditor and operator tokens that the server takes", func() {
		code, out, errOut := s.imctl("audit", "token", "x0001", "--name", "alice", "--ttl", "2h")
		Expect(code).To(Equal(0), errOut)
		alice := member{Token: strings.TrimSpace(out)}
		Expect(alice.Token).To(HavePrefix("au."))
		page := s.auditPage(alice, url.Values{"type": {"MessageSent"}})
		Expect(page.Events).To(HaveLen(1))
		s.refused("GET", "/v1/admin/audit/events?tenant=x0002", alice, nil, 403, "you are not allowed to do this")

		code, out, errOut = s.imctl("--operator", "web", "token", "--ttl", "8h")
		Expect(code).To(Equal(0), errOut)
		op := member{Token: strings.TrimSpace(out)}
		Expect(op.Token).To(HavePrefix("op."))
		s.ok("GET", "/v1/admin/tenant/show?code=x0002", op.Token, nil, nil)
		page = s.auditPage(op, url.Values{"tenant": {"x0002"}})
		Expect(page.Events[len(page.Events)-1].Actor).To(Equal("operator:web"))
	})

	It("pages, exports and checks a tenant's history, as an operator or with an auditor's token", func() {
		code, out, errOut := s.imctl("audit", "events", "x0001", "--type", "MessageSent")
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(MatchRegexp(`(?m)^POSITION\s+TIME\s+STREAM\s+TYPE\s+ACTOR$`))
		Expect(out).To(MatchRegexp(`(?m)^%d\s+\S+\s+x0001\.chat-\S+\s+MessageSent\s+\d+$`, sent.Position))
		Expect(out).NotTo(ContainSubstring("next:"))

		code, out, _ = s.imctl("audit", "events", "x0001", "--size", "1")
		Expect(code).To(Equal(0))
		Expect(out).To(MatchRegexp(`TenantCreated`))
		Expect(out).To(MatchRegexp(`(?m)^next: \d+$`))

		code, out, errOut = s.imctl("--json", "audit", "events", "x0001", "--chat", strings.Split(s.auditPage(s.operator(),
			url.Values{"tenant": {"x0001"}, "type": {"MessageSent"}}).Events[0].Stream, "-")[1])
		Expect(code).To(Equal(0), errOut)
		var page commands.AuditPage
		Expect(json.Unmarshal([]byte(out), &page)).To(Succeed())
		Expect(page.Events).To(ContainElement(HaveField("Position", sent.Position)))

		code, out, errOut = s.imctl("audit", "export", "x0001")
		Expect(code).To(Equal(0), errOut)
		file := GinkgoT().TempDir() + "/x0001.ndjson"
		Expect(os.WriteFile(file, []byte(out), 0o600)).To(Succeed())
		code, checked, errOut := s.imctl("audit", "check", file)
		Expect(code).To(Equal(0), errOut)
		Expect(checked).To(MatchRegexp(`^ok: \d+ events of tenant x0001, log head \d+, sha256:[0-9a-f]{64}\n$`))
		Expect(out).To(ContainSubstring("hello from A"))

		Expect(os.WriteFile(file, []byte(strings.Replace(out, "hello from A", "hello from Z", 1)), 0o600)).To(Succeed())
		code, _, errOut = s.imctl("audit", "check", file)
		Expect(code).To(Equal(1))
		Expect(errOut).To(ContainSubstring("export checksum does not match"))

		bob := s.auditor("x0002", "bob")
		code, out, errOut = s.imctl("--token", bob.Token, "audit", "export", "x0002", "--type", "TenantCreated")
		Expect(code).To(Equal(0), errOut)
		Expect(strings.Count(out, "\n")).To(Equal(2), "the tenant's creation and the checksum line")
		code, out, errOut = s.imctl("--token", bob.Token, "audit", "export", "x0001")
		Expect(code).To(Equal(1))
		Expect(out).To(BeEmpty())
		Expect(errOut).To(ContainSubstring("you are not allowed to do this (403)"))
	})

	DescribeTable("refusals: exit 1 with the server's text, 2 for misuse",
		func(args []string, want int, text string) {
			code, out, errOut := s.imctl(args...)
			Expect(code).To(Equal(want))
			Expect(out).To(BeEmpty())
			Expect(errOut).To(ContainSubstring(text))
		},
		Entry("a bad filter", []string{"audit", "events", "x0001", "--from", "yesterday"}, 1, "from must be an RFC 3339 time or Unix milliseconds (400)"),
		Entry("an unknown tenant", []string{"audit", "export", "zz9999"}, 1, "tenant number invalid (400)"),
		Entry("an unknown flag", []string{"audit", "events", "x0001", "--colour", "red"}, 2, "flag provided but not defined: -colour"),
		Entry("no tenant", []string{"audit", "events", "--type", "MessageSent"}, 2, "audit events takes <tenant> first"),
		Entry("a token without a name", []string{"audit", "token", "x0001"}, 2, "audit token needs --name <who>"),
		Entry("a token for too long", []string{"audit", "token", "x0001", "--name", "alice", "--ttl", "13h"}, 2, "--ttl must be more than 0 and at most 12h0m0s"),
		Entry("an operator token for too long", []string{"token", "--ttl", "24h"}, 2, "--ttl must be more than 0 and at most 12h0m0s"),
		Entry("a bad auditor name", []string{"audit", "token", "x0001", "--name", "a|b"}, 1, "an auditor's name is 1 to 64"),
		Entry("no file to check", []string{"audit", "check", "/nonexistent.ndjson"}, 1, "no such file"),
	)
})
