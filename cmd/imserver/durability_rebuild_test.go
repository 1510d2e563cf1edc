package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/authz"
	"github.com/eventchat/eventchat/adapters/bus"
	pebblestore "github.com/eventchat/eventchat/adapters/eventstore/pebble"
	"github.com/eventchat/eventchat/adapters/idgen"
	"github.com/eventchat/eventchat/adapters/keystore"
	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/adapters/sealing"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/tenant"
	"github.com/eventchat/eventchat/projections"
)

// appendBacklog appends perPair messages each way to every pair straight
// to the event store at path, with the server down, and acknowledges
// reading every 50th of them: a log the projections have not folded.
// Several senders share each way so that the store commits them in groups.
func appendBacklog(path string, pairs [][2]member, perPair int) {
	GinkgoHelper()
	events, err := pebblestore.Open(path)
	Expect(err).NotTo(HaveOccurred())
	defer func() { Expect(events.Close()).To(Succeed()) }()
	policy, err := authz.New()
	Expect(err).NotTo(HaveOccurred())
	app := commands.New(commands.Deps{Store: events, Authz: policy, NewID: idgen.New(1, nil).Next, NewUUID: timeOrderedUUID, Now: time.Now})

	ctx := context.Background()
	var wg sync.WaitGroup
	const senders = 8
	errs := make(chan error, 2*senders*len(pairs))
	for _, pair := range pairs {
		for _, way := range [][2]member{{pair[0], pair[1]}, {pair[1], pair[0]}} {
			for k := range senders {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs <- sendBacklog(ctx, app, way[0], way[1], k, senders, perPair)
				}()
			}
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		Expect(err).NotTo(HaveOccurred())
	}
}

// sendBacklog sends messages first, first+step, ... below n.
func sendBacklog(ctx context.Context, app *commands.App, from, to member, first, step, n int) error {
	sender := commands.Principal{Tenant: tenant.Default, MemberID: from.ID}
	reader := commands.Principal{Tenant: tenant.Default, MemberID: to.ID}
	for i := first; i < n; i += step {
		r, err := app.SendMessage(ctx, sender, commands.SendMessage{
			UUID: fmt.Sprintf("backlog-%s-%d", from.ID, i), ChatType: "Friend", To: to.ID, MsgType: "Text", Content: fmt.Sprint("backlog ", i),
		})
		if err != nil {
			return fmt.Errorf("send %d: %w", i, err)
		}
		if i%50 == 49 {
			ack := commands.AckRead{ChatType: "Friend", From: to.ID, To: from.ID, MessageID: r.ID}
			if _, err := app.AckRead(ctx, reader, ack); err != nil {
				return fmt.Errorf("ack %d: %w", i, err)
			}
		}
	}
	return nil
}

// rebuild folds the whole event log at eventsPath into a fresh read store
// at readPath with the projectors the server runs, and returns its hash.
func rebuild(eventsPath, readPath string) map[string]string {
	GinkgoHelper()
	ctx := context.Background()
	events, closeEvents := openSealed(eventsPath)
	defer func() { Expect(closeEvents()).To(Succeed()) }()
	reads, err := sqliteread.Open(readPath)
	Expect(err).NotTo(HaveOccurred())
	defer func() { Expect(reads.Close()).To(Succeed()) }()
	deltas := bus.NewInProcess()
	defer deltas.Close()

	engine := projections.NewEngine(events, reads, deltas, catalog.Registry(),
		projections.All()...)
	search, err := engine.Trail(projections.Trailing()...)
	Expect(err).NotTo(HaveOccurred())
	head, err := events.Head(ctx)
	Expect(err).NotTo(HaveOccurred())
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- engine.Run(runCtx) }()
	waitCtx, cancel := context.WithTimeout(ctx, 40*time.Second)
	defer cancel()
	reached := engine.WaitFor(waitCtx, head) && search.WaitFor(waitCtx, head)
	stop()
	Expect(<-done).To(Succeed())
	Expect(reached).To(BeTrue(), "rebuild did not reach the head %d: %+v", head, engine.Status())
	return hashOf(reads)
}

// openSealed opens the event store at path as the server reads it, its
// personal fields opened with the keys beside it.
func openSealed(path string) (*sealing.Store, func() error) {
	GinkgoHelper()
	stored, err := pebblestore.Open(path)
	Expect(err).NotTo(HaveOccurred())
	keys, err := keystore.Open(filepath.Join(filepath.Dir(path), keystore.FileName))
	Expect(err).NotTo(HaveOccurred())
	return sealing.NewStore(stored, sealing.New(keys, catalog.Registry())), func() error {
		return errors.Join(stored.Close(), keys.Close())
	}
}

// hashOfFile hashes the read store at path.
func hashOfFile(path string) map[string]string {
	GinkgoHelper()
	reads, err := sqliteread.Open(path)
	Expect(err).NotTo(HaveOccurred())
	defer func() { Expect(reads.Close()).To(Succeed()) }()
	return hashOf(reads)
}

func hashOf(reads *sqliteread.Store) map[string]string {
	GinkgoHelper()
	h, err := reads.Hash(context.Background())
	Expect(err).NotTo(HaveOccurred())
	return h
}
