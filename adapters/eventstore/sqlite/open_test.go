package sqlitestore_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	"github.com/eventchat/eventchat/domain/es"
)

var _ = Describe("Opening a file", func() {
	var (
		dir string
		ctx = context.Background()
	)
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	// storeWith3Events makes a store file and closes it.
	storeWith3Events := func() string {
		path := filepath.Join(dir, "events.db")
		store, err := sqlitestore.Open(path)
		Expect(err).NotTo(HaveOccurred())
		_, err = store.Append(ctx, "x1.chat-a", es.Any, newEvents(3))
		Expect(err).NotTo(HaveOccurred())
		Expect(store.Close()).To(Succeed())
		return path
	}

	It("refuses a file that is not SQLite", func() {
		p := filepath.Join(dir, "notes.txt")
		Expect(os.WriteFile(p, []byte("these are not the events you are looking for, not at all."), 0o600)).To(Succeed())
		_, err := sqlitestore.Open(p)
		Expect(err).To(MatchError(sqlitestore.ErrNotEventStore))
	})

	It("refuses a SQLite database of another application and leaves it as it was", func() {
		p := filepath.Join(dir, "other.db")
		db, err := sql.Open("sqlite", p)
		Expect(err).NotTo(HaveOccurred())
		_, err = db.Exec("CREATE TABLE users (name TEXT)")
		Expect(err).NotTo(HaveOccurred())
		Expect(db.Close()).To(Succeed())

		_, err = sqlitestore.Open(p)
		Expect(err).To(MatchError(sqlitestore.ErrNotEventStore))

		db, err = sql.Open("sqlite", p)
		Expect(err).NotTo(HaveOccurred())
		defer db.Close()
		var mode string
		Expect(db.QueryRow("PRAGMA journal_mode").Scan(&mode)).To(Succeed())
		Expect(mode).To(Equal("delete"))
		var tables []string
		rows, err := db.Query("SELECT name FROM sqlite_schema")
		Expect(err).NotTo(HaveOccurred())
		for rows.Next() {
			var name string
			Expect(rows.Scan(&name)).To(Succeed())
			tables = append(tables, name)
		}
		Expect(tables).To(Equal([]string{"users"}))
	})

	It("refuses an event store of another schema version", func() {
		path := storeWith3Events()
		db, err := sql.Open("sqlite", path)
		Expect(err).NotTo(HaveOccurred())
		_, err = db.Exec("PRAGMA user_version = 99")
		Expect(err).NotTo(HaveOccurred())
		Expect(db.Close()).To(Succeed())
		_, err = sqlitestore.Open(path)
		Expect(err).To(MatchError(sqlitestore.ErrNotEventStore))
		Expect(err.Error()).To(ContainSubstring("version 99"))
	})

	It("refuses a store whose header was overwritten", func() {
		path := storeWith3Events()
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		Expect(err).NotTo(HaveOccurred())
		_, err = f.WriteAt([]byte("garbage garbage!"), 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Close()).To(Succeed())
		_, err = sqlitestore.Open(path)
		Expect(err).To(MatchError(sqlitestore.ErrNotEventStore))
	})

	It("opens a path holding characters that URIs reserve", func() {
		p := filepath.Join(dir, "odd ?#% dir", "events?v=1#x.db")
		Expect(os.MkdirAll(filepath.Dir(p), 0o700)).To(Succeed())
		s, err := sqlitestore.Open(p)
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Append(ctx, "x1.chat-a", es.Any, newEvents(2))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Close()).To(Succeed())
		Expect(p).To(BeAnExistingFile())

		s, err = sqlitestore.Open(p)
		Expect(err).NotTo(HaveOccurred())
		defer s.Close()
		Expect(s.Head(ctx)).To(Equal(uint64(2)))
	})

	It("keeps a store in WAL mode, marked as ours", func() {
		path := storeWith3Events()
		db, err := sql.Open("sqlite", path)
		Expect(err).NotTo(HaveOccurred())
		defer db.Close()
		var mode string
		var appID int64
		Expect(db.QueryRow("PRAGMA journal_mode").Scan(&mode)).To(Succeed())
		Expect(db.QueryRow("PRAGMA application_id").Scan(&appID)).To(Succeed())
		Expect(mode).To(Equal("wal"))
		Expect(appID).NotTo(BeZero())
	})

	It("creates a store in an empty file", func() {
		p := filepath.Join(dir, "empty.db")
		Expect(os.WriteFile(p, nil, 0o600)).To(Succeed())
		s, err := sqlitestore.Open(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Close()).To(Succeed())
	})

	It("fails clearly for a path it cannot open", func() {
		_, err := sqlitestore.Open(dir)
		Expect(err).To(HaveOccurred())
		_, err = sqlitestore.Open(filepath.Join(dir, "missing", "events.db"))
		Expect(err).To(HaveOccurred())
		_, err = sqlitestore.Open("")
		Expect(err).To(HaveOccurred())
	})
})
