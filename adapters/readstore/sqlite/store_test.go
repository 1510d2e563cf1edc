package sqliteread_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	_ "modernc.org/sqlite" // the driver foreign writes go through

	"github.com/eventchat/eventchat/adapters/readstore/readstoretest"
	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/projections"
)

var _ = readstoretest.DescribeReadStore("sqlite", func(dir string) (projections.ReadStore, func()) {
	s, err := sqliteread.Open(filepath.Join(dir, "read.db"))
	Expect(err).NotTo(HaveOccurred())
	return s, func() { Expect(s.Close()).To(Succeed()) }
})

var _ = Describe("sqlite read store file", func() {
	ctx := context.Background()
	var path string

	BeforeEach(func() {
		path = filepath.Join(GinkgoT().TempDir(), "read.db")
	})

	open := func() *sqliteread.Store {
		GinkgoHelper()
		s, err := sqliteread.Open(path)
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	// foreign writes to the file with a plain SQLite connection.
	foreign := func(stmts ...string) {
		GinkgoHelper()
		db, err := sql.Open("sqlite", path)
		Expect(err).NotTo(HaveOccurred())
		defer db.Close()
		for _, stmt := range stmts {
			_, err := db.Exec(stmt)
			Expect(err).NotTo(HaveOccurred())
		}
	}

	It("keeps data and checkpoints across a reopen", func() {
		s := open()
		Expect(s.Update(ctx, func(tx projections.Tx) error {
			if err := tx.PutMembers(ctx, []projections.Member{{ID: "m1", Tenant: "x0001", Account: "alice"}}); err != nil {
				return err
			}
			return tx.SetCheckpoint(ctx, "members.v1", 42)
		})).To(Succeed())
		Expect(s.Close()).To(Succeed())

		s = open()
		defer s.Close()
		Expect(s.Checkpoints(ctx)).To(Equal(map[string]uint64{"members.v1": 42}))
		_, found, err := s.FindMember(ctx, "x0001", "alice")
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeTrue())
	})

	It("opens a path holding URI characters", func() {
		path = filepath.Join(GinkgoT().TempDir(), "read store?#%20&x=1.db")
		s := open()
		Expect(s.Update(ctx, func(tx projections.Tx) error { return tx.SetCheckpoint(ctx, "members.v1", 1) })).To(Succeed())
		Expect(s.Close()).To(Succeed())

		Expect(path).To(BeARegularFile())
	})

	It("keeps text that is not UTF-8 intact", func() {
		s := open()
		defer s.Close()
		bad := "invalid \xff\xfe\xc3 \"quoted\" \x00"
		m := projections.Message{ID: "m1", UUID: bad, Tenant: bad, ChatID: "c1", Seq: 1, Position: 1 << 63, ChatType: bad,
			From: bad, To: bad, GroupID: bad, MsgType: bad, Content: bad, Status: bad}
		Expect(s.Update(ctx, func(tx projections.Tx) error { return tx.InsertMessages(ctx, []projections.Message{m}) })).To(Succeed())

		Expect(s.HistoryPage(ctx, "c1", "m", nil, projections.Up, 20)).To(Equal([]projections.Message{m}))
	})

	It("reports a corrupted message instead of failing silently", func() {
		s := open()
		defer s.Close()
		m := projections.Message{ID: "m1", ChatID: "c1", Seq: 1, Status: projections.StatusUnread}
		Expect(s.Update(ctx, func(tx projections.Tx) error { return tx.InsertMessages(ctx, []projections.Message{m}) })).To(Succeed())

		for _, doc := range []string{``, `{`, `{"uuid":"x`, `{"uuid":"\u12"}`, `{"uuid":1}`, `{"position":"x"}`, `{"other":""}`, `{}x`, `{"uuid":"a""tenant":"b"}`, `{"uuid":"a",}`} {
			foreign(`UPDATE messages SET doc = '` + doc + `'`)
			_, err := s.HistoryPage(ctx, "c1", "m", nil, projections.Up, 20)
			Expect(err).To(MatchError(ContainSubstring("malformed message doc")), doc)
		}
	})

	It("creates the store in an empty existing file", func() {
		Expect(os.WriteFile(path, nil, 0o600)).To(Succeed())

		s := open()
		Expect(s.Close()).To(Succeed())
	})

	It("refuses a file that is not SQLite", func() {
		Expect(os.WriteFile(path, []byte("id,name\n1,alice\n"), 0o600)).To(Succeed())

		_, err := sqliteread.Open(path)
		Expect(err).To(MatchError(ContainSubstring("is not a SQLite database")))
		Expect(os.ReadFile(path)).To(Equal([]byte("id,name\n1,alice\n")))
	})

	It("refuses a SQLite database of another application", func() {
		foreign(`CREATE TABLE accounts (id INTEGER PRIMARY KEY)`)

		_, err := sqliteread.Open(path)
		Expect(err).To(MatchError(ContainSubstring("not an eventchat read store")))
	})

	It("refuses a SQLite database with another application id", func() {
		foreign(`PRAGMA application_id = 7`)

		_, err := sqliteread.Open(path)
		Expect(err).To(MatchError(ContainSubstring("not an eventchat read store")))
	})

	It("refuses a read store of another schema version and says to rebuild", func() {
		Expect(open().Close()).To(Succeed())
		foreign(`PRAGMA user_version = 99`)

		_, err := sqliteread.Open(path)
		Expect(err).To(MatchError(ContainSubstring("schema version 99")))
		Expect(err).To(MatchError(ContainSubstring("rebuild the projections")))
	})

	It("migrates a store of version 2: no clear floors, mentions, groups, personal items or conversation settings, which no event before filled", func() {
		s := open()
		member := projections.Member{ID: "m1", Tenant: "x0001", Account: "alice"}
		session := projections.Session{Tenant: "x0001", Member: "m1", Peer: "m2", ChatType: "Friend", ChatID: "m1_m2", UnreadCount: 2}
		Expect(s.Update(ctx, func(tx projections.Tx) error {
			if err := tx.PutMembers(ctx, []projections.Member{member}); err != nil {
				return err
			}
			return tx.PutSessions(ctx, []projections.Session{session})
		})).To(Succeed())
		Expect(s.Close()).To(Succeed())
		foreign(`DROP TABLE clear_floors`, `DROP TABLE mentions`, `DROP TABLE groups`, `DROP TABLE group_members`, `DROP TABLE personal_items`, `DROP TABLE notices`, `ALTER TABLE sessions DROP COLUMN dnd`,
			`ALTER TABLE sessions DROP COLUMN marked_unread`, `ALTER TABLE sessions DROP COLUMN hidden`, `ALTER TABLE friends DROP COLUMN blocked`,
			`ALTER TABLE applies DROP COLUMN hidden_from`, `ALTER TABLE applies DROP COLUMN hidden_to`, `DROP TABLE group_applies`, dropGender, dropLastIP, dropReferrer, `PRAGMA user_version = 2`)

		s = open()
		defer s.Close()
		Expect(s.MembersByID(ctx, []string{"m1"})).To(HaveKey("m1"))
		ss, err := s.Sessions(ctx, "m1")
		Expect(err).NotTo(HaveOccurred())
		Expect(ss).To(HaveLen(1))
		Expect(ss[0].UnreadCount).To(Equal(2))
		Expect(s.Update(ctx, func(tx projections.Tx) error { return tx.SetClearFloor(ctx, "m1", "c1", 3) })).To(Succeed())
		Expect(s.Update(ctx, func(tx projections.Tx) error {
			return tx.PutPersonalItems(ctx, []projections.PersonalItem{{Member: "m1", Kind: "favourite", ID: "f1", Doc: []byte("{}")}})
		})).To(Succeed())
	})

	It("migrates a store of version 3: group chat sessions by peer, friends' blocks, deleted requests, group join requests and notices, which no event before filled", func() {
		s := open()
		friend := projections.Friend{Tenant: "x0001", Member: "m1", FriendID: "m2", ChatID: "m1_m2", Since: 5}
		Expect(s.Update(ctx, func(tx projections.Tx) error { return tx.PutFriends(ctx, []projections.Friend{friend}) })).To(Succeed())
		Expect(s.Close()).To(Succeed())
		foreign(`DROP INDEX sessions_by_peer`, `ALTER TABLE friends DROP COLUMN blocked`, `ALTER TABLE applies DROP COLUMN hidden_from`,
			`ALTER TABLE applies DROP COLUMN hidden_to`, `DROP TABLE group_applies`, `DROP TABLE notices`, dropGender, dropLastIP, dropReferrer, `PRAGMA user_version = 3`)

		s = open()
		defer s.Close()
		Expect(s.Friends(ctx, "m1")).To(Equal([]projections.Friend{friend}))
		friend.Blocked = true
		group := projections.Session{Tenant: "x0001", Member: "m1", Peer: "g1", ChatType: "Group", ChatID: "g1"}
		Expect(s.Update(ctx, func(tx projections.Tx) error {
			if err := tx.PutFriends(ctx, []projections.Friend{friend}); err != nil {
				return err
			}
			if err := tx.PutSessions(ctx, []projections.Session{group}); err != nil {
				return err
			}
			got, err := tx.GroupSessions(ctx, "g1")
			Expect(got).To(Equal([]projections.Session{group}))
			return err
		})).To(Succeed())
		Expect(s.Friends(ctx, "m1")).To(Equal([]projections.Friend{friend}))
		Expect(s.Update(ctx, func(tx projections.Tx) error {
			return tx.PutNotices(ctx, []projections.Notice{{Member: "m1", ID: "1", Kind: "FriendRequest", Tab: "friends"}})
		})).To(Succeed())
		Expect(s.NoticeCounts(ctx, "m1")).To(Equal(projections.NoticeCounts{Total: 1, Friend: 1}))
	})

	It("migrates a store of version 4: the members' gender and last login address, which no event before filled", func() {
		s := open()
		alice := projections.Member{ID: "m1", Tenant: "x0001", Account: "alice", Name: "Alice"}
		Expect(s.Update(ctx, func(tx projections.Tx) error { return tx.PutMembers(ctx, []projections.Member{alice}) })).To(Succeed())
		Expect(s.Close()).To(Succeed())
		foreign(dropGender, dropLastIP, dropReferrer, dropNoticeDetail, `PRAGMA user_version = 4`)

		s = open()
		defer s.Close()
		Expect(s.MembersByID(ctx, []string{"m1"})).To(Equal(map[string]projections.Member{"m1": alice}))
		alice.Gender, alice.LastIP = "female", "203.0.113.7"
		Expect(s.Update(ctx, func(tx projections.Tx) error { return tx.PutMembers(ctx, []projections.Member{alice}) })).To(Succeed())
		Expect(s.MembersByID(ctx, []string{"m1"})).To(Equal(map[string]projections.Member{"m1": alice}))
	})

	It("migrates a store of version 5: the members' referrer and the notices' detail, which no event before filled", func() {
		s := open()
		alice := projections.Member{ID: "m1", Tenant: "x0001", Account: "alice", Name: "Alice"}
		friendRequest := projections.Notice{Member: "m1", ID: "1", Kind: "FriendRequest", Tab: "friends"}
		Expect(s.Update(ctx, func(tx projections.Tx) error {
			if err := tx.PutNotices(ctx, []projections.Notice{friendRequest}); err != nil {
				return err
			}
			return tx.PutMembers(ctx, []projections.Member{alice})
		})).To(Succeed())
		Expect(s.Close()).To(Succeed())
		foreign(dropReferrer, dropNoticeDetail, `PRAGMA user_version = 5`)

		s = open()
		defer s.Close()
		Expect(s.MembersByID(ctx, []string{"m1"})).To(Equal(map[string]projections.Member{"m1": alice}))
		Expect(s.NoticesByID(ctx, "m1", []string{"1"})).To(Equal([]projections.Notice{friendRequest}))
		alice.Referrer = "m2"
		verification := projections.Notice{Member: "m1", ID: "2", Kind: "Verification", Tab: "system",
			Detail: projections.NoticeDetail{Code: "123456", ValidMinutes: 10, System: "Linux"}}
		Expect(s.Update(ctx, func(tx projections.Tx) error {
			if err := tx.PutNotices(ctx, []projections.Notice{verification}); err != nil {
				return err
			}
			return tx.PutMembers(ctx, []projections.Member{alice})
		})).To(Succeed())
		Expect(s.MembersByID(ctx, []string{"m1"})).To(Equal(map[string]projections.Member{"m1": alice}))
		Expect(s.NoticesByID(ctx, "m1", []string{"2"})).To(Equal([]projections.Notice{verification}))
	})

	It("serves queries while an update is open, from the last commit", func() {
		s := open()
		defer s.Close()
		member := projections.Member{ID: "m1", Tenant: "x0001", Account: "alice"}

		Expect(s.Update(ctx, func(tx projections.Tx) error {
			Expect(tx.PutMembers(ctx, []projections.Member{member})).To(Succeed())
			Expect(tx.SetCheckpoint(ctx, "members.v1", 1)).To(Succeed())
			Expect(s.MembersByID(ctx, []string{"m1"})).To(BeEmpty())
			Expect(s.Checkpoints(ctx)).To(BeEmpty())
			return nil
		})).To(Succeed())

		Expect(s.MembersByID(ctx, []string{"m1"})).To(HaveKey("m1"))
	})

	It("runs concurrent updates one after the other", func() {
		s := open()
		defer s.Close()
		key := projections.SessionKey{Member: "alice", Peer: "bob"}
		const writers = 8

		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for range writers {
			wg.Go(func() {
				errs <- s.Update(ctx, func(tx projections.Tx) error {
					got, err := tx.GetSessions(ctx, []projections.SessionKey{key})
					if err != nil {
						return err
					}
					sess := got[key]
					sess.Member, sess.Peer = key.Member, key.Peer
					sess.UnreadCount++
					return tx.PutSessions(ctx, []projections.Session{sess})
				})
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			Expect(err).NotTo(HaveOccurred())
		}

		list, err := s.Sessions(ctx, "alice")
		Expect(err).NotTo(HaveOccurred())
		Expect(list).To(HaveLen(1))
		Expect(list[0].UnreadCount).To(Equal(writers))
	})

	It("serves concurrent queries while updates commit", func() {
		s := open()
		defer s.Close()
		const batches, perBatch = 20, 50

		done := make(chan struct{})
		var readers sync.WaitGroup
		for range 6 {
			readers.Go(func() {
				defer GinkgoRecover()
				for {
					select {
					case <-done:
						return
					default:
					}
					newest, err := s.HistoryPage(ctx, "c1", "m", nil, projections.Up, 1)
					Expect(err).NotTo(HaveOccurred())
					for _, m := range newest {
						Expect(m.Seq % perBatch).To(BeZero()) // the end of a batch, never its middle
					}
					_, err = s.Checkpoints(ctx)
					Expect(err).NotTo(HaveOccurred())
				}
			})
		}
		for b := range batches {
			Expect(s.Update(ctx, func(tx projections.Tx) error {
				ms := make([]projections.Message, perBatch)
				for i := range ms {
					seq := uint64(b*perBatch + i + 1)
					ms[i] = projections.Message{ID: fmt.Sprintf("m%d", seq), ChatID: "c1", Seq: seq, Status: projections.StatusUnread}
				}
				return tx.InsertMessages(ctx, ms)
			})).To(Succeed())
		}
		close(done)
		readers.Wait()
	})

	It("refuses a Tx kept after its Update returned", func() {
		s := open()
		defer s.Close()
		var kept projections.Tx
		Expect(s.Update(ctx, func(tx projections.Tx) error {
			kept = tx
			return nil
		})).To(Succeed())

		Expect(kept.SetCheckpoint(ctx, "members.v1", 1)).To(MatchError(ContainSubstring("after its Update returned")))
		Expect(s.Checkpoints(ctx)).To(BeEmpty())
	})

	It("refuses work once closed", func() {
		s := open()
		Expect(s.Close()).To(Succeed())

		Expect(s.Update(ctx, func(projections.Tx) error { return nil })).To(MatchError(ContainSubstring("closed")))
		_, err := s.Checkpoints(ctx)
		Expect(err).To(MatchError(ContainSubstring("closed")))
		Expect(s.Close()).To(Succeed())
	})

	It("rolls back and stays usable when fn panics", func() {
		s := open()
		defer s.Close()

		Expect(func() {
			_ = s.Update(ctx, func(tx projections.Tx) error {
				Expect(tx.SetCheckpoint(ctx, "members.v1", 1)).To(Succeed())
				panic("projector bug")
			})
		}).To(PanicWith("projector bug"))

		Expect(s.Update(ctx, func(tx projections.Tx) error { return tx.SetCheckpoint(ctx, "sessions.v1", 2) })).To(Succeed())
		Expect(s.Checkpoints(ctx)).To(Equal(map[string]uint64{"sessions.v1": 2}))
	})

	It("returns the context's error when the context is done", func() {
		s := open()
		defer s.Close()
		done, cancel := context.WithCancel(ctx)
		cancel()

		err := s.Update(done, func(tx projections.Tx) error { return nil })
		Expect(errors.Is(err, context.Canceled)).To(BeTrue())
	})
})

const (
	dropGender       = `ALTER TABLE members DROP COLUMN gender`
	dropLastIP       = `ALTER TABLE members DROP COLUMN last_ip`
	dropReferrer     = `ALTER TABLE members DROP COLUMN referrer`
	dropNoticeDetail = `ALTER TABLE notices DROP COLUMN detail`
)
