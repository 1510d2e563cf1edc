package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The isolation suite reads /v1/openapi.json from the running server and
// attacks every operation that takes an id (see idFields) as three members:
// mallory of another tenant, eve a stranger of the victims' tenant, and dave
// who was removed from the victims' group (and is no longer their friend).
// Each request is filled with the victims' real ids of the kind its field
// names (kindOf), each single id taking each of the victims' ids in turn:
// every id field at once, then each alone, with the others left out, made
// up, or the attacker's own (their friend, group, messages). The same
// request with made-up ids of the same shape is the reference an answer is
// judged against (judge). New routes are attacked without a line of test;
// one whose id the table cannot fill fails the suite until it is added to
// kindOf or listed below.

// isoExclusion is an id-taking operation the generated attacks leave out,
// for every attacker or for some: attackedBy names those who still attack it.
type isoExclusion struct {
	reason     string
	attackedBy []string
}

// isoExcluded lists every id-taking operation not attacked by all three
// attackers, with the reason. An entry naming no operation of the document
// fails the suite.
var isoExcluded = map[string]isoExclusion{
	"GET /v1/member/memberInfo/getMemberByMemberId": {
		reason:     "a member's card is public within a tenant (found by account to ask for friendship); another tenant's member must get nothing",
		attackedBy: []string{"mallory"}},
	"GET /v1/member/memberInfo/getMemberByCodeOrUsername": {
		reason:     "finding a member by account or phone is how a friend request starts, within a tenant; another tenant's member must find nothing",
		attackedBy: []string{"mallory"}},
	"POST /v1/chat/applyInfo/build": {
		reason:     "anyone of a tenant may ask anyone of it for friendship, which adds a request to the victim's list; another tenant's member must be refused as an unknown id is",
		attackedBy: []string{"mallory"}},
	"GET /v1/sso/im/file/{tenant}/{name}": {
		reason:     "uploaded files are served to the members of their tenant by unguessable name (a capability the message carries); another tenant's member must get 404",
		attackedBy: []string{"mallory"}},
	"GET /v1/api/model-list/{tenantId}": {
		reason:     "a tenant's assistant models are the same for all its members; another tenant's member must get 404",
		attackedBy: []string{"mallory"}},
	"GET /v1/member/sensitiveWord/getSensitiveWordByMemberLevelId": {
		reason: "memberLevelId is a member level's code (Normal, Admin, System), the same for the whole tenant, not a member's data"},
}

// isoNoOwnContext lists the operations not attacked with the attacker's own
// ids around the victim's one, with the reason.
var isoNoOwnContext = map[string]string{
	"POST /v1/message/call/start":     "a call the attacker starts to their own friend makes every later start answer 409, whatever the uuid",
	"PUT /v1/chat/groupInfo/transfer": "handing the attacker's own group to their own friend succeeds, and the attacker, no longer its owner, is refused (403) every later transfer, whatever the ids",
}

// isoMinAttacked is the least number of operations the suite must attack,
// so that a broken document or table cannot make it attack nothing.
const isoMinAttacked = 60

