package commands

import (
	"context"
	"time"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
)

// EventStore is the part of the event log the commands write and read.
//
// Append is atomic and durable when it returns. An append whose events' ids
// are all already in the log appends nothing and reports Duplicate with the
// revision and position of the first append; one that repeats only some ids
// fails with es.ErrPartialDuplicate. The expected revision is checked after
// the duplicate check, so a retried create-once append succeeds.
//
// ReadStream returns up to max events of a stream from revision from (es.End
// with Backwards reads from the last event); a stream with no events yields
// an empty slice.
type EventStore interface {
	Append(ctx context.Context, stream string, expected es.ExpectedRevision, events []es.EventData) (es.WriteResult, error)
	ReadStream(ctx context.Context, stream string, dir es.Direction, from uint64, max int) ([]es.RecordedEvent, error)
}

// AppendQueuer is an EventStore that takes an append's place in the log
// before the append is durable, so that its caller can queue the next one
// while the first syncs. wait, to be called once, answers the append once
// it is durable.
type AppendQueuer interface {
	QueueAppend(ctx context.Context, stream string, expected es.ExpectedRevision, events []es.EventData) (wait func() (es.WriteResult, error), err error)
}

// LiveLog is the log as it grows, which keeps the commands' caches current.
type LiveLog interface {
	Head(ctx context.Context) (uint64, error)
	SubscribeAll(ctx context.Context, after uint64) (es.Subscription, error)
}

// Shredder destroys a member's data key: whatever the log holds sealed
// under it reads as es.Erased from then on. KeyLives tells whether the
// key store still keeps member's key.
type Shredder interface {
	Destroy(ctx context.Context, tenant, member string) error
	KeyLives(ctx context.Context, tenant, member string) (bool, error)
}

// ReplayRetirer deletes the read models of a tenant's audit replays made
// before at, once a member of the tenant is erased: they were folded while
// its key lived.
type ReplayRetirer interface {
	Retire(tenant string, at time.Time) error
}

// Authorizer answers whether a subject holding role in scope may act on an
// object. The policy (casbin) is the single source of those answers.
type Authorizer interface {
	Allowed(role, scope, object, action string) bool
}

// PasswordHasher hashes and checks passwords with a slow KDF.
type PasswordHasher interface {
	Hash(password string) (string, error)
	Matches(hash, password string) bool
}

// SMSSender delivers a one-time code to a phone.
type SMSSender interface {
	Send(ctx context.Context, phone, code, purpose string) error
}

// ApplyLocator finds the pair a friend request belongs to, and the group
// of a join request.
type ApplyLocator interface {
	PairOfApply(ctx context.Context, tenant, applyID string) (string, bool, error)
	GroupOfApply(ctx context.Context, tenant, applyID string) (string, bool, error)
}

// Messages finds sent messages and the members whose cards are shared.
// The message life acts on messages a member has seen, so it finds them in
// the read models.
type Messages interface {
	// SentMessages returns the messages among ids that member of tenant
	// sees, in the order of ids.
	SentMessages(ctx context.Context, tenant, member string, ids []string) ([]chat.Stored, error)
	// SentMessagesHiddenToo is SentMessages with the messages member
	// deleted for itself too, marked Hidden.
	SentMessagesHiddenToo(ctx context.Context, tenant, member string, ids []string) ([]chat.Stored, error)
	// Card returns what a contact card shows of a member of tenant.
	Card(ctx context.Context, tenant, memberID string) (chat.Card, bool, error)
}
