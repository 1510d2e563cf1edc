package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/blobstore"
	"github.com/eventchat/eventchat/adapters/chatmodel/chatmodeltest"
	"github.com/eventchat/eventchat/adapters/eventstore/esdb"
	"github.com/eventchat/eventchat/adapters/eventstore/esdb/esdbtest"
	"github.com/eventchat/eventchat/adapters/keystore"
	mongoread "github.com/eventchat/eventchat/adapters/readstore/mongo"
	"github.com/eventchat/eventchat/adapters/readstore/mongo/ferrettest"
	"github.com/eventchat/eventchat/adapters/smsoutbox"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	domainmember "github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/projections"
)

// filesHolding lists the files under dir that hold any of secrets, but the
// SMS provider's outbox (the stand-in of the SMS gateway, not a store).
func filesHolding(dir string, secrets ...string) []string {
	GinkgoHelper()
	var hits []string
	Expect(filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == smsoutbox.FileName {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, secret := range secrets {
			if bytes.Contains(b, []byte(secret)) {
				hits = append(hits, fmt.Sprintf("%s holds %q", path, secret))
			}
		}
		return nil
	})).To(Succeed())
	return hits
}

var _ = Describe("Erasing a member by crypto-shredding", func() {
	const (
		name = "Zebulon Quartzfeather"
		text = "the heron flies at midnight, bring the 7Q ledger"
	)
	var (
		dir        string
		s          *testServer
		zeb, bob   member
		phone      string
		sent       sendResult
		exportedAt []byte // an export made before the erasure
	)

	sessionWith := func(viewer member, peer string, after uint64) session {
		GinkgoHelper()
		var ss []session
		s.ok("GET", fmt.Sprintf("/v1/message/sessionInfo/list?after=%d", after), viewer.Token, nil, &ss)
		for _, x := range ss {
			if x.FriendMemberID == peer {
				return x
			}
		}
		Fail("no session with " + peer)
		return session{}
	}
	history := func(viewer member, peer string) []message {
		GinkgoHelper()
		var h []message
		s.ok("GET", "/v1/message/messagePush/history/list/page?friendMemberId="+peer, viewer.Token, nil, &h)
		return h
	}
	// shows checks what bob sees of zeb: its name and the body of its
	// message, the shape of the chat unchanged.
	shows := func(sess session, h []message, wantName, wantBody string) {
		GinkgoHelper()
		Expect(sess.Name).To(Equal(wantName))
		Expect(sess.LastMessageContent).To(Equal(wantBody))
		Expect(h).To(HaveLen(2))
		Expect(h[0].From).To(Equal(bob.ID))
		Expect(h[0].Content).To(Equal("see you there"))
		Expect(h[1].ID).To(Equal(sent.ID))
		Expect(h[1].From).To(Equal(zeb.ID))
		Expect(h[1].Content).To(Equal(wantBody))
	}
	// found is the ids of the messages viewer's search for text finds.
	found := func(viewer member, after uint64, text string) []string {
		GinkgoHelper()
		var hits []struct{ Message struct{ ID string } }
		s.ok("GET", fmt.Sprintf("/v1/message/search?after=%d&q=%s", after, url.QueryEscape(text)), viewer.Token, nil, &hits)
		ids := []string{}
		for _, h := range hits {
			ids = append(ids, h.Message.ID)
		}
		return ids
	}
	replayOf := func(op member, path string, body any) projections.Replay {
		GinkgoHelper()
		var r projections.Replay
		s.ok("POST", "/v1/admin/audit/replays"+path, op.Token, body, &r)
		Eventually(func() string {
			s.ok("GET", "/v1/admin/audit/replays/"+r.ID, op.Token, nil, &r)
			return r.State
		}, 20*time.Second).Should(Equal(projections.ReplayDone), "replay %s: %s", r.ID, r.Error)
		return r
	}
	replayShows := func(op member, r projections.Replay, wantName, wantBody string) {
		GinkgoHelper()
		var ss []session
		s.ok("GET", "/v1/admin/audit/replays/"+r.ID+"/sessions?memberId="+bob.ID, op.Token, nil, &ss)
		Expect(ss).To(HaveLen(1))
		var h []message
		s.ok("GET", "/v1/admin/audit/replays/"+r.ID+"/history?memberId="+bob.ID+"&friendId="+zeb.ID, op.Token, nil, &h)
		shows(ss[0], h, wantName, wantBody)
	}

	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		createTenant(dir, "x0002")
		s = startServer(dir)
		zeb, phone = s.registerPhoneIn("x0001", "zebq0001")
		bob = s.register("bobq0001")
		s.befriend(zeb, bob)
		s.written("PUT", "/v1/member/memberInfo/modify", zeb, map[string]string{"name": name})
		s.send(bob, zeb, "e-1", "see you there")
		sent = s.send(zeb, bob, "e-2", text)
		shows(sessionWith(bob, zeb.ID, sent.Position), history(bob, zeb.ID), name, text)
		_, _, exportedAt = s.exportOf(s.operator(), url.Values{"tenant": {"x0001"}})
	})

	It("leaves no byte of the member's phone, name or message in the data directory or an export, and shows placeholders live, after a rebuild and in replays", func() {
		Expect(found(bob, sent.Position, "HERON flies")).To(Equal([]string{sent.ID}))

		By("the log and its exports hold them sealed, never in the clear")
		Expect(exportedAt).To(ContainSubstring(sent.ID))
		for _, secret := range []string{phone, name, text} {
			Expect(string(exportedAt)).NotTo(ContainSubstring(secret))
		}

		By("erased by an operator through imctl, on a request it names")
		code, out, errOut := s.imctl("--json", "member", "erase", "x0001", "zebq0001", "--request", "ticket 4711")
		Expect(code).To(Equal(0), errOut)
		var erased commands.MemberState
		Expect(json.Unmarshal([]byte(out), &erased)).To(Succeed())
		Expect(erased.MemberID).To(Equal(zeb.ID))
		Expect(erased.Erased).To(BeTrue())
		Expect(erased.Position).NotTo(BeZero())

		By("recorded for auditors: who, when, on whose request")
		events := s.auditAll(s.operator(), url.Values{"tenant": {"x0001"}, "type": {"MemberErased"}}, 10)
		Expect(events).To(HaveLen(1))
		Expect(string(events[0].Data)).To(And(ContainSubstring(`"by":"operator:imctl"`), ContainSubstring(`"request":"ticket 4711"`)))

		By("live: bob sees a placeholder name and a deleted body, the chat's shape unchanged")
		shows(sessionWith(bob, zeb.ID, erased.Position), history(bob, zeb.ID), projections.ErasedName, projections.ErasedContent)
		Expect(found(bob, erased.Position, "heron flies")).To(BeEmpty(), "the search finds the text no more")
		Expect(found(bob, erased.Position, "deleted")).To(BeEmpty(), "nor the placeholder")
		code, _ = s.call("POST", "/v1/member/memberInfo/login", "", map[string]string{"account": "zebq0001", "password": "pass1234"})
		Expect(code).NotTo(Equal(http.StatusOK), "an erased member cannot log in")
		var registered bool
		s.ok("GET", "/v1/member/memberInfo/isMobileRegister?tenantCode=x0001&phone="+phone, "", nil, &registered)
		Expect(registered).To(BeFalse(), "the phone is free again")

		By("an export made now holds none of it")
		_, _, exportedAfter := s.exportOf(s.operator(), url.Values{"tenant": {"x0001"}})
		for _, secret := range []string{phone, name, text} {
			Expect(string(exportedAfter)).NotTo(ContainSubstring(secret))
		}

		By("a replay of the log, and the import of the export made before the erasure, show the placeholders: the key is gone")
		op := s.operator()
		replayShows(op, replayOf(op, "", map[string]any{"tenant": "x0001"}), projections.ErasedName, projections.ErasedContent)
		replayShows(op, replayOf(op, "/import", exportedAt), projections.ErasedName, projections.ErasedContent)

		By("a rebuild folds the same placeholders")
		code, _, errOut = s.imctl("projections", "rebuild", "all")
		Expect(code).To(Equal(0), errOut)
		shows(sessionWith(bob, zeb.ID, 0), history(bob, zeb.ID), projections.ErasedName, projections.ErasedContent)
		Expect(found(bob, 0, "heron flies")).To(BeEmpty())

		By("no file of the data directory holds any of it")
		Expect(s.stop()).To(Succeed())
		Expect(filesHolding(dir, "ticket 4711")).NotTo(BeEmpty(), "the log keeps payloads readable to the search: it finds the erasure's own request")
		Expect(filesHolding(dir, phone, name, text)).To(BeEmpty())
		Expect(filepath.Join(dir, smsoutbox.FileName)).To(BeAnExistingFile(), "the SMS codes went to the stand-in gateway's outbox")

		By("after a restart too")
		s = startServer(dir)
		bob = s.login("bobq0001")
		shows(sessionWith(bob, zeb.ID, 0), history(bob, zeb.ID), projections.ErasedName, projections.ErasedContent)
	})

	It("retires the replays made before the erasure: their read models go, they stay listed as failed, and no file keeps the data", func() {
		op := s.operator()
		before := replayOf(op, "", map[string]any{"tenant": "x0001"})
		replayShows(op, before, name, text)
		imported := replayOf(op, "/import", exportedAt)
		replayShows(op, imported, name, text)

		erased := s.written("PUT", "/v1/admin/member/erase", op, map[string]string{"tenant": "x0001", "account": "zebq0001"})
		Expect(erased).NotTo(BeZero())
		for _, id := range []string{before.ID, imported.ID} {
			Eventually(func() string {
				var r projections.Replay
				s.ok("GET", "/v1/admin/audit/replays/"+id, op.Token, nil, &r)
				return r.State + ": " + r.Error
			}, 10*time.Second, 50*time.Millisecond).Should(Equal(projections.ReplayFailed + ": " + projections.MsgReplayErased))
			code, _ := s.call("GET", "/v1/admin/audit/replays/"+id+"/sessions?memberId="+bob.ID, op.Token, nil)
			Expect(code).To(Equal(http.StatusConflict))
		}
		after := replayOf(op, "", map[string]any{"tenant": "x0001"})
		replayShows(op, after, projections.ErasedName, projections.ErasedContent)

		Expect(s.stop()).To(Succeed())
		Expect(filesHolding(dir, phone, name, text)).To(BeEmpty())
		s = startServer(dir)
		var listed []projections.Replay
		s.ok("GET", "/v1/admin/audit/replays", op.Token, nil, &listed)
		states := map[string]string{}
		for _, r := range listed {
			states[r.ID] = r.State
		}
		Expect(states).To(Equal(map[string]string{before.ID: projections.ReplayFailed, imported.ID: projections.ReplayFailed, after.ID: projections.ReplayDone}))
	})

	It("keeps the read store's files free of the erased data without a rebuild", func() {
		erased := s.written("PUT", "/v1/admin/member/erase", s.operator(), map[string]string{"tenant": "x0001", "account": "zebq0001"})
		shows(sessionWith(bob, zeb.ID, erased), history(bob, zeb.ID), projections.ErasedName, projections.ErasedContent)
		Expect(found(bob, erased, "heron")).To(BeEmpty())
		Expect(s.stop()).To(Succeed())
		Expect(filesHolding(dir, phone, name, text, projections.FoldSearch(text))).To(BeEmpty(), "nor the text as the search folded it")
	})

	It("erases its group notices and nicknames, friend requests and remarks, favourites, mass messages, feedback and exchanges with the assistant: placeholders in the read models, no byte in the data directory", func() {
		const (
			nickname = "Quillon Marrowpike"
			remark   = "remark for Vespertine"
			bobAs    = "my old pal Ostrogoth"
			mass     = "to all: the vermilion kite flies"
			feedback = "the chartreuse button hides"
			notice   = "heron watchers meet at the old mill"
			request  = "the okapi sings at dawn, add me"
			edited   = "my note on the cinnabar lantern"
			question = "where does the 9X saffron caravan rest"
			answer   = "Hello, world!" // what the stand-in model answers
		)
		fake := chatmodeltest.Start()
		DeferCleanup(fake.Close)
		setUpAssistant(s, fake, nil)
		carol := s.register("carolq01")

		By("the member makes a group with a notice and sets its nickname there, asks a stranger to be friends, gives a friend a remark, keeps a favourite, sends a mass message and feedback, and asks the assistant")
		var group struct{ GroupID string }
		s.ok("POST", "/v1/chat/groupInfo/build", zeb.Token, map[string]any{"name": "Heron watch", "notice": notice, "memberIds": []string{bob.ID}}, &group)
		s.written("PUT", "/v1/chat/groupInfo/modifyMemberNickname", zeb, map[string]string{"groupId": group.GroupID, "nickname": nickname})
		s.ok("POST", "/v1/chat/applyInfo/build", zeb.Token, map[string]string{"friendMemberId": carol.ID, "remark": remark, "content": request}, nil)
		s.written("PUT", "/v1/chat/friendInfo/modify", zeb, map[string]any{"friendMemberId": bob.ID, "remark": bobAs})
		var kept struct{ ID string }
		s.ok("POST", "/v1/chat/favoriteInfo/build", zeb.Token, map[string]string{"messageId": sent.ID}, &kept)
		s.written("PUT", "/v1/chat/favoriteInfo/modify", zeb, map[string]string{"id": kept.ID, "content": edited})
		s.written("POST", "/v1/chat/batchSend/build", zeb, map[string]any{"uuid": "mass-1", "recipients": []string{bob.ID}, "content": mass})
		s.written("POST", "/v1/member/feedback/build", zeb, map[string]any{"type": "bug", "content": feedback})
		c := s.dial(zeb)
		q := s.ask(zeb, question)
		_, end := answerOf(c, q.QuestionID)
		Expect(end.Item.Content).To(Equal(answer))

		// groupShows is zeb's nickname and the group's notice as bob sees
		// them.
		groupShows := func(after uint64) []string {
			GinkgoHelper()
			var info struct{ Notice string }
			s.ok("GET", fmt.Sprintf("/v1/chat/groupInfo/getGroupInfoByGroupId?groupId=%s&after=%d", group.GroupID, after), bob.Token, nil, &info)
			var ms []struct{ MemberID, Nickname string }
			s.ok("GET", fmt.Sprintf("/v1/chat/groupInfo/listGroupMember?groupId=%s&after=%d", group.GroupID, after), bob.Token, nil, &ms)
			for _, m := range ms {
				if m.MemberID == zeb.ID {
					return []string{m.Nickname, info.Notice}
				}
			}
			Fail("zeb is not in the group")
			return nil
		}
		// carolSees is the request's texts as carol lists it, and its
		// message on her notice.
		carolSees := func(after uint64) (string, string, string) {
			GinkgoHelper()
			var applies struct {
				Records []struct{ Remark, Content string }
			}
			s.ok("GET", fmt.Sprintf("/v1/chat/applyInfo/queryFriendApplyInfoPages?after=%d", after), carol.Token, nil, &applies)
			Expect(applies.Records).To(HaveLen(1))
			var notices noticePage
			s.ok("GET", fmt.Sprintf("/v1/message/messagePush/history/systemNotify/list?after=%d", after), carol.Token, nil, &notices)
			Expect(notices.Records).To(HaveLen(1))
			return applies.Records[0].Remark, applies.Records[0].Content, notices.Records[0].Message
		}
		feedbackSeen := func(after uint64) string {
			GinkgoHelper()
			var page struct {
				Records []struct{ MemberID, Content string }
			}
			s.ok("GET", fmt.Sprintf("/v1/admin/feedback/list?tenant=x0001&after=%d", after), s.operator().Token, nil, &page)
			Expect(page.Records).To(HaveLen(1))
			Expect(page.Records[0].MemberID).To(Equal(zeb.ID))
			return page.Records[0].Content
		}
		Expect(groupShows(end.Item.Position)).To(Equal([]string{nickname, notice}))
		seenRemark, seenRequest, seenMessage := carolSees(end.Item.Position)
		Expect([]string{seenRemark, seenRequest, seenMessage}).To(Equal([]string{remark, request, request}))
		Expect(feedbackSeen(end.Item.Position)).To(Equal(feedback))

		By("erased: the others see placeholders")
		erased := s.written("PUT", "/v1/admin/member/erase", s.operator(), map[string]string{"tenant": "x0001", "account": "zebq0001"})
		Expect(groupShows(erased)).To(Equal([]string{projections.ErasedName, projections.ErasedContent}))
		seenRemark, seenRequest, seenMessage = carolSees(erased)
		Expect([]string{seenRemark, seenRequest, seenMessage}).To(Equal([]string{projections.ErasedName, projections.ErasedContent, projections.ErasedContent}))
		Expect(feedbackSeen(erased)).To(Equal(projections.ErasedContent))

		By("no file of the data directory holds any of it, without a rebuild")
		Expect(s.stop()).To(Succeed())
		secrets := []string{nickname, notice, remark, bobAs, request, edited, mass, feedback, question, answer, text}
		Expect(filesHolding(dir, secrets...)).To(BeEmpty())

		By("a rebuild folds the same placeholders, and leaves none of it either")
		s = startServer(dir)
		bob, carol = s.login("bobq0001"), s.login("carolq01")
		code, _, errOut := s.imctl("projections", "rebuild", "all")
		Expect(code).To(Equal(0), errOut)
		Expect(groupShows(0)).To(Equal([]string{projections.ErasedName, projections.ErasedContent}))
		seenRemark, seenRequest, seenMessage = carolSees(0)
		Expect([]string{seenRemark, seenRequest, seenMessage}).To(Equal([]string{projections.ErasedName, projections.ErasedContent, projections.ErasedContent}))
		Expect(feedbackSeen(0)).To(Equal(projections.ErasedContent))
		Expect(s.stop()).To(Succeed())
		Expect(filesHolding(dir, secrets...)).To(BeEmpty())
	})

	It("lets only an operator erase, a member of the tenant named, and answers a second erasure as the first without a change", func() {
		head := s.head()
		body := map[string]string{"tenant": "x0001", "account": "zebq0001"}
		code, _ := s.call("PUT", "/v1/admin/member/erase", bob.Token, body)
		Expect(code).To(Equal(http.StatusUnauthorized), "a member's token is no operator's")
		code, _ = s.call("PUT", "/v1/admin/member/erase", zeb.Token, body)
		Expect(code).To(Equal(http.StatusUnauthorized), "not even the member's own")
		code, _ = s.call("PUT", "/v1/admin/member/erase", s.auditor("x0001", "ada").Token, body)
		Expect(code).To(Equal(http.StatusUnauthorized), "an auditor reads, it does not erase")
		s.refused("PUT", "/v1/admin/member/erase", s.operator(), map[string]string{"tenant": "x0002", "account": "zebq0001"},
			http.StatusNotFound, "member not found")
		s.refused("PUT", "/v1/admin/member/erase", s.operator(), map[string]string{"tenant": "x0002", "account": zeb.ID},
			http.StatusNotFound, "member not found")
		Expect(s.head()).To(Equal(head), "a refused erasure appended an event")
		shows(sessionWith(bob, zeb.ID, 0), history(bob, zeb.ID), name, text)

		var first, second commands.MemberState
		s.ok("PUT", "/v1/admin/member/erase", s.operator().Token, body, &first)
		Expect(first.Position).NotTo(BeZero())
		s.ok("PUT", "/v1/admin/member/erase", s.operator().Token, map[string]string{"tenant": "x0001", "account": zeb.ID}, &second)
		Expect(second.MemberID).To(Equal(zeb.ID))
		Expect(second.Erased).To(BeTrue())
		Expect(second.Position).To(BeZero(), "nothing changed")
		s.refused("PUT", "/v1/admin/member/erase", s.operator(), body, http.StatusNotFound, "member not found")
	})

	It("erases a member once when operators and the member itself ask at once, without a 5xx", func() {
		operator := s.operator().Token
		answers := atOnce(8, func(i int) answer {
			if i%2 == 0 {
				return s.rawCall("PUT", "/v1/admin/member/erase", operator, `{"tenant":"x0001","account":"`+zeb.ID+`"}`)
			}
			return s.rawCall("PUT", "/v1/member/memberInfo/erase", zeb.Token, `{"password":"pass1234"}`)
		})
		for _, a := range answers {
			Expect(a.err).NotTo(HaveOccurred())
			Expect(a.status).To(BeNumerically("<", 500), a.body)
		}
		Expect(statuses(answers)).To(HaveKey(http.StatusOK))
		erasures := s.auditAll(s.operator(), url.Values{"tenant": {"x0001"}, "type": {"MemberErased"}}, 10)
		Expect(erasures).To(HaveLen(1))
		shows(sessionWith(bob, zeb.ID, erasures[0].Position), history(bob, zeb.ID), projections.ErasedName, projections.ErasedContent)
	})

	It("lets a member delete its own account, confirmed by its password", func() {
		head := s.head()
		s.refused("PUT", "/v1/member/memberInfo/erase", zeb, map[string]string{},
			http.StatusBadRequest, "password cannot be empty")
		Expect(s.head()).To(Equal(head), "a refused deletion appended an event")
		s.refused("PUT", "/v1/member/memberInfo/erase", zeb, map[string]string{"password": "wrong123"},
			http.StatusBadRequest, "wrong password, please enter the correct password")
		failed := s.auditAll(s.operator(), url.Values{"tenant": {"x0001"}, "type": {"MemberLoginFailed"}}, 10)
		Expect(failed).To(HaveLen(1), "a wrong password is counted as a login's")
		Expect(s.auditAll(s.operator(), url.Values{"tenant": {"x0001"}, "type": {"MemberErased"}}, 10)).To(BeEmpty())

		erased := s.written("PUT", "/v1/member/memberInfo/erase", zeb, map[string]string{"password": "pass1234"})
		shows(sessionWith(bob, zeb.ID, erased), history(bob, zeb.ID), projections.ErasedName, projections.ErasedContent)
		events := s.auditAll(s.operator(), url.Values{"tenant": {"x0001"}, "type": {"MemberErased"}}, 10)
		Expect(events).To(HaveLen(1))
		Expect(string(events[0].Data)).To(And(ContainSubstring(`"by":"`+zeb.ID+`"`), ContainSubstring(`"request":"member"`)))
		code, _ := s.call("GET", "/v1/message/sessionInfo/list", zeb.Token, nil)
		Expect(code).To(Equal(http.StatusUnauthorized), "its sessions ended")
	})

	It("locks the member's own deletion out after as many wrong passwords as a login, the right one included, and erases nothing", func() {
		for range domainmember.MaxLoginFailures {
			s.refused("PUT", "/v1/member/memberInfo/erase", zeb, map[string]string{"password": "wrong123"},
				http.StatusBadRequest, "wrong password, please enter the correct password")
		}
		s.refused("PUT", "/v1/member/memberInfo/erase", zeb, map[string]string{"password": "pass1234"},
			http.StatusTooManyRequests, fault.MsgTooManyAttempts)
		code, env := s.call("POST", "/v1/member/memberInfo/login", "", map[string]string{"account": "zebq0001", "password": "pass1234", "tenantCode": "x0001"})
		Expect(code).To(Equal(http.StatusTooManyRequests), "logins are locked out by the same count")
		Expect(env.Info).To(Equal(fault.MsgTooManyAttempts))
		Expect(s.auditAll(s.operator(), url.Values{"tenant": {"x0001"}, "type": {"MemberErased"}}, 10)).To(BeEmpty())
		shows(sessionWith(bob, zeb.ID, 0), history(bob, zeb.ID), name, text)
	})

	Describe("its uploads", func() {
		const (
			zebText = "zeb's cipher wheel notes: 48 11 93 kestrel"
			bobText = "bob's packing list: lantern, rope, 12 figs"
		)
		var avatar, picture []byte
		var zebPaths []string // the avatar, a picture and a text file zeb sent
		var bobPath string
		upload := func(m member, query, fileName string, content []byte) string {
			GinkgoHelper()
			status, up := s.upload(m.Token, query, "file", fileName, content)
			Expect(status).To(Equal(http.StatusOK), up.Info)
			return up.Data.FilePath
		}
		status := func(path string) int {
			GinkgoHelper()
			resp, _ := s.fetch(path, bob.Token)
			return resp.StatusCode
		}
		BeforeEach(func() {
			avatar, picture = pngOf(7, 5), pngOf(9, 2)
			zebPaths = []string{upload(zeb, "?type=avatar", "me.png", avatar), upload(zeb, "", "view.png", picture),
				upload(zeb, "?type=chat", "notes.txt", []byte(zebText))}
			s.written("PUT", "/v1/member/memberInfo/modify", zeb, map[string]string{"headUrl": zebPaths[0]})
			content, err := json.Marshal(map[string]any{"filePath": zebPaths[2], "fileName": "notes.txt",
				"size": len(zebText), "contentType": "text/plain; charset=utf-8"})
			Expect(err).NotTo(HaveOccurred())
			s.written("POST", "/v1/message/send", zeb, map[string]string{"uuid": "e-3", "chatType": "Friend", "to": bob.ID, "msgType": "File", "content": string(content)})
			bobPath = upload(bob, "?type=chat", "list.txt", []byte(bobText))
			for _, p := range append(zebPaths, bobPath) {
				Expect(status(p)).To(Equal(http.StatusOK), p)
			}
		})
		secrets := func() []string { return []string{zebText, string(avatar), string(picture)} }

		It("deletes the avatar and every file the member uploaded, and keeps the others'", func() {
			s.written("PUT", "/v1/admin/member/erase", s.operator(), map[string]string{"tenant": "x0001", "account": "zebq0001"})
			for _, p := range zebPaths {
				Expect(status(p)).To(Equal(http.StatusNotFound), p)
			}
			Expect(status(bobPath)).To(Equal(http.StatusOK))
			s.written("PUT", "/v1/admin/member/erase", s.operator(), map[string]string{"tenant": "x0001", "account": zeb.ID})

			Expect(s.stop()).To(Succeed())
			Expect(filesHolding(dir, secrets()...)).To(BeEmpty())
			Expect(filesHolding(dir, bobText)).To(HaveLen(1), "bob's upload stays")
		})

		It("deletes them at the next start when the erasure stopped before deleting them", func() {
			kept := map[string][]byte{}
			for _, hit := range filesHolding(filepath.Join(dir, blobstore.Dir), secrets()...) {
				path := strings.SplitN(hit, " holds ", 2)[0]
				b, err := os.ReadFile(path)
				Expect(err).NotTo(HaveOccurred())
				kept[path] = b
			}
			Expect(kept).To(HaveLen(3))
			s.written("PUT", "/v1/member/memberInfo/erase", zeb, map[string]string{"password": "pass1234"})
			Expect(s.stop()).To(Succeed())
			By("the files back as a crash between MemberErased and their deletion leaves them")
			for path, b := range kept {
				Expect(os.WriteFile(path, b, 0o600)).To(Succeed())
			}
			Expect(filesHolding(dir, secrets()...)).To(HaveLen(3))

			s = startServer(dir)
			bob = s.login("bobq0001")
			Eventually(func() []string { return filesHolding(dir, secrets()...) }, 10*time.Second, 50*time.Millisecond).Should(BeEmpty())
			for _, p := range zebPaths {
				Expect(status(p)).To(Equal(http.StatusNotFound), p)
			}
			Expect(status(bobPath)).To(Equal(http.StatusOK))
		})
	})
})

