package mongoread_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	mongoread "github.com/eventchat/eventchat/adapters/readstore/mongo"
	"github.com/eventchat/eventchat/projections"
)

// generations is a store on a database of its own per spec, a client to
// look at the server's databases, and short refresh and grace times.
type generations struct {
	base   string
	client *mongo.Client
	live   *mongoread.Store
}

func withGenerations() *generations {
	g := &generations{}
	BeforeEach(func() {
		ctx := context.Background()
		DeferCleanup(mongoread.SetTimings(100*time.Millisecond, 600*time.Millisecond))
		g.base = fmt.Sprintf("gen_%d_%d", os.Getpid(), databases.Add(1))
		var err error
		g.client, err = mongo.Connect(options.Client().ApplyURI(ferret.URI))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(g.client.Disconnect(ctx)).To(Succeed()) })
		g.live = g.open(g.base)
		DeferCleanup(func() {
			names, err := g.client.ListDatabaseNames(ctx, bson.D{{Key: "name", Value: bson.D{{Key: "$regex", Value: "^" + g.base + "(_|$)"}}}})
			Expect(err).NotTo(HaveOccurred())
			for _, n := range names {
				Expect(g.client.Database(n).Drop(ctx)).To(Succeed())
			}
		})
	})
	return g
}

// open opens a store named name, closed after the spec.
func (g *generations) open(name string) *mongoread.Store {
	GinkgoHelper()
	ctx := context.Background()
	s, err := mongoread.Open(ctx, ferret.URI, name)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { Expect(s.Close(ctx)).To(Succeed()) })
	return s
}

// databases lists the databases whose names start with the base's.
func (g *generations) databases() []string {
	GinkgoHelper()
	names, err := g.client.ListDatabaseNames(context.Background(), bson.D{{Key: "name", Value: bson.D{{Key: "$regex", Value: "^" + g.base}}}})
	Expect(err).NotTo(HaveOccurred())
	return names
}

func (g *generations) collections(db string) []string {
	GinkgoHelper()
	names, err := g.client.Database(db).ListCollectionNames(context.Background(), bson.D{})
	Expect(err).NotTo(HaveOccurred())
	return names
}

// lease is the holder of the projection lease in database db.
func (g *generations) lease(db string) string {
	GinkgoHelper()
	var l struct{ Owner string }
	Expect(g.client.Database(db).Collection("projection_lease").FindOne(context.Background(),
		bson.D{{Key: "_id", Value: "projections"}}).Decode(&l)).To(Succeed())
	return l.Owner
}

// put stores a member of tenant and the checkpoint of members.v1.
func put(s projections.ReadStore, tenant, id, name string, checkpoint uint64) {
	GinkgoHelper()
	ctx := context.Background()
	Expect(s.Update(ctx, func(tx projections.Tx) error {
		if err := tx.PutMembers(ctx, []projections.Member{{ID: id, Tenant: tenant, Account: id, Name: name}}); err != nil {
			return err
		}
		return tx.SetCheckpoint(ctx, "members.v1", checkpoint)
	})).To(Succeed())
}

func generationOf(s *mongoread.Store) int64 {
	n, _ := s.Generation()
	return n
}

// nameOf is the name of member id of x0001.
func nameOf(s projections.Queries, id string) (string, error) {
	ms, err := s.MembersByID(context.Background(), projections.Viewer{Tenant: "x0001"}, []string{id})
	return ms[id].Name, err
}

// name is the name of member id.
func name(s projections.Queries, id string) string {
	GinkgoHelper()
	n, err := nameOf(s, id)
	Expect(err).NotTo(HaveOccurred())
	return n
}

// rebuildWith folds the name m1 of member m1 into a new shadow of s and
// swaps it in.
func rebuildWith(s *mongoread.Store, m1 string, checkpoint uint64) {
	GinkgoHelper()
	ctx := context.Background()
	sh, err := s.OpenShadow(ctx)
	Expect(err).NotTo(HaveOccurred())
	put(sh, "x0001", "m1", m1, checkpoint)
	Expect(s.SwapIn(ctx, sh)).To(Succeed())
}

