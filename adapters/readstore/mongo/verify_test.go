package mongoread_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.mongodb.org/mongo-driver/v2/bson"

	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	mongoread "github.com/eventchat/eventchat/adapters/readstore/mongo"
	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("Hash, snapshots, and rebuilds and verifies with engines", func() {
	ctx := context.Background()
	g := withGenerations()

	It("hashes the same documents alike whatever their order, and compares one tenant's in snapshots", func() {
		fresh := g.open(g.base + "_f")
		put(g.live, "x0001", "m1", "Ann", 1)
		put(g.live, "x0001", "m2", "Bob", 2)
		put(g.live, "x0002", "m3", "Cat", 3)
		put(fresh, "x0002", "m3", "Cat", 1)
		put(fresh, "x0001", "m2", "Bob", 2)
		put(fresh, "x0001", "m1", "Ann", 3)
		h, err := g.live.Hash(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(h).To(HaveLen(14))
		Expect(fresh.Hash(ctx)).To(Equal(h))

		_, err = g.client.Database(g.base).Collection("members").UpdateOne(ctx, bson.D{{Key: "_id", Value: "m2"}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "name", Value: "Robert"}}}})
		Expect(err).NotTo(HaveOccurred())
		tampered, err := g.live.Hash(ctx)
		Expect(err).NotTo(HaveOccurred())
		for model, sum := range h {
			Expect(tampered[model] == sum).To(Equal(model != "members"), model)
		}

		a, err := g.live.Snapshot(ctx)
		Expect(err).NotTo(HaveOccurred())
		b, err := fresh.Snapshot(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(a.Checkpoints()).To(Equal(map[string]uint64{"members.v1": 3}))
		models, err := a.CompareTenant(ctx, b, "x0001")
		Expect(err).NotTo(HaveOccurred())
		Expect(models).To(HaveLen(14))
		for _, m := range models {
			Expect(m.Equal).To(Equal(m.Name != "members"), m.Name)
		}
		Expect(models).To(ContainElement(projections.ModelComparison{Name: "members", FirstDifference: "id=m2"}))
		models, err = a.CompareTenant(ctx, b, "x0002")
		Expect(err).NotTo(HaveOccurred())
		for _, m := range models {
			Expect(m.Equal).To(BeTrue(), m.Name)
		}
		Expect(a.Close()).To(Succeed())
		Expect(b.Close()).To(Succeed())

		// Only the lease's holder pins its store.
		other := g.open(g.base)
		Expect(other.TakeLease(ctx, "node-b", time.Now(), time.Now().Add(time.Minute))).To(Equal("node-b"))
		_, err = g.live.Snapshot(ctx)
		Expect(err).To(MatchError(projections.ErrLeaseLost))
	})

	Describe("with engines", func() {
		var (
			log  *sqlitestore.Store
			t0   = time.Now().Add(-time.Hour)
			seq  atomic.Int64
			head = func() uint64 {
				h, err := log.Head(ctx)
				Expect(err).NotTo(HaveOccurred())
				return h
			}
		)
		appendEvent := func(stream string, ev es.Event) uint64 {
			GinkgoHelper()
			data, err := json.Marshal(ev)
			Expect(err).NotTo(HaveOccurred())
			sn, err := es.ParseStream(stream)
			Expect(err).NotTo(HaveOccurred())
			res, err := log.Append(ctx, stream, es.Any, []es.EventData{{ID: uuid.NewString(), Type: ev.EventType(), Data: data,
				Metadata: es.Metadata{Tenant: sn.Tenant, Time: t0.Add(time.Duration(seq.Add(1)) * time.Millisecond)}}})
			Expect(err).NotTo(HaveOccurred())
			return res.Position
		}
		register := func(tenant string, i int) {
			GinkgoHelper()
			id := fmt.Sprintf("%s-%d", tenant, i)
			appendEvent(tenant+".member-"+id, &member.Registered{MemberID: id, Account: fmt.Sprintf("acct%s%d", tenant, i), Name: "N" + id, Level: "Normal"})
		}
		run := func(e *projections.Engine) {
			runCtx, stop := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() { done <- e.Run(runCtx) }()
			DeferCleanup(func() {
				stop()
				Expect(<-done).To(Succeed())
			})
		}
		elected := func(s *mongoread.Store, owner string) *projections.Engine {
			e := projections.NewEngine(log, s, nil, catalog.Registry(), projections.All()...)
			e.Elect(projections.Election{Owner: owner, TTL: 3 * time.Second})
			run(e)
			return e
		}

		BeforeEach(func() {
			var err error
			log, err = sqlitestore.Open(filepath.Join(GinkgoT().TempDir(), "events.db"))
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(log.Close)
			for i := range 30 {
				register("x0001", i)
				register("x0002", i)
			}
		})

		It("rebuild on the lease holder while events are appended, equal to a fresh fold, and refuse elsewhere", func() {
			leader := elected(g.live, "node-a")
			Eventually(func() string { return leader.Status().Leader }).Should(Equal("node-a"))
			second := g.open(g.base)
			follower := elected(second, "node-b")
			Eventually(func() string { return follower.Status().Leader }).Should(Equal("node-a"))
			Expect(leader.WaitFor(ctx, head())).To(BeTrue())

			_, err := projections.NewRebuilder(follower, second).Start("all")
			Expect(fault.Is(err, fault.Conflict)).To(BeTrue(), "%v", err)
			Expect(err).To(MatchError("this node does not fold the log: ask node-a, which holds the projection lease"))

			r := projections.NewRebuilder(leader, g.live)
			DeferCleanup(r.Close)
			stop := make(chan struct{})
			appended := make(chan int)
			go func() {
				defer GinkgoRecover()
				i := 100
				for ; ; i++ {
					select {
					case <-stop:
						appended <- i
						return
					default:
					}
					register("x0001", i)
					time.Sleep(5 * time.Millisecond)
				}
			}()
			_, err = r.Start("all")
			Expect(err).NotTo(HaveOccurred())
			Eventually(func() string { return r.Progress().State }, 60*time.Second).
				Should(BeElementOf(projections.RebuildDone, projections.RebuildFailed))
			close(stop)
			last := <-appended
			p := r.Progress()
			Expect(p.State).To(Equal(projections.RebuildDone), p.Error)
			Expect(p.SwappedAt).To(BeNumerically(">", 0))
			Expect(generationOf(g.live)).To(BeEquivalentTo(2))
			Eventually(func() int64 { return generationOf(second) }, 2*time.Second).Should(BeEquivalentTo(2))
			Expect(leader.WaitFor(ctx, head())).To(BeTrue())
			Eventually(func() uint64 { return follower.Position() }).Should(Equal(head()))
			Expect(name(second, fmt.Sprintf("x0001-%d", last-1))).NotTo(BeEmpty())

			fresh := g.open(g.base + "_f")
			Expect(projections.NewEngine(log, fresh, nil, catalog.Registry(), projections.All()...).FoldTo(ctx, head(), nil)).To(Succeed())
			want, err := fresh.Hash(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(g.live.Hash(ctx)).To(Equal(want))
		})

		It("verify a tenant on the lease holder against a fold into a scratch store, naming a tampered document", func() {
			leader := elected(g.live, "node-a")
			Eventually(func() string { return leader.Status().Leader }).Should(Equal("node-a"))
			Expect(leader.WaitFor(ctx, head())).To(BeTrue())
			shelf, err := sqliteread.NewShelf(filepath.Join(GinkgoT().TempDir(), "audit"))
			Expect(err).NotTo(HaveOccurred())
			replays, err := projections.NewReplays(leader, shelf, projections.DefaultReplayIdle)
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(replays.Close)

			v, err := replays.Verify(ctx, "x0001")
			Expect(err).NotTo(HaveOccurred())
			Expect(v.Position).To(Equal(head()))
			Expect(v.Models).To(HaveLen(14))
			for _, m := range v.Models {
				Expect(m.Equal).To(BeTrue(), "%s differs at %s", m.Name, m.FirstDifference)
			}
			_, err = g.client.Database(g.base).Collection("members").UpdateOne(ctx, bson.D{{Key: "_id", Value: "x0001-7"}},
				bson.D{{Key: "$set", Value: bson.D{{Key: "level", Value: "Admin"}}}})
			Expect(err).NotTo(HaveOccurred())
			v, err = replays.Verify(ctx, "x0001")
			Expect(err).NotTo(HaveOccurred())
			for _, m := range v.Models {
				Expect(m.Equal).To(Equal(m.Name != "members"), m.Name)
			}
			Expect(v.Models).To(ContainElement(projections.ModelComparison{Name: "members", FirstDifference: "id=x0001-7"}))
			v, err = replays.Verify(ctx, "x0002")
			Expect(err).NotTo(HaveOccurred())
			for _, m := range v.Models {
				Expect(m.Equal).To(BeTrue(), m.Name)
			}
			Expect(g.databases()).To(ConsistOf(g.base))

			// Elsewhere: refused with the holder's name.
			second := g.open(g.base)
			follower := elected(second, "node-b")
			Eventually(func() string { return follower.Status().Leader }).Should(Equal("node-a"))
			others, err := projections.NewReplays(follower, shelf, projections.DefaultReplayIdle)
			Expect(err).NotTo(HaveOccurred())
			_, err = others.Verify(ctx, "x0001")
			Expect(err).To(MatchError("this node does not fold the log: ask node-a, which holds the projection lease"))
		})
	})
})
