package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/chatmodel/chatmodeltest"
)

// isoMember is a member of the isolation world, with what identifies them
// beyond their id.
type isoMember struct {
	member
	Phone string
	Name  string
}

// isoWorld is the victims' world the isolation suite attacks: the victims'
// real ids by kind, the texts that must never reach an attacker, and the
// attackers.
type isoWorld struct {
	s       *testServer
	canary  string // in every victim text; random per run
	nameTag string // in every victim's name; random per run

	alice, bob, carol, frank isoMember // victims
	nina, omar               isoMember // same-tenant members unrelated to anybody
	mallory, eve, dave       isoMember // attackers
	group                    string    // G: owned by alice, bob Admin, carol Normal; dave removed
	groupLast                string    // alice's last message in G

	// ids holds the victims' real ids by kind (see kindOf).
	ids map[string][]string
	// own holds each attacker's own ids by kind: a friend, a group of
	// theirs with that friend, messages in both chats.
	own       map[string]map[string][]string
	ownFriend map[string]isoMember
	// needles are what no attacker's answer may hold: the canary, the
	// victims' phones and file names. public ones are what a member of the
	// victims' tenant may see (a member's card: name and account), but not
	// another tenant's member.
	needles, public []string
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, err := rand.Read(b)
	Expect(err).NotTo(HaveOccurred())
	return hex.EncodeToString(b)
}

// isoRegister registers a member of tenant with a random account, logs in
// and names them.
func (s *testServer) isoRegister(tenant, prefix, name string) isoMember {
	GinkgoHelper()
	registered, phone := s.registerPhoneIn(tenant, prefix+randomHex(4))
	m := isoMember{member: registered, Phone: phone, Name: name}
	s.ok("PUT", "/v1/member/memberInfo/modify", m.Token, map[string]string{"name": name}, nil)
	return m
}

