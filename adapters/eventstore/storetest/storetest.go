// Package storetest is the contract every event store adapter passes: ginkgo
// specs declared once and run by each adapter's suite.
//
//	var _ = Describe("my store", func() {
//		storetest.Contract(storetest.Factory{Open: ..., Reopens: true})
//	})
//
// The specs assume nothing about the log except that it is quiet while they
// run: positions need only increase strictly (with gaps or without), other
// events may already be in it, and every spec writes to streams of its own
// tenant. Positions the store did not give out are refused, and appends are
// held to es.MaxAppendSize, as EventStoreDB holds them.
package storetest

import (
	"context"

	. "github.com/onsi/ginkgo/v2"

	"github.com/eventchat/eventchat/domain/es"
)

// Store is what the contract exercises: commands.EventStore,
// projections.EventLog and Close.
type Store interface {
	Append(ctx context.Context, stream string, expected es.ExpectedRevision, events []es.EventData) (es.WriteResult, error)
	ReadStream(ctx context.Context, stream string, dir es.Direction, from uint64, max int) ([]es.RecordedEvent, error)
	ReadAll(ctx context.Context, after uint64, max int) ([]es.RecordedEvent, error)
	SubscribeAll(ctx context.Context, after uint64) (es.Subscription, error)
	Head(ctx context.Context) (uint64, error)
	Last(ctx context.Context) (es.RecordedEvent, bool, error)
	Close() error
}

// Factory opens the store under test.
type Factory struct {
	// Open opens a store keeping its data in dir, a fresh temporary
	// directory for each spec (an adapter with a server may ignore it).
	Open func(dir string) (Store, error)
	// Reopens says that opening the same dir again after Close gives the
	// same log; the specs about restarts run only then.
	Reopens bool
}

// Contract declares the specs. Call it inside a container node.
func Contract(f Factory) {
	Describe("event store contract", func() {
		x := &fixture{factory: f}
		BeforeEach(x.setUp)

		appendSpecs(x)
		idempotencySpecs(x)
		validationSpecs(x)
		readSpecs(x)
		subscriptionSpecs(x)
		concurrencySpecs(x)
		limitSpecs(x)
		if f.Reopens {
			reopenSpecs(x)
		}
	})
}
