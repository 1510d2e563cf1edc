// Package esdbtest is a test double of EventStoreDB: an in-process gRPC
// server on 127.0.0.1 speaking the subset of the streams service the esdb
// adapter uses, stored in the embedded SQLite event store. It lets the
// adapter run through the official client in every test run; it is not
// EventStoreDB, and the real server is verified with IM_TEST_ESDB.
//
// Implemented: Append (expected revisions Any, NoStream, StreamExists and a
// revision; a repeated append is idempotent, or refused, or appended again
// by EventStoreDB's rules, see checkCommit; appends over its default 1 MiB
// limit are refused as it refuses them), Read of a stream forwards or backwards, Read of $all
// forwards or backwards, and subscription to $all from a position with a
// stream-name or event-type filter (regex or prefixes). Not implemented:
// BatchAppend, Delete, Tombstone, subscriptions to one stream, link
// resolution, checkpoints and caught-up messages, stream metadata and ACLs,
// and the other services (server features, gossip, persistent
// subscriptions, projections, users), which answer Unimplemented.
//
// Stream names must have the form SQLite accepts (<tenant>.<category>-<id>).
// Positions of $all are byte offsets with gaps, commit = prepare as a
// single node reports them, and a read or subscription from a position that
// is no record boundary fails as it fails on EventStoreDB. The server
// accepts the client's keepalive pings (every 10 s).
package esdbtest

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net"
	"sync"
	"time"

	api "github.com/EventStore/EventStore-Client-Go/v4/protos/streams"
	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"

	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
)

// Server is a running double.
type Server struct {
	store *sqlitestore.Store
	grpc  *grpc.Server
	addr  string
	done  chan struct{}

	closeOnce sync.Once
	closeErr  error
}

// Start opens (or creates) the SQLite file at path and serves it on a free
// port of 127.0.0.1.
func Start(path string) (*Server, error) { return StartAt(path, "127.0.0.1:0") }

// StartAt is Start on a given address, so that a test can restart the
// double where its clients expect it.
func StartAt(path, addr string) (*Server, error) {
	store, err := sqlitestore.Open(path)
	if err != nil {
		return nil, fmt.Errorf("esdbtest: %w", err)
	}
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		_ = store.Close()
		return nil, fmt.Errorf("esdbtest: listen: %w", err)
	}
	// The double holds appends to EventStoreDB's limit; what it stores of
	// them is larger.
	store.LiftAppendLimit(4 * maxAppendSize)
	pos := newPositions(store)
	if err := pos.catchUp(context.Background()); err != nil {
		_ = lis.Close()
		_ = store.Close()
		return nil, fmt.Errorf("esdbtest: %w", err)
	}
	// gRPC's default policy answers pings more frequent than every 5
	// minutes with too_many_pings and drops the connection.
	srv := grpc.NewServer(grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: time.Second, PermitWithoutStream: true}))
	s := &Server{store: store, grpc: srv, addr: lis.Addr().String(), done: make(chan struct{})}
	api.RegisterStreamsServer(s.grpc, &streams{store: store, pos: pos})
	go func() {
		defer close(s.done)
		_ = s.grpc.Serve(lis)
	}()
	return s, nil
}

// Addr is the host:port the server listens on.
func (s *Server) Addr() string { return s.addr }

// ConnectionString is the insecure esdb:// address of the server.
func (s *Server) ConnectionString() string {
	return "esdb://" + s.addr + "?tls=false"
}

// Close stops serving, ending open reads and subscriptions, and closes the
// store.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.grpc.Stop()
		<-s.done
		if err := s.store.Close(); err != nil && !errors.Is(err, sqlitestore.ErrClosed) {
			s.closeErr = fmt.Errorf("esdbtest: close: %w", err)
		}
	})
	return s.closeErr
}

// streams implements the streams service.
type streams struct {
	api.UnimplementedStreamsServer
	store *sqlitestore.Store
	pos   *positions
	// Appends to one stream are decided one at a time, under the lock its
	// name hashes to.
	locks [64]sync.Mutex
}

func (s *streams) lockStream(stream string) func() {
	h := fnv.New32a()
	_, _ = h.Write([]byte(stream))
	m := &s.locks[h.Sum32()%uint32(len(s.locks))]
	m.Lock()
	return m.Unlock
}
