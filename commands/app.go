// Package commands holds one handler per user intent. A handler loads the
// state it needs from the event store, asks the policy, lets the domain
// decide, and appends the decided events with the expected revision.
package commands

import (
	"sync"
	"time"

	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/tenant"
)

// Deps are the ports and sources the handlers are given.
type Deps struct {
	Store      EventStore
	Authz      Authorizer
	Hasher     PasswordHasher
	SMS        SMSSender
	Applies    ApplyLocator
	Messages   Messages
	Personal   Personal
	Notices    Notices
	Deliveries Deliveries
	Uploads    Uploads // nil: media messages are checked by their content alone, and no upload is deleted
	History    History // the log as auditors read it
	// Stored is the log as it is stored, personal fields sealed: what
	// exports carry, so that an import never brings back erased data;
	// History when nil.
	Stored History
	// Keys destroys an erased member's data key.
	Keys Shredder
	// Replays, when set, are retired by each erasure Follow reads.
	Replays ReplayRetirer
	// Blind names the claim on a phone number or an account name in place
	// of the value (a keyed hash), so that stream names hold neither.
	Blind func(value string) string
	// NewID makes 19-digit snowflake ids; it fails while this node may not
	// make any (its worker id's claim is not renewed).
	NewID   func() (string, error)
	NewUUID func() string
	Now     func() time.Time
	// Media carries calls' voice and video; nil when none is configured.
	Media MediaProvider
	// CallRingTimeout ends unanswered calls; call.RingTimeout when zero.
	CallRingTimeout time.Duration
	// Payments takes the payment of top-up orders.
	Payments Payments
	// TopUpTimeout expires unpaid top-up orders; wallet.OrderTimeout when
	// zero. PaymentTimeout bounds a call to Payments; PaymentTimeout when
	// zero.
	TopUpTimeout   time.Duration
	PaymentTimeout time.Duration
	Assistant      AssistantDeps
}

// App lists every use case; cmd/ wires it once.
type App struct {
	Deps
	registry es.Registry

	friendships   followedCache[friendshipState] // by friendship stream
	tenantConfigs followedCache[tenant.Config]   // by tenant code
	levels        followedCache[string]          // member levels, by member stream
	calls         callRegistry
	topUps        pendingTopUps
	answers       answerRuns
	erasures      erasures
	tenants       sync.Map // tenant code -> struct{}: tenants known to exist
}

// New returns the application over deps.
func New(d Deps) *App {
	a := &App{Deps: d, registry: catalog.Registry()}
	if a.Stored == nil { // a log without sealing: stored as it reads
		a.Stored = a.History
	}
	a.friendships.max = maxFriendships
	a.erasures.init()
	return a
}
