package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.uber.org/zap/zaptest/observer"

	"github.com/eventchat/eventchat/adapters/eventstore/esdb"
	mongoread "github.com/eventchat/eventchat/adapters/readstore/mongo"
	"github.com/eventchat/eventchat/adapters/sealing"
	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Two nodes on the production profile, rebuilt and verified", func() {
	It("rebuild the MongoDB read store on the lease holder while members chat through both, refuse elsewhere, and verify a tenant", func() {
		ctx := context.Background()
		profile := startProductionProfile()
		client, err := mongo.Connect(options.Client().ApplyURI(profile.mongo))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(client.Disconnect, ctx)
		node := profile.node
		one, logsOne := node("node-1")
		Eventually(func() int { return logsOne.FilterMessage("this node runs the projections").Len() }).Should(Equal(1))
		two, logsTwo := node("node-2")
		Eventually(func() int { return logsTwo.FilterMessage("another node runs the projections").Len() }).Should(Equal(1))
		status := (*testServer).projectionStatus
		caughtUp := func() {
			GinkgoHelper()
			for _, s := range []*testServer{one, two} {
				Eventually(func() int64 { r := status(s); return int64(r.Head) - int64(r.Position) }, 30*time.Second).Should(BeZero())
			}
		}

		alice, bob := one.register("alicereb1"), two.register("bobreb001")
		one.befriend(alice, bob)
		// A backlog for the rebuild to fold.
		var wg sync.WaitGroup
		for k := range 4 {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				send := restSender(one.base, alice, bob.ID)
				for i := range 60 {
					_, err := send(fmt.Sprintf("backlog-%d-%d", k, i), "backlog")
					Expect(err).NotTo(HaveOccurred(), "node-1's failed requests: %v", failedRequests(logsOne))
				}
			}()
		}
		wg.Wait()
		caughtUp()
		Expect(status(one).Leader).To(MatchRegexp(`^node-1#[0-9a-f]{16}$`))

		// Asked of the node that does not fold the log: refused, naming the
		// one that does.
		code, _, errOut := two.imctl("projections", "rebuild", "all")
		Expect(code).To(Equal(1))
		Expect(errOut).To(ContainSubstring("this node does not fold the log: ask " + status(one).Leader + ", which holds the projection lease"))
		code, _, errOut = two.imctl("audit", "verify", "x0001")
		Expect(code).To(Equal(1))
		Expect(errOut).To(ContainSubstring("ask node-1"))

		// Members chat through both nodes while the rebuild runs: alice
		// sends on node 1 and bob on node 2, each receives on the other's
		// node, and both read their sessions and history on both.
		onTwo := two.dial(bob, wsclient.WithPushBuffer(100000))
		onOne := one.dial(alice, wsclient.WithPushBuffer(100000))
		traffic := newLiveTraffic()
		traffic.collect(onOne, 5*time.Second)
		traffic.collect(onTwo, 5*time.Second)
		traffic.send(one, alice, bob, "live-"+alice.Account)
		traffic.send(two, bob, alice, "live-"+bob.Account)
		// An empty history would be a read of a dropped generation.
		// (Sessions may read empty for a moment on FerretDB, which the
		// store writes by a delete and an insert: see
		// adapters/readstore/mongo/README.md.)
		for _, r := range []struct {
			at      *testServer
			m, peer member
		}{{one, alice, bob}, {two, bob, alice}, {one, bob, alice}, {two, alice, bob}} {
			traffic.read(r.at, r.m, r.peer.ID, 1)
		}

		time.Sleep(300 * time.Millisecond)
		code, out, errOut := one.imctl("--json", "projections", "rebuild", "all")
		Expect(code).To(Equal(0), errOut)
		var p projections.Rebuild
		Expect(json.Unmarshal([]byte(out), &p)).To(Succeed())
		Expect(p.State).To(Equal(projections.RebuildDone))
		Expect(p.SwappedAt).To(BeNumerically(">", 0))
		// Traffic after the swap too, past the old generation's drop, which
		// keeps the uploaded files.
		Eventually(func() []string {
			names, err := client.Database(readDatabase).ListCollectionNames(ctx, bson.D{})
			Expect(err).NotTo(HaveOccurred())
			return names
		}, 20*time.Second).Should(ConsistOf("generation", "node_claims", "rate_counters", "data_keys", "blobs.files", "blobs.chunks", "blobs.swept"))
		time.Sleep(500 * time.Millisecond)
		count := traffic.halt()
		Expect(onOne.Dropped()).To(BeZero())
		Expect(onTwo.Dropped()).To(BeZero())
		GinkgoWriter.Printf("%d sends and %d reads ran during the rebuild of %d events\n", count, traffic.reads.Load(), p.Done)
		Eventually(traffic.unpushed, 15*time.Second).Should(BeEmpty(), "messages sent during the rebuild whose push never came (resyncs: %d)", traffic.resyncs.Load())

		// Both nodes serve the new generation: the old one is gone, and a
		// message sent on either is read on the other at its position.
		var gen struct{ Generation int64 }
		Expect(client.Database(readDatabase).Collection("generation").FindOne(ctx, bson.D{{Key: "_id", Value: "current"}}).Decode(&gen)).To(Succeed())
		Expect(gen.Generation).To(BeEquivalentTo(2))
		for _, way := range []struct {
			via, at  *testServer
			from, to member
		}{{one, two, alice, bob}, {two, one, bob, alice}} {
			r := way.via.send(way.from, way.to, fmt.Sprint("after-", way.from.Account), "after the rebuild")
			var history []message
			way.at.ok("GET", fmt.Sprintf("/v1/message/messagePush/history/list/page?pageSize=5&friendMemberId=%s&after=%d", way.from.ID, r.Position),
				way.to.Token, nil, &history)
			Expect(history).NotTo(BeEmpty())
			Expect(history[len(history)-1].UUID).To(Equal(fmt.Sprint("after-", way.from.Account)))
		}

		// The rebuilt store equals a fresh fold of the same log.
		caughtUp()
		head := status(one).Head
		Expect(status(two).Position).To(Equal(head))
		log, err := esdb.Open(ctx, profile.esdb)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(log.Close)
		served, err := mongoread.Open(ctx, profile.mongo, readDatabase)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(served.Close, ctx)
		n, database := served.Generation()
		Expect(n).To(BeEquivalentTo(2))
		Expect(database).To(Equal(readDatabase + "_g2"))
		fresh, err := mongoread.Open(ctx, profile.mongo, "fresh")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(fresh.Close, ctx)
		// The log read as the nodes read it, with the keys they share.
		opened := sealing.NewStore(log, sealing.New(served, catalog.Registry()))
		Expect(projections.NewEngine(opened, fresh, nil, catalog.Registry(), append(projections.All(), projections.Trailing()...)...).FoldTo(ctx, head, nil)).To(Succeed())
		want, err := fresh.Hash(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(served.Hash(ctx)).To(Equal(want))

		// Audit verify on the MongoDB store: equal, then naming a tampered
		// document.
		code, out, errOut = one.imctl("audit", "verify", "x0001")
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(MatchRegexp(`sessions\s+equal`))
		_, err = client.Database(readDatabase+"_g2").Collection("sessions").UpdateOne(ctx,
			bson.D{{Key: "member", Value: bob.ID}, {Key: "peer", Value: alice.ID}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "unreadCount", Value: 999}}}})
		Expect(err).NotTo(HaveOccurred())
		var v projections.Verification
		code, out, errOut = one.imctl("audit", "verify", "x0001", "--json")
		Expect(code).To(Equal(1), errOut)
		Expect(json.Unmarshal([]byte(out), &v)).To(Succeed())
		Expect(v.Models).To(HaveLen(14))
		for _, m := range v.Models {
			Expect(m.Equal).To(Equal(m.Name != "sessions"), "%s %s", m.Name, m.FirstDifference)
		}
		Expect(v.Models).To(ContainElement(projections.ModelComparison{Name: "sessions",
			FirstDifference: "member=" + bob.ID + ", peer=" + alice.ID}))
		names, err := client.ListDatabaseNames(ctx, bson.D{{Key: "name", Value: bson.D{{Key: "$regex", Value: "_verify_"}}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(names).To(BeEmpty())
	})
})

// failedRequests are the errors logged for requests that failed with a
// server error.
func failedRequests(logs *observer.ObservedLogs) []any {
	var errs []any
	for _, e := range logs.FilterMessage("request failed").All() {
		errs = append(errs, e.ContextMap()["error"])
	}
	return errs
}
