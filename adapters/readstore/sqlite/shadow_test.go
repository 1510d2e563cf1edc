package sqliteread_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/adapters/sqlitec"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("sqlite read store shadow", func() {
	ctx := context.Background()
	var live *sqliteread.Store

	BeforeEach(func() {
		var err error
		live, err = sqliteread.Open(filepath.Join(GinkgoT().TempDir(), "read.db"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(live.Close)
	})
	put := func(s projections.ReadStore, id string, pos uint64) {
		GinkgoHelper()
		Expect(s.Update(ctx, func(tx projections.Tx) error {
			if err := tx.PutMembers(ctx, []projections.Member{{ID: id, Tenant: "x0001", Account: id}}); err != nil {
				return err
			}
			return tx.SetCheckpoint(ctx, "members.v1", pos)
		})).To(Succeed())
	}
	found := func(s projections.ReadStore, id string) bool {
		GinkgoHelper()
		_, ok, err := s.FindMember(ctx, "x0001", id)
		Expect(err).NotTo(HaveOccurred())
		return ok
	}

	It("swaps the shadow in while queries run, carrying the lease", func() {
		put(live, "old", 1)
		now := time.Now()
		Expect(live.TakeLease(ctx, "node1", now, now.Add(time.Minute))).To(Equal("node1"))
		shadow, err := live.OpenShadow(ctx)
		Expect(err).NotTo(HaveOccurred())
		put(shadow, "new", 1)
		Expect(live.ShadowPath()).To(BeAnExistingFile())

		var stop atomic.Bool
		var wg sync.WaitGroup
		var errs atomic.Int64
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for !stop.Load() {
					if _, _, err := live.FindMember(ctx, "x0001", "old"); err != nil {
						errs.Add(1)
					}
				}
			}()
		}
		time.Sleep(20 * time.Millisecond)
		Expect(live.SwapIn(ctx, shadow)).To(Succeed())
		time.Sleep(20 * time.Millisecond)
		stop.Store(true)
		wg.Wait()
		Expect(errs.Load()).To(BeZero())

		Expect(found(live, "new")).To(BeTrue())
		Expect(found(live, "old")).To(BeFalse())
		Expect(live.ShadowPath()).NotTo(BeAnExistingFile())
		// The lease holder still writes.
		put(live, "after", 2)
		Expect(live.Checkpoints(ctx)).To(Equal(map[string]uint64{"members.v1": 2}))
	})

	It("settles a shadow into its files while it and the store still serve, and swaps it in after", func() {
		shadow, err := live.OpenShadow(ctx)
		Expect(err).NotTo(HaveOccurred())
		for i := range 200 {
			put(shadow, fmt.Sprintf("m%d", i), uint64(i+1))
		}
		wal := func() int64 {
			st, err := os.Stat(live.ShadowPath() + "-wal")
			Expect(err).NotTo(HaveOccurred())
			return st.Size()
		}
		Expect(wal()).To(BeNumerically(">", 0))
		Expect(live.SettleShadow(ctx, shadow)).To(Succeed())
		Expect(wal()).To(BeZero(), "the shadow's WAL is in its file")

		put(shadow, "late", 201)
		put(live, "old", 1)
		Expect(found(live, "old")).To(BeTrue())
		Expect(live.SwapIn(ctx, shadow)).To(Succeed())
		Expect(found(live, "m0")).To(BeTrue())
		Expect(found(live, "late")).To(BeTrue())
		Expect(found(live, "old")).To(BeFalse())
		Expect(live.Checkpoints(ctx)).To(Equal(map[string]uint64{"members.v1": 201}))

		other, err := sqliteread.Open(filepath.Join(GinkgoT().TempDir(), "other.db"))
		Expect(err).NotTo(HaveOccurred())
		defer other.Close()
		Expect(live.SettleShadow(ctx, other)).To(MatchError(ContainSubstring("not the shadow of")))
	})

	// trailingShadow opens the live store's shadow and its trailing writer,
	// as a rebuild does.
	trailingShadow := func() (shadow, trail projections.ReadStore) {
		GinkgoHelper()
		shadow, err := live.OpenShadow(ctx)
		Expect(err).NotTo(HaveOccurred())
		trail, err = shadow.(projections.TrailWriting).Trailing()
		Expect(err).NotTo(HaveOccurred())
		return shadow, trail
	}

	It("settles the search file of a shadow that folds it on a trailing writer", func() {
		shadow, trail := trailingShadow()
		for i := range 200 {
			put(shadow, fmt.Sprintf("m%d", i), uint64(i+1))
			Expect(trail.Update(ctx, func(tx projections.Tx) error { return tx.SetCheckpoint(ctx, "search.v1", uint64(i+1)) })).To(Succeed())
		}
		wal := func(name string) int64 {
			st, err := os.Stat(live.ShadowPath() + name + "-wal")
			Expect(err).NotTo(HaveOccurred())
			return st.Size()
		}
		Expect(wal(".search")).To(BeNumerically(">", 0))
		Expect(live.SettleShadow(ctx, shadow)).To(Succeed())
		Expect([]int64{wal(""), wal(".search")}).To(Equal([]int64{0, 0}), "both WALs are in their files")

		Expect(live.SwapIn(ctx, shadow)).To(Succeed())
		Expect(found(live, "m199")).To(BeTrue())
		Expect(live.Checkpoints(ctx)).To(Equal(map[string]uint64{"members.v1": 200, "search.v1": 200}))
	})

	It("defers the merges of a shadow's search index while it folds, and merges it whole when it settles", func() {
		shadow, trail := trailingShadow()
		for round := range 12 {
			ms := make([]projections.Message, 50)
			ids := make([]string, len(ms))
			for i := range ms {
				n := round*len(ms) + i
				ids[i] = fmt.Sprintf("m%d", n)
				ms[i] = projections.Message{ID: ids[i], Tenant: "x0001", ChatID: "ab", Seq: uint64(n + 1), ChatType: "Friend",
					From: "bob", To: "alice", MsgType: "Text", Content: fmt.Sprintf("round r%dr word w%dz", round, n), Status: projections.StatusUnread}
			}
			Expect(shadow.Update(ctx, func(tx projections.Tx) error { return tx.InsertMessages(ctx, ms) })).To(Succeed())
			Expect(trail.Update(ctx, func(tx projections.Tx) error { return tx.IndexMessages(ctx, ids) })).To(Succeed())
		}
		search, err := sqlitec.Open(live.ShadowPath() + ".search")
		Expect(err).NotTo(HaveOccurred())
		defer search.Close()
		count := func(query string) int64 {
			GinkgoHelper()
			var n int64
			Expect(search.QueryRow(query, func(st *sqlitec.Stmt) { n = st.Int(0) })).To(Succeed())
			return n
		}
		segments := `SELECT count(DISTINCT segid) FROM message_search_idx`
		setting := func(k string) string {
			return `SELECT coalesce((SELECT v FROM message_search_config WHERE k = '` + k + `'), -1)`
		}
		Expect(count(segments)).To(Equal(int64(12)), "a segment a transaction, none merged")
		Expect([]int64{count(setting("automerge")), count(setting("crisismerge"))}).To(Equal([]int64{0, 256}), "merges deferred")

		Expect(live.SettleShadow(ctx, shadow)).To(Succeed())
		Expect(count(segments)).To(Equal(int64(1)))
		Expect([]int64{count(setting("automerge")), count(setting("crisismerge"))}).To(Equal([]int64{4, 16}), "FTS5's defaults")
		Expect(count(`SELECT count(*) FROM message_search WHERE message_search MATCH '"317"'`)).To(Equal(int64(1)))
		Expect(count(`SELECT count(*) FROM message_search WHERE message_search MATCH '"r7r"'`)).To(Equal(int64(50)))

		Expect(live.SwapIn(ctx, shadow)).To(Succeed())
		swapped, err := sqlitec.Open(filepath.Join(filepath.Dir(live.ShadowPath()), "read.db.search"))
		Expect(err).NotTo(HaveOccurred())
		defer swapped.Close()
		var rowid int64
		Expect(swapped.QueryRow(`SELECT rowid FROM message_search WHERE message_search MATCH '"317"'`, func(st *sqlitec.Stmt) { rowid = st.Int(0) })).To(Succeed())
		Expect(rowid).To(BeNumerically(">", 0), "the store searches the merged index")
	})

	// closedWithShadow is the path of a closed store holding "old", at 1,
	// beside its closed shadow holding "new", at 5 for members.v1 and
	// search.v1.
	closedWithShadow := func() string {
		GinkgoHelper()
		path := filepath.Join(GinkgoT().TempDir(), "read.db")
		store, err := sqliteread.Open(path)
		Expect(err).NotTo(HaveOccurred())
		put(store, "old", 1)
		shadow, err := store.OpenShadow(ctx)
		Expect(err).NotTo(HaveOccurred())
		put(shadow, "new", 5)
		Expect(shadow.Update(ctx, func(tx projections.Tx) error { return tx.SetCheckpoint(ctx, "search.v1", 5) })).To(Succeed())
		Expect(store.CloseShadow(shadow)).To(Succeed())
		Expect(store.Close()).To(Succeed())
		return path
	}
	// A swap cut short by the process's end leaves its marker and the files
	// as they were where it stopped; the next Open finishes it.
	DescribeTable("finishes a swap that a process left under way",
		func(renamed int) {
			path := closedWithShadow()
			Expect(os.WriteFile(path+".swapping", nil, 0o600)).To(Succeed())
			for _, name := range []string{"", ".search"}[:renamed] {
				Expect(os.Rename(path+".rebuild"+name, path+name)).To(Succeed())
			}

			store, err := sqliteread.Open(path)
			Expect(err).NotTo(HaveOccurred())
			defer store.Close()
			Expect(found(store, "new")).To(BeTrue())
			Expect(found(store, "old")).To(BeFalse())
			Expect(store.Checkpoints(ctx)).To(Equal(map[string]uint64{"members.v1": 5, "search.v1": 5}), "the shadow's search file too")
			for _, gone := range []string{path + ".swapping", path + ".rebuild", path + ".rebuild.search"} {
				Expect(gone).NotTo(BeAnExistingFile())
			}
		},
		Entry("before any file was renamed", 0),
		Entry("after the store's file was, before its search file", 1),
		Entry("after both were renamed", 2),
	)

	It("keeps the store and a shadow left beside it when no swap was under way", func() {
		path := closedWithShadow()
		store, err := sqliteread.Open(path)
		Expect(err).NotTo(HaveOccurred())
		defer store.Close()
		Expect(found(store, "old")).To(BeTrue())
		Expect(found(store, "new")).To(BeFalse())
		Expect(path + ".rebuild").To(BeAnExistingFile())
	})

	It("resumes a shadow left closed, and refuses a store that is not its shadow", func() {
		shadow, err := live.OpenShadow(ctx)
		Expect(err).NotTo(HaveOccurred())
		put(shadow, "half", 7)
		Expect(live.CloseShadow(shadow)).To(Succeed())

		shadow, err = live.OpenShadow(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(shadow.Checkpoints(ctx)).To(Equal(map[string]uint64{"members.v1": 7}))
		Expect(live.CloseShadow(shadow)).To(Succeed())

		other, err := sqliteread.Open(filepath.Join(GinkgoT().TempDir(), "other.db"))
		Expect(err).NotTo(HaveOccurred())
		defer other.Close()
		Expect(live.SwapIn(ctx, other)).To(MatchError(ContainSubstring("not the shadow of")))
	})
})
