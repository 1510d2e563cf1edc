package mongoread_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/httpapi"
	"github.com/eventchat/eventchat/adapters/keystore/keystoretest"
	mongoread "github.com/eventchat/eventchat/adapters/readstore/mongo"
	"github.com/eventchat/eventchat/adapters/readstore/mongo/ferrettest"
	"github.com/eventchat/eventchat/adapters/readstore/readstoretest"
	"github.com/eventchat/eventchat/nodes"
	"github.com/eventchat/eventchat/projections"
)

var (
	ferret    *ferrettest.Server
	databases atomic.Int64
	// databaseOf names the database of each spec's directory.
	databaseOf sync.Map
)

var _ = BeforeSuite(func() {
	var err error
	ferret, err = ferrettest.Start(GinkgoT().TempDir(), GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { Expect(ferret.Stop()).To(Succeed()) })
})

// factory opens a store on a new database of the server at *uri, skipping
// the spec when *uri is empty; upserts forces the writes made for MongoDB.
func factory(uri *string, skip string, upserts bool) readstoretest.Factory {
	return func(dir string) (projections.ReadStore, func()) {
		if *uri == "" {
			Skip(skip)
		}
		ctx := context.Background()
		name, _ := databaseOf.LoadOrStore(dir, fmt.Sprintf("eventchat_test_%d_%d", os.Getpid(), databases.Add(1)))
		s, err := mongoread.Open(ctx, *uri, name.(string))
		Expect(err).NotTo(HaveOccurred())
		if upserts {
			mongoread.UseUpserts(s)
		}
		return s, func() {
			Expect(s.DropDatabase(ctx)).To(Succeed())
			Expect(s.Close(ctx)).To(Succeed())
		}
	}
}

var (
	ferretURI string
	mongoURI  = os.Getenv("IM_TEST_MONGO")
)

var _ = BeforeEach(func() { ferretURI = ferret.URI })

var _ = readstoretest.DescribeReadStore("FerretDB (embedded)", factory(&ferretURI, "", false))

var _ = readstoretest.DescribeReadStore("FerretDB (embedded) with MongoDB's upserts", factory(&ferretURI, "", true))

var _ = readstoretest.DescribeReadStore("MongoDB", factory(&mongoURI,
	"set IM_TEST_MONGO to a MongoDB URI (e.g. mongodb://localhost:27017) to run the contract against MongoDB", false))

var _ = readstoretest.DescribeClaims("FerretDB (embedded)", claimsFactory(&ferretURI, ""))

var _ = readstoretest.DescribeClaims("MongoDB", claimsFactory(&mongoURI,
	"set IM_TEST_MONGO to a MongoDB URI (e.g. mongodb://localhost:27017) to run the contract against MongoDB"))

var _ = readstoretest.DescribeCounters("FerretDB (embedded)", countersFactory(&ferretURI, ""),
	"FerretDB 1.24 updates a document by reading it and replacing it, not atomically: concurrent counts may be lost")

var _ = readstoretest.DescribeCounters("MongoDB", countersFactory(&mongoURI,
	"set IM_TEST_MONGO to a MongoDB URI (e.g. mongodb://localhost:27017) to run the contract against MongoDB"), "")

var _ = keystoretest.DescribeKeys("FerretDB (embedded)", keysFactory(&ferretURI, ""))

var _ = keystoretest.DescribeKeys("MongoDB", keysFactory(&mongoURI,
	"set IM_TEST_MONGO to a MongoDB URI (e.g. mongodb://localhost:27017) to run the contract against MongoDB"))

// keysFactory opens the data keys of a store as factory does.
func keysFactory(uri *string, skip string) keystoretest.Factory {
	stores := factory(uri, skip, false)
	return func(dir string) (keystoretest.Keys, func()) {
		s, closeStore := stores(dir)
		return s.(*mongoread.Store), closeStore
	}
}

// countersFactory opens the counters of a store as factory does.
func countersFactory(uri *string, skip string) readstoretest.CountersFactory {
	stores := factory(uri, skip, false)
	return func(dir string) (httpapi.Counters, func()) {
		s, closeStore := stores(dir)
		return s.(*mongoread.Store), closeStore
	}
}

// claimsFactory opens the claims of a store as factory does.
func claimsFactory(uri *string, skip string) readstoretest.ClaimsFactory {
	stores := factory(uri, skip, false)
	return func(dir string) (nodes.Claims, func()) {
		s, closeStore := stores(dir)
		return s.(*mongoread.Store), closeStore
	}
}

var _ = Describe("Open", func() {
	It("tells FerretDB from MongoDB", func() {
		ctx := context.Background()
		s, err := mongoread.Open(ctx, ferret.URI, fmt.Sprintf("eventchat_test_%d_open", os.Getpid()))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(s.Close(ctx)).To(Succeed()) })
		Expect(mongoread.OnFerretDB(s)).To(BeTrue())
	})
})
