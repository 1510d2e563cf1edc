package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/authz"
	pebblestore "github.com/eventchat/eventchat/adapters/eventstore/pebble"
	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/commands"
)

// callSignal is a pushed 12.
type callSignal struct {
	CallID        string `json:"callId"`
	OperationType string `json:"operationType"`
	Media         string `json:"media"`
	From          string `json:"from"`
	To            string `json:"to"`
	By            string `json:"by"`
	Outcome       string `json:"outcome"`
	Time          int64  `json:"time"`
}

type callResult struct {
	CallID   string `json:"callId"`
	From     string `json:"from"`
	To       string `json:"to"`
	Media    string `json:"media"`
	State    string `json:"state"`
	Outcome  string `json:"outcome"`
	Duration int64  `json:"duration"`
	Position uint64 `json:"position"`
}

type callRecord struct {
	CallID   string `json:"callId"`
	Media    string `json:"media"`
	Outcome  string `json:"outcome"`
	Duration int64  `json:"duration"`
}

var _ = Describe("Calls", func() {
	var s *testServer
	var alice, bob, carol member

	setup := func(env map[string]string) {
		s = startWith(GinkgoT().TempDir(), zap.NewNop(), env)
		alice, bob, carol = s.register("alice001"), s.register("bob00001"), s.register("carol001")
		s.befriend(alice, bob)
		s.befriend(carol, bob)
	}
	startCall := func(from, to member, uuid, media string) callResult {
		GinkgoHelper()
		var r callResult
		s.ok("POST", "/v1/message/call/start", from.Token, map[string]string{"uuid": uuid, "chatType": "Friend", "to": to.ID, "media": media}, &r)
		return r
	}
	signal := func(m member, op, callID string) callResult {
		GinkgoHelper()
		var r callResult
		s.ok("POST", "/v1/message/call/"+op, m.Token, map[string]string{"callId": callID}, &r)
		return r
	}
	pushed := func(c *wsclient.Client) callSignal {
		GinkgoHelper()
		var sig callSignal
		Expect(json.Unmarshal(next(c, 12).Data, &sig)).To(Succeed())
		return sig
	}
	// ending reads the end of a call as pushed: its 12 and its record (11),
	// in whichever order they come.
	ending := func(c *wsclient.Client) (callSignal, lifeMessage, callRecord) {
		GinkgoHelper()
		var sig callSignal
		var m lifeMessage
		var r callRecord
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		for sig.CallID == "" || m.ID == "" {
			f, err := c.Next(ctx)
			Expect(err).NotTo(HaveOccurred(), "waiting for the end of a call")
			switch f.Cmd {
			case 12:
				Expect(json.Unmarshal(f.Data, &sig)).To(Succeed())
			case 11:
				Expect(json.Unmarshal(f.Data, &m)).To(Succeed())
				Expect(json.Unmarshal([]byte(m.Content), &r)).To(Succeed())
			}
		}
		return sig, m, r
	}
	records := func(m, peer member, after uint64) []callRecord {
		GinkgoHelper()
		var page []lifeMessage
		s.ok("GET", fmt.Sprintf("/v1/message/messagePush/history/list/page?friendMemberId=%s&pageSize=50&after=%d", peer.ID, after), m.Token, nil, &page)
		var out []callRecord
		for _, msg := range page {
			if msg.MsgType == "VoiceCall" || msg.MsgType == "VideoCall" {
				var r callRecord
				Expect(json.Unmarshal([]byte(msg.Content), &r)).To(Succeed())
				out = append(out, r)
			}
		}
		return out
	}

	It("rings, answers and hangs up with 12 to both members, and leaves a record pushed as 11", func() {
		setup(nil)
		a, b := s.dial(alice), s.dial(bob)
		r := startCall(alice, bob, "call-1", "video")
		Expect([]string{r.From, r.To, r.Media, r.State}).To(Equal([]string{alice.ID, bob.ID, "video", "ringing"}))
		for _, c := range []*wsclient.Client{a, b} {
			sig := pushed(c)
			Expect([]string{sig.CallID, sig.OperationType, sig.Media, sig.From, sig.To}).To(Equal([]string{r.CallID, "Start", "video", alice.ID, bob.ID}))
			Expect(sig.Time).NotTo(BeZero())
		}
		Expect(signal(bob, "answer", r.CallID).State).To(Equal("inCall"))
		for _, c := range []*wsclient.Client{a, b} {
			Expect(pushed(c).OperationType).To(Equal("Answer"))
		}
		done := signal(alice, "complete", r.CallID)
		Expect([]string{done.State, done.Outcome}).To(Equal([]string{"ended", "completed"}))
		for _, c := range []*wsclient.Client{a, b} {
			sig, m, rec := ending(c)
			Expect([]string{sig.OperationType, sig.Outcome, sig.By}).To(Equal([]string{"Complete", "completed", alice.ID}))
			Expect([]string{m.MsgType, m.From}).To(Equal([]string{"VideoCall", alice.ID}))
			Expect([]string{rec.CallID, rec.Media, rec.Outcome}).To(Equal([]string{r.CallID, "video", "completed"}))
		}
		Expect(records(bob, alice, done.Position)).To(HaveLen(1))
		var items []conversationItem
		s.ok("GET", fmt.Sprintf("/v1/message/sessionInfo/list?after=%d", done.Position), bob.Token, nil, &items)
		Expect(items[0].LastMessageContent).To(Equal("[video call]"))

		s.refused("POST", "/v1/message/call/answer", bob, map[string]string{"callId": r.CallID}, http.StatusConflict, "this call has already ended")
		s.refused("POST", "/v1/message/forward", alice, map[string]any{"uuid": "fw", "messageIds": []string{items[0].LastMessageID},
			"targets": []map[string]string{{"chatType": "Friend", "to": bob.ID}}}, http.StatusBadRequest, "This message cannot be forwarded yet")
		s.refused("PUT", "/v1/message/modify", alice, map[string]string{"id": items[0].LastMessageID, "content": "x"}, http.StatusBadRequest, "this message cannot be edited")
	})

	It("ends a call to a member in a call at once as Busy, pushed to both, and refuses a caller in a call", func() {
		setup(nil)
		b, c := s.dial(bob), s.dial(carol)
		first := startCall(alice, bob, "first", "voice")
		Expect(pushed(b).CallID).To(Equal(first.CallID))
		busy := startCall(carol, bob, "second", "video")
		Expect([]string{busy.State, busy.Outcome}).To(Equal([]string{"ended", "busy"}))
		for _, cl := range []*wsclient.Client{b, c} {
			sig, _, rec := ending(cl)
			Expect([]string{sig.CallID, sig.OperationType, sig.From, sig.To}).To(Equal([]string{busy.CallID, "Busy", carol.ID, bob.ID}))
			Expect(rec.Outcome).To(Equal("busy"))
		}
		s.refused("POST", "/v1/message/call/start", bob, map[string]string{"uuid": "third", "chatType": "Friend", "to": carol.ID, "media": "voice"},
			http.StatusConflict, "you are already in a call")
		done := signal(bob, "busy", first.CallID)
		Expect([]string{done.State, done.Outcome}).To(Equal([]string{"ended", "busy"}))
		Expect(records(alice, bob, done.Position)).To(Equal([]callRecord{{CallID: first.CallID, Media: "voice", Outcome: "busy"}}))
	})

	It("ends a call nobody answers after the ring timeout as NoAnswer", func() {
		setup(map[string]string{"IM_CALL_RING_TIMEOUT": "1s"})
		a, b := s.dial(alice), s.dial(bob)
		r := startCall(alice, bob, "lonely", "voice")
		for _, c := range []*wsclient.Client{a, b} {
			Expect(pushed(c).OperationType).To(Equal("Start"))
		}
		for _, c := range []*wsclient.Client{a, b} {
			sig, _, rec := ending(c)
			Expect([]string{sig.CallID, sig.OperationType, sig.Outcome, sig.By}).To(Equal([]string{r.CallID, "NoAnswer", "noAnswer", ""}))
			Expect(rec).To(Equal(callRecord{CallID: r.CallID, Media: "voice", Outcome: "noAnswer"}))
		}
		s.refused("POST", "/v1/message/call/cancel", alice, map[string]string{"callId": r.CallID}, http.StatusConflict, "this call has already ended")
	})

	It("refuses bad signals with a 4xx, pushing and appending nothing", func() {
		dir := GinkgoT().TempDir()
		secondTenant(dir)
		s = startServer(dir)
		alice, bob, carol = s.register("alice001"), s.register("bob00001"), s.register("carol001")
		s.befriend(alice, bob)
		zed := s.registerIn("x0002", "zed00001")
		a := s.dial(alice)
		start := func(to string, media string) map[string]string {
			return map[string]string{"uuid": "u-" + media, "chatType": "Friend", "to": to, "media": media}
		}
		s.refused("POST", "/v1/message/call/start", alice, start(bob.ID, "fax"), http.StatusBadRequest, "media must be voice or video")
		s.refused("POST", "/v1/message/call/start", alice, start(carol.ID, "voice"), http.StatusForbidden, "You are not yet a friend, add first")
		s.refused("POST", "/v1/message/call/start", alice, start(zed.ID, "voice"), http.StatusNotFound, "member not found")
		s.refused("POST", "/v1/message/call/start", alice, map[string]string{"chatType": "Friend", "to": bob.ID, "media": "voice"}, http.StatusBadRequest, "uuid is required")
		s.refused("POST", "/v1/message/call/start", alice, `{"uuid":`, http.StatusBadRequest, "invalid request")
		s.refused("POST", "/v1/message/call/answer", bob, map[string]string{}, http.StatusBadRequest, "callId is required")
		s.refused("POST", "/v1/message/call/answer", bob, map[string]string{"callId": "1234567890123456789"}, http.StatusNotFound, "call not found")

		r := startCall(alice, bob, "real", "voice")
		Expect(pushed(a).OperationType).To(Equal("Start"))
		s.refused("POST", "/v1/message/call/cancel", bob, map[string]string{"callId": r.CallID}, http.StatusForbidden, "only the caller can do this")
		s.refused("POST", "/v1/message/call/answer", alice, map[string]string{"callId": r.CallID}, http.StatusForbidden, "only the member called can do this")
		s.refused("POST", "/v1/message/call/complete", alice, map[string]string{"callId": r.CallID}, http.StatusConflict, "this call has not been answered yet")
		s.refused("POST", "/v1/message/call/reject", carol, map[string]string{"callId": r.CallID}, http.StatusNotFound, "call not found")
		code, env := s.call("POST", "/v1/message/call/complete", alice.Token, map[string]string{"callId": r.CallID}, "Accept-Language", "zh_CN")
		Expect([]any{code, env.Info}).To(Equal([]any{http.StatusConflict, "通话尚未接听"}))

		done := signal(alice, "cancel", r.CallID)
		sig := pushed(a)
		Expect([]string{sig.CallID, sig.OperationType}).To(Equal([]string{r.CallID, "Cancel"}), "no signal was pushed for the refusals")
		Expect(records(bob, alice, done.Position)).To(Equal([]callRecord{{CallID: r.CallID, Media: "voice", Outcome: "cancelled"}}))
	})

	It("answers the socket token, and says that call media are not configured", func() {
		setup(nil)
		var tok struct {
			MemberID string `json:"memberId"`
			Token    string `json:"token"`
			WSKey    []byte `json:"wsKey"`
		}
		s.ok("GET", "/v1/message/getTokenByMemberId?memberId="+alice.ID, alice.Token, nil, &tok)
		Expect([]string{tok.MemberID, tok.Token}).To(Equal([]string{alice.ID, alice.Token}))
		Expect(tok.WSKey).To(Equal(alice.Key))
		s.refused("GET", "/v1/message/getTokenByMemberId?memberId="+bob.ID, alice, nil, http.StatusForbidden, "you are not allowed to do this")
		for _, media := range []string{"voice", "video"} {
			s.refused("GET", "/v1/message/getAgoraTokenByMemberId/"+media, alice, nil, http.StatusConflict, "voice and video calls are not configured on this server")
		}
	})
})

