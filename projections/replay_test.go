package projections_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/adapters/sqlitec"
	"github.com/eventchat/eventchat/domain/audit"
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
		// idle is how long a replay's store stays open unbrowsed.
		idle = 50 * time.Millisecond
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
		replays, err = projections.NewReplays(e, shelf, idle)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(replays.Close()).To(Succeed()) })
	})

	done := func(r projections.Replay) projections.Replay {
		GinkgoHelper()
		Eventually(func() string {
			got, err := replays.Get(r.ID)
			Expect(err).NotTo(HaveOccurred())
			return got.State
		}).WithTimeout(time.Minute).Should(Equal(projections.ReplayDone))
		return r
	}
	members := func(r projections.Replay) map[string]projections.Member {
		GinkgoHelper()
		var ms map[string]projections.Member
		Expect(replays.Browse(r.ID, func(r projections.Replay, s projections.ReadStore) error {
			var err error
			ms, err = s.MembersByID(ctx, projections.Viewer{Tenant: r.Tenant}, []string{"1", "2", "3"})
			return err
		})).To(Succeed())
		return ms
	}
	// export is the export of tenant's events taken when the log's head
	// was head.
	export := func(tenant string, head uint64, events []es.RecordedEvent) []byte {
		GinkgoHelper()
		var out bytes.Buffer
		w := audit.NewExportWriter(&out)
		for _, r := range events {
			Expect(w.Write(audit.EntryOf(r))).To(Succeed())
		}
		Expect(w.Close(tenant, head)).To(Succeed())
		return out.Bytes()
	}
	importOf := func(tenant string, file []byte) (projections.Replay, error) {
		GinkgoHelper()
		staged, err := replays.Stage(bytes.NewReader(file))
		Expect(err).NotTo(HaveOccurred())
		defer func() { Expect(staged.Discard()).To(Succeed()) }()
		return replays.Import(tenant, staged)
	}
	tenantEvents := func(tenant string, to uint64) []es.RecordedEvent {
		GinkgoHelper()
		recs, err := log.ReadAll(ctx, 0, 100000)
		Expect(err).NotTo(HaveOccurred())
		var mine []es.RecordedEvent
		for _, r := range recs {
			if r.Metadata.Tenant == tenant && r.Position <= to {
				mine = append(mine, r)
			}
		}
		return mine
	}
	equal := func(cmp projections.Comparison) {
		GinkgoHelper()
		Expect(cmp.Models).NotTo(BeEmpty())
		for _, m := range cmp.Models {
			Expect(m.Equal).To(BeTrue(), "%s differs at %s", m.Name, m.FirstDifference)
		}
	}
	files := func() []string {
		GinkgoHelper()
		names, err := filepath.Glob(filepath.Join(dir, "*"))
		Expect(err).NotTo(HaveOccurred())
		return names
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

	It("replays an imported export to the same read models as the log at the same head, and compares them", func() {
		mine := tenantEvents("x0001", promoted)
		imported, err := importOf("x0001", export("x0001", promoted, mine))
		Expect(err).NotTo(HaveOccurred())
		Expect(imported.Source).To(Equal(projections.ReplayOfImport))
		Expect(imported.Position).To(Equal(promoted))
		fromLog, err := replays.Start(ctx, "x0001", promoted, time.Time{})
		Expect(err).NotTo(HaveOccurred())
		done(imported)
		done(fromLog)
		cmp, err := replays.Compare(ctx, imported.ID, fromLog.ID)
		Expect(err).NotTo(HaveOccurred())
		equal(cmp)

		// Without its first event the import differs from the log.
		partial, err := importOf("x0001", export("x0001", promoted, mine[1:]))
		Expect(err).NotTo(HaveOccurred())
		done(partial)
		cmp, err = replays.Compare(ctx, partial.ID, fromLog.ID)
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Models).To(ContainElement(projections.ModelComparison{Name: "members", FirstDifference: "id=1"}))
		Expect(filepath.Glob(filepath.Join(dir, "*.ndjson"))).To(BeEmpty(), "a staged export goes once folded")

		// Events of another tenant, or beyond the export's head, are refused
		// and leave nothing.
		_, err = importOf("x0002", export("x0002", promoted, mine))
		Expect(err).To(MatchError("stream x0001.member-1 is not of tenant x0002"))
		_, err = importOf("x0001", export("x0001", registered, mine))
		Expect(err).To(MatchError(fmt.Sprintf("event %d is beyond the export's head %d", promoted, registered)))
		mixed := append(tenantEvents("x0002", last), mine...)
		_, err = importOf("x0001", export("x0001", last, mixed))
		Expect(err).To(MatchError("stream x0001.member-1 is not of tenant x0002"))
		Expect(replays.List()).To(HaveLen(3))
		Expect(filepath.Glob(filepath.Join(dir, "*.ndjson"))).To(BeEmpty())
	})

	It("streams a large export through a staged file, and refuses a changed one leaving nothing", func() {
		// More events than one fold's batch, and than one page of the file.
		var data []es.EventData
		for i := range 10000 {
			raw, err := json.Marshal(&member.ProfileModified{Name: fmt.Sprintf("Ann %d", i)})
			Expect(err).NotTo(HaveOccurred())
			data = append(data, es.EventData{ID: uuid.NewString(), Type: (&member.ProfileModified{}).EventType(), Data: raw,
				Metadata: es.Metadata{Tenant: "x0001", Time: t0.Add(time.Hour)}})
		}
		var head uint64
		for page := range 10 {
			res, err := log.Append(ctx, "x0001.member-1", es.Any, data[page*1000:(page+1)*1000])
			Expect(err).NotTo(HaveOccurred())
			head = res.Position
		}
		file := export("x0001", head, tenantEvents("x0001", head))
		Expect(len(file)).To(BeNumerically(">", 1<<20))

		// A changed byte fails the checksum: no file, no replay.
		changed := bytes.Replace(file, []byte("Ann 9999"), []byte("Eve 9999"), 1)
		_, err := replays.Stage(bytes.NewReader(changed))
		Expect(err).To(MatchError(audit.MsgExportChecksum))
		Expect(fault.Is(err, fault.Invalid)).To(BeTrue())
		cut := file[:len(file)/2]
		_, err = replays.Stage(io.MultiReader(bytes.NewReader(cut), strings.NewReader("\n")))
		Expect(err).To(HaveOccurred())
		Expect(files()).To(BeEmpty())
		Expect(replays.List()).To(BeEmpty())

		imported, err := importOf("x0001", file)
		Expect(err).NotTo(HaveOccurred())
		fromLog, err := replays.Start(ctx, "x0001", head, time.Time{})
		Expect(err).NotTo(HaveOccurred())
		Expect(members(done(imported))["1"].Name).To(Equal("Ann 9999"))
		done(fromLog)
		cmp, err := replays.Compare(ctx, imported.ID, fromLog.ID)
		Expect(err).NotTo(HaveOccurred())
		equal(cmp)
		Expect(filepath.Glob(filepath.Join(dir, "*.ndjson"))).To(BeEmpty())
	})

	It("keeps at most MaxReplaysPerTenant replays of a tenant, running ones included, until one is deleted", func() {
		var first projections.Replay
		for i := range projections.MaxReplaysPerTenant {
			r, err := replays.Start(ctx, "x0001", 0, time.Time{})
			Expect(err).NotTo(HaveOccurred())
			if i == 0 {
				first = r
			}
		}
		full := fmt.Sprintf("tenant x0001 keeps %d replays, the most it may: delete one to start another", projections.MaxReplaysPerTenant)
		Expect(replays.Room("x0001")).To(MatchError(full))
		_, err := replays.Start(ctx, "x0001", 0, time.Time{})
		Expect(err).To(MatchError(full))
		Expect(fault.Is(err, fault.Conflict)).To(BeTrue())
		_, err = importOf("x0001", export("x0001", promoted, tenantEvents("x0001", promoted)))
		Expect(err).To(MatchError(full))
		Expect(filepath.Glob(filepath.Join(dir, "*.ndjson"))).To(BeEmpty())
		Expect(replays.List()).To(HaveLen(projections.MaxReplaysPerTenant))

		// Another tenant has room of its own.
		other, err := replays.Start(ctx, "x0002", 0, time.Time{})
		Expect(err).NotTo(HaveOccurred())
		Expect(replays.Delete(other.ID)).To(Succeed())

		Expect(replays.Delete(first.ID)).To(Succeed())
		Expect(replays.Room("x0001")).To(Succeed())
		r, err := replays.Start(ctx, "x0001", 0, time.Time{})
		Expect(err).NotTo(HaveOccurred())
		Expect(members(done(r))).To(HaveLen(2))
	})

	It("closes the store of a replay not browsed for the idle time and opens it again on the next browse", func() {
		r, err := replays.Start(ctx, "x0001", 0, time.Time{})
		Expect(err).NotTo(HaveOccurred())
		done(r)
		store := filepath.Join(dir, r.ID+".db")
		browse := func() {
			GinkgoHelper()
			Expect(replays.Browse(r.ID, func(r projections.Replay, s projections.ReadStore) error {
				Expect(openFiles(store)).NotTo(BeZero(), "open while browsed")
				ms, err := s.MembersByID(ctx, projections.Viewer{Tenant: r.Tenant}, []string{"1", "3"})
				Expect(ms).To(HaveLen(2))
				return err
			})).To(Succeed())
		}
		browse()
		Eventually(func() int { return openFiles(store) }).WithTimeout(10 * time.Second).Should(BeZero())
		browse()
		Eventually(func() int { return openFiles(store) }).WithTimeout(10 * time.Second).Should(BeZero())
		// Nor is a store closed while it is browsed.
		Expect(replays.Browse(r.ID, func(projections.Replay, projections.ReadStore) error {
			time.Sleep(3 * idle)
			Expect(openFiles(store)).NotTo(BeZero())
			return nil
		})).To(Succeed())
		cmp, err := replays.Compare(ctx, r.ID, r.ID)
		Expect(err).NotTo(HaveOccurred())
		equal(cmp)
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
		// A search file whose store a stop removed already.
		lone := filepath.Join(dir, "verify-fedcba9876543210.db.search")
		Expect(os.WriteFile(lone, []byte("a verify's search file"), 0o600)).To(Succeed())
		// And an import's staged export: no replay resumes.
		staged := filepath.Join(dir, "fedcba9876543210.ndjson")
		Expect(os.WriteFile(staged, []byte("an export\n"), 0o600)).To(Succeed())
		shelf, err := sqliteread.NewShelf(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(staged).NotTo(BeAnExistingFile())
		Expect(left).NotTo(BeAnExistingFile())
		Expect(left + "-wal").NotTo(BeAnExistingFile())
		Expect(left + ".search").NotTo(BeAnExistingFile())
		Expect(lone).NotTo(BeAnExistingFile())
		Expect(filepath.Join(dir, r.ID+".db")).To(BeAnExistingFile())
		Expect(filepath.Join(dir, r.ID+".db.search")).To(BeAnExistingFile())
		replays, err = projections.NewReplays(e, shelf, idle)
		Expect(err).NotTo(HaveOccurred())
		Expect(replays.List()).To(HaveLen(1))
		Expect(members(done(r))).To(HaveLen(2))

		Expect(replays.Delete(r.ID)).To(Succeed())
		Expect(replays.List()).To(BeEmpty())
		_, err = os.Stat(filepath.Join(dir, r.ID+".db"))
		Expect(os.IsNotExist(err)).To(BeTrue())
		Expect(filepath.Join(dir, r.ID+".db.search")).NotTo(BeAnExistingFile())
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

// openFiles counts this process's open files at path and its -wal and
// -shm.
func openFiles(path string) int {
	GinkgoHelper()
	fds, err := os.ReadDir("/proc/self/fd")
	Expect(err).NotTo(HaveOccurred())
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.HasPrefix(target, path) {
			n++
		}
	}
	return n
}
