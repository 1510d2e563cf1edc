package main

import (
	"encoding/json"
	"fmt"
	"github.com/eventchat/eventchat/domain/fault"
	"net/http"
	"net/url"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"
	"go.uber.org/zap"
)

type topUpOrder struct {
	ID         string `json:"id"`
	RequestID  string `json:"requestId"`
	MemberID   string `json:"memberId"`
	Amount     int64  `json:"amount"`
	Status     string `json:"status"`
	Reason     string `json:"reason"`
	CreateTime int64  `json:"createTime"`
	ExpireTime int64  `json:"expireTime"`
	Balance    int64  `json:"balance"`
	Position   uint64 `json:"position"`
}

type topUpInfo struct {
	Enabled        bool    `json:"enabled"`
	Balance        int64   `json:"balance"`
	MinAmount      int64   `json:"minAmount"`
	MaxAmount      int64   `json:"maxAmount"`
	Presets        []int64 `json:"presets"`
	MaxPending     int     `json:"maxPending"`
	TimeoutSeconds int64   `json:"timeoutSeconds"`
}

type topUpPage struct {
	Records []topUpOrder `json:"records"`
	Total   int          `json:"total"`
}

// topUpOn switches top-up on for tenant.
func (s *testServer) topUpOn(tenant string, on bool) {
	GinkgoHelper()
	s.written("PUT", "/v1/admin/tenant/settings", s.operator(), map[string]any{"code": tenant, "settings": map[string]string{"topUp": fmt.Sprint(on)}})
}

func (s *testServer) topUp(m member, requestID string, amount int64) topUpOrder {
	GinkgoHelper()
	var o topUpOrder
	s.ok("POST", "/v1/member/topup/order", m.Token, map[string]any{"requestId": requestID, "amount": amount}, &o)
	return o
}

func (s *testServer) topUpInfo(m member) topUpInfo {
	GinkgoHelper()
	var info topUpInfo
	s.ok("GET", "/v1/member/topup/info", m.Token, nil, &info)
	return info
}

func (s *testServer) topUps(m member) topUpPage {
	GinkgoHelper()
	var p topUpPage
	s.ok("GET", "/v1/member/topup/list", m.Token, nil, &p)
	return p
}

func (s *testServer) adminTopUps(tenant string) topUpPage {
	GinkgoHelper()
	var p topUpPage
	s.ok("GET", "/v1/admin/topup/list?tenant="+tenant, s.operator().Token, nil, &p)
	return p
}

func (s *testServer) confirmTopUp(tenant, id string) topUpOrder {
	GinkgoHelper()
	var o topUpOrder
	s.ok("PUT", "/v1/admin/topup/confirm", s.operator().Token, map[string]string{"tenant": tenant, "id": id}, &o)
	return o
}

