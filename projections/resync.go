package projections

import "encoding/json"

// CmdResync tells a client it may have missed pushes: it reloads what it
// shows over REST. It is not a spec number (docs/api-skeleton.md).
const CmdResync = 60

// Why a client is told to resync.
const (
	// ResyncBus: the bus dropped deltas, or a node's subscription to it broke.
	ResyncBus = "bus"
	// ResyncTakeover: another node took over the projections; the old
	// holder may have folded deltas it never published.
	ResyncTakeover = "takeover"
	// ResyncSlowConsumer: the socket did not take its pushes fast enough
	// and the ones waiting for it were dropped.
	ResyncSlowConsumer = "slow consumer"
)

// ResyncDelta is the delta that tells every socket of every node to
// resync, for reason. It has no tenant and no recipients: a gap on the bus
// or in the projections may concern anyone.
func ResyncDelta(reason string) Delta {
	return Delta{Cmd: CmdResync, Data: ResyncData(reason)}
}

// ResyncData is the data of a resync push.
func ResyncData(reason string) json.RawMessage {
	data, _ := json.Marshal(struct {
		Reason string `json:"reason"`
	}{reason})
	return data
}

// PublishState is what a publisher that hands deltas to the bus in the
// background tells operators.
type PublishState struct {
	// Buffered counts the deltas waiting to be sent.
	Buffered int `json:"buffered"`
	// Dropped counts the deltas never sent: the buffer was full or the bus
	// failed. Each gap is followed by a resync once the bus works.
	Dropped uint64 `json:"dropped"`
	// Resyncs counts the resyncs sent after gaps.
	Resyncs uint64 `json:"resyncs"`
	// Gap is set while deltas were dropped and the resync is not out yet.
	Gap bool `json:"gap"`
	// LastError is the failure since the last send that worked.
	LastError string `json:"lastError,omitempty"`
}

// PublishReporter is a Publisher that reports its state.
type PublishReporter interface {
	PublishState() PublishState
}
