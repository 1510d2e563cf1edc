package sqliteread_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	_ "modernc.org/sqlite" // the driver foreign writes go through

	"github.com/eventchat/eventchat/adapters/httpapi"
	"github.com/eventchat/eventchat/adapters/readstore/readstoretest"
	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/nodes"
	"github.com/eventchat/eventchat/projections"
)

func openForContract(dir string) (projections.ReadStore, func()) {
	s, err := sqliteread.Open(filepath.Join(dir, "read.db"))
	Expect(err).NotTo(HaveOccurred())
	return s, func() { Expect(s.Close()).To(Succeed()) }
}

var _ = readstoretest.DescribeReadStore("sqlite", openForContract)

// The contract indexes on the trailing writer; a shadow folds the search
// file on its one writer.
var _ = readstoretest.DescribeSearch("sqlite with one writer", func(dir string) (projections.ReadStore, func()) {
	s, closeStore := openForContract(dir)
	return struct{ projections.ReadStore }{s}, closeStore
})

// The contract's chats are small: their searches read the chats. These go
// through the trigram index, then through the index for a match or two
// before the chats are read below it.
var _ = Describe("sqlite search through the index", func() {
	BeforeEach(func() { DeferCleanup(sqliteread.SearchIndexOnly(1000)) })
	readstoretest.DescribeSearch("sqlite", openForContract)
})

