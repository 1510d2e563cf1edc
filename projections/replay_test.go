package projections_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/adapters/sqlitec"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Replays", func() {
	var (
		log      *sqlitestore.Store
		live     *sqliteread.Store
		livePath string
		e        *projections.Engine
		replays  *projections.Replays
		dir      string
		t0       = time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	)
	// at appends e to stream with the time t0 + minutes.
	at := func(minutes int, stream string, ev es.Event) uint64 {
		GinkgoHelper()
		data, err := json.Marshal(ev)
		Expect(err).NotTo(HaveOccurred())
		sn, err := es.ParseStream(stream)
		Expect(err).NotTo(HaveOccurred())
		res, err := log.Append(ctx, stream, es.Any, []es.EventData{{ID: uuid.NewString(), Type: ev.EventType(), Data: data,
			Metadata: es.Metadata{Tenant: sn.Tenant, Time: t0.Add(time.Duration(minutes) * time.Minute)}}})
		Expect(err).NotTo(HaveOccurred())
		return res.Position
	}
	var registered, promoted, renamedB, last uint64

	BeforeEach(func() {
		var err error
		log, err = sqlitestore.Open(filepath.Join(GinkgoT().TempDir(), "events.db"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(log.Close)
		livePath = filepath.Join(GinkgoT().TempDir(), "read.db")
		live, err = sqliteread.Open(livePath)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(live.Close)
		registered = at(0, "x0001.member-1", &member.Registered{MemberID: "1", Account: "ann", Name: "Ann", Level: "Normal"})
		at(1, "x0002.member-2", &member.Registered{MemberID: "2", Account: "bob", Name: "Bob", Level: "Normal"})
		promoted = at(10, "x0001.member-1", &member.LevelChanged{Level: "Admin"})
		renamedB = at(11, "x0002.member-2", &member.ProfileModified{Name: "Robert"})
		last = at(20, "x0001.member-3", &member.Registered{MemberID: "3", Account: "cat", Name: "Cat", Level: "Normal"})

		e = projections.NewEngine(log, live, nil, catalog.Registry(), projections.All()...)
		stop := run(e)
		DeferCleanup(stop)
		Expect(e.WaitFor(ctx, last)).To(BeTrue())
		dir = filepath.Join(GinkgoT().TempDir(), "audit")
		shelf, err := sqliteread.NewShelf(dir)
		Expect(err).NotTo(HaveOccurred())
		replays, err = projections.NewReplays(e, shelf)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(replays.Close()).To(Succeed()) })
	})

	done := func(r projections.Replay) projections.ReadStore {
		GinkgoHelper()
		Eventually(func() string {
			got, err := replays.Get(r.ID)
			Expect(err).NotTo(HaveOccurred())
			return got.State
		}).Should(Equal(projections.ReplayDone))
		_, s, err := replays.Queries(r.ID)
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	members := func(s projections.Queries) map[string]projections.Member {
		GinkgoHelper()
		ms, err := s.MembersByID(ctx, []string{"1", "2", "3"})
		Expect(err).NotTo(HaveOccurred())
		return ms
	}

	It("stops at a position and folds only the tenant's events", func() {
		r, err := replays.Start(ctx, "x0001", promoted-1, time.Time{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.State).To(Equal(projections.ReplayRunning))
		ms := members(done(r))
		Expect(ms).To(HaveLen(1))
		Expect(ms["1"].Level).To(Equal("Normal"))

		r, err = replays.Start(ctx, "x0001", 0, time.Time{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Position).To(Equal(last))
		ms = members(done(r))
		Expect(ms).To(HaveKey("3"))
		Expect(ms).NotTo(HaveKey("2"))
		Expect(ms["1"].Level).To(Equal("Admin"))
	})

	It("stops at the last event at or before a time", func() {
		r, err := replays.Start(ctx, "x0002", 0, t0.Add(10*time.Minute+30*time.Second))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Position).To(Equal(promoted))
		Expect(members(done(r))["2"].Name).To(Equal("Bob"))

		r, err = replays.Start(ctx, "x0002", 0, t0.Add(11*time.Minute))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Position).To(Equal(renamedB))
		Expect(members(done(r))["2"].Name).To(Equal("Robert"))

		r, err = replays.Start(ctx, "x0001", 0, t0.Add(-time.Minute))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Position).To(BeZero())
		Expect(members(done(r))).To(BeEmpty())
	})

	It("refuses a position beyond the head, or a position and a time", func() {
		_, err := replays.Start(ctx, "x0001", last+1, time.Time{})
		Expect(fault.Is(err, fault.Invalid)).To(BeTrue())
		_, err = replays.Start(ctx, "x0001", 1, t0)
		Expect(fault.Is(err, fault.Invalid)).To(BeTrue())
		Expect(replays.List()).To(BeEmpty())
	})

	It("replays imported events to the same read models as the log at the same head, and compares them", func() {
		recs, err := log.ReadAll(ctx, 0, 100)
		Expect(err).NotTo(HaveOccurred())
		var mine []es.RecordedEvent
		for _, r := range recs {
			if r.Metadata.Tenant == "x0001" && r.Position <= promoted {
				mine = append(mine, r)
			}
		}
		imported, err := replays.Import("x0001", promoted, mine)
		Expect(err).NotTo(HaveOccurred())
		fromLog, err := replays.Start(ctx, "x0001", promoted, time.Time{})
		Expect(err).NotTo(HaveOccurred())
		done(imported)
		done(fromLog)
		cmp, err := replays.Compare(ctx, imported.ID, fromLog.ID)
		Expect(err).NotTo(HaveOccurred())
		for _, m := range cmp.Models {
			Expect(m.Equal).To(BeTrue(), m.Name)
		}

		// Without its first event the import differs from the log.
		partial, err := replays.Import("x0001", promoted, mine[1:])
		Expect(err).NotTo(HaveOccurred())
		done(partial)
		cmp, err = replays.Compare(ctx, partial.ID, fromLog.ID)
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Models).To(ContainElement(projections.ModelComparison{Name: "members", FirstDifference: "id=1"}))

		_, err = replays.Import("x0002", promoted, mine)
		Expect(fault.Is(err, fault.Invalid)).To(BeTrue())
		_, err = replays.Import("x0001", registered, mine)
		Expect(fault.Is(err, fault.Invalid)).To(BeTrue())
	})

	It("verifies the live read models of a tenant and names a tampered row", func() {
		v, err := replays.Verify(ctx, "x0001")
		Expect(err).NotTo(HaveOccurred())
		Expect(v.Position).To(Equal(last))
		Expect(v.Models).NotTo(BeEmpty())
		for _, m := range v.Models {
			Expect(m.Equal).To(BeTrue(), m.Name)
		}

		tamper(livePath, `UPDATE members SET name = 'Mallory' WHERE id = '3'`)
		v, err = replays.Verify(ctx, "x0001")
		Expect(err).NotTo(HaveOccurred())
		Expect(v.Models).To(ContainElement(projections.ModelComparison{Name: "members", FirstDifference: "id=3"}))
		// Another tenant's rows are not looked at.
		v, err = replays.Verify(ctx, "x0002")
		Expect(err).NotTo(HaveOccurred())
		for _, m := range v.Models {
			Expect(m.Equal).To(BeTrue(), m.Name)
		}
		Expect(filepath.Glob(filepath.Join(dir, "verify-*"))).To(BeEmpty())
	})

	It("keeps replays across a restart and deletes them with their files", func() {
		r, err := replays.Start(ctx, "x0001", 0, time.Time{})
		Expect(err).NotTo(HaveOccurred())
		done(r)
		Expect(replays.Close()).To(Succeed())
		// What a stop in the middle of a verify leaves: a store with no record.
		left := filepath.Join(dir, "verify-0123456789abcdef.db")
		Expect(os.WriteFile(left, []byte("a verify's temporary store"), 0o600)).To(Succeed())
		Expect(os.WriteFile(left+"-wal", []byte("its log"), 0o600)).To(Succeed())
		shelf, err := sqliteread.NewShelf(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(left).NotTo(BeAnExistingFile())
		Expect(left + "-wal").NotTo(BeAnExistingFile())
		Expect(filepath.Join(dir, r.ID+".db")).To(BeAnExistingFile())
		replays, err = projections.NewReplays(e, shelf)
		Expect(err).NotTo(HaveOccurred())
		Expect(replays.List()).To(HaveLen(1))
		Expect(members(done(r))).To(HaveLen(2))

		Expect(replays.Delete(r.ID)).To(Succeed())
		Expect(replays.List()).To(BeEmpty())
		_, err = os.Stat(filepath.Join(dir, r.ID+".db"))
		Expect(os.IsNotExist(err)).To(BeTrue())
		Expect(fault.Is(replays.Delete(r.ID), fault.NotFound)).To(BeTrue())
	})
})

// tamper changes the live store's rows behind the projections' back, as
// a damaged or edited file would.
func tamper(path, stmt string) {
	GinkgoHelper()
	c, err := sqlitec.Open(path)
	Expect(err).NotTo(HaveOccurred())
	defer c.Close()
	Expect(c.Exec(`PRAGMA busy_timeout = 5000; ` + stmt)).To(Succeed())
}
