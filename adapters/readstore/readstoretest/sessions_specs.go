package readstoretest

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

func describeSessions(store func() projections.ReadStore) {
	Describe("sessions", func() {
		getSessions := func(keys ...projections.SessionKey) map[projections.SessionKey]projections.Session {
			GinkgoHelper()
			var got map[projections.SessionKey]projections.Session
			update(store(), func(tx projections.Tx) error {
				var err error
				got, err = tx.GetSessions(ctx, keys)
				return err
			})
			return got
		}
		putSessions := func(ss ...projections.Session) {
			GinkgoHelper()
			update(store(), func(tx projections.Tx) error { return tx.PutSessions(ctx, ss) })
		}
		peers := func(ss []projections.Session) []string {
			out := make([]string, len(ss))
			for i, s := range ss {
				out[i] = s.Peer
			}
			return out
		}

		It("gets nothing for unknown keys", func() {
			Expect(getSessions()).To(BeEmpty())
			Expect(getSessions(projections.SessionKey{Member: "alice", Peer: "bob"})).To(BeEmpty())
			Expect(store().Sessions(ctx, "alice")).To(BeEmpty())
		})

		It("gets the stored sessions among many keys", func() {
			var stored []projections.Session
			var keys []projections.SessionKey
			for i := range 150 {
				s := session(fmt.Sprintf("member-%03d", i), "peer", int64(i))
				if i%3 == 0 {
					stored = append(stored, s)
				}
				keys = append(keys, s.Key())
			}
			putSessions(stored...)

			got := getSessions(keys...)
			Expect(got).To(HaveLen(50))
			for _, s := range stored {
				Expect(got).To(HaveKeyWithValue(s.Key(), s))
			}
		})

		It("replaces a stored session whole", func() {
			s := session("alice", "bob", 10)
			s.Top, s.TopTime = true, 5
			putSessions(s)
			changed := session("alice", "bob", 20)
			changed.LastMessageContent, changed.UnreadCount = "", 0
			putSessions(changed)

			Expect(getSessions(s.Key())).To(Equal(map[projections.SessionKey]projections.Session{s.Key(): changed}))
			Expect(store().Sessions(ctx, "alice")).To(Equal([]projections.Session{changed}))
		})

		It("keeps what a preview names: the sender, the file's name, a forward's original sender and type", func() {
			s := session("alice", "bob", 10)
			s.LastMessageFrom = "bob"
			s.LastMessageType, s.LastMessageContent = "Forward", "[file]"
			s.LastMessageFileName, s.LastMessageForwardFrom, s.LastMessageForwardType = "report 2026 (final).pdf", "carol", "File"
			putSessions(s)
			Expect(getSessions(s.Key())).To(HaveKeyWithValue(s.Key(), s))
			Expect(store().Sessions(ctx, "alice")).To(Equal([]projections.Session{s}))

			plain := session("alice", "bob", 20)
			putSessions(plain)
			Expect(store().Sessions(ctx, "alice")).To(Equal([]projections.Session{plain}), "a later text leaves none of them")
		})

		It("lists a member's sessions pinned first, latest pinned first, then newest message first", func() {
			pinnedEarly := session("alice", "pinned-early", 100)
			pinnedEarly.Top, pinnedEarly.TopTime = true, 10
			pinnedLate := session("alice", "pinned-late", 1)
			pinnedLate.Top, pinnedLate.TopTime = true, 20
			putSessions(
				session("alice", "old", 50),
				pinnedEarly,
				session("alice", "new", 300),
				pinnedLate,
				session("alice", "middle", 200),
				session("bob", "alice", 1000),
			)

			got, err := store().Sessions(ctx, "alice")
			Expect(err).NotTo(HaveOccurred())
			Expect(peers(got)).To(Equal([]string{"pinned-late", "pinned-early", "new", "middle", "old"}))
			Expect(got[0]).To(Equal(pinnedLate))
		})

		It("keeps each conversation's settings: pin, do-not-disturb, unread marker, hidden", func() {
			set := session("alice", "bob", 10)
			set.Top, set.TopTime, set.DoNotDisturb, set.MarkedUnread = true, 7, true, true
			hidden := session("alice", "carol", 20)
			hidden.Hidden, hidden.DoNotDisturb = true, true
			putSessions(set, hidden)

			Expect(getSessions(set.Key(), hidden.Key())).To(Equal(map[projections.SessionKey]projections.Session{
				set.Key(): set, hidden.Key(): hidden}))
			Expect(store().Sessions(ctx, "alice")).To(Equal([]projections.Session{set}))

			cleared := set
			cleared.DoNotDisturb, cleared.MarkedUnread = false, false
			shown := hidden
			shown.Hidden = false
			putSessions(cleared, shown)
			Expect(store().Sessions(ctx, "alice")).To(Equal([]projections.Session{cleared, shown}))
		})

		It("leaves hidden sessions out of the list, pinned or not", func() {
			pinnedHidden := session("alice", "pinned-hidden", 5)
			pinnedHidden.Top, pinnedHidden.TopTime, pinnedHidden.Hidden = true, 30, true
			hidden := session("alice", "hidden", 400)
			hidden.Hidden = true
			putSessions(session("alice", "old", 50), pinnedHidden, hidden, session("alice", "new", 300))

			got, err := store().Sessions(ctx, "alice")
			Expect(err).NotTo(HaveOccurred())
			Expect(peers(got)).To(Equal([]string{"new", "old"}))
			Expect(getSessions(hidden.Key())).To(HaveKeyWithValue(hidden.Key(), hidden))
		})

		groupSession := func(member, groupID string) projections.Session {
			s := session(member, groupID, 10)
			s.ChatType, s.ChatID = "Group", groupID
			return s
		}
		groupSessions := func(groupID string) (got []projections.Session) {
			GinkgoHelper()
			update(store(), func(tx projections.Tx) error {
				var err error
				got, err = tx.GroupSessions(ctx, groupID)
				return err
			})
			return got
		}
		members := func(ss []projections.Session) []string {
			out := make([]string, len(ss))
			for i, s := range ss {
				out[i] = s.Member
			}
			return out
		}

		It("finds the sessions of a group chat by member, hidden ones too, and no friend chat", func() {
			hidden := groupSession("carol", "g1")
			hidden.Hidden = true
			friendChat := session("dave", "g1", 5) // a peer id is a group id or a member id, never both
			putSessions(groupSession("bob", "g1"), hidden, groupSession("alice", "g1"), groupSession("alice", "g2"), friendChat)

			Expect(members(groupSessions("g1"))).To(Equal([]string{"alice", "bob", "carol"}))
			Expect(groupSessions("g1")[2]).To(Equal(hidden))
			Expect(groupSessions("nope")).To(BeEmpty())
		})

		It("deletes sessions, seeing the transaction's own puts and deletes", func() {
			putSessions(groupSession("alice", "g1"), groupSession("bob", "g1"))
			update(store(), func(tx projections.Tx) error {
				Expect(tx.PutSessions(ctx, []projections.Session{groupSession("carol", "g1")})).To(Succeed())
				Expect(tx.DeleteSessions(ctx, []projections.SessionKey{{Member: "alice", Peer: "g1"}, {Member: "carol", Peer: "g1"}})).To(Succeed())
				got, err := tx.GroupSessions(ctx, "g1")
				Expect(err).NotTo(HaveOccurred())
				Expect(members(got)).To(Equal([]string{"bob"}))
				found, err := tx.GetSessions(ctx, []projections.SessionKey{{Member: "alice", Peer: "g1"}})
				Expect(err).NotTo(HaveOccurred())
				Expect(found).To(BeEmpty())
				return nil
			})
			Expect(members(groupSessions("g1"))).To(Equal([]string{"bob"}))
			Expect(store().Sessions(ctx, "alice")).To(BeEmpty())

			putSessions(groupSession("alice", "g1"))
			update(store(), func(tx projections.Tx) error {
				Expect(tx.DeleteSessions(ctx, []projections.SessionKey{{Member: "bob", Peer: "g1"}})).To(Succeed())
				return tx.PutSessions(ctx, []projections.Session{groupSession("bob", "g1")})
			})
			Expect(members(groupSessions("g1"))).To(Equal([]string{"alice", "bob"}))
		})

		It("keeps how far each member of a group chat has read it, and lists it to the group's members only", func() {
			alice, bob, carol := groupSession("alice", "g1"), groupSession("bob", "g1"), groupSession("carol", "g1")
			alice.JoinSeq, alice.ReadSeq = 8, 48
			bob.JoinSeq, bob.ReadSeq = 8, 16
			carol.JoinSeq, carol.ReadSeq = 40, 0
			elsewhere := groupSession("dave", "g2")
			elsewhere.ReadSeq = 99
			putSessions(carol, alice, bob, elsewhere, session("erin", "g1", 5))
			Expect(getSessions(alice.Key())).To(HaveKeyWithValue(alice.Key(), alice))

			want := []projections.GroupRead{
				{Tenant: tenantA, GroupID: "g1", Member: "alice", JoinSeq: 8, ReadSeq: 48},
				{Tenant: tenantA, GroupID: "g1", Member: "bob", JoinSeq: 8, ReadSeq: 16},
				{Tenant: tenantA, GroupID: "g1", Member: "carol", JoinSeq: 40},
			}
			Expect(store().GroupReads(ctx, as("bob"), "g1")).To(Equal(want))
			Expect(store().GroupReads(ctx, projections.Auditor(tenantA), "g1")).To(Equal(want))
			for _, v := range []projections.Viewer{as("dave"), as("erin"), {Tenant: tenantB, Member: "bob"}, projections.Auditor(tenantB)} {
				Expect(store().GroupReads(ctx, v, "g1")).To(BeEmpty(), "%+v", v)
			}
			Expect(store().GroupReads(ctx, as("bob"), "nope")).To(BeEmpty())

			bob.ReadSeq = 48
			putSessions(bob)
			update(store(), func(tx projections.Tx) error {
				return tx.DeleteSessions(ctx, []projections.SessionKey{alice.Key()})
			})
			Expect(store().GroupReads(ctx, as("bob"), "g1")).To(Equal([]projections.GroupRead{
				{Tenant: tenantA, GroupID: "g1", Member: "bob", JoinSeq: 8, ReadSeq: 48},
				{Tenant: tenantA, GroupID: "g1", Member: "carol", JoinSeq: 40},
			}))
			Expect(store().GroupReads(ctx, as("alice"), "g1")).To(BeEmpty(), "a member gone reads no more")
		})
	})
}
