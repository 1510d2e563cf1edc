// Package gridfs keeps uploaded files in GridFS, in a MongoDB database that
// every node shares: a file uploaded through one node is served by all. A
// file's GridFS name is <tenant>/<stored name>; the stored names are
// blobstore.NewName's, as on disk. The files are in GridFS's layout
// (<bucket>.files and <bucket>.chunks, 255 KiB chunks), which any GridFS
// client reads; the store writes and reads the chunks itself, one at a time,
// where the driver's bucket would hold 16 MiB of each upload and read every
// chunk before a range.
package gridfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/adapters/blobstore"
	"github.com/eventchat/eventchat/domain/chat"
)

// Store is a GridFS bucket.
type Store struct {
	client        *mongo.Client
	files, chunks *mongo.Collection
	// swept holds how far the collection of orphaned chunks has gone,
	// shared by the nodes (see CollectOrphans).
	swept *mongo.Collection
}

// Open connects to the MongoDB at uri and returns the store of the bucket
// named bucket in database.
func Open(ctx context.Context, uri, database, bucket string) (*Store, error) {
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		return nil, fmt.Errorf("gridfs: connect: %w", err)
	}
	if err := client.Ping(ctx, nil); err != nil {
		return nil, errors.Join(fmt.Errorf("gridfs: ping: %w", err), client.Disconnect(context.WithoutCancel(ctx)))
	}
	db := client.Database(database)
	s := &Store{client: client, files: db.Collection(bucket + ".files"), chunks: db.Collection(bucket + ".chunks"),
		swept: db.Collection(bucket + ".swept")}
	if err := s.ensureIndexes(ctx); err != nil {
		return nil, errors.Join(err, client.Disconnect(context.WithoutCancel(ctx)))
	}
	return s, nil
}

// ensureIndexes creates GridFS's indexes: a file by its name, a chunk by its
// file and number.
func (s *Store) ensureIndexes(ctx context.Context) error {
	if _, err := s.files.Indexes().CreateOne(ctx, mongo.IndexModel{
		Keys: bson.D{{Key: "filename", Value: int32(1)}, {Key: "uploadDate", Value: int32(1)}},
	}); err != nil {
		return fmt.Errorf("gridfs: index the files: %w", err)
	}
	if _, err := s.chunks.Indexes().CreateOne(ctx, mongo.IndexModel{
		Keys:    bson.D{{Key: "files_id", Value: int32(1)}, {Key: "n", Value: int32(1)}},
		Options: options.Index().SetUnique(true),
	}); err != nil {
		return fmt.Errorf("gridfs: index the chunks: %w", err)
	}
	return nil
}

// Close disconnects from the server.
func (s *Store) Close(ctx context.Context) error { return s.client.Disconnect(ctx) }

// chunkSize is GridFS's default size of a chunk.
const chunkSize = 255 * 1024

// Save streams src, uploaded by the member uploader, into a new file of
// tenant stored under a new name with extension ext, and returns the name and
// the number of bytes stored. Each chunk is written once read, and the files
// document, which makes the file visible, last. When src fails (its error is
// returned, wrapped) or ctx ends, the chunks written are deleted and no file
// is stored.
func (s *Store) Save(ctx context.Context, tenant, uploader, ext string, src io.Reader) (string, int64, error) {
	name, err := blobstore.NewName(tenant, uploader, ext)
	if err != nil {
		return "", 0, err
	}
	id := bson.NewObjectID()
	// The writes outlive ctx so that an upload cut short can still delete
	// its chunks; the reads stop when ctx ends.
	write := context.WithoutCancel(ctx)
	r := blobstore.WithContext(ctx, src)
	buf := make([]byte, chunkSize)
	var size int64
	for n := 0; ; n++ {
		k, err := fill(r, buf)
		if k > 0 {
			if _, werr := s.chunks.InsertOne(write, bson.D{{Key: "files_id", Value: id}, {Key: "n", Value: int32(n)}, {Key: "data", Value: buf[:k]}}); werr != nil {
				err = fmt.Errorf("gridfs: %w", werr)
			}
			size += int64(k)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			_, derr := s.chunks.DeleteMany(write, bson.D{{Key: "files_id", Value: id}})
			return "", 0, errors.Join(err, derr)
		}
	}
	_, err = s.files.InsertOne(write, bson.D{
		{Key: "_id", Value: id}, {Key: "length", Value: size}, {Key: "chunkSize", Value: int32(chunkSize)},
		{Key: "uploadDate", Value: time.Now()}, {Key: "filename", Value: tenant + "/" + name},
	})
	if err != nil {
		_, derr := s.chunks.DeleteMany(write, bson.D{{Key: "files_id", Value: id}})
		return "", 0, errors.Join(fmt.Errorf("gridfs: %w", err), derr)
	}
	return name, size, nil
}

