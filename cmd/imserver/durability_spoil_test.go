package main

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	_ "modernc.org/sqlite" // writes the foreign databases

	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	"github.com/eventchat/eventchat/domain/es"
)

// Ways to spoil a data directory's file.

// garbage fills path with random bytes.
func garbage(path string) {
	GinkgoHelper()
	b := make([]byte, 16<<10)
	for i := range b {
		b[i] = byte(rand.IntN(256))
	}
	Expect(os.WriteFile(path, b, 0o600)).To(Succeed())
}

// corruptAfterHeader writes garbage behind a valid SQLite header.
func corruptAfterHeader(path string) {
	GinkgoHelper()
	garbage(path)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	Expect(err).NotTo(HaveOccurred())
	_, err = f.WriteAt([]byte("SQLite format 3\x00"), 0)
	Expect(err).NotTo(HaveOccurred())
	Expect(f.Close()).To(Succeed())
}

// cutShort writes a real event store holding many events, then loses
// the second half of the file.
func cutShort(path string) {
	GinkgoHelper()
	events, err := sqlitestore.Open(path)
	Expect(err).NotTo(HaveOccurred())
	for i := range 20 {
		batch := make([]es.EventData, 100)
		for j := range batch {
			batch[j] = es.EventData{ID: uuid.NewString(), Type: "test.Filler", Data: []byte(`{"filler":"` + strings.Repeat("x", 200) + `"}`),
				Metadata: es.Metadata{Tenant: "x0001"}}
		}
		_, err := events.Append(context.Background(), es.Stream("x0001", "filler", fmt.Sprint(i)), es.Any, batch)
		Expect(err).NotTo(HaveOccurred())
	}
	Expect(events.Close()).To(Succeed())
	for _, suffix := range []string{"-wal", "-shm"} {
		Expect(os.RemoveAll(path + suffix)).To(Succeed())
	}
	info, err := os.Stat(path)
	Expect(err).NotTo(HaveOccurred())
	Expect(info.Size()).To(BeNumerically(">", 256<<10), "the events are not in the main file")
	Expect(os.Truncate(path, info.Size()/2)).To(Succeed())
}

// foreign makes path another application's SQLite database.
func foreign(path string) {
	GinkgoHelper()
	db, err := sql.Open("sqlite", path)
	Expect(err).NotTo(HaveOccurred())
	defer db.Close()
	for _, stmt := range []string{
		`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)`,
		`INSERT INTO notes (body) VALUES ('someone else''s data')`,
	} {
		_, err := db.Exec(stmt)
		Expect(err).NotTo(HaveOccurred())
	}
}
