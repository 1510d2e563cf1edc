package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/httpapi"
	"github.com/eventchat/eventchat/adapters/sqlitec"
	"github.com/eventchat/eventchat/domain/audit"
)

// answer is a call's status and raw body, made without assertions so that
// many can run at once.
type answer struct {
	status int
	body   string
	err    error
}

func (s *testServer) rawCall(method, path, token, body string, headers ...string) answer {
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		return answer{err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return answer{status: resp.StatusCode, body: string(raw), err: err}
}

// atOnce makes n calls at once and returns their answers.
func atOnce(n int, call func(i int) answer) []answer {
	out := make([]answer, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = call(i)
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// statuses counts the answers by status; a transport failure fails the spec.
func statuses(answers []answer) map[int]int {
	GinkgoHelper()
	counts := map[int]int{}
	for _, a := range answers {
		Expect(a.err).NotTo(HaveOccurred())
		counts[a.status]++
	}
	return counts
}

var _ = Describe("Attacks on the audit directory, the audit cursor and the shared rate limits", func() {
	var (
		s              *testServer
		victim         member
		victimPhone    string
		groupID        string
		stranger       member
		foreigner      member
		foreignAuditor member
		secrets        []string
	)
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		s.ok("POST", "/v1/admin/tenant/create", s.operator().Token, map[string]string{"code": "x0002", "name": "B"}, nil)
		victim, victimPhone = s.registerPhoneIn("x0001", "victim01")
		friend := s.register("friend01")
		stranger = s.register("strangr1")
		foreigner = s.registerIn("x0002", "foreign1")
		s.befriend(victim, friend)
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", victim.Token, map[string]any{"name": "Victim Secret Club", "memberIds": []string{friend.ID}}, &created)
		groupID = created.GroupID
		foreignAuditor = s.auditor("x0002", "mallory")
		secrets = []string{victim.ID, victimPhone, "victim01", "Victim Secret Club", groupID}
	})

	directory := func(q url.Values) string { return "/v1/admin/audit/directory?" + q.Encode() }
	victimQuery := func() url.Values {
		return url.Values{"members": {victim.ID}, "groups": {groupID}, "find": {victimPhone}}
	}
	holdsNoSecret := func(a answer) {
		GinkgoHelper()
		for _, secret := range secrets {
			Expect(a.body).NotTo(ContainSubstring(secret))
		}
	}

	It("answers members' tokens and no token 401 without recording anything, and another tenant's auditor 403 recorded in the victim's tenant", func() {
		for _, find := range []string{victimPhone, "victim01"} {
			q := victimQuery()
			q.Set("find", find)
			for _, who := range []member{stranger, victim, foreigner, {}} {
				for _, tenant := range []string{"", "x0001", "x0002"} {
					q.Set("tenant", tenant)
					head := s.head()
					a := s.rawCall("GET", directory(q), who.Token, "")
					Expect(a.status).To(Equal(http.StatusUnauthorized), a.body)
					Expect(a.body).To(ContainSubstring("login expired, please log in again"))
					holdsNoSecret(a)
					Expect(s.head()).To(Equal(head), "a member's or no token is recorded nowhere")
				}
			}
		}

		q := victimQuery()
		q.Set("tenant", "x0001")
		head := s.head()
		a := s.rawCall("GET", directory(q), foreignAuditor.Token, "")
		Expect(a.status).To(Equal(http.StatusForbidden))
		Expect(a.body).To(ContainSubstring("you are not allowed to do this"))
		holdsNoSecret(a)
		Expect(s.head()).To(Equal(head+1), "the refusal alone is recorded")
		records := s.auditPage(s.auditor("x0001", "alice"), url.Values{"type": {audit.TypeAccessed}, "after": {fmt.Sprint(head)}}).Events
		Expect(records).NotTo(BeEmpty())
		Expect(outcome(accessOf(records[0]))).To(Equal("mallory auditor read x0001 false"))

		By("the victim's ids, account and phone asked of another tenant's history name nobody")
		for _, find := range []string{victimPhone, "victim01"} {
			q := victimQuery()
			q.Set("find", find)
			var dir httpapi.AuditDirectory
			s.ok("GET", directory(q), foreignAuditor.Token, nil, &dir)
			Expect(dir).To(Equal(httpapi.AuditDirectory{Members: []httpapi.AuditPerson{}, Groups: []httpapi.AuditGroup{}}))
			q.Set("tenant", "x0002")
			s.ok("GET", directory(q), s.operator().Token, nil, &dir)
			Expect(dir).To(Equal(httpapi.AuditDirectory{Members: []httpapi.AuditPerson{}, Groups: []httpapi.AuditGroup{}}))
		}
	})

	It("answers 20 identical directory calls at once alike, each recorded", func() {
		alice := s.auditor("x0001", "alice")
		// The directory reads the folded read models: the calls compare
		// alike once the victim's group is in them.
		Eventually(func() string { return s.rawCall("GET", directory(victimQuery()), alice.Token, "").body }).
			WithTimeout(10 * time.Second).Should(ContainSubstring("Victim Secret Club"))
		head := s.head()
		answers := atOnce(20, func(int) answer { return s.rawCall("GET", directory(victimQuery()), alice.Token, "") })
		Expect(statuses(answers)).To(Equal(map[int]int{http.StatusOK: 20}))
		for _, a := range answers {
			Expect(a.body).To(Equal(answers[0].body))
		}
		Expect(answers[0].body).To(ContainSubstring("Victim Secret Club"))
		Expect(s.head()).To(Equal(head + 20))
	})

	DescribeTable("refuses hostile directory queries with a 400 in the envelope, recording only the refusal",
		func(query func() string, info string) {
			alice := s.auditor("x0001", "alice")
			head := s.head()
			status, env := s.call("GET", "/v1/admin/audit/directory?"+query(), alice.Token, nil)
			Expect(status).To(Equal(http.StatusBadRequest), env.Info)
			Expect(env.Code).To(Equal("400"))
			Expect(env.Info).To(Equal(info))
			Expect(s.head()).To(Equal(head + 1))
			last := s.auditPage(alice, url.Values{"type": {audit.TypeAccessed}, "after": {fmt.Sprint(head)}})
			Expect(last.Events).NotTo(BeEmpty())
			Expect(accessOf(last.Events[0]).Refusal).To(Equal(info))
		},
		Entry("10,000 member ids", func() string { return "members=" + strings.Repeat("1866000000000000001,", 10_000) },
			"members names at most 500 ids of up to 64 characters"),
		Entry("10,000 group ids", func() string { return "groups=" + strings.Repeat("g,", 10_000) },
			"groups names at most 500 ids of up to 64 characters"),
		Entry("a member id of 65 characters", func() string { return "members=" + strings.Repeat("9", 65) },
			"members names at most 500 ids of up to 64 characters"),
		Entry("a group id of 65 characters beside a good one", func() string { return "groups=1," + strings.Repeat("9", 65) },
			"groups names at most 500 ids of up to 64 characters"),
		Entry("a find of 65 characters", func() string { return "find=" + strings.Repeat("a", 65) },
			"find is too long"),
	)

	It("answers lookalike operators, patterns, NUL bytes, unicode and repeated parameters with nobody, never the victim, and changes nothing else", func() {
		for _, hostile := range []string{`{"$ne":null}`, `{"$regex":".*"}`, ".*", "^victim", "victim%", "%", "*", "' OR '1'='1", "victim01' --",
			"victim01\x00", "\x00", "victim01\x00' OR 1=1", "ｖｉｃｔｉｍ０１", "VICTIM01", " victim01 ", "victim01\u200b", "💥"} {
			for _, who := range []member{foreignAuditor, s.auditor("x0001", "alice")} {
				q := url.Values{"find": {hostile}, "members": {hostile}, "groups": {hostile}}
				head := s.head()
				a := s.rawCall("GET", directory(q), who.Token, "")
				Expect(a.status).To(Equal(http.StatusOK), "%q: %s", hostile, a.body)
				var env struct {
					Code string
					Data httpapi.AuditDirectory
				}
				Expect(json.Unmarshal([]byte(a.body), &env)).To(Succeed())
				Expect(env.Data.Groups).To(BeEmpty(), "%q", hostile)
				if who.Token == foreignAuditor.Token {
					Expect(env.Data.Members).To(BeEmpty(), "%q", hostile)
					holdsNoSecret(a)
				} else {
					for _, m := range env.Data.Members {
						Expect(m.Account).To(Equal("victim01"), "%q finds the victim only by its own account's spelling", hostile)
					}
				}
				Expect(s.head()).To(Equal(head+1), "%q: one record, nothing else", hostile)
			}
		}

		By("a repeated parameter: the first is the one answered and recorded")
		alice := s.auditor("x0001", "alice")
		head := s.head()
		var dir httpapi.AuditDirectory
		s.ok("GET", "/v1/admin/audit/directory?members=nobody&members="+victim.ID+"&find=nobody&find=victim01", alice.Token, nil, &dir)
		Expect(dir.Members).To(BeEmpty())
		page := s.auditPage(alice, url.Values{"type": {audit.TypeAccessed}, "after": {fmt.Sprint(head)}})
		Expect(accessOf(page.Events[0]).Filter.Members).To(Equal([]string{"nobody"}))
		Expect(accessOf(page.Events[0]).Filter.Find).To(Equal("nobody"))
	})

	It("refuses audit cursors the log never gave, and pages from another tenant's position showing none of its events", func() {
		alice := s.auditor("x0001", "alice")
		const notAPosition = "after is not a position of the log: pass one a page or an event gave"
		for after, info := range map[string]string{
			"-1":                          "after must be a log position",
			"abc":                         "after must be a log position",
			"1e3":                         "after must be a log position",
			"0x10":                        "after must be a log position",
			" 1":                          "after must be a log position",
			"99999999999999999999":        "after must be a log position",
			"18446744073709551615":        notAPosition,
			fmt.Sprint(s.head() + 10_000): notAPosition,
		} {
			head := s.head()
			status, env := s.call("GET", "/v1/admin/audit/events?after="+url.QueryEscape(after), alice.Token, nil)
			Expect(status).To(Equal(http.StatusBadRequest), "after=%q: %s", after, env.Info)
			Expect(env.Info).To(Equal(info), "after=%q", after)
			Expect(s.head()).To(Equal(head+1), "after=%q: the refusal is recorded", after)
		}

		By("a real position of x0002's event")
		foreignEvents := s.auditAll(foreignAuditor, url.Values{"type": {"MemberRegistered"}}, 100)
		Expect(foreignEvents).NotTo(BeEmpty())
		theirs := foreignEvents[0].Position
		answers := atOnce(2, func(int) answer {
			return s.rawCall("GET", fmt.Sprintf("/v1/admin/audit/events?after=%d", theirs), alice.Token, "")
		})
		Expect(statuses(answers)).To(Equal(map[int]int{http.StatusOK: 2}))
		for _, a := range answers {
			Expect(a.body).NotTo(ContainSubstring("foreign1"))
			Expect(a.body).NotTo(ContainSubstring(foreigner.ID))
			Expect(a.body).NotTo(ContainSubstring(`"x0002.`))
		}
		page := s.auditPage(alice, url.Values{"after": {fmt.Sprint(theirs)}})
		for _, e := range page.Events {
			Expect(e.Stream).To(HavePrefix("x0001."))
			Expect(e.Position).To(BeNumerically(">", theirs))
		}
	})

	Describe("the rate limits counted in the shared store", func() {
		login := `{"account":"victim01","password":"pass1234"}`

		It("accept exactly the limit of 30 logins at once from one forwarded address", func() {
			answers := atOnce(30, func(int) answer {
				return s.rawCall("POST", "/v1/member/memberInfo/login", "", login, "X-Forwarded-For", "198.51.100.30")
			})
			Expect(statuses(answers)).To(Equal(map[int]int{http.StatusOK: 20, http.StatusTooManyRequests: 10}))
		})

		It("count password resets with logins: 30 at once from one address after 5 logins leave 15 to the handler", func() {
			for range 5 {
				Expect(s.rawCall("POST", "/v1/member/memberInfo/login", "", login, "X-Forwarded-For", "198.51.100.33").status).To(Equal(http.StatusOK))
			}
			answers := atOnce(30, func(int) answer {
				return s.rawCall("PUT", "/v1/member/memberInfo/forgetPassword", "", `{"phone":"`+victimPhone+`","smsCode":"000000","password":"other123"}`,
					"X-Forwarded-For", "198.51.100.33")
			})
			counts := statuses(answers)
			Expect(counts[http.StatusTooManyRequests]).To(Equal(15))
			Expect(counts[http.StatusBadRequest]).To(Equal(15), "the handler refuses the wrong code")
		})

		It("accept exactly the limit of SMS codes and isMobileRegister lookups asked at once from one address", func() {
			answers := atOnce(30, func(i int) answer {
				return s.rawCall("GET", fmt.Sprintf("/v1/member/sms/send?phone=139%08d&type=register", 5000+i), "", "", "X-Forwarded-For", "198.51.100.31")
			})
			Expect(statuses(answers)).To(Equal(map[int]int{http.StatusOK: 10, http.StatusTooManyRequests: 20}))
			answers = atOnce(70, func(int) answer {
				return s.rawCall("GET", "/v1/member/memberInfo/isMobileRegister?phone="+victimPhone, "", "", "X-Forwarded-For", "198.51.100.32")
			})
			Expect(statuses(answers)).To(Equal(map[int]int{http.StatusOK: 60, http.StatusTooManyRequests: 10}))
		})

		It("answer hostile X-Forwarded-For values without a server error, keeping one short counter per real address", func() {
			counters := func() (keys, longest int64) {
				GinkgoHelper()
				paths, err := filepath.Glob(filepath.Join(s.dataDir, "*.counters"))
				Expect(err).NotTo(HaveOccurred())
				Expect(paths).To(HaveLen(1))
				conn, err := sqlitec.Open(paths[0])
				Expect(err).NotTo(HaveOccurred())
				defer conn.Close()
				Expect(conn.QueryRow(`SELECT count(*), coalesce(max(length(key)), 0) FROM counters`, func(st *sqlitec.Stmt) {
					keys, longest = st.Int(0), st.Int(1)
				})).To(Succeed())
				return keys, longest
			}
			hops := make([]string, 2000)
			for i := range hops {
				hops[i] = fmt.Sprintf("10.%d.%d.1", i/256, i%256)
			}
			hostile := []string{
				strings.Repeat("a", 60_000),
				strings.Join(hops, ", "),
				"203.0.113.9, " + strings.Join(hops, ","),
				"not an address", "999.1.1.1", "::::", "[::1", "1.2.3.4, garbage", ",,,,", "\t",
				"203.0.113.10%eth0", "203.0.113.11:8080", "🦊",
			}
			keysBefore, _ := counters()
			for _, xff := range hostile {
				answers := atOnce(25, func(int) answer {
					return s.rawCall("POST", "/v1/member/memberInfo/login", "", login, "X-Forwarded-For", xff)
				})
				for status := range statuses(answers) {
					Expect(status).To(BeElementOf(http.StatusOK, http.StatusTooManyRequests), "X-Forwarded-For %.40q", xff)
				}
			}
			keys, longest := counters()
			Expect(keys-keysBefore).To(BeNumerically("<=", 2), "at most one counter for the private hop a long list starts with and one for 203.0.113.9")
			Expect(longest).To(BeNumerically("<=", 64))
		})
	})
})
