package mongoread

import (
	"context"
	"fmt"
	"os"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/readstore/mongo/ferrettest"
	"github.com/eventchat/eventchat/projections"
)

// These specs leave the journal as a crash in the middle of a commit
// would, then open the store again.
var _ = Describe("a crash during a commit", func() {
	ctx := context.Background()
	key := projections.SessionKey{Member: "bob", Peer: "alice"}
	session := func(unread int) projections.Session {
		return projections.Session{Tenant: "x0001", Member: "bob", Peer: "alice", ChatType: "Friend",
			ChatID: "c1", LastMessageID: fmt.Sprintf("m%d", unread), UnreadCount: unread}
	}
	var (
		uri, name string
		store     *Store
	)
	reopen := func() {
		GinkgoHelper()
		Expect(store.Close(ctx)).To(Succeed())
		var err error
		store, err = Open(ctx, uri, name)
		Expect(err).NotTo(HaveOccurred())
	}
	// crash journals a batch that counts one more unread message and
	// advances the checkpoint, then applies only the first writes of it.
	crash := func(committed bool, applied int) {
		GinkgoHelper()
		t := newTx(store)
		Expect(t.PutSessions(ctx, []projections.Session{session(2)})).To(Succeed())
		Expect(t.InsertMessages(ctx, []projections.Message{{ID: "m2", ChatID: "c1", Seq: 2, To: "bob",
			Status: projections.StatusUnread}})).To(Succeed())
		Expect(t.SetCheckpoint(ctx, "chats.v1", 2)).To(Succeed())
		ops, err := t.ops()
		Expect(err).NotTo(HaveOccurred())
		batch, err := store.writeJournal(ctx, ops)
		Expect(err).NotTo(HaveOccurred())
		if committed {
			Expect(store.markCommitted(ctx, batch)).To(Succeed())
		}
		Expect(store.apply(ctx, ops[:applied])).To(Succeed())
	}
	state := func() (map[string]uint64, int, bool) {
		GinkgoHelper()
		var unread int
		Expect(store.Update(ctx, func(tx projections.Tx) error {
			got, err := tx.GetSessions(ctx, []projections.SessionKey{key})
			unread = got[key].UnreadCount
			return err
		})).To(Succeed())
		checkpoints, err := store.Checkpoints(ctx)
		Expect(err).NotTo(HaveOccurred())
		_, found, err := store.message(ctx, "m2")
		Expect(err).NotTo(HaveOccurred())
		return checkpoints, unread, found
	}

	BeforeEach(func() {
		server, err := ferrettest.Start(GinkgoT().TempDir(), GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(server.Stop()).To(Succeed()) })
		uri, name = server.URI, fmt.Sprintf("eventchat_crash_%d", os.Getpid())
		store, err = Open(ctx, uri, name)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() {
			if store == nil { // a failed reopen
				return
			}
			Expect(store.DropDatabase(ctx)).To(Succeed())
			Expect(store.Close(ctx)).To(Succeed())
		})
		Expect(store.Update(ctx, func(tx projections.Tx) error {
			if err := tx.PutSessions(ctx, []projections.Session{session(1)}); err != nil {
				return err
			}
			return tx.SetCheckpoint(ctx, "chats.v1", 1)
		})).To(Succeed())
	})

	It("completes a committed batch whose session was written but not its checkpoint", func() {
		crash(true, 1)

		reopen()
		checkpoints, unread, found := state()
		Expect(checkpoints).To(Equal(map[string]uint64{"chats.v1": 2}))
		Expect(unread).To(Equal(2))
		Expect(found).To(BeTrue())
	})

	It("leaves no trace of a batch that crashed before its commit mark", func() {
		crash(false, 0)

		reopen()
		checkpoints, unread, found := state()
		Expect(checkpoints).To(Equal(map[string]uint64{"chats.v1": 1}))
		Expect(unread).To(Equal(1))
		Expect(found).To(BeFalse())
		n, err := store.coll(journalColl).CountDocuments(ctx, map[string]any{})
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(BeZero())
	})

	It("completes the committed batch before the next Update when its flush failed", func() {
		crash(true, 2)
		store.unflushed = true

		checkpoints, unread, found := state()
		Expect(checkpoints).To(Equal(map[string]uint64{"chats.v1": 2}))
		Expect(unread).To(Equal(2))
		Expect(found).To(BeTrue())
	})

	It("leaves a holder's half-applied batch to the holder and completes it when the lease passes on", func() {
		now := time.Now()
		Expect(store.TakeLease(ctx, "node-a", now, now.Add(10*time.Second))).To(Equal("node-a"))
		crash(true, 1)
		second, err := Open(ctx, uri, name)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(second.Close(ctx)).To(Succeed()) })

		err = second.Update(ctx, func(tx projections.Tx) error { return tx.SetCheckpoint(ctx, "chats.v1", 3) })
		Expect(err).To(MatchError(projections.ErrLeaseLost))
		Expect(second.Checkpoints(ctx)).To(Equal(map[string]uint64{"chats.v1": 1}))

		Expect(second.TakeLease(ctx, "node-b", now.Add(10*time.Second), now.Add(20*time.Second))).To(Equal("node-b"))
		Expect(second.Checkpoints(ctx)).To(Equal(map[string]uint64{"chats.v1": 2}))
		_, found, err := second.message(ctx, "m2")
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeTrue())
		n, err := store.coll(journalColl).CountDocuments(ctx, map[string]any{})
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(BeZero())
	})

	// late has store take the lease for node-a so that its writes should
	// have ended 2 s ago, then commit a batch counting one more message.
	late := func() {
		GinkgoHelper()
		now := time.Now()
		Expect(store.TakeLease(ctx, "node-a", now.Add(-9*time.Second), now.Add(time.Second))).To(Equal("node-a"))
		err := store.Update(ctx, func(tx projections.Tx) error {
			if err := tx.PutSessions(ctx, []projections.Session{session(2)}); err != nil {
				return err
			}
			return tx.SetCheckpoint(ctx, "chats.v1", 2)
		})
		Expect(err).To(MatchError(context.DeadlineExceeded))
	}

	It("applies nothing of a batch committed past a third of its lease before the end, and leaves it to the next holder", func() {
		late()
		second, err := Open(ctx, uri, name)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(second.Close(ctx)).To(Succeed()) })
		Expect(second.Checkpoints(ctx)).To(Equal(map[string]uint64{"chats.v1": 1}))

		now := time.Now()
		Expect(second.TakeLease(ctx, "node-b", now.Add(time.Second), now.Add(time.Minute))).To(Equal("node-b"))
		Expect(second.Checkpoints(ctx)).To(Equal(map[string]uint64{"chats.v1": 2}))
	})

	It("applies a batch its writes left half done before telling its holder the checkpoints, once it has the lease again", func() {
		late()

		now := time.Now()
		Expect(store.TakeLease(ctx, "node-a", now, now.Add(time.Minute))).To(Equal("node-a"))
		Expect(store.Checkpoints(ctx)).To(Equal(map[string]uint64{"chats.v1": 2}))
		_, unread, found := state()
		Expect(unread).To(Equal(2))
		Expect(found).To(BeFalse(), "no message was in the batch")
	})
})