// buildIsoWorld starts a server with two tenants and builds the victims'
// world in x0001.
func buildIsoWorld() *isoWorld {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	secondTenant(dir)
	s := startWith(dir, zap.NewNop(), map[string]string{"IM_CALL_RING_TIMEOUT": "30m"})
	w := &isoWorld{s: s, canary: "cnry" + randomHex(6), nameTag: "nm" + randomHex(6), ids: map[string][]string{}, own: map[string]map[string][]string{}}
	c := w.canary
	text := func(what string) string { return what + " " + c }

	w.alice = s.isoRegister("x0001", "alice", "Alice "+w.nameTag)
	w.bob = s.isoRegister("x0001", "bob", "Bob "+w.nameTag)
	w.carol = s.isoRegister("x0001", "carol", "Carol "+w.nameTag)
	w.frank = s.isoRegister("x0001", "frank", "Frank "+w.nameTag)
	w.dave = s.isoRegister("x0001", "dave", "Dave")
	w.eve = s.isoRegister("x0001", "eve", "Eve")
	w.nina = s.isoRegister("x0001", "nina", "Nina")
	w.omar = s.isoRegister("x0001", "omar", "Omar")
	w.mallory = s.isoRegister("x0002", "mallory", "Mallory")
	alice, bob, carol, frank, dave := w.alice.member, w.bob.member, w.carol.member, w.frank.member, w.dave.member

	s.befriend(alice, bob)
	s.befriend(alice, carol)
	s.befriend(alice, dave)
	s.befriend(carol, frank)
	add := func(kind string, vs ...string) { w.ids[kind] = append(w.ids[kind], vs...) }
	add("member", alice.ID, bob.ID)

	By("a one-to-one chat: texts, a reply, an edit, a picture, a forward, a pin")
	uuid := func(what string) string { u := "iso-" + what + "-" + randomHex(4); add("uuid", u); return u }
	first := s.send(alice, bob, uuid("first"), text("first secret"))
	second := s.send(bob, alice, uuid("second"), text("second secret"))
	var reply sendResult
	s.ok("PUT", "/v1/message/reply", bob.Token, map[string]string{"uuid": uuid("reply"), "chatType": "Friend", "to": alice.ID,
		"content": text("reply secret"), "parentMessageId": first.ID}, &reply)
	edited := s.send(alice, bob, uuid("edited"), text("before edit"))
	s.ok("PUT", "/v1/message/modify", alice.Token, map[string]string{"id": edited.ID, "content": text("edited secret")}, nil)
	status, up := s.upload(alice.Token, "", "file", "secret-"+c+".png", pngOf(4, 3))
	Expect(status).To(Equal(http.StatusOK), up.Info)
	content, err := json.Marshal(map[string]any{"filePath": up.Data.FilePath, "fileName": up.Data.FileName,
		"size": up.Data.Size, "contentType": up.Data.ContentType, "width": 4, "height": 3})
	Expect(err).NotTo(HaveOccurred())
	var picture sendResult
	s.ok("POST", "/v1/message/send", alice.Token, map[string]string{"uuid": uuid("picture"), "chatType": "Friend", "to": bob.ID,
		"msgType": "Picture", "content": string(content)}, &picture)
	add("file", up.Data.FilePath)
	add("media", string(content))
	w.needles = append(w.needles, strings.TrimPrefix(up.Data.FilePath, "/v1/sso/im/file/x0001/"))
	var fw struct{ Messages []struct{ ID string } }
	s.ok("POST", "/v1/message/forward", alice.Token, map[string]any{"uuid": uuid("forward"), "messageIds": []string{second.ID},
		"targets": []map[string]string{{"chatType": "Friend", "to": carol.ID}}}, &fw)
	Expect(fw.Messages).To(HaveLen(1))
	s.ok("POST", "/v1/chat/topInfo/build", alice.Token, map[string]string{"chatType": "Friend", "friendMemberId": bob.ID}, nil)
	add("message", first.ID, reply.ID, edited.ID, picture.ID, fw.Messages[0].ID, second.ID)

	By("a favourite, a sticker")
	var fav struct{ ID string }
	s.ok("POST", "/v1/chat/favoriteInfo/build", alice.Token, map[string]string{"messageId": second.ID}, &fav)
	s.ok("PUT", "/v1/chat/favoriteInfo/modify", alice.Token, map[string]string{"id": fav.ID, "content": text("favourite secret")}, nil)
	var picFav struct{ ID string }
	s.ok("POST", "/v1/chat/favoriteInfo/build", bob.Token, map[string]string{"messageId": picture.ID}, &picFav)
	add("favourite", fav.ID, picFav.ID)
	var sticker struct{ ID string }
	s.ok("POST", "/v1/chat/emojInfo/build", alice.Token, map[string]any{"filePath": up.Data.FilePath, "width": 4, "height": 3}, &sticker)
	add("sticker", sticker.ID)

	By("calls: one ended with a record, one ringing")
	var call callResult
	s.ok("POST", "/v1/message/call/start", alice.Token, map[string]string{"uuid": uuid("call"), "chatType": "Friend", "to": bob.ID, "media": "voice"}, &call)
	s.ok("POST", "/v1/message/call/answer", bob.Token, map[string]string{"callId": call.CallID}, nil)
	s.ok("POST", "/v1/message/call/complete", alice.Token, map[string]string{"callId": call.CallID}, nil)
	var ringing callResult
	s.ok("POST", "/v1/message/call/start", carol.Token, map[string]string{"uuid": uuid("ring"), "chatType": "Friend", "to": frank.ID, "media": "video"}, &ringing)
	add("call", ringing.CallID, call.CallID)

	By("a group G: alice Owner, bob Admin, carol; messages, a pin, a mention; dave removed")
	var created struct{ GroupID string }
	s.ok("POST", "/v1/chat/groupInfo/build", alice.Token, map[string]any{"name": "Group " + c, "notice": text("notice secret"),
		"memberIds": []string{bob.ID, carol.ID, dave.ID}}, &created)
	w.group = created.GroupID
	add("group", w.group)
	s.ok("PUT", "/v1/chat/groupInfo/setMemberRole", alice.Token, map[string]string{"groupId": w.group, "memberId": bob.ID, "role": "Admin"}, nil)
	sendGroup := func(m member, body map[string]string) sendResult {
		GinkgoHelper()
		b := map[string]string{"uuid": uuid("g"), "chatType": "Group", "groupId": w.group}
		for k, v := range body {
			b[k] = v
		}
		var r sendResult
		s.ok("POST", "/v1/message/send", m.Token, b, &r)
		return r
	}
	plan := sendGroup(carol, map[string]string{"content": text("group plan secret")})
	mention := sendGroup(bob, map[string]string{"msgType": "AtText", "content": "@[" + alice.ID + "] " + text("mention secret")})
	s.ok("POST", "/v1/chat/groupInfo/pinMessage", alice.Token, map[string]string{"groupId": w.group, "messageId": plan.ID}, nil)
	s.ok("PUT", "/v1/chat/groupInfo/deleteGroupMember", alice.Token, map[string]any{"groupId": w.group, "memberIds": []string{dave.ID}}, nil)
	s.ok("POST", "/v1/chat/friendInfo/delete", alice.Token, map[string]string{"friendMemberId": dave.ID}, nil)
	after := sendGroup(alice, map[string]string{"content": text("after dave left")})
	add("message", plan.ID, mention.ID, after.ID)
	w.groupLast = after.ID

	By("requests: alice asks frank to be friends; carol invites frank into G")
	var applied struct{ ID string }
	s.ok("POST", "/v1/chat/applyInfo/build", alice.Token, map[string]string{"friendMemberId": frank.ID, "content": text("request secret"), "remark": text("remark")}, &applied)
	add("apply", applied.ID)
	s.ok("POST", "/v1/chat/applyInfo/batchMemberToGroup", carol.Token, map[string]any{"groupId": w.group, "memberIds": []string{frank.ID}}, nil)
	var joins struct {
		Records []struct{ ID, MemberID string }
	}
	s.ok("GET", fmt.Sprintf("/v1/chat/applyInfo/listGroupApplyInfo?after=%d", s.head()), alice.Token, nil, &joins)
	Expect(joins.Records).To(HaveLen(1))
	add("apply", joins.Records[0].ID)

	By("the victims' notices and sessions")
	for _, v := range []member{alice, bob, frank} {
		var p noticePage
		s.ok("GET", fmt.Sprintf("/v1/message/messagePush/history/systemNotify/list?pageSize=50&after=%d", s.head()), v.Token, nil, &p)
		for _, n := range p.Records {
			add("notice", n.ID)
		}
		var items []struct {
			ID, FriendMemberID, GroupID string
		}
		s.ok("GET", "/v1/message/sessionInfo/list", v.Token, nil, &items)
		for _, it := range items {
			add("session", it.ID)
		}
	}
	Expect(w.ids["notice"]).NotTo(BeEmpty())

	By("a top-up order of alice's, with top-up on in both tenants")
	s.topUpOn("x0001", true)
	s.topUpOn("x0002", true)
	order := s.topUp(alice, "iso-topup-"+c, 2_000)
	add("topup", order.ID)
	add("topupRequest", order.RequestID)
	add("session", w.group, alice.ID, bob.ID)
	w.ids["session"] = unique(w.ids["session"])
	add("account", w.alice.Account, w.alice.Phone)
	add("fileTenant", "x0001")

	By("a question to the chat assistant, answered")
	fake := chatmodeltest.Start()
	DeferCleanup(fake.Close)
	s.configure(map[string]string{"assistantBaseURL": fake.URL + "/v1", "assistantKey": "sk-" + c})
	question := s.ask(alice, text("a question"))
	Eventually(func() int {
		var page struct{ Total int }
		s.ok("GET", "/v1/assistant/history", alice.Token, nil, &page)
		return page.Total
	}).Should(Equal(2))
	add("question", question.QuestionID)
	add("modelTenant", "x0001")
	add("fileName", strings.TrimPrefix(up.Data.FilePath, "/v1/sso/im/file/x0001/"))

	for _, v := range []isoMember{w.alice, w.bob, w.carol, w.frank} {
		w.needles = append(w.needles, v.Phone)
		w.public = append(w.public, v.Account)
	}
	w.needles = append(w.needles, c)
	w.public = append(w.public, w.nameTag)

	By("the attackers' own chats: a friend each, a message to them")
	w.ownFriend = map[string]isoMember{
		"mallory": s.isoRegister("x0002", "quinn", "Quinn"),
		"eve":     s.isoRegister("x0001", "pat", "Pat"),
		"dave":    s.isoRegister("x0001", "ria", "Ria"),
	}
	for name, friend := range w.ownFriend {
		a := w.attacker(name)
		s.befriend(a.member, friend.member)
		direct := s.send(a.member, friend.member, "own-"+name, "own message")
		_, mine := s.upload(a.Token, "", "file", "own.png", pngOf(4, 3))
		media, err := json.Marshal(map[string]any{"filePath": mine.Data.FilePath, "fileName": mine.Data.FileName,
			"size": mine.Data.Size, "contentType": mine.Data.ContentType, "width": 4, "height": 3})
		Expect(err).NotTo(HaveOccurred())
		w.own[name] = map[string][]string{"member": {friend.ID}, "message": {direct.ID}, "session": {friend.ID}, "media": {string(media)}}
		w.renewOwnGroup(name)
	}
	return w
}