var _ = Describe("Top-up", func() {
	var s *testServer
	var alice member
	BeforeEach(func() {
		dir := GinkgoT().TempDir()
		secondTenant(dir)
		s = startServer(dir)
		alice = s.register("topupalice1")
	})

	It("is off until the tenant switches it on, and getSystemInfo tells the client", func() {
		var info struct{ TopUp bool }
		s.ok("GET", "/v1/member/memberInfo/getSystemInfo", alice.Token, nil, &info)
		Expect(info.TopUp).To(BeFalse())
		Expect(s.topUpInfo(alice).Enabled).To(BeFalse())
		s.refused("POST", "/v1/member/topup/order", alice, map[string]any{"requestId": "r1", "amount": 1000}, 403,
			"Top-up is not available for this server")
		s.refused("POST", "/v1/member/topup/order", alice, map[string]any{"requestId": "r1", "amount": 1000}, 403,
			"Top-up is not available for this server")

		s.topUpOn("x0001", true)
		s.ok("GET", "/v1/member/memberInfo/getSystemInfo", alice.Token, nil, &info)
		Expect(info.TopUp).To(BeTrue())
		Expect(s.topUpInfo(alice)).To(Equal(topUpInfo{Enabled: true, MinAmount: 100, MaxAmount: 1_000_000,
			Presets: []int64{1_000, 5_000, 10_000, 50_000}, MaxPending: 3, TimeoutSeconds: 900}))
		Expect(s.topUp(alice, "r1", 1000).Status).To(Equal("Pending"))

		By("switched off again, nothing new is taken, and the history stays")
		s.topUpOn("x0001", false)
		s.refused("POST", "/v1/member/topup/order", alice, map[string]any{"requestId": "r2", "amount": 1000}, 403,
			"Top-up is not available for this server")
		Expect(s.topUps(alice).Total).To(Equal(1))
	})

	It("credits a confirmed order once, however often it is confirmed or retried", func() {
		s.topUpOn("x0001", true)
		o := s.topUp(alice, "order-1", 5_000)
		Expect(o).To(MatchFields(IgnoreExtras, Fields{"ID": HaveLen(19), "RequestID": Equal("order-1"), "MemberID": Equal(alice.ID),
			"Amount": BeEquivalentTo(5_000), "Status": Equal("Pending"), "Balance": BeZero()}))
		Expect(o.ExpireTime - o.CreateTime).To(BeEquivalentTo(15 * time.Minute / time.Millisecond))
		Expect(s.topUp(alice, "order-1", 9_999).ID).To(Equal(o.ID), "a retry answers the first order")

		confirmed := s.confirmTopUp("x0001", o.ID)
		Expect(confirmed.Status).To(Equal("Confirmed"))
		Expect(confirmed.Balance).To(BeEquivalentTo(5_000))
		again := s.confirmTopUp("x0001", o.ID)
		Expect(again.Position).To(BeZero())
		Expect(again.Balance).To(BeEquivalentTo(5_000))
		s.refused("PUT", "/v1/admin/topup/reject", s.operator(), map[string]string{"tenant": "x0001", "id": o.ID}, 409,
			"The top-up order is already confirmed")
		retried := s.topUp(alice, "order-1", 5_000)
		Expect(retried.Status).To(Equal("Confirmed"))

		Eventually(func() int64 { return s.topUpInfo(alice).Balance }).Should(BeEquivalentTo(5_000))
		var page topUpPage
		s.ok("GET", fmt.Sprintf("/v1/member/topup/list?after=%d", confirmed.Position), alice.Token, nil, &page)
		Expect(page.Total).To(Equal(1))
		Expect(page.Records[0]).To(MatchFields(IgnoreExtras, Fields{"ID": Equal(o.ID), "Status": Equal("Confirmed"), "Amount": BeEquivalentTo(5_000)}))
		var one topUpOrder
		s.ok("GET", "/v1/member/topup/order?id="+o.ID, alice.Token, nil, &one)
		Expect(one.Status).To(Equal("Confirmed"))
	})

	It("answers one order to the same request id sent many times at once, without a 5xx", func() {
		s.topUpOn("x0001", true)
		var wg sync.WaitGroup
		ids := make([]string, 8)
		statuses := make([]int, 8)
		for i := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer GinkgoRecover()
				status, env := s.call("POST", "/v1/member/topup/order", alice.Token, map[string]any{"requestId": "same", "amount": 2_000})
				statuses[i] = status
				var o topUpOrder
				_ = json.Unmarshal(env.Data, &o)
				ids[i] = o.ID
			}()
		}
		wg.Wait()
		Expect(statuses).To(HaveEach(http.StatusOK))
		Expect(ids).To(HaveEach(ids[0]))
		Eventually(func() int { return s.topUps(alice).Total }).Should(Equal(1))
		Expect(s.adminTopUps("x0001").Total).To(Equal(1))
	})

	It("bounds amounts and pending orders, and limits the calls through the shared limiter", func() {
		s.topUpOn("x0001", true)
		for _, amount := range []int64{0, 99, 1_000_001, -500} {
			s.refused("POST", "/v1/member/topup/order", alice, map[string]any{"requestId": fmt.Sprint("a", amount), "amount": amount}, 400,
				"The amount must be between 1.00 and 10,000.00")
		}
		s.topUp(alice, "p1", 100)
		s.topUp(alice, "p2", 1_000_000)
		s.topUp(alice, "p3", 500)
		s.refused("POST", "/v1/member/topup/order", alice, map[string]any{"requestId": "p4", "amount": 500}, 409,
			"You have 3 top-ups waiting for payment: wait for them to finish")
		// Eight calls so far: two more are the last of the minute.
		s.topUp(alice, "p1", 100)
		s.topUp(alice, "p2", 100)
		status, env := s.call("POST", "/v1/member/topup/order", alice.Token, map[string]any{"requestId": "p1", "amount": 100})
		Expect(status).To(Equal(http.StatusTooManyRequests), env.Info)
		Expect(env.Code).To(Equal("429"))
		Eventually(func() int { return s.topUps(alice).Total }).Should(Equal(3))
		By("the limit is the member's: another member orders")
		bob := s.register("topupbob01")
		Expect(s.topUp(bob, "p1", 100).Status).To(Equal("Pending"))
	})

	It("refuses hostile bodies with 400 in the envelope and changes nothing", func() {
		s.topUpOn("x0001", true)
		bob := s.register("topupbob03")
		for i, body := range []any{
			"not json", `{"requestId": "x", "amount": "100"}`, `{"requestId": "x", "amount": 1e30}`, `{"requestId": 7, "amount": 100}`,
			`[1,2]`, `{"requestId": "x", "amount": 100.5}`,
			map[string]any{"requestId": "", "amount": 100}, map[string]any{"requestId": "a b", "amount": 100},
			map[string]any{"requestId": "<script>", "amount": 100}, map[string]any{"amount": 100},
			map[string]any{"requestId": string(make([]byte, 65)), "amount": 100},
		} {
			// Two members share the bodies: each may call ten times a minute.
			status, env := s.call("POST", "/v1/member/topup/order", []member{alice, bob}[i%2].Token, body)
			Expect(status).To(Equal(http.StatusBadRequest), "%v: %s", body, env.Info)
			Expect(env.Code).To(Equal("400"))
			Expect(env.Info).NotTo(BeEmpty())
		}
		s.refused("PUT", "/v1/admin/topup/confirm", s.operator(), `{"tenant": "x0001", "id": 5}`, 400, fault.MsgBadRequest)
		s.refused("PUT", "/v1/admin/topup/adjust", s.operator(), map[string]any{"tenant": "x0001", "account": alice.Account, "id": "a1", "amount": 100, "reason": ""},
			400, "The reason must be 1 to 200 characters")
		Expect(s.topUps(alice).Total).To(BeZero())
		Expect(s.topUps(bob).Total).To(BeZero())
		Expect(s.adminTopUps("x0001").Total).To(BeZero())
	})

	It("asks a token, and keeps orders and balances to their member and tenant", func() {
		s.topUpOn("x0001", true)
		s.topUpOn("x0002", true)
		o := s.topUp(alice, "mine", 3_000)
		nobody := member{}
		for _, r := range [][2]string{{"GET", "/v1/member/topup/info"}, {"GET", "/v1/member/topup/list"},
			{"GET", "/v1/member/topup/order?id=" + o.ID}, {"POST", "/v1/member/topup/order"}} {
			s.refused(r[0], r[1], nobody, map[string]any{"requestId": "x", "amount": 100}, 401, "login expired, please log in again")
		}
		By("a member's token is no operator's")
		s.refused("PUT", "/v1/admin/topup/confirm", alice, map[string]string{"tenant": "x0001", "id": o.ID}, 401, "login expired, please log in again")
		s.refused("GET", "/v1/admin/topup/list?tenant=x0001", alice, nil, 401, "login expired, please log in again")

		By("a stranger of the same tenant sees nothing of alice's")
		carol := s.register("topupcarol")
		s.refused("GET", "/v1/member/topup/order?id="+o.ID, carol, nil, 404, "The top-up order is not found")
		Expect(s.topUps(carol).Total).To(BeZero())
		Expect(s.topUpInfo(carol).Balance).To(BeZero())
		// Carol's own order with alice's request id is a different order.
		Expect(s.topUp(carol, "mine", 100).ID).NotTo(Equal(o.ID))

		By("another tenant's member and an operator naming another tenant neither see nor settle it")
		dave := s.registerIn("x0002", "topupdave1")
		s.refused("GET", "/v1/member/topup/order?id="+o.ID, dave, nil, 404, "The top-up order is not found")
		Expect(s.topUps(dave).Total).To(BeZero())
		s.refused("PUT", "/v1/admin/topup/confirm", s.operator(), map[string]string{"tenant": "x0002", "id": o.ID}, 404, "The top-up order is not found")
		s.refused("PUT", "/v1/admin/topup/reject", s.operator(), map[string]string{"tenant": "x0002", "id": o.ID}, 404, "The top-up order is not found")
		Expect(s.adminTopUps("x0002").Records).To(BeEmpty())
		By("nor does another tenant's auditor read it")
		auditor := s.auditor("x0002", "aud")
		s.refused("GET", "/v1/admin/audit/events?tenant=x0001", auditor, nil, 403, "you are not allowed to do this")

		var one topUpOrder
		s.ok("GET", fmt.Sprintf("/v1/member/topup/order?id=%s&after=%d", o.ID, o.Position), alice.Token, nil, &one)
		Expect(one.Status).To(Equal("Pending"))
		Expect(s.topUpInfo(alice).Balance).To(BeZero())
	})

	It("never takes a balance below zero: an operator's debit it cannot cover is refused", func() {
		adjust := func(id string, amount int64) (int, envelope) {
			return s.call("PUT", "/v1/admin/topup/adjust", s.operator().Token,
				map[string]any{"tenant": "x0001", "account": alice.Account, "id": id, "amount": amount, "reason": "support ticket 42"})
		}
		status, env := adjust("credit-1", 2_500)
		Expect(status).To(Equal(http.StatusOK), env.Info)
		status, env = adjust("debit-1", -2_501)
		Expect(status).To(Equal(http.StatusConflict))
		Expect(env.Info).To(Equal("The balance is too low for this debit"))
		status, env = adjust("debit-1", -2_500)
		Expect(status).To(Equal(http.StatusOK), env.Info)
		status, env = adjust("debit-1", -2_500)
		Expect(status).To(Equal(http.StatusOK), "the same adjustment again changes nothing")
		var change struct{ Balance, Position uint64 }
		Expect(json.Unmarshal(env.Data, &change)).To(Succeed())
		Expect(change.Position).To(BeZero())
		status, _ = adjust("debit-2", -1)
		Expect(status).To(Equal(http.StatusConflict))
		Eventually(func() int64 { return s.topUpInfo(alice).Balance }).Should(BeZero())
		page := s.topUps(alice)
		Expect(page.Total).To(Equal(2))
		Expect(page.Records[0]).To(MatchFields(IgnoreExtras, Fields{"Amount": BeEquivalentTo(-2_500), "Status": Equal("Done")}))
	})

	It("shows every balance change in the tenant's audit history, and a rebuild of the read models gives the same balances", func() {
		s.topUpOn("x0001", true)
		bob := s.register("topupbob02")
		a1 := s.topUp(alice, "a1", 1_000)
		a2 := s.topUp(alice, "a2", 2_000)
		b1 := s.topUp(bob, "b1", 4_000)
		s.confirmTopUp("x0001", a1.ID)
		s.confirmTopUp("x0001", b1.ID)
		s.ok("PUT", "/v1/admin/topup/reject", s.operator().Token, map[string]string{"tenant": "x0001", "id": a2.ID, "reason": "no transfer"}, nil)
		s.ok("PUT", "/v1/admin/topup/adjust", s.operator().Token,
			map[string]any{"tenant": "x0001", "account": bob.Account, "id": "refund-1", "amount": -1_500, "reason": "refund"}, nil)

		types := map[string]int{}
		for _, e := range s.auditAll(s.auditor("x0001", "aud"), url.Values{"tenant": {"x0001"}, "type": {"TopUpOrdered,TopUpConfirmed,TopUpRejected,BalanceAdjusted"}}, 50) {
			types[e.Type]++
		}
		Expect(types).To(Equal(map[string]int{"TopUpOrdered": 3, "TopUpConfirmed": 2, "TopUpRejected": 1, "BalanceAdjusted": 1}))

		Eventually(func() int64 { return s.topUpInfo(bob).Balance }).Should(BeEquivalentTo(2_500))
		before := []any{s.topUpInfo(alice), s.topUpInfo(bob), s.topUps(alice), s.topUps(bob), s.adminTopUps("x0001")}
		code, _, errOut := s.imctl("--json", "projections", "rebuild", "all")
		Expect(code).To(Equal(0), errOut)
		after := []any{s.topUpInfo(alice), s.topUpInfo(bob), s.topUps(alice), s.topUps(bob), s.adminTopUps("x0001")}
		Expect(after).To(Equal(before))
		Expect(s.topUpInfo(alice).Balance).To(BeEquivalentTo(1_000))
	})

	It("is settled by operators through imctl", func() {
		s.topUpOn("x0001", true)
		o1 := s.topUp(alice, "c1", 1_250)
		o2 := s.topUp(alice, "c2", 700)
		s.ok("GET", fmt.Sprintf("/v1/admin/topup/list?tenant=x0001&after=%d", o2.Position), s.operator().Token, nil, nil)
		code, out, errOut := s.imctl("topup", "list", "x0001")
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(ContainSubstring("2 orders"))
		Expect(out).To(MatchRegexp(o1.ID + `\s+` + alice.ID + `\s+12\.50\s+Pending`))
		code, out, errOut = s.imctl("--json", "topup", "confirm", "x0001", o1.ID)
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(ContainSubstring(`"status": "Confirmed"`))
		code, _, errOut = s.imctl("topup", "reject", "x0001", o2.ID, "no", "payment")
		Expect(code).To(Equal(0), errOut)
		code, _, errOut = s.imctl("topup", "confirm", "x0001", o2.ID)
		Expect(code).To(Equal(1))
		Expect(errOut).To(ContainSubstring("The top-up order was rejected"))
		code, _, errOut = s.imctl("topup", "adjust", "x0001", alice.Account, "fix-1", "-12.51", "typo")
		Expect(code).To(Equal(1))
		Expect(errOut).To(ContainSubstring("The balance is too low for this debit"))
		code, _, errOut = s.imctl("topup", "adjust", "x0001", alice.Account, "fix-1", "1.5x", "typo")
		Expect(code).To(Equal(2), errOut)
		code, _, errOut = s.imctl("topup", "confirm", "x0001", "1234567890123456789")
		Expect(code).To(Equal(1))
		Expect(errOut).To(ContainSubstring("The top-up order is not found"))
		Eventually(func() int64 { return s.topUpInfo(alice).Balance }).Should(BeEquivalentTo(1_250))
		code, out, _ = s.imctl("topup", "list", "x0001")
		Expect(code).To(Equal(0))
		Expect(out).To(MatchRegexp(o2.ID + `.*Rejected\s+.*no payment`))
	})

	It("lists its routes in /v1/openapi.json", func() {
		resp, err := http.Get(s.base + "/v1/openapi.json")
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		var doc struct{ Paths map[string]map[string]any }
		Expect(json.NewDecoder(resp.Body).Decode(&doc)).To(Succeed())
		for path, method := range map[string]string{"/v1/member/topup/info": "get", "/v1/member/topup/list": "get",
			"/v1/member/topup/order": "post", "/v1/admin/topup/list": "get", "/v1/admin/topup/confirm": "put",
			"/v1/admin/topup/reject": "put", "/v1/admin/topup/adjust": "put"} {
			Expect(doc.Paths).To(HaveKey(path))
			Expect(doc.Paths[path]).To(HaveKey(method), path)
		}
	})
})

