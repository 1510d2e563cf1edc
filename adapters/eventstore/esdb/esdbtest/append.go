package esdbtest

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/EventStore/EventStore-Client-Go/v4/protos/shared"
	api "github.com/EventStore/EventStore-Client-Go/v4/protos/streams"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/eventchat/eventchat/domain/es"
)

// Append reads the options, then the proposed messages, and appends them
// in one SQLite append.
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
	var events []es.EventData
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
		e, err := fromProposed(m, now)
		if err != nil {
			return status.Error(codes.InvalidArgument, err.Error())
		}
		events = append(events, e)
	}
	res, err := s.store.Append(srv.Context(), stream, expected, events)
	switch {
	case errors.Is(err, es.ErrConcurrency):
		wrong, err := s.wrongExpectedVersion(srv, stream, opts)
		if err != nil {
			return err
		}
		return srv.SendAndClose(&api.AppendResp{Result: wrong})
	case err != nil:
		return status.Error(codes.InvalidArgument, err.Error())
	}
	return srv.SendAndClose(&api.AppendResp{Result: &api.AppendResp_Success_{Success: &api.AppendResp_Success{
		CurrentRevisionOption: &api.AppendResp_Success_CurrentRevision{CurrentRevision: res.NextRevision},
		PositionOption: &api.AppendResp_Success_Position{Position: &api.AppendResp_Position{
			CommitPosition: res.Position, PreparePosition: res.Position,
		}},
	}}})
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

func (s *streams) wrongExpectedVersion(srv api.Streams_AppendServer, stream string, opts *api.AppendReq_Options) (*api.AppendResp_WrongExpectedVersion_, error) {
	w := &api.AppendResp_WrongExpectedVersion{}
	last, err := s.store.ReadStream(srv.Context(), stream, es.Backwards, es.End, 1)
	if err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	if len(last) == 0 {
		w.CurrentRevisionOption = &api.AppendResp_WrongExpectedVersion_CurrentNoStream{CurrentNoStream: &shared.Empty{}}
	} else {
		w.CurrentRevisionOption = &api.AppendResp_WrongExpectedVersion_CurrentRevision{CurrentRevision: last[0].Revision}
	}
	switch v := opts.GetExpectedStreamRevision().(type) {
	case *api.AppendReq_Options_Revision:
		w.ExpectedRevisionOption = &api.AppendResp_WrongExpectedVersion_ExpectedRevision{ExpectedRevision: v.Revision}
	case *api.AppendReq_Options_NoStream:
		w.ExpectedRevisionOption = &api.AppendResp_WrongExpectedVersion_ExpectedNoStream{ExpectedNoStream: &shared.Empty{}}
	case *api.AppendReq_Options_StreamExists:
		w.ExpectedRevisionOption = &api.AppendResp_WrongExpectedVersion_ExpectedStreamExists{ExpectedStreamExists: &shared.Empty{}}
	}
	return &api.AppendResp_WrongExpectedVersion_{WrongExpectedVersion: w}, nil
}
