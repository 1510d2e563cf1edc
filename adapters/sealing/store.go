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
	sealed, err := s.sealer.Seal(ctx, stream, events)
	if err != nil {
		return es.WriteResult{}, err
	}
	res, err := s.Log.Append(ctx, stream, expected, sealed)
	if err == nil {
		for _, e := range events {
			s.sealer.noteErasure(stream, e.Type, e.Metadata.Tenant)
		}
	}
	return res, err
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