var _ = Describe("The isolation suite: every id-taking route of /v1/openapi.json, called by attackers with the victims' real ids", Label("isolation"), func() {
	It("refuses another tenant's member, a same-tenant stranger and a removed group member, leaks nothing and changes nothing", func() {
		w := buildIsoWorld()
		s := w.s
		attackers := map[string]isoMember{"mallory": w.mallory, "eve": w.eve, "dave": w.dave}
		names := []string{"mallory", "eve", "dave"}

		resp, raw := s.fetch("/v1/openapi.json", w.eve.Token)
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		ops, err := parseOps(raw)
		Expect(err).NotTo(HaveOccurred())
		known := map[string]bool{}
		for _, op := range ops {
			known[op.key()] = true
		}

		before := w.snapshot()
		h0 := s.head()

		failures := &isoFailures{}
		for key := range isoExcluded {
			if !known[key] {
				failures.add(key, "-", "listed in isoExcluded but not in /v1/openapi.json: remove it from the list", "")
			}
		}

		attacked, excluded := []string{}, []string{}
		var matrix strings.Builder
		seen := map[string]bool{}
		calls := 0
		for _, op := range ops {
			if op.staff() {
				// Operator and auditor routes: a member's token is refused
				// whatever it names.
				r := build(op, isoFill{chatType: "Friend", values: func(kind string) []string { return w.ids[kind] }})
				for _, who := range []isoMember{w.mallory, w.eve, w.dave, w.alice} {
					a := s.do(r, who.Token)
					calls++
					if a.Status != http.StatusUnauthorized && a.Status != http.StatusForbidden {
						failures.add(op.key(), who.Name, fmt.Sprintf("a member's token got %d, want 401 or 403 (an operator/auditor route)", a.Status), a.String())
					}
				}
				continue
			}
			fields := idFields(op)
			if len(fields) == 0 {
				continue
			}
			ex, listed := isoExcluded[op.key()]
			by := names
			if listed {
				by = ex.attackedBy
				excluded = append(excluded, fmt.Sprintf("%s (attacked by %v): %s", op.key(), by, ex.reason))
			}
			if len(by) == 0 {
				continue
			}
			chatTypes := []string{""}
			if hasChatType(op) {
				chatTypes = []string{"Friend", "Group"}
			}
			// Every id field filled, then, for routes taking several, each
			// alone: a route may read one and ignore the others.
			onlys := []string{""}
			if len(fields) > 1 {
				for _, f := range fields {
					if f.Where != "path" && !slices.Contains(onlys, f.base()) {
						onlys = append(onlys, f.base())
					}
				}
			}
			unknown := false
			groupRoute := false
			for _, f := range fields {
				for _, ct := range chatTypes {
					groupRoute = groupRoute || kindOf(op.Path, f.base(), ct) == "group"
				}
			}
			for _, name := range by {
				attacker := attackers[name]
				madeUp := w.madeUp(name)
				if groupRoute && len(onlys) > 1 {
					w.renewOwnGroup(name)
				}
				for _, ct := range chatTypes {
					for i, only := range onlys {
						// The other id fields: left out, made up, or the
						// attacker's own (their friend, group, messages).
						for _, mode := range []struct {
							label  string
							others func(string) []string
						}{{" alone", nil}, {" +made-up", madeUp}, {" +own", w.ownOr(name, madeUp)}} {
							others := mode.others
							if i == 0 && others != nil || mode.label == " +own" && isoNoOwnContext[op.key()] != "" {
								continue
							}
							fill := isoFill{chatType: ct, only: only, others: others, values: func(kind string) []string { return w.ids[kind] }}
							// A single id takes each of the victims' ids of its kind in turn.
							variants := 1
							for _, f := range fields {
								if !f.List && (f.Where == "path" || !fill.skip(f.base())) {
									variants = max(variants, len(w.ids[kindOf(op.Path, f.base(), ct)]))
								}
							}
							for variant := range variants {
								fill.variant = variant
								victim := build(op, fill)
								if len(victim.Unknown) > 0 {
									if !unknown {
										failures.add(op.key(), "-", fmt.Sprintf("no value for the id parameter(s) %v: add them to kindOf's table or list the route in isoExcluded", victim.Unknown), "")
									}
									unknown = true
									continue
								}
								base := build(op, isoFill{chatType: ct, only: only, others: others, variant: variant, values: madeUp})
								// The made-up request is sent before and after the
								// victim's: a write of the attacker's own may change
								// the answer to the next request.
								ref := s.do(base, attacker.Token)
								before := s.head()
								got := s.do(victim, attacker.Token)
								if appended := s.head() - before; got.Status >= 400 && appended > 0 {
									failures.add(op.key(), name, fmt.Sprintf("refused with %d %q, but appended %d events", got.Status, got.Info, appended), fmt.Sprintf("%s %s", victim.URL, victim.Body))
								}
								if again := s.do(base, attacker.Token); again.Status == got.Status && (got.Status < 300 || again.Info == got.Info) {
									ref = again
								}
								calls += 7
								shown := only
								if only != "" {
									shown += mode.label
								}
								line := fmt.Sprintf("%-62s %-7s %-6s %-22s %d %-40q | made-up: %d %q\n", op.key(), name, ct, shown, got.Status, got.Info, ref.Status, ref.Info)
								if !seen[line] {
									seen[line] = true
									matrix.WriteString(line)
								}
								request := fmt.Sprintf("%s %s", victim.URL, victim.Body)
								for _, p := range w.judge(name, victim, got, ref) {
									example := request
									if p.detail != "" {
										example += "\n    " + p.detail
									}
									failures.add(op.key(), name, p.what, example)
								}
								// The same request twice at once: never a 5xx.
								var wg sync.WaitGroup
								twice := make([]isoAnswer, 2)
								for i := range twice {
									wg.Add(1)
									go func() { defer wg.Done(); twice[i] = s.do(victim, attacker.Token) }()
								}
								wg.Wait()
								for _, a := range twice {
									if a.Err != nil || a.Status >= 500 {
										failures.add(op.key(), name, fmt.Sprintf("sent twice at once: answered %d", a.Status), request+"\n    "+a.String())
									}
									if leaks := w.leaks(name, victim, a); len(leaks) > 0 && len(w.leaks(name, victim, got)) == 0 {
										failures.add(op.key(), name, fmt.Sprintf("sent twice at once: answered %d with the victims' data", a.Status), fmt.Sprintf("%s\n    leaked: %q", request, leaks))
									}
								}
							}
						}
					}
				}
			}
			if !unknown {
				attacked = append(attacked, op.key())
			}
		}
		AddReportEntry("isolation: attacks (route, attacker, chat type, the one id field sent, answer | answer to made-up ids)", matrix.String())
		AddReportEntry("isolation: attacked operations", strings.Join(attacked, "\n"))
		AddReportEntry("isolation: excluded operations", strings.Join(excluded, "\n"))
		GinkgoWriter.Printf("attacked %d operations with %d calls; excluded or partly excluded %d\n", len(attacked), calls, len(excluded))

		By("the victims' world is as it was")
		h1 := s.head()
		for _, c := range isoChanged(before, w.snapshot()) {
			failures.add("the victims' reads", "-", "changed", c)
		}
		w.checkLog(h0, h1, failures)

		Expect(len(attacked)).To(BeNumerically(">=", isoMinAttacked), "attacked operations:\n%s", strings.Join(attacked, "\n"))
		Expect(len(failures.items)).To(BeZero(), "%d isolation failures (route | attacker | what, × how many requests; one request):\n%s", len(failures.items), failures)
	})
})

