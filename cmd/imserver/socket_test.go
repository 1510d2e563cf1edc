package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

var _ = Describe("The websocket protocol", func() {
	var s *testServer
	var alice, bob member
	BeforeEach(func() {
		s = startServer(GinkgoT().TempDir())
		alice, bob = s.register("alice001"), s.register("bob00001")
		s.befriend(alice, bob)
	})

	request := func(c *wsclient.Client, cmd int, data any) wsclient.Reply {
		GinkgoHelper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		r, err := c.Request(ctx, cmd, data)
		Expect(err).NotTo(HaveOccurred())
		return r
	}

	It("takes a socket's sends while the ones before them sync, and still holds a member to a group's send rate: of eight sent at once, five pass", func() {
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Rated", "memberIds": []string{bob.ID}}, &created)
		s.written("PUT", "/v1/chat/groupInfo/modify", alice, map[string]any{"groupId": created.GroupID, "sendRate": "FivePerMinute"})
		b := s.dial(bob)
		replies := make(chan wsclient.Reply, 8)
		for i := range 8 {
			go func() {
				defer GinkgoRecover()
				replies <- request(b, 11, map[string]string{"uuid": fmt.Sprint("rated-", i), "chatType": "Group", "groupId": created.GroupID,
					"msgType": "Text", "content": fmt.Sprint("burst ", i)})
			}()
		}
		infos := map[string]int{}
		for range 8 {
			var r wsclient.Reply
			Eventually(replies, 10*time.Second).Should(Receive(&r))
			infos[r.Code+" "+r.Info]++
		}
		Expect(infos).To(Equal(map[string]int{"200 success": 5,
			"429 you are sending messages too fast in this group, try again in a moment": 3}))
	})

	It("refuses every send outsiders pipeline at a chat they are not in: nothing is appended or pushed", func() {
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Inner", "memberIds": []string{bob.ID}}, &created)
		s.ok("POST", "/v1/admin/tenant/create", s.operator().Token, map[string]string{"code": "x0002", "name": "B"}, nil)
		carol, foreigner := s.register("carol001"), s.registerIn("x0002", "foreign1")
		b := s.dial(bob)
		head := s.head()
		replies := make(chan wsclient.Reply, 40)
		for _, m := range []member{carol, foreigner} {
			c := s.dial(m)
			for i := range 20 {
				body := map[string]string{"uuid": fmt.Sprint("in-", i), "chatType": "Friend", "to": bob.ID, "msgType": "Text", "content": "let me in"}
				if i%2 == 1 {
					body = map[string]string{"uuid": fmt.Sprint("in-", i), "chatType": "Group", "groupId": created.GroupID, "msgType": "Text", "content": "let me in"}
				}
				go func() {
					defer GinkgoRecover()
					replies <- request(c, 11, body)
				}()
			}
		}
		for range 40 {
			var r wsclient.Reply
			Eventually(replies, 10*time.Second).Should(Receive(&r))
			Expect(r.Code).To(MatchRegexp(`^4\d\d$`), r.Info)
			Expect(string(r.Data)).NotTo(ContainSubstring(bob.ID))
		}
		Expect(s.head()).To(Equal(head))
		for _, f := range pushesWithin(300*time.Millisecond, b) {
			Expect(f.Cmd).NotTo(Equal(11))
		}
	})

	It("delivers 11 to the receiver and the sender's other device; a 27 comes back to the sender as 28", func() {
		a, a2, b := s.dial(alice), s.dial(alice), s.dial(bob)

		r := request(a, 11, map[string]string{"uuid": "ws-1", "chatType": "Friend", "to": bob.ID, "msgType": "Text", "content": "hi over ws"})
		Expect(r.OK()).To(BeTrue(), r.Info)
		var sent sendResult
		Expect(json.Unmarshal(r.Data, &sent)).To(Succeed())
		Expect(sent.ID).To(HaveLen(19))

		for _, c := range []*wsclient.Client{b, a2} {
			var m message
			Expect(json.Unmarshal(next(c, 11).Data, &m)).To(Succeed())
			Expect(m.ID).To(Equal(sent.ID))
			Expect(m.Content).To(Equal("hi over ws"))
			Expect(m.From).To(Equal(alice.ID))
			Expect(m.MsgStatus).To(Equal("Unread"))
		}

		// The sending connection gets its own message too (clients drop it by
		// uuid), then a message sent over REST.
		var m message
		Expect(json.Unmarshal(next(a, 11).Data, &m)).To(Succeed())
		Expect(m.ID).To(Equal(sent.ID))
		rest := s.send(bob, alice, "rest-1", "and over REST")
		Expect(json.Unmarshal(next(a, 11).Data, &m)).To(Succeed())
		Expect(m.ID).To(Equal(rest.ID))

		Expect(b.Send(27, map[string]any{"chatType": "Friend", "from": bob.ID, "to": alice.ID, "messageId": sent.ID, "unreadCount": 0})).To(Succeed())
		var ack struct {
			From       string   `json:"from"`
			To         string   `json:"to"`
			MessageID  string   `json:"messageId"`
			MessageIDs []string `json:"messageIds"`
		}
		Expect(json.Unmarshal(next(a, 28).Data, &ack)).To(Succeed())
		Expect(ack.From).To(Equal(bob.ID))
		Expect(ack.MessageID).To(Equal(sent.ID))
		Expect(ack.MessageIDs).To(ConsistOf(sent.ID))

		var sessions []session
		s.ok("GET", "/v1/message/sessionInfo/list", bob.Token, nil, &sessions)
		Expect(sessions[0].UnreadCount).To(BeZero())
	})

	It("takes the same sends made at once on four devices as one message each, answered alike and delivered once", func() {
		devices := []*wsclient.Client{s.dial(alice), s.dial(alice), s.dial(alice), s.dial(alice)}
		b := s.dial(bob)
		const sends = 16
		ids := make([][]string, len(devices))
		var wg sync.WaitGroup
		for d, c := range devices {
			ids[d] = make([]string, sends)
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				for i := range sends {
					r := request(c, 11, map[string]string{"uuid": fmt.Sprintf("twice-%d", i), "chatType": "Friend", "to": bob.ID, "msgType": "Text", "content": fmt.Sprintf("retry %d", i)})
					Expect(r.OK()).To(BeTrue(), r.Info)
					var sent sendResult
					Expect(json.Unmarshal(r.Data, &sent)).To(Succeed())
					ids[d][i] = sent.ID
				}
			}()
		}
		wg.Wait()
		for d := range devices[1:] {
			Expect(ids[d+1]).To(Equal(ids[0]), "device %d", d+1)
		}
		Expect(slices.Compact(slices.Sorted(slices.Values(ids[0])))).To(HaveLen(sends))

		pushed := map[string]int{}
		for range sends {
			var m message
			Expect(json.Unmarshal(next(b, 11).Data, &m)).To(Succeed())
			pushed[m.ID]++
		}
		Expect(slices.Sorted(maps.Keys(pushed))).To(Equal(slices.Sorted(slices.Values(ids[0]))))
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		for {
			f, err := b.Next(ctx)
			if err != nil {
				break
			}
			Expect(f.Cmd).NotTo(Equal(11), "a message pushed twice")
		}
		var sessions []session
		s.ok("GET", "/v1/message/sessionInfo/list", bob.Token, nil, &sessions)
		Expect(sessions).To(HaveLen(1))
		Expect(sessions[0].UnreadCount).To(BeEquivalentTo(sends))
	})

	It("refuses frames carrying the victims' ids from another tenant's member, a stranger and a non-member, twice at once, and pushes them nothing of the victims'", func() {
		s.ok("POST", "/v1/admin/tenant/create", s.operator().Token, map[string]string{"code": "x0002", "name": "B"}, nil)
		foreigner, stranger := s.registerIn("x0002", "foreign1"), s.register("strangr1")
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Secret Club", "memberIds": []string{bob.ID}}, &created)
		a, b := s.dial(alice), s.dial(bob)
		r := request(a, 11, map[string]string{"uuid": "secret-1", "chatType": "Friend", "to": bob.ID, "msgType": "Text", "content": "the secret"})
		Expect(r.OK()).To(BeTrue(), r.Info)
		var secret sendResult
		Expect(json.Unmarshal(r.Data, &secret)).To(Succeed())
		next(b, 11)
		var before []session
		Eventually(func() []session {
			s.ok("GET", "/v1/message/sessionInfo/list", bob.Token, nil, &before)
			return before
		}).Should(HaveLen(2), "the chat with alice and the group, folded")

		head := s.head()
		var attackers []*wsclient.Client
		for _, m := range []member{foreigner, stranger} {
			attackers = append(attackers, s.dial(m), s.dial(m)) // the same frames from two sockets at once
		}
		forged := []map[string]string{
			{"uuid": "forged-friend", "chatType": "Friend", "to": bob.ID, "msgType": "Text", "content": "forged"},
			{"uuid": "forged-group", "chatType": "Group", "to": created.GroupID, "msgType": "Text", "content": "forged"},
		}
		var wg sync.WaitGroup
		for _, c := range attackers {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				for _, body := range forged {
					r := request(c, 11, body)
					Expect(r.Code).To(HavePrefix("4"), "%s: %s", body["chatType"], r.Info)
					Expect(string(r.Data)).NotTo(ContainSubstring("the secret"))
				}
				Expect(c.Send(27, map[string]any{"chatType": "Friend", "from": bob.ID, "to": alice.ID, "messageId": secret.ID, "unreadCount": 0})).To(Succeed())
			}()
		}
		wg.Wait()

		// Whatever reaches the attackers' sockets holds nothing of the victims'.
		for _, c := range attackers {
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			for {
				f, err := c.Next(ctx)
				if err != nil {
					break
				}
				for _, leak := range []string{"the secret", secret.ID, created.GroupID, "Secret Club"} {
					Expect(string(f.Data)).NotTo(ContainSubstring(leak), "frame %d", f.Cmd)
				}
			}
			cancel()
		}
		// And nothing of the victims' changed: no event, no read receipt, no message, the same unread count.
		Expect(s.head()).To(Equal(head))
		for _, f := range pushesWithin(300*time.Millisecond, a, b) {
			Expect(f.Cmd).NotTo(Equal(28), "a read receipt pushed to a victim: %s", f.Data)
			Expect(string(f.Data)).NotTo(ContainSubstring("forged"), "pushed to a victim")
		}
		var after []session
		s.ok("GET", "/v1/message/sessionInfo/list", bob.Token, nil, &after)
		Expect(after).To(Equal(before))
	})

	It("pushes the victims' messages, sent twice at once, to their own sockets only: none to another tenant's member, a stranger or a friend outside the group", func() {
		s.ok("POST", "/v1/admin/tenant/create", s.operator().Token, map[string]string{"code": "x0002", "name": "B"}, nil)
		foreigner, stranger, outsider := s.registerIn("x0002", "foreign1"), s.register("strangr1"), s.register("outsidr1")
		s.befriend(alice, outsider)
		var created struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Secret Club", "memberIds": []string{bob.ID}}, &created)
		var watchers []*wsclient.Client
		for _, m := range []member{foreigner, stranger, outsider} {
			watchers = append(watchers, s.dial(m))
		}
		pushesWithin(300*time.Millisecond, watchers...) // what their own friendships pushed
		a, b := s.dial(alice), s.dial(bob)

		bodies := []map[string]string{
			{"uuid": "secret-friend", "chatType": "Friend", "to": bob.ID, "msgType": "Text", "content": "the friend secret"},
			{"uuid": "secret-group", "chatType": "Group", "groupId": created.GroupID, "msgType": "Text", "content": "the group secret"},
		}
		var wg sync.WaitGroup
		for range 2 { // each send twice at once: one message each, no server error
			for _, body := range bodies {
				wg.Add(1)
				go func() {
					defer GinkgoRecover()
					defer wg.Done()
					r := request(a, 11, body)
					Expect(r.OK()).To(BeTrue(), "%s: %s %s", body["uuid"], r.Code, r.Info)
				}()
			}
		}
		wg.Wait()

		got := map[string]int{}
		Eventually(func() map[string]int {
			for _, f := range pushesWithin(100*time.Millisecond, b) {
				if f.Cmd == 11 {
					for _, body := range bodies {
						if strings.Contains(string(f.Data), body["uuid"]) {
							got[body["uuid"]]++
						}
					}
				}
			}
			return got
		}).Should(Equal(map[string]int{"secret-friend": 1, "secret-group": 1}), "bob gets each message once")
		for _, f := range pushesWithin(300*time.Millisecond, watchers...) {
			for _, leak := range []string{"secret", created.GroupID, "Secret Club"} {
				Expect(string(f.Data)).NotTo(ContainSubstring(leak), "frame %d pushed to an outsider", f.Cmd)
			}
		}
	})

	It("answers heartbeats and refusals, and survives undecryptable and malformed frames", func() {
		a := s.dial(alice)
		Expect(request(a, 13, nil).Cmd).To(Equal(13))

		Expect(a.SendRaw("this is not base64 ciphertext")).To(Succeed())
		// Pushes (the friendship's notices, say) may come first; the answer
		// is the frame with a code.
		var f wsclient.Frame
		for f.Code == "" {
			var err error
			f, err = a.Next(ctxWithin(5 * time.Second))
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(f.Code).To(Equal("400"))
		Expect(f.Info).To(Equal("data decryption error"))

		r := request(a, 11, map[string]string{"uuid": "x", "chatType": "Friend", "to": bob.ID, "content": " "})
		Expect(r.Code).To(Equal("400"))
		Expect(r.Info).To(Equal("Conversation content empty"))
		r = request(a, 11, map[string]any{"uuid": 5})
		Expect(r.Code).To(Equal("400"))

		r = request(a, 11, map[string]string{"uuid": "after-bad", "chatType": "Friend", "to": bob.ID, "content": "still works"})
		Expect(r.OK()).To(BeTrue())
	})

	It("refuses a bad token and a foreign origin before upgrading", func() {
		url := "ws" + strings.TrimPrefix(s.base, "http") + "/message-ws"
		_, err := wsclient.Dial(ctxWithin(5*time.Second), url, "bad.token", make([]byte, 32))
		var he *wsclient.HandshakeError
		Expect(errors.As(err, &he)).To(BeTrue())
		Expect(he.Status).To(Equal(http.StatusUnauthorized))

		_, err = wsclient.Dial(ctxWithin(5*time.Second), url, alice.Token, alice.Key, wsclient.WithOrigin("http://evil.example"))
		Expect(errors.As(err, &he)).To(BeTrue())
		Expect(he.Status).To(Equal(http.StatusForbidden))

		ok, err := wsclient.Dial(ctxWithin(5*time.Second), url, alice.Token, alice.Key, wsclient.WithOrigin(s.base))
		Expect(err).NotTo(HaveOccurred())
		ok.Close()
	})

	It("ends a logged-out session's socket with 31 and sends close frames on shutdown", func() {
		a, b := s.dial(alice), s.dial(bob)
		s.ok("GET", "/v1/member/memberInfo/logout", alice.Token, nil, nil)
		var end struct{ Type string }
		Expect(json.Unmarshal(next(a, 31).Data, &end)).To(Succeed())
		Expect(end.Type).To(Equal("Logout"))
		Eventually(a.Done()).Should(BeClosed())

		Expect(s.stop()).To(Succeed())
		Eventually(b.Done()).Should(BeClosed())
		var ce *wsclient.CloseError
		Expect(errors.As(b.Err(), &ce)).To(BeTrue(), "%v", b.Err())
		Expect(ce.Code).To(Equal(1001))
	})
})

func ctxWithin(d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	DeferCleanup(cancel)
	return ctx
}

// pushesWithin is what each of clients is pushed within d, one client after
// the other.
func pushesWithin(d time.Duration, clients ...*wsclient.Client) []wsclient.Frame {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var out []wsclient.Frame
	for _, c := range clients {
		for {
			f, err := c.Next(ctx)
			if err != nil {
				break
			}
			out = append(out, f)
		}
	}
	return out
}
