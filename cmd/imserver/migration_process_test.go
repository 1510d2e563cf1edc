package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	pebblestore "github.com/eventchat/eventchat/adapters/eventstore/pebble"
	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	"github.com/eventchat/eventchat/adapters/eventstore/sqlitetopebble"
	"github.com/eventchat/eventchat/cmd/internal/imctl"
	"github.com/eventchat/eventchat/domain/es"
)

var _ = Describe("A data directory of the SQLite event store", Ordered, func() {
	var bin string
	BeforeAll(func() {
		bin = buildServer(GinkgoT().TempDir())
	})

	It("is migrated into the Pebble store at start, under the same hash, and its history served", func() {
		ctx := context.Background()
		dataDir := GinkgoT().TempDir()
		sqlitePath, pebblePath := filepath.Join(dataDir, "events.db"), filepath.Join(dataDir, "events")

		By("running the server on the SQLite store")
		p := startProcess(bin, dataDir, "IM_EVENTSTORE=sqlite:"+sqlitePath)
		a, b := p.register("migratea1"), p.register("migrateb1")
		p.befriend(a, b)
		var sent []string
		for i := range 6 {
			content := fmt.Sprintf("before the migration %d", i)
			from, to := a, b
			if i%2 == 1 {
				from, to = b, a
			}
			p.send(from, to, uuid.NewString(), content)
			sent = append(sent, content)
		}
		p.stop()
		Expect(pebblePath).NotTo(BeAnExistingFile())

		By("retrying the log's last append, as a client's retry does: stored once")
		old, err := sqlitestore.Open(sqlitePath)
		Expect(err).NotTo(HaveOccurred())
		oldEvents, err := old.ReadAll(ctx, 0, 100000)
		Expect(err).NotTo(HaveOccurred())
		last := oldEvents[len(oldEvents)-1]
		retry, err := old.Append(ctx, last.Stream, es.Any, []es.EventData{{ID: last.ID, Type: last.Type, Data: last.Data, Metadata: last.Metadata}})
		Expect(err).NotTo(HaveOccurred())
		Expect(retry.Duplicate).To(BeTrue())
		streams := map[string]bool{}
		for _, e := range oldEvents {
			streams[e.Stream] = true
			Expect(e.Metadata.Tenant).NotTo(BeEmpty())
			Expect(e.Metadata.Time.IsZero()).To(BeFalse())
		}
		Expect(len(streams)).To(BeNumerically(">", 3))
		before, err := sqlitetopebble.HashLog(ctx, old)
		Expect(err).NotTo(HaveOccurred())
		Expect(old.Close()).To(Succeed())

		By("starting the default store over it, after a migration left half-way")
		Expect(os.MkdirAll(pebblePath+".migrating", 0o700)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(pebblePath+".migrating", "000002.log"), []byte("torn"), 0o600)).To(Succeed())
		p = startProcess(bin, dataDir)
		p.waitReady()
		Expect(p.log()).To(ContainSubstring("the SQLite event log is migrated"))
		Expect(p.log()).To(ContainSubstring(before.Sum()))
		var history []string
		for _, m := range p.history(a, b.ID, 0) {
			history = append(history, m.Content)
		}
		Expect(history).To(Equal(sent))
		p.send(a, b, uuid.NewString(), "after the migration")

		code, out, errOut := p.imctl("store", "status", "--json")
		Expect(code).To(Equal(0), errOut)
		var status imctl.MigrationStatus
		Expect(json.Unmarshal([]byte(out), &status)).To(Succeed())
		Expect(status.State).To(Equal(imctl.MigrationDone))
		Expect(status.Hash).To(Equal(before.Sum()))
		Expect(status.Copied).To(Equal(uint64(len(oldEvents))))
		Expect(status.Total).To(Equal(uint64(len(oldEvents))))
		code, out, _ = p.imctl("store", "status")
		Expect(code).To(Equal(0))
		Expect(out).To(ContainSubstring("event log migration: done"))
		p.stop()

		By("reading the same events from the Pebble store, the new one after them, the SQLite file left as it was")
		moved, err := pebblestore.Open(pebblePath)
		Expect(err).NotTo(HaveOccurred())
		movedEvents, err := moved.ReadAll(ctx, 0, 100000)
		Expect(err).NotTo(HaveOccurred())
		Expect(moved.Close()).To(Succeed())
		Expect(movedEvents[:len(oldEvents)]).To(Equal(oldEvents))
		Expect(len(movedEvents)).To(BeNumerically(">", len(oldEvents)))
		Expect(pebblePath + ".migrating").NotTo(BeAnExistingFile())
		old, err = sqlitestore.Open(sqlitePath)
		Expect(err).NotTo(HaveOccurred())
		after, err := sqlitetopebble.HashLog(ctx, old)
		Expect(err).NotTo(HaveOccurred())
		Expect(old.Close()).To(Succeed())
		Expect(after.Sum()).To(Equal(before.Sum()))

		By("starting again: no second migration")
		p = startProcess(bin, dataDir)
		p.waitReady()
		Expect(p.log()).To(ContainSubstring("no longer read"))
		Expect(p.log()).NotTo(ContainSubstring("migrating the SQLite event log"))
		Expect(p.history(a, b.ID, 0)).To(HaveLen(len(sent) + 1))
		p.stop()
	})

	It("refuses to start when the Pebble store a log was migrated into is missing", func() {
		dataDir := GinkgoT().TempDir()
		p := startProcess(bin, dataDir, "IM_EVENTSTORE=sqlite:"+filepath.Join(dataDir, "events.db"))
		p.register("migratec1")
		p.stop()
		p = startProcess(bin, dataDir)
		p.stop()
		Expect(os.RemoveAll(filepath.Join(dataDir, "events"))).To(Succeed())

		p, _ = launch(bin, dataDir)
		Expect(p.exitCode()).NotTo(BeZero())
		Expect(p.log()).To(ContainSubstring("is missing: restore it"))
	})
})