var _ = Describe("Top-up orders nobody confirms", func() {
	It("expire after IM_TOPUP_TIMEOUT, and a late confirmation is refused without credit", func() {
		s := startWith(GinkgoT().TempDir(), zap.NewNop(), map[string]string{"IM_TOPUP_TIMEOUT": "1s"})
		alice := s.register("topupexp01")
		s.topUpOn("x0001", true)
		o := s.topUp(alice, "slow", 1_000)
		Expect(o.ExpireTime - o.CreateTime).To(BeEquivalentTo(1_000))
		Eventually(func() string {
			var one topUpOrder
			s.ok("GET", fmt.Sprintf("/v1/member/topup/order?id=%s&after=%d", o.ID, o.Position), alice.Token, nil, &one)
			return one.Status
		}, 10*time.Second, 100*time.Millisecond).Should(Equal("Expired"))
		s.refused("PUT", "/v1/admin/topup/confirm", s.operator(), map[string]string{"tenant": "x0001", "id": o.ID}, 409, "The top-up order has expired")
		Expect(s.topUpInfo(alice).Balance).To(BeZero())
		By("an expired order no longer counts against the pending cap")
		for _, r := range []string{"n1", "n2", "n3"} {
			Expect(s.topUp(alice, r, 100).Status).To(Equal("Pending"))
		}
	})
})
