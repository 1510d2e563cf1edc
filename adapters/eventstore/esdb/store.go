package esdb

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"

	client "github.com/EventStore/EventStore-Client-Go/v4/esdb"
)

// ErrClosed is returned by every call on a closed store or subscription.
var ErrClosed = errors.New("esdb: closed")

// streamLocks is the number of mutexes appends are spread over by stream.
const streamLocks = 256

// Store is an event store on one EventStoreDB node or cluster.
type Store struct {
	db    *client.Client
	locks [streamLocks]sync.Mutex

	mu     sync.Mutex
	closed bool
	subs   map[*subscription]struct{}
}

// Open connects to EventStoreDB with a connection string such as
// "esdb://localhost:2113?tls=false". The client connects lazily: a server
// that cannot be reached fails the first call, not Open.
func Open(ctx context.Context, connectionString string) (*Store, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	conf, err := client.ParseConnectionString(connectionString)
	if err != nil {
		return nil, fmt.Errorf("esdb: open: %w", err)
	}
	conf.Logger = client.NoopLogging()
	db, err := client.NewClient(conf)
	if err != nil {
		return nil, fmt.Errorf("esdb: open: %w", err)
	}
	return &Store{db: db, subs: make(map[*subscription]struct{})}, nil
}

// Close ends the subscriptions and the connection. Calls after the first do
// nothing.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	subs := s.subs
	s.subs = nil
	s.mu.Unlock()
	for sub := range subs {
		sub.end()
	}
	// The client must not be closed under a subscription still using it.
	for sub := range subs {
		<-sub.stopped
	}
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("esdb: close: %w", err)
	}
	return nil
}

func (s *Store) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

func (s *Store) lockStream(stream string) func() {
	h := fnv.New32a()
	_, _ = h.Write([]byte(stream))
	m := &s.locks[h.Sum32()%streamLocks]
	m.Lock()
	return m.Unlock
}

func (s *Store) addSub(sub *subscription) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.subs[sub] = struct{}{}
	return true
}

func (s *Store) removeSub(sub *subscription) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.subs, sub)
}
