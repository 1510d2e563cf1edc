package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

// sender sends one message and reports whether the server acknowledged
// it; it never fails the spec, so that it can run on any goroutine.
type sender func(uuid, content string) (sendResult, error)

// restSender sends from m to peer over REST on its own connections.
func restSender(base string, m member, peer string) sender {
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	return func(uuid, content string) (sendResult, error) {
		body, err := json.Marshal(map[string]string{"uuid": uuid, "chatType": "Friend", "to": peer, "msgType": "Text", "content": content})
		if err != nil {
			return sendResult{}, err
		}
		req, err := http.NewRequest("POST", base+"/v1/message/send", bytes.NewReader(body))
		if err != nil {
			return sendResult{}, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+m.Token)
		resp, err := client.Do(req)
		if err != nil {
			return sendResult{}, err
		}
		defer resp.Body.Close()
		var env envelope
		if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
			return sendResult{}, err
		}
		if resp.StatusCode != http.StatusOK || env.Code != "200" {
			return sendResult{}, fmt.Errorf("status %d: %s", resp.StatusCode, env.Info)
		}
		var r sendResult
		return r, json.Unmarshal(env.Data, &r)
	}
}

// socketSender sends from m to peer as command 11 over its own websocket,
// which it returns too.
func socketSender(base string, m member, peer string) (sender, *wsclient.Client) {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := wsclient.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/message-ws", m.Token, m.Key, wsclient.WithPushBuffer(1))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(c.Close)
	send := func(uuid, content string) (sendResult, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		reply, err := c.Request(ctx, 11, map[string]string{"uuid": uuid, "chatType": "Friend", "to": peer, "msgType": "Text", "content": content})
		if err != nil {
			return sendResult{}, err
		}
		if !reply.OK() {
			return sendResult{}, fmt.Errorf("code %s: %s", reply.Code, reply.Info)
		}
		var r sendResult
		return r, json.Unmarshal(reply.Data, &r)
	}
	return send, c
}

// history returns the whole chat of m with peer, oldest first, paging up
// from the newest message.
func (s *testServer) history(m member, peer string, after uint64) []message {
	GinkgoHelper()
	const size = 200
	base := fmt.Sprintf("/v1/message/messagePush/history/list/page?friendMemberId=%s&pageSize=%d&after=%d", peer, size, after)
	var all []message
	var page []message
	s.ok("GET", base, m.Token, nil, &page)
	for {
		all = append(page, all...)
		if len(page) < size {
			return all
		}
		older := page[0].ID
		page = nil
		s.ok("GET", base+"&queryType=Up&messageId="+older, m.Token, nil, &page)
	}
}

// unreadCounts returns m's session unread counts by peer.
func (s *testServer) unreadCounts(m member, after uint64) map[string]int {
	GinkgoHelper()
	var sessions []session
	s.ok("GET", fmt.Sprintf("/v1/message/sessionInfo/list?after=%d", after), m.Token, nil, &sessions)
	out := map[string]int{}
	for _, ss := range sessions {
		out[ss.FriendMemberID] = ss.UnreadCount
	}
	return out
}
