package projections_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/group"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/projections"
)

// mutingHistory is a group in which an admin mutes a member and lets it
// speak again. testdata/muting-v1.ndjson is this history appended by
// appendHistory at commit b144da8, where GroupMemberMuted had only version
// 1 (no muted field), into a fresh SQLite log and exported with
// audit.NewExportWriter as imctl audit export writes it; the event ids,
// times and positions are the same in both.
func mutingHistory(t0 time.Time) []struct {
	stream string
	event  es.Event
} {
	ms := func(min int) int64 { return t0.Add(time.Duration(min) * time.Minute).UnixMilli() }
	return []struct {
		stream string
		event  es.Event
	}{
		{"x0007.member-1", &member.Registered{MemberID: "1", Account: "ann", Name: "Ann", Level: "Normal", At: ms(0)}},
		{"x0007.member-2", &member.Registered{MemberID: "2", Account: "bob", Name: "Bob", Level: "Normal", At: ms(0)}},
		{"x0007.group-9", &group.Created{GroupID: "9", Name: "Nine", Owner: "1", Members: []string{"2"}, At: ms(1)}},
		{"x0007.group-9", &group.MemberMuted{Member: "2", Muted: true, Until: ms(60), By: "1", At: ms(2)}},
		{"x0007.group-9", &group.MemberMuted{Member: "2", By: "1", At: ms(3)}},
	}
}

// appendHistory appends h to log as the server would, each event's id
// derived from its place.
func appendHistory(log *sqlitestore.Store, t0 time.Time) uint64 {
	GinkgoHelper()
	var head uint64
	for i, h := range mutingHistory(t0) {
		data, err := json.Marshal(h.event)
		Expect(err).NotTo(HaveOccurred())
		res, err := log.Append(ctx, h.stream, es.Any, []es.EventData{{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1),
			Type: es.StoredType(h.event), Data: data,
			Metadata: es.Metadata{Tenant: "x0007", Actor: "1", Time: t0.Add(time.Duration(i) * time.Minute)}}})
		Expect(err).NotTo(HaveOccurred())
		head = res.Position
	}
	return head
}

var _ = Describe("A log written by older event shapes", func() {
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

	It("folds to the same read models as the same history written in the current shapes", func() {
		log, err := sqlitestore.Open(filepath.Join(GinkgoT().TempDir(), "events.db"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(log.Close)
		live, err := sqliteread.Open(filepath.Join(GinkgoT().TempDir(), "read.db"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(live.Close)
		head := appendHistory(log, t0)
		e := projections.NewEngine(log, live, nil, catalog.Registry(), projections.All()...)
		DeferCleanup(run(e))
		Expect(e.WaitFor(ctx, head)).To(BeTrue())
		shelf, err := sqliteread.NewShelf(filepath.Join(GinkgoT().TempDir(), "audit"))
		Expect(err).NotTo(HaveOccurred())
		replays, err := projections.NewReplays(e, shelf, time.Minute)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(replays.Close()).To(Succeed()) })

		recs, err := log.ReadAll(ctx, 0, 100)
		Expect(err).NotTo(HaveOccurred())
		Expect(recs[3].Type).To(Equal("GroupMemberMuted@v2"), "appends write the current version")

		file, err := os.ReadFile("testdata/muting-v1.ndjson")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(file)).To(ContainSubstring(`"type":"GroupMemberMuted","time"`))
		Expect(string(file)).NotTo(ContainSubstring(`"muted"`))
		staged, err := replays.Stage(bytes.NewReader(file))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(staged.Discard)
		old, err := replays.Import("x0007", staged)
		Expect(err).NotTo(HaveOccurred())
		current, err := replays.Start(ctx, "x0007", head, time.Time{})
		Expect(err).NotTo(HaveOccurred())
		for _, r := range []projections.Replay{old, current} {
			Eventually(func() string {
				got, err := replays.Get(r.ID)
				Expect(err).NotTo(HaveOccurred())
				return got.State
			}).WithTimeout(time.Minute).Should(Equal(projections.ReplayDone))
		}
		cmp, err := replays.Compare(ctx, old.ID, current.ID)
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Models).NotTo(BeEmpty())
		for _, m := range cmp.Models {
			Expect(m.Equal).To(BeTrue(), "%s differs at %s", m.Name, m.FirstDifference)
		}

		// The unmute of version 1 (until 0) reads as one: the group chat
		// tells that the member may speak again.
		var ops []string
		Expect(replays.Browse(old.ID, func(r projections.Replay, s projections.ReadStore) error {
			page, err := s.HistoryPage(ctx, projections.Viewer{Tenant: r.Tenant, Member: "2"}, "9", nil, projections.Up, 50)
			for _, m := range page {
				ops = append(ops, m.OperationType)
			}
			return err
		})).To(Succeed())
		Expect(ops).To(Equal([]string{projections.OpCreate, projections.OpMuteMember, projections.OpUnmuteMember}))
	})
})