var _ = Describe("The isolation suite: recognising ids in /v1/openapi.json", Label("isolation"), func() {
	It("finds ids by name, nested and in path parameters, and has no value for an id it does not know", func() {
		op := isoOp{Method: "POST", Path: "/v1/chat/widget/{name}", Params: []isoParam{{Name: "name", In: "path", Required: true}, {Name: "widgetIds", In: "query"}},
			Body: map[string]any{"type": "object", "properties": map[string]any{
				"groupId": map[string]any{"type": "string"}, "content": map[string]any{"type": "string"},
				"targets": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
					"chatType": map[string]any{"type": "string"}, "to": map[string]any{"type": "string"}}}},
			}}}
		Expect(idFields(op)).To(Equal([]isoField{{"body", "groupId", false}, {"body", "targets[].to", false}, {"path", "name", false}, {"query", "widgetIds", true}}))
		r := build(op, isoFill{chatType: "Group", values: func(kind string) []string { return map[string][]string{"group": {"G"}}[kind] }})
		Expect(r.Unknown).To(ConsistOf("name", "widgetIds"), "an id the table does not know fails the suite until it is added or the route listed")
		Expect(string(r.Body)).To(MatchJSON(`{"groupId":"G","content":"hi","targets":[{"chatType":"Group","to":"G"}]}`))
		Expect(kindOf("/v1/member/sensitiveWord/getSensitiveWordByMemberLevelId", "memberLevelId", "")).To(BeEmpty())
	})
})

