package esdb_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	client "github.com/EventStore/EventStore-Client-Go/v4/esdb"
	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/eventchat/eventchat/adapters/eventstore/esdb/esdbtest"
)

// The double answers the official client as EventStoreDB does where the
// adapter's correctness depends on it.
var _ = Describe("The esdbtest double, through the official client", func() {
	var (
		ctx    context.Context
		path   string
		server *esdbtest.Server
		db     *client.Client
		stream string
	)
	BeforeEach(func() {
		ctx = context.Background()
		path = filepath.Join(GinkgoT().TempDir(), "double.db")
		var err error
		server, err = esdbtest.Start(path)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { _ = server.Close() })
		db = officialClient(server)
		DeferCleanup(func() { _ = db.Close() })
		stream = "t1.chat-" + uuid.NewString()
	})

	event := func() client.EventData {
		return client.EventData{EventID: uuid.New(), EventType: "TestEvent", ContentType: client.ContentTypeJson, Data: []byte(`{"a":1}`)}
	}
	appendTo := func(expected client.ExpectedRevision, evs ...client.EventData) (*client.WriteResult, error) {
		return db.AppendToStream(ctx, stream, client.AppendToStreamOptions{ExpectedRevision: expected}, evs...)
	}
	revisions := func() []uint64 {
		GinkgoHelper()
		rs, err := db.ReadStream(ctx, stream, client.ReadStreamOptions{From: client.Start{}}, 100)
		Expect(err).NotTo(HaveOccurred())
		defer rs.Close()
		var out []uint64
		for {
			e, err := rs.Recv()
			var missing *client.Error
			if errors.Is(err, io.EOF) || errors.As(err, &missing) && missing.Code() == client.ErrorCodeResourceNotFound {
				return out
			}
			Expect(err).NotTo(HaveOccurred())
			out = append(out, e.Event.EventNumber)
		}
	}
	isWrongVersion := func(err error) bool {
		var e *client.Error
		return errors.As(err, &e) && e.Code() == client.ErrorCodeWrongExpectedVersion
	}

	It("numbers $all by byte offsets with gaps, the same after a restart, commit = prepare", func() {
		var positions []client.Position
		for range 3 {
			w, err := appendTo(client.Any{}, event())
			Expect(err).NotTo(HaveOccurred())
			positions = append(positions, client.Position{Commit: w.CommitPosition, Prepare: w.PreparePosition})
		}
		for i, p := range positions {
			Expect(p.Prepare).To(Equal(p.Commit))
			if i > 0 {
				Expect(p.Commit).To(BeNumerically(">", positions[i-1].Commit+1))
			}
		}
		Expect(db.Close()).To(Succeed())
		Expect(server.Close()).To(Succeed())
		var err error
		server, err = esdbtest.Start(path)
		Expect(err).NotTo(HaveOccurred())
		db = officialClient(server)
		rs, err := db.ReadAll(ctx, client.ReadAllOptions{From: client.Start{}}, 10)
		Expect(err).NotTo(HaveOccurred())
		defer rs.Close()
		for _, want := range positions {
			e, err := rs.Recv()
			Expect(err).NotTo(HaveOccurred())
			Expect(e.Event.Position).To(Equal(want))
		}
	})

	It("refuses to read $all from a position that is no record boundary, as the server's reader does", func() {
		w, err := appendTo(client.Any{}, event(), event())
		Expect(err).NotTo(HaveOccurred())
		rs, err := db.ReadAll(ctx, client.ReadAllOptions{From: client.Position{Commit: w.CommitPosition - 1, Prepare: w.CommitPosition - 1}}, 10)
		Expect(err).NotTo(HaveOccurred())
		defer rs.Close()
		_, err = rs.Recv()
		st, ok := status.FromError(err)
		Expect(ok).To(BeTrue(), fmt.Sprint(err))
		Expect(st.Code()).To(Equal(codes.Unknown))
		Expect(st.Message()).To(HaveSuffix("desc = Unexpected ReadAllResult: InvalidPosition"))
	})

	It("refuses an append over 1 MiB with the server's MaximumAppendSizeExceeded status", func() {
		big := event()
		big.Data = make([]byte, 1<<20)
		_, err := appendTo(client.Any{}, big)
		st, ok := status.FromError(err)
		Expect(ok).To(BeTrue(), fmt.Sprint(err))
		Expect(st.Code()).To(Equal(codes.InvalidArgument))
		Expect(st.Message()).To(HaveSuffix("desc = Maximum Append Size of 1048576 Exceeded."))
		Expect(revisions()).To(BeEmpty())
	})

	Describe("idempotency, as IndexWriter.CheckCommit decides it", func() {
		var first []client.EventData
		var written *client.WriteResult
		BeforeEach(func() {
			first = []client.EventData{event(), event()}
			var err error
			written, err = appendTo(client.NoStream{}, first...)
			Expect(err).NotTo(HaveOccurred())
		})

		It("answers a retry with Any with the first append, appending nothing", func() {
			again, err := appendTo(client.Any{}, first...)
			Expect(err).NotTo(HaveOccurred())
			Expect(again.NextExpectedVersion).To(Equal(written.NextExpectedVersion))
			Expect(again.CommitPosition).To(Equal(written.CommitPosition))
			Expect(revisions()).To(Equal([]uint64{0, 1}))
		})

		It("answers a retry with the same expected revision with the first append", func() {
			again, err := appendTo(client.NoStream{}, first...)
			Expect(err).NotTo(HaveOccurred())
			Expect(again.NextExpectedVersion).To(Equal(uint64(1)))
			Expect(again.CommitPosition).To(Equal(written.CommitPosition))
			Expect(revisions()).To(Equal([]uint64{0, 1}))
		})

		It("appends the same ids again when the expected revision is the stream's current one", func() {
			again, err := appendTo(client.Revision(1), first...)
			Expect(err).NotTo(HaveOccurred())
			Expect(again.NextExpectedVersion).To(Equal(uint64(3)))
			Expect(revisions()).To(Equal([]uint64{0, 1, 2, 3}))
		})

		It("refuses other ids after an older revision, and a retry only partly the same", func() {
			_, err := appendTo(client.NoStream{}, event())
			Expect(isWrongVersion(err)).To(BeTrue(), fmt.Sprint(err))
			_, err = appendTo(client.NoStream{}, first[0], event())
			Expect(isWrongVersion(err)).To(BeTrue(), fmt.Sprint(err))
			_, err = appendTo(client.Any{}, first[0], event())
			Expect(isWrongVersion(err)).To(BeTrue(), fmt.Sprint(err))
			Expect(revisions()).To(Equal([]uint64{0, 1}))
		})

		It("appends with Any ids first written to another stream", func() {
			other := stream
			stream = "t1.chat-" + uuid.NewString()
			_, err := appendTo(client.Any{}, first...)
			Expect(err).NotTo(HaveOccurred())
			Expect(revisions()).To(Equal([]uint64{0, 1}))
			stream = other
			Expect(revisions()).To(Equal([]uint64{0, 1}))
		})
	})
})
