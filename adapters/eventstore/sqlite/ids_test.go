package sqlitestore_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	"github.com/eventchat/eventchat/domain/es"
)

// idStorage returns how each id is stored: "blob" or "text".
func idStorage(path string) map[string]string {
	db, err := sql.Open("sqlite", path)
	Expect(err).NotTo(HaveOccurred())
	defer db.Close()
	rows, err := db.Query("SELECT CASE typeof(id) WHEN 'blob' THEN lower(hex(id)) ELSE id END, typeof(id) FROM events")
	Expect(err).NotTo(HaveOccurred())
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, kind string
		Expect(rows.Scan(&id, &kind)).To(Succeed())
		out[id] = kind
	}
	Expect(rows.Err()).NotTo(HaveOccurred())
	return out
}

func idsOf(evs []es.RecordedEvent) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.ID
	}
	return out
}

var _ = Describe("Event ids", func() {
	ctx := context.Background()
	canonical := uuid.NewString()
	others := []string{strings.ToUpper(uuid.NewString()), "{" + uuid.NewString() + "}", "urn:uuid:" + uuid.NewString(), "order-42"}

	It("keeps canonical UUIDs as 16 bytes and other ids as text, reading all back as sent", func() {
		path := filepath.Join(GinkgoT().TempDir(), "events.db")
		store, err := sqlitestore.Open(path)
		Expect(err).NotTo(HaveOccurred())
		ids := append([]string{canonical}, others...)
		for _, id := range ids {
			e := newEvent()
			e.ID = id
			_, err := store.Append(ctx, "x1.chat-ids", es.Any, []es.EventData{e})
			Expect(err).NotTo(HaveOccurred())
			res, err := store.Append(ctx, "x1.chat-ids", es.Any, []es.EventData{e})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Duplicate).To(BeTrue(), id)
		}
		all, err := store.ReadAll(ctx, 0, 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(idsOf(all)).To(Equal(ids))
		Expect(store.Close()).To(Succeed())

		stored := idStorage(path)
		Expect(stored).To(HaveKeyWithValue(strings.ReplaceAll(canonical, "-", ""), "blob"))
		for _, id := range others {
			Expect(stored).To(HaveKeyWithValue(id, "text"))
		}
	})

	It("migrates a store of schema version 1, which kept every id as text", func() {
		path := filepath.Join(GinkgoT().TempDir(), "events.db")
		db, err := sql.Open("sqlite", path)
		Expect(err).NotTo(HaveOccurred())
		_, err = db.Exec(`CREATE TABLE events (
			position INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, stream TEXT NOT NULL,
			revision INTEGER NOT NULL, type TEXT NOT NULL, data BLOB NOT NULL, metadata TEXT NOT NULL,
			UNIQUE (stream, revision));
			PRAGMA application_id = 1163281224; PRAGMA user_version = 1`)
		Expect(err).NotTo(HaveOccurred())
		ids := append([]string{canonical}, others...)
		for i, id := range ids {
			_, err := db.Exec(`INSERT INTO events VALUES (?, ?, 'x1.chat-old', ?, 'Tested', '{}', '{"tenant":"x1","time":"2025-01-02T03:04:05Z"}')`,
				i+1, id, i)
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(db.Close()).To(Succeed())

		store, err := sqlitestore.Open(path)
		Expect(err).NotTo(HaveOccurred())
		all, err := store.ReadStream(ctx, "x1.chat-old", es.Forwards, 0, 10)
		Expect(err).NotTo(HaveOccurred())
		Expect(idsOf(all)).To(Equal(ids))
		for _, id := range ids {
			e := newEvent()
			e.ID = id
			res, err := store.Append(ctx, "x1.chat-old", es.Any, []es.EventData{e})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Duplicate).To(BeTrue(), id)
		}
		res, err := store.Append(ctx, "x1.chat-old", es.Exact(uint64(len(ids)-1)), newEvents(1))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Position).To(Equal(uint64(len(ids) + 1)))
		Expect(store.Close()).To(Succeed())
		Expect(idStorage(path)).To(HaveKeyWithValue(strings.ReplaceAll(canonical, "-", ""), "blob"))

		reopened, err := sqlitestore.Open(path) // now of the current version
		Expect(err).NotTo(HaveOccurred())
		Expect(reopened.Close()).To(Succeed())
	})
})