// madeUp gives, for the attacker, made-up ids of the same shape as the
// victims': unknown ids, except member ids for a member of the victims'
// tenant, whose members are public to it: nina's and omar's, who know nobody.
func (w *isoWorld) madeUp(attacker string) func(kind string) []string {
	return func(kind string) []string {
		vs := w.ids[kind]
		out := make([]string, len(vs))
		for i, v := range vs {
			switch kind {
			case "member":
				if attacker != "mallory" {
					out[i] = []string{w.nina.ID, w.omar.ID}[i%2]
					continue
				}
				out[i] = scramble(v)
			case "fileTenant":
				out[i] = v
			case "file":
				cut := strings.LastIndex(v, "/") + 1
				out[i] = v[:cut] + scramble(v[cut:])
			case "media":
				name := w.ids["fileName"][0]
				out[i] = strings.ReplaceAll(v, name, scramble(name))
			default:
				out[i] = scramble(v)
			}
		}
		return out
	}
}

// ownOr gives the attacker's own ids of a kind, or else made-up ones: a
// victim's id sent in a context the attacker may use (their friend, their
// group) must not reach the victim's data either.
func (w *isoWorld) ownOr(attacker string, madeUp func(string) []string) func(string) []string {
	return func(kind string) []string {
		if vs, ok := w.own[attacker][kind]; ok {
			return vs
		}
		return madeUp(kind)
	}
}

// isoFailures gathers the failures by route, attacker and what went wrong,
// with how many requests saw it and the first of them.
type isoFailures struct {
	items []*isoFailure
	index map[string]*isoFailure
}

type isoFailure struct {
	route, attacker, what, request string
	n                              int
}

func (fs *isoFailures) add(route, attacker, what, request string) {
	if fs.index == nil {
		fs.index = map[string]*isoFailure{}
	}
	key := route + "|" + attacker + "|" + what
	if f := fs.index[key]; f != nil {
		f.n++
		return
	}
	f := &isoFailure{route: route, attacker: attacker, what: what, request: request, n: 1}
	fs.index[key] = f
	fs.items = append(fs.items, f)
}

func (fs *isoFailures) String() string {
	var b strings.Builder
	var routes []string
	by := map[string][]string{}
	for _, f := range fs.items {
		if by[f.route] == nil {
			routes = append(routes, f.route)
		}
		if !slices.Contains(by[f.route], f.attacker) {
			by[f.route] = append(by[f.route], f.attacker)
		}
	}
	fmt.Fprintf(&b, "%d routes or checks fail:\n", len(routes))
	for _, r := range routes {
		fmt.Fprintf(&b, "  %s: %s\n", r, strings.Join(by[r], ", "))
	}
	b.WriteString("In detail:\n")
	for _, f := range fs.items {
		request := f.request
		if len(request) > 900 && f.what != "changed" {
			request = request[:900] + "…"
		}
		fmt.Fprintf(&b, "- %s | %s | %s  × %d\n    %s\n", f.route, f.attacker, f.what, f.n, request)
	}
	return b.String()
}

// judge says what is wrong with an attacker's answer got to request r, given
// ref, the answer to the same request with made-up ids of the same shape.
//
// The rule: an attack answers 4xx, with the same status and text as the
// made-up ids get (no existence oracle), and 404 rather than 403 to another
// tenant's member (API.md). A 2xx is accepted only when its body is
// identical to the answer for the made-up ids (log positions aside): a
// "by ids" list answering the visible subset, or a write that only touches
// the caller's own state, shows then no data and no existence. Never a 5xx,
// and never any of the victims' texts, names, phones or file names.
func (w *isoWorld) judge(attacker string, r isoRequest, got, ref isoAnswer) []isoProblem {
	var out []isoProblem
	add := func(what, detail string) { out = append(out, isoProblem{what, detail}) }
	switch {
	case got.Err != nil || ref.Err != nil:
		add("no answer", fmt.Sprintf("%v / made-up ids: %v", got.Err, ref.Err))
	case got.Status >= 500:
		add(fmt.Sprintf("answered %d", got.Status), got.String())
	case got.Status < 300:
		if ref.Status >= 300 || normalised(got.Raw) != normalised(ref.Raw) {
			add(fmt.Sprintf("answered %d where made-up ids answer %d %q", got.Status, ref.Status, ref.Info),
				fmt.Sprintf("answer: %s\n    made-up ids: %s", got, ref))
		}
	default:
		if got.Status != ref.Status || got.Info != ref.Info {
			add(fmt.Sprintf("existence oracle: answered %d %q, made-up ids answer %d %q", got.Status, got.Info, ref.Status, ref.Info), "")
		}
		if attacker == "mallory" && got.Status == http.StatusForbidden {
			add(fmt.Sprintf("answered 403 %q to another tenant's member (API.md: another tenant's ids are 404)", got.Info), "")
		}
	}
	if ref.Status >= 500 {
		add(fmt.Sprintf("made-up ids answered %d", ref.Status), ref.String())
	}
	if leaks := w.leaks(attacker, r, got); len(leaks) > 0 {
		add(fmt.Sprintf("answered %d with the victims' data", got.Status), fmt.Sprintf("leaked: %q", leaks))
	}
	return out
}