// secondTenant creates the tenant x0002 in the event log of dataDir before
// the server starts on it.
func secondTenant(dataDir string) {
	GinkgoHelper()
	store, err := pebblestore.Open(filepath.Join(dataDir, "events"))
	Expect(err).NotTo(HaveOccurred())
	defer store.Close()
	policy, err := authz.New()
	Expect(err).NotTo(HaveOccurred())
	app := commands.New(commands.Deps{Store: store, Authz: policy, NewUUID: timeOrderedUUID, Now: time.Now})
	_, err = app.CreateTenant(context.Background(), "x0002", "Second")
	Expect(err).NotTo(HaveOccurred())
}

// registerIn registers and logs in a member of tenant.
func (s *testServer) registerIn(tenant, account string) member {
	GinkgoHelper()
	m, _ := s.registerPhoneIn(tenant, account)
	return m
}

// registerPhoneIn registers account in tenant with a new phone, logs it in
// and returns it and its phone.
func (s *testServer) registerPhoneIn(tenant, account string) (member, string) {
	GinkgoHelper()
	phone := fmt.Sprintf("136%08d", phones.Add(1))
	s.ok("GET", "/v1/member/sms/send?phone="+phone+"&type=register&tenantCode="+tenant, "", nil, nil)
	s.ok("POST", "/v1/member/memberInfo/register", "", map[string]string{
		"phone": phone, "smsCode": s.smsCode(phone), "account": account, "password": "pass1234", "tenantCode": tenant}, nil)
	var out struct {
		ID    string `json:"id"`
		Token string `json:"token"`
		WSKey []byte `json:"wsKey"`
	}
	s.ok("POST", "/v1/member/memberInfo/login", "", map[string]string{"account": account, "password": "pass1234", "tenantCode": tenant}, &out)
	return member{ID: out.ID, Account: account, Token: out.Token, Key: out.WSKey}, phone
}