var _ = Describe("Generations: a rebuild's shadow and its swap", func() {
	ctx := context.Background()
	g := withGenerations()

	It("refuses database names MongoDB would refuse or that leave no room for generations", func() {
		for _, bad := range []string{"", "a.b", "a b", "a/b", "a$b", string(make([]byte, 40))} {
			_, err := mongoread.Open(ctx, ferret.URI, bad)
			Expect(err).To(HaveOccurred(), "%q", bad)
		}
		long := "a123456789012345678901234567890123456789"
		_, err := mongoread.Open(ctx, ferret.URI, long)
		Expect(err).To(MatchError(ContainSubstring("longer than 39 bytes")))
	})

	It("folds into a shadow beside the live store and swaps it in with the lease", func() {
		Expect(g.live.TakeLease(ctx, "node-a", time.Now(), time.Now().Add(time.Minute))).To(Equal("node-a"))
		put(g.live, "x0001", "m1", "old", 1)
		sh, err := g.live.OpenShadow(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(sh.Checkpoints(ctx)).To(BeEmpty())
		put(sh, "x0001", "m1", "new", 1)
		put(sh, "x0001", "m2", "two", 2)
		Expect(name(g.live, "m1")).To(Equal("old"))

		Expect(g.live.SwapIn(ctx, sh)).To(Succeed())
		n, db := g.live.Generation()
		Expect(n).To(BeEquivalentTo(2))
		Expect(db).To(Equal(g.base + "_g2"))
		Expect(name(g.live, "m1")).To(Equal("new"))
		Expect(g.live.Checkpoints(ctx)).To(Equal(map[string]uint64{"members.v1": 2}))
		// The holder writes on in the new generation; the old one's lease is
		// nobody's to take.
		put(g.live, "x0001", "m3", "three", 3)
		Expect(g.lease(g.base + "_g2")).To(Equal("node-a"))
		Expect(g.lease(g.base)).To(Equal("(moved to " + g.base + "_g2)"))
		other := g.open(g.base)
		Expect(other.TakeLease(ctx, "node-b", time.Now(), time.Now().Add(time.Minute))).To(Equal("node-a"))
		Expect(generationOf(other)).To(BeEquivalentTo(2))
		Expect(name(other, "m3")).To(Equal("three"))

		// The old generation goes once the grace has passed; g.base keeps
		// the generation document.
		Eventually(func() []string { return g.collections(g.base) }, 5*time.Second).Should(ConsistOf("generation"))
		Expect(g.databases()).To(ConsistOf(g.base, g.base+"_g2"))
	})

	It("keeps the nodes' claims through a rebuild", func() {
		until := time.Now().Add(time.Hour)
		Expect(g.live.TakeLease(ctx, "node-a", time.Now(), until)).To(Equal("node-a"))
		Expect(g.live.TakeClaim(ctx, "worker/3", "node-a#1", time.Now(), until)).To(HaveField("Owner", "node-a#1"))

		rebuildWith(g.live, "new", 1)

		Eventually(func() []string { return g.collections(g.base) }, 5*time.Second).Should(ConsistOf("generation", "node_claims"))
		other := g.open(g.base)
		Expect(other.TakeClaim(ctx, "worker/3", "node-b#2", time.Now(), until)).To(HaveField("Owner", "node-a#1"))
	})

	It("keeps the rate limits' counters through a rebuild", func() {
		Expect(g.live.TakeLease(ctx, "node-a", time.Now(), time.Now().Add(time.Hour))).To(Equal("node-a"))
		Expect(g.live.Add(ctx, "login:a", time.Now(), time.Hour)).To(Equal(int64(1)))

		rebuildWith(g.live, "new", 1)

		Eventually(func() []string { return g.collections(g.base) }, 5*time.Second).Should(ConsistOf("generation", "rate_counters"))
		other := g.open(g.base)
		Expect(other.Counted(ctx, "login:a", time.Now())).To(Equal(int64(1)))
	})

	It("keeps the uploaded files' bucket through a rebuild", func() {
		for _, c := range []string{mongoread.BlobBucket + ".files", mongoread.BlobBucket + ".chunks"} {
			_, err := g.client.Database(g.base).Collection(c).InsertOne(ctx, bson.D{{Key: "kept", Value: true}})
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(g.live.TakeLease(ctx, "node-a", time.Now(), time.Now().Add(time.Hour))).To(Equal("node-a"))

		rebuildWith(g.live, "new", 1)

		Eventually(func() []string { return g.collections(g.base) }, 5*time.Second).
			Should(ConsistOf("generation", mongoread.BlobBucket+".files", mongoread.BlobBucket+".chunks"))
	})

	It("is followed by another handle on the same store, whose queries never fail during the swaps", func() {
		put(g.live, "x0001", "m1", "gen-1", 1)
		second := g.open(g.base)
		Expect(name(second, "m1")).To(Equal("gen-1"))
		var (
			stop      = make(chan struct{})
			wg        sync.WaitGroup
			reads     atomic.Int64
			failures  atomic.Int64
			lastWrong atomic.Value
		)
		for _, s := range []*mongoread.Store{g.live, second} {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					n, err := nameOf(s, "m1")
					_, serr := s.Sessions(ctx, "m1")
					reads.Add(1)
					// An empty name would be a read of a dropped database.
					if err != nil || serr != nil || n == "" {
						failures.Add(1)
						lastWrong.Store(fmt.Sprintf("%q %v %v", n, err, serr))
					}
				}
			}()
		}
		for gen := 2; gen <= 4; gen++ {
			rebuildWith(g.live, fmt.Sprint("gen-", gen), uint64(gen))
			Expect(name(g.live, "m1")).To(Equal(fmt.Sprint("gen-", gen)))
			Eventually(func() int64 { return generationOf(second) }, 2*time.Second).Should(BeEquivalentTo(gen))
			Expect(name(second, "m1")).To(Equal(fmt.Sprint("gen-", gen)))
			time.Sleep(200 * time.Millisecond)
		}
		close(stop)
		wg.Wait()
		Expect(failures.Load()).To(BeZero(), "last: %v", lastWrong.Load())
		Expect(reads.Load()).To(BeNumerically(">", 10))
		// The engine writing through the handle that followed reloads its
		// checkpoints from the new generation first.
		err := second.Update(ctx, func(tx projections.Tx) error { return tx.SetCheckpoint(ctx, "members.v1", 9) })
		Expect(err).To(MatchError(projections.ErrLeaseLost))
		Eventually(g.databases, 5*time.Second).Should(ConsistOf(g.base, g.base+"_g4"))
		Expect(g.collections(g.base)).To(ConsistOf("generation"))
	})

	It("resumes the shadow of an interrupted rebuild and starts afresh from one it cannot use", func() {
		put(g.live, "x0001", "m1", "live", 1)
		sh, err := g.live.OpenShadow(ctx)
		Expect(err).NotTo(HaveOccurred())
		put(sh, "x0001", "m1", "half-way", 7)
		Expect(g.live.CloseShadow(sh)).To(Succeed())

		sh, err = g.live.OpenShadow(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(sh.Checkpoints(ctx)).To(Equal(map[string]uint64{"members.v1": 7}))
		Expect(name(sh, "m1")).To(Equal("half-way"))
		Expect(g.live.CloseShadow(sh)).To(Succeed())

		// A shadow of another shape of the documents.
		_, err = g.client.Database(g.base+"_g2").Collection("store_info").UpdateOne(ctx, bson.D{{Key: "_id", Value: "shadow"}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "schema", Value: 999}}}})
		Expect(err).NotTo(HaveOccurred())
		sh, err = g.live.OpenShadow(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(sh.Checkpoints(ctx)).To(BeEmpty())
		Expect(name(sh, "m1")).To(BeEmpty())
		put(sh, "x0001", "m1", "fresh", 1)
		Expect(g.live.SwapIn(ctx, sh)).To(Succeed())
		Expect(name(g.live, "m1")).To(Equal("fresh"))
	})

	It("drops at Open the old generation a crash left once its grace has passed, and day-old scratch stores", func() {
		put(g.live, "x0001", "m1", "gen-1", 1)
		rebuildWith(g.live, "gen-2", 1)
		// Closed before the grace ends: as a crash would, it leaves the old
		// generation.
		Expect(g.live.Close(ctx)).To(Succeed())
		Expect(g.collections(g.base)).To(ContainElement("members"))
		for id, age := range map[string]time.Duration{"old": 48 * time.Hour, "young": time.Minute} {
			_, err := g.client.Database(g.base+"_verify_"+id).Collection("store_info").InsertOne(ctx,
				bson.D{{Key: "_id", Value: "scratch"}, {Key: "base", Value: g.base}, {Key: "createdAt", Value: time.Now().Add(-age).UnixNano()}})
			Expect(err).NotTo(HaveOccurred())
		}
		time.Sleep(700 * time.Millisecond)

		g.live = g.open(g.base)
		Expect(g.collections(g.base)).To(ConsistOf("generation"))
		Expect(g.databases()).To(ConsistOf(g.base, g.base+"_g2", g.base+"_verify_young"))
		Expect(name(g.live, "m1")).To(Equal("gen-2"))
	})

	It("refuses to swap unless its owner holds the lease, changing nothing", func() {
		put(g.live, "x0001", "m1", "live", 1)
		other := g.open(g.base)
		Expect(other.TakeLease(ctx, "node-b", time.Now(), time.Now().Add(time.Minute))).To(Equal("node-b"))
		sh, err := g.live.OpenShadow(ctx)
		Expect(err).NotTo(HaveOccurred())
		put(sh, "x0001", "m1", "shadow", 1)

		err = g.live.SwapIn(ctx, sh)
		Expect(err).To(MatchError(projections.ErrLeaseLost))
		Expect(err).To(MatchError(ContainSubstring("node-b holds it")))
		Expect(generationOf(g.live)).To(BeEquivalentTo(1))
		Expect(name(g.live, "m1")).To(Equal("live"))
		Expect(g.lease(g.base)).To(Equal("node-b"))
		Expect(g.collections(g.base)).NotTo(ContainElement("generation"))
		Expect(g.live.CloseShadow(sh)).To(Succeed())
		// The shadow stays for a rebuild on the holder to resume.
		sh, err = other.OpenShadow(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(name(sh, "m1")).To(Equal("shadow"))
		Expect(other.SwapIn(ctx, sh)).To(Succeed())
		Expect(name(other, "m1")).To(Equal("shadow"))
	})

})
