package sqliteread_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Hash of the read models", func() {
	ctx := context.Background()

	// contents is one row of every read model, written by put in its own
	// Update; the i-th message goes to chat c1 with sequence i.
	type contents struct {
		members  []projections.Member
		messages []projections.Message
		sessions []projections.Session
		applies  []projections.Apply
		friends  []projections.Friend
		auths    []projections.AuthSession
	}
	sample := func() contents {
		var c contents
		for i := range 30 {
			id := fmt.Sprintf("m%02d", i)
			c.members = append(c.members, projections.Member{ID: id, Tenant: "x0001", Account: "acct" + id, Phone: "1360000" + id, Name: "name " + id, RegisteredAt: int64(i)})
			c.messages = append(c.messages, projections.Message{
				ID: fmt.Sprintf("%019d", i+1), UUID: "u" + id, Tenant: "x0001", ChatID: "c1", Seq: uint64(i + 1), Position: uint64(100 + i),
				ChatType: "Friend", From: "m00", To: "m01", MsgType: "Text", Content: "hello " + id, ServerReceiveTime: int64(1000 + i), Status: projections.StatusUnread,
			})
			c.sessions = append(c.sessions, projections.Session{Tenant: "x0001", Member: id, Peer: "m00", ChatType: "Friend", ChatID: "c" + id, LastMessageID: "1", UnreadCount: i})
			c.applies = append(c.applies, projections.Apply{ID: "a" + id, Tenant: "x0001", PairID: "p" + id, From: id, To: "m00", Content: "hi", Status: "pending", ReadFlag: "N", CreatedAt: int64(i)})
			c.friends = append(c.friends, projections.Friend{Tenant: "x0001", Member: id, FriendID: "m00", ChatID: "c" + id, Since: int64(i)})
			c.auths = append(c.auths, projections.AuthSession{ID: "s" + id, Tenant: "x0001", Member: id, Active: i%2 == 0, StartedAt: int64(i)})
		}
		return c
	}
	open := func() *sqliteread.Store {
		GinkgoHelper()
		s, err := sqliteread.Open(filepath.Join(GinkgoT().TempDir(), "read.db"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		return s
	}
	// write stores c in s, chunk rows of each model per Update.
	write := func(s *sqliteread.Store, c contents, chunk int) {
		GinkgoHelper()
		for from := 0; from < len(c.members); from += chunk {
			to := min(from+chunk, len(c.members))
			Expect(s.Update(ctx, func(tx projections.Tx) error {
				return firstErr(
					func() error { return tx.PutMembers(ctx, c.members[from:to]) },
					func() error { return tx.InsertMessages(ctx, c.messages[from:to]) },
					func() error { return tx.IndexMessages(ctx, messageIDs(c.messages[from:to])) },
					func() error { return tx.PutSessions(ctx, c.sessions[from:to]) },
					func() error { return tx.PutApplies(ctx, c.applies[from:to]) },
					func() error { return tx.PutFriends(ctx, c.friends[from:to]) },
					func() error { return tx.PutAuthSessions(ctx, c.auths[from:to]) },
				)
			})).To(Succeed())
		}
	}
	hash := func(s *sqliteread.Store) map[string]string {
		GinkgoHelper()
		h, err := s.Hash(ctx)
		Expect(err).NotTo(HaveOccurred())
		return h
	}
	models := []string{"members", "messages", "search", "clearFloors", "mentions", "groups", "groupMembers", "personal", "notices", "sessions", "applies", "groupApplies", "friends", "authSessions"}

	It("covers every read model and hashes two empty stores alike", func() {
		a, b := hash(open()), hash(open())
		Expect(a).To(HaveLen(len(models)))
		for _, m := range models {
			Expect(a).To(HaveKeyWithValue(m, MatchRegexp(`^[0-9a-f]{64}$`)))
		}
		Expect(a).To(Equal(b))
	})

	It("is equal for the same rows written in another order and other batches, and ignores checkpoints", func() {
		c := sample()
		a := open()
		write(a, c, 1)

		r := sample()
		for _, rows := range []func(){
			func() { slices.Reverse(r.members) }, func() { slices.Reverse(r.messages) }, func() { slices.Reverse(r.sessions) },
			func() { slices.Reverse(r.applies) }, func() { slices.Reverse(r.friends) }, func() { slices.Reverse(r.auths) },
		} {
			rows()
		}
		b := open()
		write(b, r, 7)
		Expect(b.Update(ctx, func(tx projections.Tx) error { return tx.SetCheckpoint(ctx, "chats.v1", 99) })).To(Succeed())

		Expect(hash(b)).To(Equal(hash(a)))
		Expect(hash(a)).NotTo(Equal(hash(open())))
	})

	It("changes only the hash of the model whose rows differ", func() {
		a, b := open(), open()
		write(a, sample(), 10)
		write(b, sample(), 10)
		before := hash(a)
		Expect(hash(b)).To(Equal(before))

		changes := map[string]func(tx projections.Tx) error{
			"members": func(tx projections.Tx) error {
				return tx.PutMembers(ctx, []projections.Member{{ID: "m03", Tenant: "x0001", Account: "acctm03", Phone: "1360000m03", Name: "renamed", RegisteredAt: 3}})
			},
			"messages": func(tx projections.Tx) error {
				_, err := tx.MarkRead(ctx, "c1", "m01", 2)
				return err
			},
			"search": func(tx projections.Tx) error {
				m := sample().messages[3]
				m.Content, m.EditTime = "edited", 9
				if err := tx.UpdateMessages(ctx, []projections.Message{m}); err != nil {
					return err
				}
				return tx.IndexMessages(ctx, []string{m.ID})
			},
			"groups": func(tx projections.Tx) error {
				return tx.PutGroups(ctx, []projections.Group{{ID: "g1", Tenant: "x0001", Name: "Team"}})
			},
			"groupMembers": func(tx projections.Tx) error {
				return tx.PutGroupMembers(ctx, []projections.GroupMember{{GroupID: "g1", Tenant: "x0001", Member: "m01", Role: "Owner"}})
			},
			"mentions": func(tx projections.Tx) error {
				return tx.PutMentions(ctx, []projections.Mention{{Tenant: "x0001", Member: "m01", MessageID: "x", SessionID: "m02", SessionType: "Friend", At: 1}})
			},
			"personal": func(tx projections.Tx) error {
				return tx.PutPersonalItems(ctx, []projections.PersonalItem{{Tenant: "x0001", Member: "m01", Kind: "favourite", ID: "f1", At: 1, Doc: []byte("{}")}})
			},
			"notices": func(tx projections.Tx) error {
				return tx.PutNotices(ctx, []projections.Notice{{Tenant: "x0001", Member: "m01", ID: "1", Kind: "FriendRequest", Tab: "friends"}})
			},
			"clearFloors": func(tx projections.Tx) error {
				return tx.SetClearFloor(ctx, "m01", "c1", 3)
			},
			"sessions": func(tx projections.Tx) error {
				s := sample().sessions[4]
				s.UnreadCount++
				return tx.PutSessions(ctx, []projections.Session{s})
			},
			"applies": func(tx projections.Tx) error {
				a := sample().applies[5]
				a.Status = "accepted"
				return tx.PutApplies(ctx, []projections.Apply{a})
			},
			"groupApplies": func(tx projections.Tx) error {
				return tx.PutGroupApplies(ctx, []projections.GroupApply{{ID: "r1", Tenant: "x0001", GroupID: "g1", Member: "m03", By: "m02", Status: "pending"}})
			},
			"friends": func(tx projections.Tx) error {
				return tx.PutFriends(ctx, []projections.Friend{{Tenant: "x0001", Member: "m01", FriendID: "m02", ChatID: "c9"}})
			},
			"authSessions": func(tx projections.Tx) error {
				s := sample().auths[0]
				s.Active, s.EndedAt = false, 77
				return tx.PutAuthSessions(ctx, []projections.AuthSession{s})
			},
		}
		for _, m := range models {
			Expect(b.Update(ctx, changes[m])).To(Succeed(), m)
			after := hash(b)
			Expect(after[m]).NotTo(Equal(before[m]), "%s did not change its hash", m)
			for _, other := range models {
				// The search index is that of the messages' text: an edit
				// changes both.
				if other != m && !(m == "search" && other == "messages") {
					Expect(after[other]).To(Equal(before[other]), "changing %s changed %s", m, other)
				}
			}
			before = after
		}
	})

	It("changes the sessions hash with each conversation setting", func() {
		s := open()
		write(s, sample(), 10)
		seen := map[string]bool{hash(s)["sessions"]: true}
		row := sample().sessions[2]
		for _, set := range []func(*projections.Session){
			func(x *projections.Session) { x.Top, x.TopTime = true, 9 },
			func(x *projections.Session) { x.DoNotDisturb = true },
			func(x *projections.Session) { x.MarkedUnread = true },
			func(x *projections.Session) { x.Hidden = true },
		} {
			set(&row)
			Expect(s.Update(ctx, func(tx projections.Tx) error { return tx.PutSessions(ctx, []projections.Session{row}) })).To(Succeed())
			h := hash(s)["sessions"]
			Expect(seen).NotTo(HaveKey(h))
			seen[h] = true
		}
	})

	It("tells a text value from the same bytes split across columns", func() {
		a, b := open(), open()
		Expect(a.Update(ctx, func(tx projections.Tx) error {
			return tx.PutMembers(ctx, []projections.Member{{ID: "m1", Account: "ab", Name: "c"}})
		})).To(Succeed())
		Expect(b.Update(ctx, func(tx projections.Tx) error {
			return tx.PutMembers(ctx, []projections.Member{{ID: "m1", Account: "a", Name: "bc"}})
		})).To(Succeed())
		Expect(hash(a)["members"]).NotTo(Equal(hash(b)["members"]))
	})

	Describe("restricted to a tenant", func() {
		// otherTenant writes one row of every model for tenant x0002,
		// whose member m99 clears a chat, and a message of x0002.
		otherTenant := func(s *sqliteread.Store) {
			GinkgoHelper()
			Expect(s.Update(ctx, func(tx projections.Tx) error {
				return firstErr(
					func() error {
						return tx.PutMembers(ctx, []projections.Member{{ID: "m99", Tenant: "x0002", Account: "b"}})
					},
					func() error {
						return tx.InsertMessages(ctx, []projections.Message{{ID: "9999", Tenant: "x0002", ChatID: "c9", Seq: 1, From: "m99", To: "m98", Status: projections.StatusUnread}})
					},
					func() error { return tx.SetClearFloor(ctx, "m99", "c9", 1) },
					func() error {
						return tx.PutNotices(ctx, []projections.Notice{{Tenant: "x0002", Member: "m99", ID: "n9", Tab: "system"}})
					},
				)
			})).To(Succeed())
		}
		compare := func(a, b *sqliteread.Store, tenant string) map[string]string {
			GinkgoHelper()
			sa, err := a.Snapshot(ctx)
			Expect(err).NotTo(HaveOccurred())
			defer sa.Close()
			sb, err := b.Snapshot(ctx)
			Expect(err).NotTo(HaveOccurred())
			defer sb.Close()
			ms, err := sa.CompareTenant(ctx, sb, tenant)
			Expect(err).NotTo(HaveOccurred())
			out := map[string]string{}
			for _, m := range ms {
				Expect(m.Equal).To(Equal(m.FirstDifference == ""))
				out[m.Name] = m.FirstDifference
			}
			Expect(out).To(HaveLen(len(models)))
			return out
		}

		It("hashes only the tenant's rows, those without a tenant column too", func() {
			a, b := open(), open()
			write(a, sample(), 10)
			write(b, sample(), 10)
			otherTenant(b)
			ha, err := a.HashTenant(ctx, "x0001")
			Expect(err).NotTo(HaveOccurred())
			hb, err := b.HashTenant(ctx, "x0001")
			Expect(err).NotTo(HaveOccurred())
			Expect(hb).To(Equal(ha))
			Expect(hash(b)).NotTo(Equal(hash(a)))

			other, err := b.HashTenant(ctx, "x0002")
			Expect(err).NotTo(HaveOccurred())
			empty, err := a.HashTenant(ctx, "x0002")
			Expect(err).NotTo(HaveOccurred())
			for _, m := range []string{"members", "messages", "clearFloors", "notices"} {
				Expect(other[m]).NotTo(Equal(empty[m]), m)
			}
			Expect(compare(a, b, "x0001")).To(HaveEach(""))
		})

		It("names the first key that differs: a changed row, or a row on one side only", func() {
			a, b := open(), open()
			write(a, sample(), 10)
			write(b, sample(), 10)
			otherTenant(b)
			Expect(b.Update(ctx, func(tx projections.Tx) error {
				return firstErr(
					func() error {
						return tx.PutMembers(ctx, []projections.Member{{ID: "m07", Tenant: "x0001", Name: "tampered"}, {ID: "m12", Tenant: "x0001", Name: "tampered"}})
					},
					func() error {
						return tx.PutFriends(ctx, []projections.Friend{{Tenant: "x0001", Member: "m05", FriendID: "m01", ChatID: "c"}})
					},
					func() error { return tx.SetClearFloor(ctx, "m02", "c1", 4) },
				)
			})).To(Succeed())
			Expect(a.Update(ctx, func(tx projections.Tx) error {
				_, err := tx.MarkRead(ctx, "c1", "m01", 3)
				return err
			})).To(Succeed())

			diff := compare(a, b, "x0001")
			Expect(diff).To(HaveKeyWithValue("members", "id=m07"))
			Expect(diff).To(HaveKeyWithValue("friends", "member=m05, friend_id=m01"))
			Expect(diff).To(HaveKeyWithValue("clearFloors", "member=m02, chat_id=c1"))
			Expect(diff).To(HaveKeyWithValue("messages", fmt.Sprintf("id=%019d", 1)))
			Expect(diff).To(HaveKeyWithValue("sessions", ""))
			// The other way round, a row only b has is named too.
			Expect(compare(b, a, "x0001")).To(HaveKeyWithValue("friends", "member=m05, friend_id=m01"))
			Expect(compare(a, b, "x0002")).To(HaveKeyWithValue("members", "id=m99"))
		})
	})

	It("fails on a closed store", func() {
		s, err := sqliteread.Open(filepath.Join(GinkgoT().TempDir(), "read.db"))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Close()).To(Succeed())
		_, err = s.Hash(ctx)
		Expect(err).To(HaveOccurred())
	})
})

func firstErr(steps ...func() error) error {
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func messageIDs(ms []projections.Message) []string {
	ids := make([]string, len(ms))
	for i := range ms {
		ids[i] = ms[i].ID
	}
	return ids
}
