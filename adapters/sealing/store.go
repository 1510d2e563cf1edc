package sealing

import (
	"context"

	"github.com/eventchat/eventchat/domain/es"
)

// Log is an event store as the server uses it.
type Log interface {
	Append(ctx context.Context, stream string, expected es.ExpectedRevision, events []es.EventData) (es.WriteResult, error)
	ReadStream(ctx context.Context, stream string, dir es.Direction, from uint64, max int) ([]es.RecordedEvent, error)
	ReadAll(ctx context.Context, after uint64, max int) ([]es.RecordedEvent, error)
	SubscribeAll(ctx context.Context, after uint64) (es.Subscription, error)
	Head(ctx context.Context) (uint64, error)
	Last(ctx context.Context) (es.RecordedEvent, bool, error)
	Close() error
}

// Store is a Log that seals what it appends and opens what it reads.
type Store struct {
	Log
	sealer *Sealer
}

// NewStore returns log seen through sealer.
func NewStore(log Log, sealer *Sealer) *Store { return &Store{Log: log, sealer: sealer} }

func (s *Store) Append(ctx context.Context, stream string, expected es.ExpectedRevision, events []es.EventData) (es.WriteResult, error) {
	wait, err := s.QueueAppend(ctx, stream, expected, events)
	if err != nil {
		return es.WriteResult{}, err
	}
	return wait()
}

// queuer is a Log that takes an append's place in the log before the
// append is durable (pebblestore.Store.QueueAppend).
type queuer interface {
	QueueAppend(ctx context.Context, stream string, expected es.ExpectedRevision, events []es.EventData) (func() (es.WriteResult, error), error)
}

// QueueAppend seals events and queues them to the log: what is queued after
// it comes after it in the log. wait, to be called once, answers the append
// once it is durable. Over a log that cannot queue, the append is durable
// before QueueAppend returns.
func (s *Store) QueueAppend(ctx context.Context, stream string, expected es.ExpectedRevision, events []es.EventData) (wait func() (es.WriteResult, error), err error) {
	sealed, err := s.sealer.Seal(ctx, stream, events)
	if err != nil {
		return nil, err
	}
	q, ok := s.Log.(queuer)
	if !ok {
		res, err := s.Log.Append(ctx, stream, expected, sealed)
		if err != nil {
			return nil, err
		}
		s.noteErasures(stream, events)
		return func() (es.WriteResult, error) { return res, nil }, nil
	}
	queued, err := q.QueueAppend(ctx, stream, expected, sealed)
	if err != nil {
		return nil, err
	}
	return func() (es.WriteResult, error) {
		res, err := queued()
		if err == nil {
			s.noteErasures(stream, events)
		}
		return res, err
	}, nil
}

func (s *Store) noteErasures(stream string, events []es.EventData) {
	for _, e := range events {
		s.sealer.noteErasure(stream, e.Type, e.Metadata.Tenant)
	}
}

func (s *Store) ReadStream(ctx context.Context, stream string, dir es.Direction, from uint64, max int) ([]es.RecordedEvent, error) {
	recs, err := s.Log.ReadStream(ctx, stream, dir, from, max)
	if err != nil {
		return nil, err
	}
	return s.sealer.Open(ctx, recs)
}

func (s *Store) ReadAll(ctx context.Context, after uint64, max int) ([]es.RecordedEvent, error) {
	recs, err := s.Log.ReadAll(ctx, after, max)
	if err != nil {
		return nil, err
	}
	return s.sealer.Open(ctx, recs)
}

func (s *Store) Last(ctx context.Context) (es.RecordedEvent, bool, error) {
	r, ok, err := s.Log.Last(ctx)
	if err != nil || !ok {
		return r, ok, err
	}
	recs, err := s.sealer.Open(ctx, []es.RecordedEvent{r})
	if err != nil {
		return es.RecordedEvent{}, false, err
	}
	return recs[0], true, nil
}

func (s *Store) SubscribeAll(ctx context.Context, after uint64) (es.Subscription, error) {
	sub, err := s.Log.SubscribeAll(ctx, after)
	if err != nil {
		return nil, err
	}
	return subscription{Subscription: sub, sealer: s.sealer}, nil
}

type subscription struct {
	es.Subscription
	sealer *Sealer
}

func (s subscription) Next(ctx context.Context) ([]es.RecordedEvent, error) {
	recs, err := s.Subscription.Next(ctx)
	if err != nil {
		return recs, err
	}
	return s.sealer.Open(ctx, recs)
}