// fill reads r into buf until buf is full or r fails; a source's io.EOF
// is returned as is, never mistaken for the io.ErrUnexpectedEOF of a body
// cut short.
func fill(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		k, err := r.Read(buf[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// Open opens a stored file for reading and seeking, with its time of
// storing. A name that is not stored, or not of the stored form, is
// fs.ErrNotExist.
func (s *Store) Open(ctx context.Context, tenant, name string) (io.ReadSeekCloser, time.Time, error) {
	f, err := s.find(ctx, tenant, name)
	if err != nil {
		return nil, time.Time{}, err
	}
	return &reader{ctx: ctx, chunks: s.chunks, id: f.ID, size: f.Length, chunkSize: int64(f.ChunkSize)}, f.UploadDate, nil
}

// Size returns a stored file's size; found is false when there is none of
// that name.
func (s *Store) Size(ctx context.Context, tenant, name string) (int64, bool, error) {
	f, err := s.find(ctx, tenant, name)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return f.Length, true, nil
}

// file is what the store reads of a GridFS files document.
type file struct {
	ID         bson.ObjectID `bson:"_id"`
	Length     int64         `bson:"length"`
	ChunkSize  int32         `bson:"chunkSize"`
	UploadDate time.Time     `bson:"uploadDate"`
}

func (s *Store) find(ctx context.Context, tenant, name string) (file, error) {
	var f file
	if !chat.ValidStoredName(name) {
		return f, fs.ErrNotExist
	}
	err := s.files.FindOne(ctx, bson.D{{Key: "filename", Value: tenant + "/" + name}}).Decode(&f)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return f, fs.ErrNotExist
	}
	if err != nil {
		return f, fmt.Errorf("gridfs: %w", err)
	}
	return f, nil
}

// reader reads a stored file from its offset: a seek starts a query of the
// chunks from the one holding the offset, so that a range near the end of
// a large file reads no chunk before it. The query fetches a few chunks at a
// time.
type reader struct {
	ctx       context.Context
	chunks    *mongo.Collection
	id        bson.ObjectID
	size      int64
	chunkSize int64
	offset    int64
	cursor    *mongo.Cursor
	buf       []byte // the rest of the current chunk
}

// chunksPerBatch bounds what a download holds: about a megabyte.
const chunksPerBatch = 4

// errChunk reports a chunk missing or of the wrong size.
var errChunk = errors.New("gridfs: a chunk of the file is missing or of the wrong size")

func (r *reader) Read(p []byte) (int, error) {
	if r.offset >= r.size {
		return 0, io.EOF
	}
	if len(r.buf) == 0 {
		if err := r.load(); err != nil {
			return 0, err
		}
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	r.offset += int64(n)
	return n, nil
}

// load reads the chunk that holds the offset.
func (r *reader) load() error {
	if r.chunkSize <= 0 {
		return errChunk
	}
	want := r.offset / r.chunkSize
	if r.cursor == nil {
		cur, err := r.chunks.Find(r.ctx,
			bson.D{{Key: "files_id", Value: r.id}, {Key: "n", Value: bson.D{{Key: "$gte", Value: want}}}},
			options.Find().SetSort(bson.D{{Key: "n", Value: 1}}).SetBatchSize(chunksPerBatch))
		if err != nil {
			return fmt.Errorf("gridfs: %w", err)
		}
		r.cursor = cur
	}
	if !r.cursor.Next(r.ctx) {
		if err := r.cursor.Err(); err != nil {
			return fmt.Errorf("gridfs: %w", err)
		}
		return errChunk
	}
	var c struct {
		N    int64  `bson:"n"`
		Data []byte `bson:"data"`
	}
	if err := r.cursor.Decode(&c); err != nil {
		return fmt.Errorf("gridfs: %w", err)
	}
	skip := r.offset % r.chunkSize
	if c.N != want || int64(len(c.Data)) != min(r.chunkSize, r.size-want*r.chunkSize) {
		return errChunk
	}
	r.buf = c.Data[skip:]
	return nil
}

func (r *reader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		offset += r.offset
	case io.SeekEnd:
		offset += r.size
	}
	if offset < 0 {
		return 0, errors.New("gridfs: seek before the start")
	}
	if offset != r.offset {
		r.buf = nil
		if err := r.Close(); err != nil {
			return 0, err
		}
		r.offset = offset
	}
	return offset, nil
}

func (r *reader) Close() error {
	if r.cursor == nil {
		return nil
	}
	cur := r.cursor
	r.cursor = nil
	if err := cur.Close(context.WithoutCancel(r.ctx)); err != nil {
		return fmt.Errorf("gridfs: %w", err)
	}
	return nil
}

// deleteBatch bounds the files one round of DeleteUploads deletes at once.
const deleteBatch = 500

// DeleteUploads deletes every file of tenant uploaded by one of members
// (chat.UploadedBy) and returns how many it deleted. It reads every name of
// the tenant once. A file's chunks go first and its files document last,
// so that a round cut short leaves the document, which the next round finds
// again, never chunks that nothing names.
func (s *Store) DeleteUploads(ctx context.Context, tenant string, members []string) (int, error) {
	if !blobstore.ValidTenant(tenant) {
		return 0, blobstore.ErrInvalid
	}
	if len(members) == 0 {
		return 0, nil
	}
	cur, err := s.files.Find(ctx, bson.D{{Key: "filename", Value: bson.D{{Key: "$regex", Value: "^" + tenant + "/"}}}},
		options.Find().SetProjection(bson.D{{Key: "filename", Value: int32(1)}}))
	if err != nil {
		return 0, fmt.Errorf("gridfs: list the files of %s: %w", tenant, err)
	}
	defer func() { _ = cur.Close(context.WithoutCancel(ctx)) }()
	deleted := 0
	var ids []bson.ObjectID
	flush := func() error {
		if len(ids) == 0 {
			return nil
		}
		in := bson.D{{Key: "$in", Value: ids}}
		if _, err := s.chunks.DeleteMany(ctx, bson.D{{Key: "files_id", Value: in}}); err != nil {
			return fmt.Errorf("gridfs: delete uploads: %w", err)
		}
		r, err := s.files.DeleteMany(ctx, bson.D{{Key: "_id", Value: in}})
		if err != nil {
			return fmt.Errorf("gridfs: delete uploads: %w", err)
		}
		deleted += int(r.DeletedCount)
		ids = ids[:0]
		return nil
	}
	for cur.Next(ctx) {
		var f struct {
			ID       bson.ObjectID `bson:"_id"`
			Filename string        `bson:"filename"`
		}
		if err := cur.Decode(&f); err != nil {
			return deleted, fmt.Errorf("gridfs: %w", err)
		}
		if !chat.UploadedByAny(strings.TrimPrefix(f.Filename, tenant+"/"), members) {
			continue
		}
		ids = append(ids, f.ID)
		if len(ids) == deleteBatch {
			if err := flush(); err != nil {
				return deleted, err
			}
		}
	}
	if err := cur.Err(); err != nil {
		return deleted, fmt.Errorf("gridfs: list the files of %s: %w", tenant, err)
	}
	return deleted, flush()
}