var _ = Describe("sqlite search through the index, its walk cut short", func() {
	BeforeEach(func() { DeferCleanup(sqliteread.SearchIndexOnly(2)) })
	readstoretest.DescribeSearch("sqlite", openForContract)
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

	It("folds the search file on a trailing writer of its own, which never waits for the writer nor the writer for it", func() {
		s := open()
		defer s.Close()
		alice := projections.Viewer{Tenant: "x0001", Member: "alice"}
		Expect(s.Update(ctx, func(tx projections.Tx) error {
			ss := []projections.Session{{Tenant: "x0001", Member: "alice", Peer: "bob", ChatType: "Friend", ChatID: "ab"}}
			if err := tx.PutSessions(ctx, ss); err != nil {
				return err
			}
			return tx.InsertMessages(ctx, []projections.Message{{ID: "m1", Tenant: "x0001", ChatID: "ab", Seq: 1,
				ChatType: "Friend", From: "bob", To: "alice", MsgType: "Text", Content: "ăn cơm chưa", Status: projections.StatusUnread}})
		})).To(Succeed())
		trail, err := s.Trailing()
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Update(ctx, func(tx projections.Tx) error { return tx.IndexMessages(ctx, []string{"m1"}) })).
			To(MatchError(ContainSubstring("trailing writer")), "the writer writes the search file no more")

		// Each writer's transaction is held open while the other commits.
		holdOpen := func(store projections.ReadStore, fn func(tx projections.Tx) error) (held, release chan struct{}, done chan error) {
			held, release, done = make(chan struct{}), make(chan struct{}), make(chan error, 1)
			go func() {
				done <- store.Update(ctx, func(tx projections.Tx) error {
					if err := fn(tx); err != nil {
						return err
					}
					close(held)
					<-release
					return nil
				})
			}()
			return held, release, done
		}
		held, release, trailDone := holdOpen(trail, func(tx projections.Tx) error {
			if err := tx.IndexMessages(ctx, []string{"m1"}); err != nil {
				return err
			}
			return tx.SetCheckpoint(ctx, "search.v1", 5)
		})
		Eventually(held).Should(BeClosed())
		Expect(s.Update(ctx, func(tx projections.Tx) error { return tx.SetCheckpoint(ctx, "chats.v4", 6) })).To(Succeed())
		close(release)
		Eventually(trailDone).Should(Receive(BeNil()))

		held, release, done := holdOpen(s, func(tx projections.Tx) error { return tx.SetCheckpoint(ctx, "chats.v4", 7) })
		Eventually(held).Should(BeClosed())
		Expect(trail.Update(ctx, func(tx projections.Tx) error { return tx.SetCheckpoint(ctx, "search.v1", 7) })).To(Succeed())
		close(release)
		Eventually(done).Should(Receive(BeNil()))

		Expect(s.Checkpoints(ctx)).To(SatisfyAll(HaveKeyWithValue("chats.v4", uint64(7)), HaveKeyWithValue("search.v1", uint64(7))))
		found, err := s.SearchMessages(ctx, alice, projections.SearchQuery{Text: "an com"})
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(ConsistOf(HaveField("ID", "m1")))

		By("a reopen keeps both files, the search file paired with its store")
		Expect(s.Close()).To(Succeed())
		s = open()
		Expect(s.Checkpoints(ctx)).To(HaveKeyWithValue("search.v1", uint64(7)))
		found, err = s.SearchMessages(ctx, alice, projections.SearchQuery{Text: "cơm"})
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(HaveLen(1))
	})

	It("empties a search file left beside another store, and refuses a foreign one", func() {
		s := open()
		Expect(s.Close()).To(Succeed())
		other := filepath.Join(filepath.Dir(path), "other.db")
		o, err := sqliteread.Open(other)
		Expect(err).NotTo(HaveOccurred())
		trail, err := o.Trailing()
		Expect(err).NotTo(HaveOccurred())
		Expect(trail.Update(ctx, func(tx projections.Tx) error { return tx.SetCheckpoint(ctx, "search.v1", 9) })).To(Succeed())
		Expect(o.Close()).To(Succeed())
		Expect(os.Rename(other+".search", path+".search")).To(Succeed())

		s = open()
		Expect(s.Checkpoints(ctx)).NotTo(HaveKey("search.v1"), "the other store's search file was emptied")
		Expect(s.Close()).To(Succeed())

		Expect(os.Remove(path + ".search")).To(Succeed())
		db, err := sql.Open("sqlite", path+".search")
		Expect(err).NotTo(HaveOccurred())
		_, err = db.Exec(`CREATE TABLE mine (x); PRAGMA application_id = 7`)
		Expect(err).NotTo(HaveOccurred())
		Expect(db.Close()).To(Succeed())
		_, err = sqliteread.Open(path)
		Expect(err).To(MatchError(ContainSubstring("not an eventchat search file")))
	})

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

	It("starts its WAL over, cut back, while commits keep coming, readers reading the last of them", func() {
		s := open()
		defer s.Close()
		put := func(i int) {
			GinkgoHelper()
			Expect(s.Update(ctx, func(tx projections.Tx) error {
				return tx.PutMembers(ctx, []projections.Member{{ID: fmt.Sprintf("m%d", i), Tenant: "x0001", Account: fmt.Sprintf("member%05d", i), Name: string(make([]byte, 2000))}})
			})).To(Succeed())
		}
		walSize := func() int64 {
			info, err := os.Stat(path + "-wal")
			Expect(err).NotTo(HaveOccurred())
			return info.Size()
		}
		for i := range 2000 { // about 8 MB of frames at one commit each
			put(i)
		}
		grown := walSize()
		Expect(grown).To(BeNumerically(">", 1<<20))
		i := 2000
		Eventually(func() int64 {
			i++
			put(i)
			return walSize()
		}).WithTimeout(10 * time.Second).WithPolling(20 * time.Millisecond).Should(BeNumerically("<", 64<<10))
		_, found, err := s.FindMember(ctx, "x0001", fmt.Sprintf("member%05d", i))
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeTrue())
	})

	It("keeps its WAL from growing without end while large transactions commit back to back", func() {
		s := open()
		defer s.Close()
		name := string(make([]byte, 2000))
		// about 2 MB of frames a transaction, 80 MB in all
		largest := largestWAL(s, path+"-wal", 40, func(tx projections.Tx, round int) error {
			ms := make([]projections.Member, 1000)
			for i := range ms {
				n := round*len(ms) + i
				ms[i] = projections.Member{ID: fmt.Sprintf("m%d", n), Tenant: "x0001", Account: fmt.Sprintf("member%06d", n), Name: name}
			}
			return tx.PutMembers(ctx, ms)
		})
		Expect(largest).To(BeNumerically("<", 40<<20), "32 MB and a transaction at most")
		_, found, err := s.FindMember(ctx, "x0001", "member039999")
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeTrue())
	})

	It("keeps the search file's WAL from growing without end too, while the writer folds the index", func() {
		s := open()
		defer s.Close()
		text := strings.Repeat("a", 2000)
		// about 2 MB of texts a transaction, 50 MB in all
		largest := largestWAL(s, path+".search-wal", 25, func(tx projections.Tx, round int) error {
			ms := make([]projections.Message, 1000)
			ids := make([]string, len(ms))
			for i := range ms {
				n := round*len(ms) + i
				ids[i] = fmt.Sprintf("m%d", n)
				ms[i] = projections.Message{ID: ids[i], Tenant: "x0001", ChatID: "ab", Seq: uint64(n), ChatType: "Friend",
					From: "bob", To: "alice", MsgType: "Text", Content: text, Status: projections.StatusUnread}
			}
			if err := tx.InsertMessages(ctx, ms); err != nil {
				return err
			}
			return tx.IndexMessages(ctx, ids)
		})
		Expect(largest).To(BeNumerically("<", 40<<20), "32 MB and a transaction at most")
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
		Expect(s.Update(ctx, func(tx projections.Tx) error {
			if err := tx.PutGroupMembers(ctx, []projections.GroupMember{{GroupID: bad, Tenant: bad, Member: bad}}); err != nil {
				return err
			}
			return tx.InsertMessages(ctx, []projections.Message{m})
		})).To(Succeed())

		Expect(s.HistoryPage(ctx, projections.Viewer{Tenant: bad, Member: bad}, "c1", nil, projections.Up, 20)).To(Equal([]projections.Message{m}))
	})

	It("reports a corrupted message instead of failing silently", func() {
		s := open()
		defer s.Close()
		m := projections.Message{ID: "m1", ChatID: "c1", Seq: 1, Status: projections.StatusUnread}
		Expect(s.Update(ctx, func(tx projections.Tx) error { return tx.InsertMessages(ctx, []projections.Message{m}) })).To(Succeed())

		for _, doc := range []string{``, `{`, `{"uuid":"x`, `{"uuid":"\u12"}`, `{"uuid":1}`, `{"position":"x"}`, `{"other":""}`, `{}x`, `{"uuid":"a""tenant":"b"}`, `{"uuid":"a",}`} {
			foreign(`UPDATE messages SET doc = '` + doc + `'`)
			_, err := s.HistoryPage(ctx, projections.Viewer{Tenant: "x0001", Member: "m"}, "c1", nil, projections.Up, 20)
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

	It("replaces a read store of an older schema version with an empty one, for the projectors to fold the log again", func() {
		s := open()
		Expect(s.Replaced()).To(BeZero())
		Expect(s.Update(ctx, func(tx projections.Tx) error {
			if err := tx.PutMembers(ctx, []projections.Member{{ID: "m1", Tenant: "x0001", Account: "alice"}}); err != nil {
				return err
			}
			return tx.SetCheckpoint(ctx, "members.v1", 42)
		})).To(Succeed())
		Expect(s.Close()).To(Succeed())
		foreign(`ALTER TABLE members DROP COLUMN referrer`, `PRAGMA user_version = 5`)

		s = open()
		defer s.Close()
		Expect(s.Replaced()).To(Equal(int64(5)))
		Expect(s.Checkpoints(ctx)).To(BeEmpty(), "the projectors start again from the start of the log")
		Expect(s.MembersByID(ctx, projections.Viewer{Tenant: "x0001"}, []string{"m1"})).To(BeEmpty())
		alice := projections.Member{ID: "m1", Tenant: "x0001", Account: "alice", Referrer: "m2"}
		Expect(s.Update(ctx, func(tx projections.Tx) error { return tx.PutMembers(ctx, []projections.Member{alice}) })).To(Succeed())
		Expect(s.MembersByID(ctx, projections.Viewer{Tenant: "x0001"}, []string{"m1"})).To(Equal(map[string]projections.Member{"m1": alice}))
	})

	It("refuses a read store of a newer schema version: it belongs to a newer build", func() {
		Expect(open().Close()).To(Succeed())
		foreign(`PRAGMA user_version = 99`)

		_, err := sqliteread.Open(path)
		Expect(err).To(MatchError(ContainSubstring("schema version 99, newer than this build's")))
		foreign(`PRAGMA user_version = 7`)
		Expect(open().Close()).To(Succeed())
	})

	It("serves queries while an update is open, from the last commit", func() {
		s := open()
		defer s.Close()
		member := projections.Member{ID: "m1", Tenant: "x0001", Account: "alice"}

		Expect(s.Update(ctx, func(tx projections.Tx) error {
			Expect(tx.PutMembers(ctx, []projections.Member{member})).To(Succeed())
			Expect(tx.SetCheckpoint(ctx, "members.v1", 1)).To(Succeed())
			Expect(s.MembersByID(ctx, projections.Viewer{Tenant: "x0001"}, []string{"m1"})).To(BeEmpty())
			Expect(s.Checkpoints(ctx)).To(BeEmpty())
			return nil
		})).To(Succeed())

		Expect(s.MembersByID(ctx, projections.Viewer{Tenant: "x0001"}, []string{"m1"})).To(HaveKey("m1"))
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
					newest, err := s.HistoryPage(ctx, projections.Viewer{Tenant: "x0001", Member: "m"}, "c1", nil, projections.Up, 1)
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
					ms[i] = projections.Message{ID: fmt.Sprintf("m%d", seq), Tenant: "x0001", ChatID: "c1", Seq: seq, From: "m", To: "n", Status: projections.StatusUnread}
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

var _ = readstoretest.DescribeClaims("sqlite", func(dir string) (nodes.Claims, func()) {
	c, err := sqliteread.OpenClaims(sqliteread.ClaimsPath(filepath.Join(dir, "read.db")))
	Expect(err).NotTo(HaveOccurred())
	return c, func() { Expect(c.Close()).To(Succeed()) }
})

var _ = readstoretest.DescribeCounters("sqlite", func(dir string) (httpapi.Counters, func()) {
	c, err := sqliteread.OpenCounters(sqliteread.CountersPath(filepath.Join(dir, "read.db")))
	Expect(err).NotTo(HaveOccurred())
	return c, func() { Expect(c.Close()).To(Succeed()) }
}, "")

var _ = Describe("sqlite rate limit counters", func() {
	It("delete the windows that ended, once a minute, on the way", func() {
		ctx := context.Background()
		path := sqliteread.CountersPath(filepath.Join(GinkgoT().TempDir(), "read.db"))
		c, err := sqliteread.OpenCounters(path)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(c.Close)
		db, err := sql.Open("sqlite", path)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(db.Close)
		rows := func() int {
			GinkgoHelper()
			var n int
			Expect(db.QueryRow(`SELECT count(*) FROM counters`).Scan(&n)).To(Succeed())
			return n
		}
		t0 := time.Now()
		for i := range 5 {
			_, err := c.Add(ctx, fmt.Sprint("login:", i), t0, time.Second)
			Expect(err).NotTo(HaveOccurred())
		}
		_, err = c.Add(ctx, "sms:a", t0.Add(30*time.Second), 10*time.Minute)
		Expect(err).NotTo(HaveOccurred())
		Expect(rows()).To(Equal(6))

		_, err = c.Add(ctx, "sms:b", t0.Add(time.Minute), time.Minute)
		Expect(err).NotTo(HaveOccurred())
		Expect(rows()).To(Equal(2))
	})
})

// largestWAL commits rounds transactions of write back to back and returns
// the largest size the WAL at wal had after one.
func largestWAL(s projections.ReadStore, wal string, rounds int, write func(tx projections.Tx, round int) error) int64 {
	GinkgoHelper()
	var largest int64
	for round := range rounds {
		Expect(s.Update(context.Background(), func(tx projections.Tx) error { return write(tx, round) })).To(Succeed())
		info, err := os.Stat(wal)
		Expect(err).NotTo(HaveOccurred())
		largest = max(largest, info.Size())
	}
	return largest
}