func (w *isoWorld) attacker(name string) isoMember {
	return map[string]isoMember{"mallory": w.mallory, "eve": w.eve, "dave": w.dave}[name]
}

// renewOwnGroup gives the attacker a new group of theirs with their friend,
// and a message in it, as their own group ids: an attack in that context
// may have dissolved or left the last one.
func (w *isoWorld) renewOwnGroup(name string) {
	GinkgoHelper()
	s, a, friend := w.s, w.attacker(name), w.ownFriend[name]
	var g struct{ GroupID string }
	s.ok("POST", "/v1/chat/groupInfo/build", a.Token, map[string]any{"name": "Own", "memberIds": []string{friend.ID}}, &g)
	var sent sendResult
	s.ok("POST", "/v1/message/send", a.Token, map[string]string{"uuid": "own-g-" + g.GroupID, "chatType": "Group", "groupId": g.GroupID, "content": "own group message"}, &sent)
	own := w.own[name]
	own["group"] = []string{g.GroupID}
	own["message"] = []string{own["message"][0], sent.ID}
	own["session"] = []string{own["session"][0], g.GroupID}
}

func unique(xs []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// snapshot reads everything the victims see of their world, through their
// own reads, once the read models have folded the log's head.
func (w *isoWorld) snapshot() map[string]string {
	GinkgoHelper()
	s := w.s
	head := s.head()
	out := map[string]string{}
	read := func(who isoMember, path string) {
		GinkgoHelper()
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		code, env := s.call("GET", fmt.Sprintf("%s%safter=%d", path, sep, head), who.Token, nil)
		out[who.Name+" GET "+path] = fmt.Sprintf("%d %s %s", code, env.Info, env.Data)
	}
	byIDs := func(who isoMember) {
		GinkgoHelper()
		code, env := s.call("POST", fmt.Sprintf("/v1/message/messagePush/getMessageByIds?after=%d", head), who.Token, w.ids["message"])
		out[who.Name+" getMessageByIds"] = fmt.Sprintf("%d %s %s", code, env.Info, env.Data)
	}
	for _, v := range []isoMember{w.alice, w.bob, w.carol, w.frank} {
		for _, p := range []string{
			"/v1/member/memberInfo/getMemberByToken",
			"/v1/member/memberSetting/get",
			"/v1/message/sessionInfo/list",
			"/v1/chat/topInfo/list",
			"/v1/chat/friendGroup/listFriendGroupByMemberId",
			"/v1/chat/applyInfo/queryFriendApplyInfoPages?pageSize=99&curPage=1",
			"/v1/chat/applyInfo/listGroupApplyInfo?pageSize=99&curPage=1",
			"/v1/chat/favoriteInfo/list?pageSize=99&curPage=1",
			"/v1/chat/emojInfo/list?pageSize=99&curPage=1",
			"/v1/chat/batchSend/list",
			"/v1/message/messagePush/at/list",
			"/v1/message/messagePush/history/systemNotify/list?pageSize=99",
			"/v1/message/messagePush/history/systemNotify/count",
			"/v1/chat/groupInfo/listMemberInGroup",
			"/v1/chat/groupInfo/getGroupInfoByGroupId?groupId=" + w.group,
			"/v1/chat/groupInfo/listGroupMember?groupId=" + w.group,
			"/v1/chat/groupInfo/listPinnedMessage?groupId=" + w.group,
			"/v1/chat/groupInfo/readers?groupId=" + w.group + "&messageId=" + w.groupLast,
			"/v1/message/messagePush/history/list/page?pageSize=100&groupId=" + w.group,
		} {
			read(v, p)
		}
		for _, peer := range []isoMember{w.alice, w.bob, w.carol, w.frank, w.dave} {
			if peer.ID != v.ID {
				read(v, "/v1/message/messagePush/history/list/page?pageSize=100&friendMemberId="+peer.ID)
				read(v, "/v1/chat/friendInfo/listFriendInfoMessage/"+peer.ID)
			}
		}
		byIDs(v)
	}
	return out
}

// isoChanged lists the reads that differ between two snapshots.
func isoChanged(before, after map[string]string) []string {
	var out []string
	for k, v := range before {
		if after[k] != v {
			i := 0
			for i < len(v) && i < len(after[k]) && v[i] == after[k][i] {
				i++
			}
			from := max(0, i-150)
			out = append(out, fmt.Sprintf("%s, from character %d\n      before: …%s…\n      after:  …%s…", k, i,
				v[from:min(len(v), i+150)], after[k][from:min(len(after[k]), i+150)]))
		}
	}
	sort.Strings(out)
	return out
}