// isoProblem is what is wrong with an answer, and what shows it.
type isoProblem struct{ what, detail string }

// secrets are the needles of an attacker: the victims' cards too for another
// tenant's member.
func (w *isoWorld) secrets(attacker string) []string {
	if attacker == "mallory" || attacker == w.mallory.ID {
		return append(slices.Clone(w.needles), w.public...)
	}
	return w.needles
}

// leaks lists the secrets an answer to the attacker holds that its request
// did not.
func (w *isoWorld) leaks(attacker string, r isoRequest, a isoAnswer) []string {
	var out []string
	for _, n := range w.secrets(attacker) {
		if bytes.Contains(a.Raw, []byte(n)) && !strings.Contains(r.URL, n) && !bytes.Contains(r.Body, []byte(n)) {
			out = append(out, excerpt(a.Raw, n))
		}
	}
	return out
}

// excerpt shows a needle in its context.
func excerpt(raw []byte, needle string) string {
	i := bytes.Index(raw, []byte(needle))
	from, to := max(0, i-80), min(len(raw), i+len(needle)+80)
	return string(raw[from:to])
}

// checkLog asserts what the attacks appended to the log between h0 and h1.
// A refused call appends nothing (checked call by call), but the attacks are
// not all refused: in their own context (their friend, their groups) the
// attackers send messages, pin, clear and acknowledge, and acknowledging
// mentions one does not have appends too. So: every event appended (both
// tenants' histories, which must account for all of them) is by an attacker,
// on a stream of no victim and of no victims' group, and holds none of the
// victims' secrets (another tenant's member: not even their cards).
func (w *isoWorld) checkLog(h0, h1 uint64, failures *isoFailures) {
	GinkgoHelper()
	s := w.s
	op := s.operator()
	attackers := map[string]string{w.mallory.ID: "mallory", w.eve.ID: "eve", w.dave.ID: "dave"}
	victims := []string{w.alice.ID, w.bob.ID, w.carol.ID, w.frank.ID, w.group}
	var seen uint64
	types := map[string]int{}
	for _, tenant := range []string{"x0001", "x0002"} {
		for _, e := range s.auditAll(op, url.Values{"tenant": {tenant}}, 500) {
			if e.Position <= h0 || e.Position > h1 {
				continue
			}
			seen++
			types[e.Type]++
			bad := attackers[e.Actor] == ""
			for _, v := range victims {
				bad = bad || strings.Contains(e.Stream, v)
			}
			if bad {
				failures.add("the event log", attackers[e.Actor]+" "+e.Actor, fmt.Sprintf("the attacks appended %s to %s", e.Type, e.Stream), fmt.Sprintf("position %d: %s", e.Position, e.Data))
			}
			for _, n := range w.secrets(e.Actor) {
				if bytes.Contains(e.Data, []byte(n)) {
					failures.add("the event log", attackers[e.Actor], fmt.Sprintf("an attacker's %s holds the victims' %q", e.Type, n), fmt.Sprintf("position %d, %s: %s", e.Position, e.Stream, e.Data))
				}
			}
		}
	}
	if seen != h1-h0 {
		failures.add("the event log", "-", fmt.Sprintf("%d events appended during the attacks, %d of them in the tenants' histories: each must be checked", h1-h0, seen), "")
	}
	AddReportEntry("isolation: events the attackers appended to their own streams", fmt.Sprint(types))
}
