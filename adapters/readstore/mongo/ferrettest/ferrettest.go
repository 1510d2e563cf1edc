// Package ferrettest runs an embedded FerretDB, on SQLite files in a
// directory, for tests of MongoDB adapters.
package ferrettest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

// Server is a running FerretDB.
type Server struct {
	URI  string
	stop context.CancelFunc
	done chan struct{}
}

// Start runs a FerretDB listening on a free port of 127.0.0.1 that keeps
// its databases in dir and writes its errors to logs, and waits until it
// accepts connections.
func Start(dir string, logs io.Writer) (*Server, error) { return StartAt(dir, "127.0.0.1:0", logs) }

// StartAt is Start listening on addr (host:port), for a dev cluster whose
// nodes are given the address before it starts.
func StartAt(dir, addr string, logs io.Writer) (*Server, error) {
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: addr},
		Logger:    slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelError})),
		Handler:   "sqlite",
		SQLiteURL: "file:" + dir + "/",
	})
	if err != nil {
		return nil, fmt.Errorf("ferrettest: %w", err)
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &Server{stop: stop, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		_ = f.Run(ctx) // returns when stopped
	}()
	// MongoDBURI waits for the listener.
	uri := make(chan string, 1)
	go func() { uri <- f.MongoDBURI() }()
	select {
	case s.URI = <-uri:
		return s, nil
	case <-time.After(10 * time.Second):
		return nil, errors.Join(errors.New("ferrettest: FerretDB did not start listening"), s.Stop())
	}
}

// Stop stops the server and waits for it to end.
func (s *Server) Stop() error {
	s.stop()
	select {
	case <-s.done:
		return nil
	case <-time.After(10 * time.Second):
		return errors.New("ferrettest: FerretDB did not stop")
	}
}