var _ = Describe("Erasing a member on the production adapters (the EventStoreDB double, FerretDB)", func() {
	It("keeps the keys in MongoDB through a rebuild, shows the placeholders live and after it, and leaves only ciphertext in the log", func() {
		const name, text = "Quillon Barrowmere", "the ferry leaves at dawn from pier 9Z"
		dir := GinkgoT().TempDir()
		double, err := esdbtest.Start(filepath.Join(dir, "double.db"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(double.Close)
		ferret, err := ferrettest.Start(GinkgoT().TempDir(), io.Discard)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(ferret.Stop)
		data := filepath.Join(dir, "data")
		s := startWith(data, zap.NewNop(), map[string]string{"IM_EVENTSTORE": double.ConnectionString(), "IM_READSTORE": ferret.URI})

		quill, phone := s.registerPhoneIn("x0001", "quill001")
		bob := s.register("bobp0001")
		s.befriend(quill, bob)
		s.written("PUT", "/v1/member/memberInfo/modify", quill, map[string]string{"name": name})
		kept := s.send(bob, quill, "p-0", "bob's own words stay")
		sent := s.send(quill, bob, "p-1", text)
		Expect(filepath.Join(data, keystore.FileName)).NotTo(BeAnExistingFile(), "the keys are in MongoDB, shared by the nodes")
		const quillFile, bobFile = "quill's map of the weirs at low tide", "bob's note stays in GridFS"
		uploadText := func(m member, content string) string {
			GinkgoHelper()
			status, up := s.upload(m.Token, "?type=chat", "file", "a.txt", []byte(content))
			Expect(status).To(Equal(http.StatusOK), up.Info)
			return up.Data.FilePath
		}
		quillPath, bobPath := uploadText(quill, quillFile), uploadText(bob, bobFile)

		erased := s.written("PUT", "/v1/admin/member/erase", s.operator(), map[string]string{"tenant": "x0001", "account": "quill001", "request": "ticket 12"})
		By("its uploads are gone from GridFS, the others' stay")
		resp, _ := s.fetch(quillPath, bob.Token)
		Expect(resp.StatusCode).To(Equal(http.StatusNotFound))
		resp, body := s.fetch(bobPath, bob.Token)
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		Expect(string(body)).To(Equal(bobFile))
		chunksHolding := func(text string) int {
			GinkgoHelper()
			client, err := mongo.Connect(options.Client().ApplyURI(ferret.URI))
			Expect(err).NotTo(HaveOccurred())
			defer func() { _ = client.Disconnect(context.Background()) }()
			cur, err := client.Database(readDatabase).Collection(mongoread.BlobBucket+".chunks").Find(context.Background(), bson.D{})
			Expect(err).NotTo(HaveOccurred())
			var chunks []struct {
				Data []byte `bson:"data"`
			}
			Expect(cur.All(context.Background(), &chunks)).To(Succeed())
			n := 0
			for _, c := range chunks {
				if bytes.Contains(c.Data, []byte(text)) {
					n++
				}
			}
			return n
		}
		Expect(chunksHolding(quillFile)).To(BeZero())
		Expect(chunksHolding(bobFile)).To(Equal(1))

		check := func(after uint64) {
			GinkgoHelper()
			var ss []session
			s.ok("GET", fmt.Sprintf("/v1/message/sessionInfo/list?after=%d", after), bob.Token, nil, &ss)
			Expect(ss).To(HaveLen(1))
			Expect(ss[0].Name).To(Equal(projections.ErasedName))
			Expect(ss[0].LastMessageContent).To(Equal(projections.ErasedContent))
			var h []message
			s.ok("GET", "/v1/message/messagePush/history/list/page?friendMemberId="+quill.ID, bob.Token, nil, &h)
			Expect(h).To(HaveLen(2))
			Expect(h[0].ID).To(Equal(kept.ID))
			Expect(h[0].Content).To(Equal("bob's own words stay"), "the others' keys survive")
			Expect(h[1].ID).To(Equal(sent.ID))
			Expect(h[1].Content).To(Equal(projections.ErasedContent))
		}
		check(erased)
		code, _, errOut := s.imctl("projections", "rebuild", "all")
		Expect(code).To(Equal(0), errOut)
		check(0)
		By("once the old generation's read models are dropped, after a restart, the keys read again from MongoDB")
		client, err := mongo.Connect(options.Client().ApplyURI(ferret.URI))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(client.Disconnect, context.Background())
		Eventually(func() ([]string, error) {
			return client.Database(readDatabase).ListCollectionNames(context.Background(), bson.D{})
		}, 20*time.Second, 200*time.Millisecond).ShouldNot(ContainElement("messages"))
		Expect(s.stop()).To(Succeed())
		s = startWith(data, zap.NewNop(), map[string]string{"IM_EVENTSTORE": double.ConnectionString(), "IM_READSTORE": ferret.URI})
		bob = s.login("bobp0001")
		check(0)
		code, _, errOut = s.imctl("projections", "rebuild", "all")
		Expect(code).To(Equal(0), errOut)
		check(0)

		By("the log, read as stored through the adapter, holds none of it")
		Expect(s.stop()).To(Succeed())
		log, err := esdb.Open(context.Background(), double.ConnectionString())
		Expect(err).NotTo(HaveOccurred())
		defer log.Close()
		recs, err := log.ReadAll(context.Background(), 0, 100000)
		Expect(err).NotTo(HaveOccurred())
		var all strings.Builder
		for _, r := range recs {
			all.Write(r.Data)
			if r.Type == "MessageSent" {
				Expect(string(r.Data)).To(ContainSubstring(`"content":"sealed1:`))
			}
		}
		Expect(all.String()).To(ContainSubstring("ticket 12"), "the payloads are read as stored")
		for _, secret := range []string{phone, name, text} {
			Expect(all.String()).NotTo(ContainSubstring(secret))
		}
	})
})
