package esdbtest

import (
	"context"

	"github.com/EventStore/EventStore-Client-Go/v4/protos/shared"
	api "github.com/EventStore/EventStore-Client-Go/v4/protos/streams"
	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/eventchat/eventchat/domain/es"
)

// readPage is the number of events read from SQLite per step.
const readPage = 1024

// Read serves reads of a stream, reads of $all and subscriptions to $all.
func (s *streams) Read(req *api.ReadReq, srv api.Streams_ReadServer) error {
	o := req.GetOptions()
	if o == nil {
		return status.Error(codes.InvalidArgument, "read: no options")
	}
	keep, err := newFilter(o.GetFilter())
	if err != nil {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	backwards := o.GetReadDirection() == api.ReadReq_Options_Backwards
	if o.GetSubscription() != nil {
		if o.GetAll() == nil {
			return status.Error(codes.Unimplemented, "esdbtest: subscriptions to one stream are not implemented")
		}
		return s.subscribe(o.GetAll(), keep, srv)
	}
	w := &sender{srv: srv, pos: s.pos, keep: keep, left: o.GetCount()}
	switch {
	case o.GetStream() != nil:
		return s.readStream(o.GetStream(), backwards, w)
	case o.GetAll() != nil:
		return s.readAll(o.GetAll(), backwards, w)
	default:
		return status.Error(codes.InvalidArgument, "read: neither a stream nor $all")
	}
}

// sender sends the events a read keeps until it has sent its count.
type sender struct {
	srv  api.Streams_ReadServer
	pos  *positions
	keep filter
	left uint64
	sent int
}

func (w *sender) full() bool { return w.left == 0 }

func (w *sender) page() int { return int(min(w.left, readPage)) }

func (w *sender) send(e es.RecordedEvent) error {
	if w.full() || !w.keep(e) {
		return nil
	}
	pos, err := w.pos.of(w.srv.Context(), e.Position)
	if err != nil {
		return status.Error(codes.Internal, err.Error())
	}
	resp, err := toReadEvent(e, pos)
	if err != nil {
		return status.Error(codes.Internal, err.Error())
	}
	if err := w.srv.Send(resp); err != nil {
		return err
	}
	w.left--
	w.sent++
	return nil
}

func (s *streams) readStream(o *api.ReadReq_Options_StreamOptions, backwards bool, w *sender) error {
	ctx := w.srv.Context()
	name := string(o.GetStreamIdentifier().GetStreamName())
	from := o.GetRevision()
	switch {
	case o.GetEnd() != nil && backwards:
		from = es.End
	case o.GetEnd() != nil:
		return nil
	}
	dir := es.Forwards
	if backwards {
		dir = es.Backwards
	}
	for !w.full() {
		evs, err := s.store.ReadStream(ctx, name, dir, from, w.page())
		if err != nil {
			return status.Error(codes.Internal, err.Error())
		}
		for _, e := range evs {
			if err := w.send(e); err != nil {
				return err
			}
		}
		last := len(evs) - 1
		if last < 0 || (backwards && evs[last].Revision == 0) {
			break
		}
		from = evs[last].Revision + 1
		if backwards {
			from = evs[last].Revision - 1
		}
	}
	if w.sent > 0 {
		return nil
	}
	return s.notFoundIfMissing(w.srv, name)
}

func (s *streams) notFoundIfMissing(srv api.Streams_ReadServer, name string) error {
	last, err := s.store.ReadStream(srv.Context(), name, es.Backwards, es.End, 1)
	if err != nil {
		return status.Error(codes.Internal, err.Error())
	}
	if len(last) > 0 {
		return nil
	}
	return srv.Send(&api.ReadResp{Content: &api.ReadResp_StreamNotFound_{StreamNotFound: &api.ReadResp_StreamNotFound{
		StreamIdentifier: &shared.StreamIdentifier{StreamName: []byte(name)},
	}}})
}

// readAll reads $all from a position, which must be a record boundary: a
// forwards read includes the event at it, a backwards one starts before it.
func (s *streams) readAll(o *api.ReadReq_Options_AllOptions, backwards bool, w *sender) error {
	ctx := w.srv.Context()
	if backwards {
		upper, err := s.upperBound(o, w)
		if err != nil {
			return err
		}
		for upper > 0 && !w.full() {
			n := min(uint64(w.page()), upper)
			evs, err := s.store.ReadAll(ctx, upper-n, int(n))
			if err != nil {
				return status.Error(codes.Internal, err.Error())
			}
			for i := len(evs) - 1; i >= 0; i-- {
				if err := w.send(evs[i]); err != nil {
					return err
				}
			}
			upper -= n
		}
		return nil
	}
	if o.GetEnd() != nil {
		return nil
	}
	var after uint64
	if p := o.GetPosition(); p != nil {
		var err error
		if after, err = s.boundary(ctx, p, invalidRead); err != nil {
			return err
		}
	}
	for !w.full() {
		evs, err := s.store.ReadAll(ctx, after, w.page())
		if err != nil {
			return status.Error(codes.Internal, err.Error())
		}
		if len(evs) == 0 {
			return nil
		}
		for _, e := range evs {
			if err := w.send(e); err != nil {
				return err
			}
		}
		after = evs[len(evs)-1].Position
	}
	return nil
}

// invalidRead is how a read of $all from a position that is no record
// boundary fails: the server's reader answers ReadAllResult.InvalidPosition,
// which its read enumerator passes on as an unknown error.
var invalidRead = status.Error(codes.Unknown, "Unexpected ReadAllResult: InvalidPosition")

// invalidSubscription is how a subscription to $all from such a position
// fails (RpcExceptions.InvalidPositionException).
var invalidSubscription = status.Error(codes.InvalidArgument, "Trying to read from an invalid position.")

// boundary is the number of events before position p, or invalid when p is
// no record boundary or its commit and prepare positions differ.
func (s *streams) boundary(ctx context.Context, p *api.ReadReq_Options_Position, invalid error) (uint64, error) {
	if p.GetCommitPosition() != p.GetPreparePosition() {
		return 0, invalid
	}
	n, ok, err := s.pos.before(ctx, p.GetCommitPosition())
	switch {
	case err != nil:
		return 0, status.Error(codes.Internal, err.Error())
	case !ok:
		return 0, invalid
	}
	return n, nil
}

// upperBound is the number of events a backwards read of $all may return:
// all from the end, those before a given position.
func (s *streams) upperBound(o *api.ReadReq_Options_AllOptions, w *sender) (uint64, error) {
	switch {
	case o.GetStart() != nil:
		return 0, nil
	case o.GetPosition() != nil:
		return s.boundary(w.srv.Context(), o.GetPosition(), invalidRead)
	}
	head, err := s.store.Head(w.srv.Context())
	if err != nil {
		return 0, status.Error(codes.Internal, err.Error())
	}
	return head, nil
}

// subscribe confirms, then sends what is stored after the starting point
// and what is appended later, until the client or the server ends it.
func (s *streams) subscribe(o *api.ReadReq_Options_AllOptions, keep filter, srv api.Streams_ReadServer) error {
	ctx := srv.Context()
	var after uint64
	switch {
	case o.GetPosition() != nil:
		// A subscription excludes its position.
		n, err := s.boundary(ctx, o.GetPosition(), invalidSubscription)
		if err != nil {
			return err
		}
		if n, err = s.positionAfter(ctx, n); err != nil {
			return err
		}
		after = n
	case o.GetEnd() != nil:
		head, err := s.store.Head(ctx)
		if err != nil {
			return status.Error(codes.Internal, err.Error())
		}
		after = head
	}
	sub, err := s.store.SubscribeAll(ctx, after)
	if err != nil {
		return status.Error(codes.Unavailable, err.Error())
	}
	defer sub.Close()
	confirm := &api.ReadResp{Content: &api.ReadResp_Confirmation{Confirmation: &api.ReadResp_SubscriptionConfirmation{SubscriptionId: uuid.NewString()}}}
	if err := srv.Send(confirm); err != nil {
		return err
	}
	w := &sender{srv: srv, pos: s.pos, keep: keep, left: ^uint64(0)}
	for {
		evs, err := sub.Next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return status.FromContextError(ctx.Err()).Err()
			}
			return status.Error(codes.Unavailable, err.Error())
		}
		for _, e := range evs {
			if err := w.send(e); err != nil {
				return err
			}
		}
	}
}

// positionAfter is the SQLite position of the event after the first n
// events, or n when there is none: the event a subscription from a
// position excludes.
func (s *streams) positionAfter(ctx context.Context, n uint64) (uint64, error) {
	evs, err := s.store.ReadAll(ctx, n, 1)
	if err != nil {
		return 0, status.Error(codes.Internal, err.Error())
	}
	if len(evs) == 0 {
		return n, nil
	}
	return evs[0].Position, nil
}
