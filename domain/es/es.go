// Package es holds the vocabulary shared by everything that appends to or reads
// from the event log: expected revisions, event records and stream names.
package es

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrConcurrency is returned by an append whose expected revision does not
// match the stream.
var ErrConcurrency = errors.New("es: wrong expected revision")

// ErrPartialDuplicate is returned by an append in which some events are
// already in the log and others are not: a retry must resend the same batch.
var ErrPartialDuplicate = errors.New("es: append repeats only some event ids")

// ErrInvalidPosition refuses a read or subscription of the global log after
// a position the store never gave out: positions are tokens to compare, not
// numbers to compute with.
var ErrInvalidPosition = errors.New("es: not a position of the log")

// ErrAppendTooLarge refuses an append whose events together exceed
// MaxAppendSize.
var ErrAppendTooLarge = errors.New("es: append too large")

// MaxAppendSize is the most one append may hold, counted as EventStoreDB
// counts it (data, encoded metadata and twice the type name of each event):
// its default limit, which every store keeps so that an append accepted by
// one is accepted by all.
const MaxAppendSize = 1 << 20

// ExpectedRevision is a closed set: Any, NoStream, StreamExists or Exact(n).
type ExpectedRevision struct {
	kind     expectKind
	revision uint64
}

type expectKind uint8

const (
	expectAny expectKind = iota
	expectNoStream
	expectStreamExists
	expectExact
)

var (
	// Any appends whatever the stream's state.
	Any = ExpectedRevision{kind: expectAny}
	// NoStream appends only when the stream has no events yet.
	NoStream = ExpectedRevision{kind: expectNoStream}
	// StreamExists appends only when the stream has at least one event.
	StreamExists = ExpectedRevision{kind: expectStreamExists}
)

// Exact appends only when the stream's last event has revision r.
func Exact(r uint64) ExpectedRevision { return ExpectedRevision{kind: expectExact, revision: r} }

// Check reports whether a stream whose last revision is current (exists=false
// for an empty stream) satisfies the expectation.
func (e ExpectedRevision) Check(current uint64, exists bool) bool {
	switch e.kind {
	case expectNoStream:
		return !exists
	case expectStreamExists:
		return exists
	case expectExact:
		return exists && current == e.revision
	default:
		return true
	}
}

// IsAny reports whether the expectation is Any.
func (e ExpectedRevision) IsAny() bool { return e.kind == expectAny }

// IsNoStream reports whether the expectation is NoStream.
func (e ExpectedRevision) IsNoStream() bool { return e.kind == expectNoStream }

// IsStreamExists reports whether the expectation is StreamExists.
func (e ExpectedRevision) IsStreamExists() bool { return e.kind == expectStreamExists }

// Revision returns the exact revision and true for Exact expectations.
func (e ExpectedRevision) Revision() (uint64, bool) { return e.revision, e.kind == expectExact }

func (e ExpectedRevision) String() string {
	switch e.kind {
	case expectNoStream:
		return "no-stream"
	case expectStreamExists:
		return "stream-exists"
	case expectExact:
		return "exact"
	default:
		return "any"
	}
}

// ConcurrencyError is the ErrConcurrency of an append to stream expecting
// expected, whose last revision is last (exists=false for an empty stream).
func ConcurrencyError(stream string, last uint64, exists bool, expected ExpectedRevision) error {
	state := "has no events"
	if exists {
		state = fmt.Sprintf("is at revision %d", last)
	}
	want := expected.String()
	if rev, ok := expected.Revision(); ok {
		want = fmt.Sprintf("revision %d", rev)
	}
	return fmt.Errorf("%w: stream %s %s, expected %s", ErrConcurrency, stream, state, want)
}

// EventData is an event about to be appended. ID makes appends idempotent:
// appending an event whose ID is already in the log appends nothing.
type EventData struct {
	ID       string // UUID
	Type     string
	Data     []byte // JSON
	Metadata Metadata
}

// Metadata travels with every event.
type Metadata struct {
	Tenant        string    `json:"tenant"`
	Actor         string    `json:"actor,omitempty"`
	CorrelationID string    `json:"correlationId,omitempty"`
	CausationID   string    `json:"causationId,omitempty"`
	ClientUUID    string    `json:"clientUuid,omitempty"`
	Time          time.Time `json:"time"`
}

// RecordedEvent is an event as stored. Positions in the global log are
// above 0 and grow strictly, with gaps on some stores: compare them, never
// compute with them. Revisions in a stream start at 0.
type RecordedEvent struct {
	ID       string
	Stream   string
	Revision uint64
	Position uint64
	Type     string
	Data     []byte
	Metadata Metadata
}

// WriteResult describes a successful append. When every event of the append
// was already in the log (an idempotent retry), Duplicate is true and the
// revision and position are those of the last event first appended.
type WriteResult struct {
	NextRevision uint64 // revision of the last event of the append
	Position     uint64 // global position of the last event of the append
	Duplicate    bool
}

// Subscription delivers the global log in order, first what is stored, then
// live appends as they commit.
type Subscription interface {
	// Next blocks until at least one event after the last delivered one is
	// available and returns them in position order.
	Next(ctx context.Context) ([]RecordedEvent, error)
	Close() error
}

// Direction of a read.
type Direction uint8

const (
	Forwards Direction = iota
	Backwards
)

// End is a revision or position meaning "from the end" for backward reads.
const End = ^uint64(0)
