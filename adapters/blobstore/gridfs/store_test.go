package gridfs_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"
	"time"

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

	Describe("collecting the chunks of uploads a crash cut short", func() {
		chunks := func() *mongo.Collection { return db.Collection("uploads.chunks") }
		// writeChunks writes the chunks of file id as an upload does, each
		// with an id of the time given.
		writeChunks := func(id bson.ObjectID, at ...time.Time) {
			GinkgoHelper()
			for n, t := range at {
				_, err := chunks().InsertOne(ctx, bson.D{{Key: "_id", Value: bson.NewObjectIDFromTimestamp(t)},
					{Key: "files_id", Value: id}, {Key: "n", Value: int32(n)}, {Key: "data", Value: make([]byte, 10)}})
				Expect(err).NotTo(HaveOccurred())
			}
		}
		chunksOf := func(id bson.ObjectID) int64 {
			GinkgoHelper()
			n, err := chunks().CountDocuments(ctx, bson.D{{Key: "files_id", Value: id}})
			Expect(err).NotTo(HaveOccurred())
			return n
		}

		It("deletes them once their last chunk is older than the grace, and leaves uploads in progress and stored files alone", func() {
			now := time.Now()
			old := now.Add(-gridfs.OrphanGrace - time.Minute)
			stored, _, err := store.Save(ctx, "x0001", "m1", "bin", bytes.NewReader(make([]byte, 300*1024)))
			Expect(err).NotTo(HaveOccurred())
			crashed := bson.NewObjectIDFromTimestamp(old)
			writeChunks(crashed, old, old, old)
			slow := bson.NewObjectIDFromTimestamp(old)
			writeChunks(slow, old, now)

			By("an upload in progress, one chunk written")
			src, feed := io.Pipe()
			saved := make(chan error, 1)
			go func() {
				_, _, err := store.Save(ctx, "x0001", "m1", "bin", src)
				saved <- err
			}()
			_, err = feed.Write(make([]byte, 256*1024))
			Expect(err).NotTo(HaveOccurred())
			Eventually(func() int64 {
				n, err := chunks().CountDocuments(ctx, bson.D{})
				Expect(err).NotTo(HaveOccurred())
				return n
			}).Should(Equal(int64(2 + 3 + 2 + 1)))

			By("two rounds at once")
			type round struct {
				deleted int64
				err     error
			}
			rounds := make(chan round, 2)
			for range 2 {
				go func() {
					n, err := store.CollectOrphans(ctx, now)
					rounds <- round{n, err}
				}()
			}
			a, b := <-rounds, <-rounds
			Expect(a.err).NotTo(HaveOccurred())
			Expect(b.err).NotTo(HaveOccurred())
			Expect(a.deleted + b.deleted).To(Equal(int64(3)))
			Expect(chunksOf(crashed)).To(BeZero())
			Expect(chunksOf(slow)).To(Equal(int64(2)))

			By("the upload in progress ends and reads back whole")
			_, err = feed.Write(make([]byte, 1024))
			Expect(err).NotTo(HaveOccurred())
			Expect(feed.Close()).To(Succeed())
			Expect(<-saved).To(Succeed())
			Expect(kept()).To(Equal(2 + 2 + 2 + 2)) // two files and their chunks, and the slow upload's
			f, _, err := store.Open(ctx, "x0001", stored)
			Expect(err).NotTo(HaveOccurred())
			defer f.Close()
			data, err := io.ReadAll(f)
			Expect(err).NotTo(HaveOccurred())
			Expect(data).To(HaveLen(300 * 1024))

			By("a later round, once the slow upload's last chunk is older than the grace too")
			Expect(store.CollectOrphans(ctx, now)).To(BeZero())
			Expect(store.CollectOrphans(ctx, now.Add(gridfs.OrphanGrace+time.Minute))).To(Equal(int64(2)))
			Expect(chunksOf(slow)).To(BeZero())
			Expect(kept()).To(Equal(2 + 2 + 2))
		})
	})
})
