package gridfs_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/adapters/blobstore/blobtest"
	"github.com/eventchat/eventchat/adapters/blobstore/gridfs"
	"github.com/eventchat/eventchat/adapters/readstore/mongo/ferrettest"
)

func TestGridFS(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "GridFS blob store")
}

var ferret *ferrettest.Server

var _ = BeforeSuite(func() {
	var err error
	ferret, err = ferrettest.Start(GinkgoT().TempDir(), GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { Expect(ferret.Stop()).To(Succeed()) })
})

var _ = Describe("The GridFS blob store on FerretDB", func() {
	ctx := context.Background()
	var store *gridfs.Store
	var db *mongo.Database
	n := 0
	BeforeEach(func() {
		n++
		name := fmt.Sprint("blobs", n)
		var err error
		store, err = gridfs.Open(ctx, ferret.URI, name, "uploads")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(store.Close(ctx)).To(Succeed()) })
		client, err := mongo.Connect(options.Client().ApplyURI(ferret.URI))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(client.Disconnect(ctx)).To(Succeed()) })
		db = client.Database(name)
	})

	// kept counts the files and chunks of the bucket.
	kept := func() int {
		total := 0
		for _, c := range []string{"uploads.files", "uploads.chunks"} {
			k, err := db.Collection(c).CountDocuments(ctx, bson.D{})
			Expect(err).NotTo(HaveOccurred())
			total += int(k)
		}
		return total
	}

	blobtest.Specs(func() blobtest.Store { return store }, kept)

	It("keeps a file in the bucket's collections, named <tenant>/<name>", func() {
		name, _, err := store.Save(ctx, "x0001", "m1", "png", bytes.NewReader(make([]byte, 300*1024)))
		Expect(err).NotTo(HaveOccurred())
		var f struct {
			Filename string `bson:"filename"`
		}
		Expect(db.Collection("uploads.files").FindOne(ctx, bson.D{}).Decode(&f)).To(Succeed())
		Expect(f.Filename).To(Equal("x0001/" + name))
		Expect(db.Collection("uploads.chunks").CountDocuments(ctx, bson.D{})).To(Equal(int64(2)))
	})

	It("writes GridFS's layout, which the driver's bucket reads", func() {
		data := make([]byte, 600*1024+7)
		for i := range data {
			data[i] = byte(i % 251)
		}
		name, _, err := store.Save(ctx, "x0001", "m1", "bin", bytes.NewReader(data))
		Expect(err).NotTo(HaveOccurred())
		var out bytes.Buffer
		_, err = db.GridFSBucket(options.GridFSBucket().SetName("uploads")).DownloadToStreamByName(ctx, "x0001/"+name, &out)
		Expect(err).NotTo(HaveOccurred())
		Expect(bytes.Equal(out.Bytes(), data)).To(BeTrue())
	})

	It("fails a read that reaches a missing chunk instead of ending the file early", func() {
		name, _, err := store.Save(ctx, "x0001", "m1", "bin", bytes.NewReader(make([]byte, 600*1024)))
		Expect(err).NotTo(HaveOccurred())
		_, err = db.Collection("uploads.chunks").DeleteOne(ctx, bson.D{{Key: "n", Value: 1}})
		Expect(err).NotTo(HaveOccurred())
		f, _, err := store.Open(ctx, "x0001", name)
		Expect(err).NotTo(HaveOccurred())
		defer f.Close()
		_, err = io.ReadAll(f)
		Expect(err).To(MatchError(ContainSubstring("chunk of the file is missing")))
	})
})
