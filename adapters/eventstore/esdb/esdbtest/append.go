package esdbtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/EventStore/EventStore-Client-Go/v4/protos/shared"
	api "github.com/EventStore/EventStore-Client-Go/v4/protos/streams"
	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/eventchat/eventchat/domain/es"
)

// maxAppendSize is EventStoreDB's default MaxAppendSize.
const maxAppendSize = 1 << 20

// Append reads the options, then the proposed messages, decides the append
// as EventStoreDB's IndexWriter.CheckCommit does and appends in one SQLite
// append. Appends to one stream are decided one at a time.
func (s *streams) Append(srv api.Streams_AppendServer) error {
	first, err := srv.Recv()
	if err != nil {
		return err
	}
	opts := first.GetOptions()
	if opts == nil {
		return status.Error(codes.InvalidArgument, "append: the first message must hold the options")
	}
	stream := string(opts.GetStreamIdentifier().GetStreamName())
	expected, err := expectedFromProto(opts)
	if err != nil {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	now := time.Now()
	var (
		events []es.EventData
		ids    []uuid.UUID
		size   int
	)
	for {
		req, err := srv.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		m := req.GetProposedMessage()
		if m == nil {
			return status.Error(codes.InvalidArgument, "append: options sent twice")
		}
		if size += sizeOnDisk(m); size > maxAppendSize {
			return maxAppendSizeExceeded(srv)
		}
		e, id, err := fromProposed(m, now)
		if err != nil {
			return status.Error(codes.InvalidArgument, err.Error())
		}
		events, ids = append(events, e), append(ids, id)
	}
	unlock := s.lockStream(stream)
	defer unlock()
	ctx := srv.Context()
	if err := s.pos.catchUp(ctx); err != nil {
		return status.Error(codes.Internal, err.Error())
	}
	cur, exists, err := s.lastRevision(ctx, stream)
	if err != nil {
		return err
	}
	d, err := s.checkCommit(ctx, stream, expected, cur, exists, ids)
	switch {
	case err != nil:
		return err
	case d.wrong:
		return srv.SendAndClose(&api.AppendResp{Result: wrongExpectedVersion(cur, exists, opts)})
	case d.idempotent:
		return srv.SendAndClose(success(d.revision, d.position))
	case len(events) == 0:
		ok := &api.AppendResp_Success{
			CurrentRevisionOption: &api.AppendResp_Success_NoStream{NoStream: &shared.Empty{}},
			PositionOption:        &api.AppendResp_Success_NoPosition{NoPosition: &shared.Empty{}},
		}
		if exists {
			ok.CurrentRevisionOption = &api.AppendResp_Success_CurrentRevision{CurrentRevision: cur}
		}
		return srv.SendAndClose(&api.AppendResp{Result: &api.AppendResp_Success_{Success: ok}})
	}
	res, err := s.store.Append(ctx, stream, expected, events)
	if err != nil {
		return status.Error(codes.Internal, err.Error())
	}
	pos, err := s.pos.of(ctx, res.Position)
	if err != nil {
		return status.Error(codes.Internal, err.Error())
	}
	return srv.SendAndClose(success(res.NextRevision, pos))
}

// maxAppendSizeExceeded is EventStoreDB's RpcExceptions.MaxAppendSizeExceeded.
func maxAppendSizeExceeded(srv api.Streams_AppendServer) error {
	srv.SetTrailer(metadata.Pairs("exception", "maximum-append-size-exceeded", "maximum-append-size", strconv.Itoa(maxAppendSize)))
	return status.Errorf(codes.InvalidArgument, "Maximum Append Size of %d Exceeded.", maxAppendSize)
}

func success(revision, pos uint64) *api.AppendResp {
	return &api.AppendResp{Result: &api.AppendResp_Success_{Success: &api.AppendResp_Success{
		CurrentRevisionOption: &api.AppendResp_Success_CurrentRevision{CurrentRevision: revision},
		PositionOption: &api.AppendResp_Success_Position{Position: &api.AppendResp_Position{
			CommitPosition: pos, PreparePosition: pos,
		}},
	}}}
}

// decision is how an append is answered.
type decision struct {
	wrong      bool // WrongExpectedVersion, also for a corrupted idempotency
	idempotent bool // AlreadyCommitted: answered with the events first written
	revision   uint64
	position   uint64
}

// checkCommit follows EventStoreDB's IndexWriter.CheckCommit with a cache of
// committed event ids that forgets nothing (the server's is bounded: past
// it, a retry with Any appends again):
//   - Any and StreamExists (the latter refused on a missing stream) are
//     idempotent when every id was last written to this stream; when the
//     first is not, the events are appended again; when a later one is not,
//     the append is refused.
//   - An expected revision (or NoStream) below the current one is idempotent
//     when the events after it carry the ids in order; the first differing
//     refuses it. One above the current one is refused; one equal to it
//     appends, ids already stored or not.
func (s *streams) checkCommit(ctx context.Context, stream string, expected es.ExpectedRevision, cur uint64, exists bool, ids []uuid.UUID) (decision, error) {
	if expected.IsStreamExists() && !exists {
		return decision{wrong: true}, nil
	}
	if expected.IsAny() || expected.IsStreamExists() {
		var last written
		for i, id := range ids {
			w, ok := s.pos.lastWritten(id)
			if !ok || w.stream != stream {
				return decision{wrong: i > 0}, nil
			}
			last = w
		}
		if len(ids) == 0 {
			return decision{}, nil
		}
		return s.alreadyCommitted(ctx, stream, last.revision)
	}
	// next is the revision after the expected one (0 for NoStream); have is
	// the number of events the stream holds.
	next, have := uint64(0), uint64(0)
	if r, ok := expected.Revision(); ok {
		next = r + 1
	}
	if exists {
		have = cur + 1
	}
	switch {
	case next > have:
		return decision{wrong: true}, nil
	case next == have || len(ids) == 0:
		return decision{wrong: next != have}, nil
	}
	stored, err := s.store.ReadStream(ctx, stream, es.Forwards, next, len(ids))
	if err != nil {
		return decision{}, status.Error(codes.Internal, err.Error())
	}
	for i, id := range ids {
		if i >= len(stored) {
			return decision{wrong: true}, nil
		}
		got, err := clientID(stored[i])
		if err != nil {
			return decision{}, status.Error(codes.Internal, err.Error())
		}
		if got != id {
			return decision{wrong: true}, nil
		}
	}
	return s.alreadyCommitted(ctx, stream, next+uint64(len(ids))-1)
}

// alreadyCommitted answers an idempotent append with its last event.
func (s *streams) alreadyCommitted(ctx context.Context, stream string, revision uint64) (decision, error) {
	evs, err := s.store.ReadStream(ctx, stream, es.Forwards, revision, 1)
	if err != nil || len(evs) == 0 {
		return decision{}, status.Errorf(codes.Internal, "read back %s@%d: %v", stream, revision, err)
	}
	pos, err := s.pos.of(ctx, evs[0].Position)
	if err != nil {
		return decision{}, status.Error(codes.Internal, err.Error())
	}
	return decision{idempotent: true, revision: revision, position: pos}, nil
}

// lastRevision is the revision of stream's last event, false when it has
// none.
func (s *streams) lastRevision(ctx context.Context, stream string) (uint64, bool, error) {
	last, err := s.store.ReadStream(ctx, stream, es.Backwards, es.End, 1)
	if err != nil {
		return 0, false, status.Error(codes.Internal, err.Error())
	}
	if len(last) == 0 {
		return 0, false, nil
	}
	return last[0].Revision, true, nil
}

func wrongExpectedVersion(cur uint64, exists bool, opts *api.AppendReq_Options) *api.AppendResp_WrongExpectedVersion_ {
	w := &api.AppendResp_WrongExpectedVersion{}
	if !exists {
		w.CurrentRevisionOption = &api.AppendResp_WrongExpectedVersion_CurrentNoStream{CurrentNoStream: &shared.Empty{}}
	} else {
		w.CurrentRevisionOption = &api.AppendResp_WrongExpectedVersion_CurrentRevision{CurrentRevision: cur}
	}
	switch v := opts.GetExpectedStreamRevision().(type) {
	case *api.AppendReq_Options_Revision:
		w.ExpectedRevisionOption = &api.AppendResp_WrongExpectedVersion_ExpectedRevision{ExpectedRevision: v.Revision}
	case *api.AppendReq_Options_NoStream:
		w.ExpectedRevisionOption = &api.AppendResp_WrongExpectedVersion_ExpectedNoStream{ExpectedNoStream: &shared.Empty{}}
	case *api.AppendReq_Options_StreamExists:
		w.ExpectedRevisionOption = &api.AppendResp_WrongExpectedVersion_ExpectedStreamExists{ExpectedStreamExists: &shared.Empty{}}
	}
	return &api.AppendResp_WrongExpectedVersion_{WrongExpectedVersion: w}
}

func expectedFromProto(opts *api.AppendReq_Options) (es.ExpectedRevision, error) {
	switch v := opts.GetExpectedStreamRevision().(type) {
	case *api.AppendReq_Options_Any:
		return es.Any, nil
	case *api.AppendReq_Options_NoStream:
		return es.NoStream, nil
	case *api.AppendReq_Options_StreamExists:
		return es.StreamExists, nil
	case *api.AppendReq_Options_Revision:
		return es.Exact(v.Revision), nil
	default:
		return es.Any, fmt.Errorf("append: unknown expected revision %T", v)
	}
}
