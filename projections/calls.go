package projections

import (
	"context"

	"github.com/eventchat/eventchat/domain/call"
)

// CmdCall is the websocket command of call signals: one of the spec's
// "handled, detail not shown" numbers.
const CmdCall = 12

// Calls pushes call signals to both members of a call. It keeps no read
// model: call records are messages, which the chats projector keeps.
type Calls struct{}

// Name is the persisted checkpoint key.
func (Calls) Name() string { return "calls.v1" }

// callSignal is the payload of a pushed 12.
type callSignal struct {
	CallID        string `json:"callId"`
	OperationType string `json:"operationType"` // Start | Answer | Reject | Cancel | Complete | NoAnswer | Busy
	ChatType      string `json:"chatType"`
	Media         string `json:"media"`
	From          string `json:"from"`         // the caller
	To            string `json:"to"`           // the callee
	By            string `json:"by,omitempty"` // whose signal it is; empty when the server's
	Outcome       string `json:"outcome,omitempty"`
	Duration      int64  `json:"duration,omitempty"`
	Time          int64  `json:"time"`
	Position      uint64 `json:"position"`
}

// Project turns each call event into a 12 to the caller and the callee.
func (Calls) Project(_ context.Context, _ Tx, events []Envelope) ([]Delta, error) {
	var deltas []Delta
	for _, env := range events {
		var s callSignal
		switch e := env.Event.(type) {
		case *call.CallStarted:
			s = callSignal{CallID: e.CallID, OperationType: string(call.OpStart), Media: e.Media,
				From: e.Caller, To: e.Callee, By: e.Caller, Time: e.At}
		case *call.CallAnswered:
			s = callSignal{CallID: e.CallID, OperationType: string(call.OpAnswer), Media: e.Media,
				From: e.Caller, To: e.Callee, By: e.By, Time: e.At}
		case *call.CallEnded:
			s = callSignal{CallID: e.CallID, OperationType: string(call.OperationOf(call.Outcome(e.Outcome))), Media: e.Media,
				From: e.Caller, To: e.Callee, By: e.By, Outcome: e.Outcome, Duration: e.Duration, Time: e.At}
		default:
			continue
		}
		s.ChatType, s.Position = "Friend", env.Position
		deltas = append(deltas, delta(env, CmdCall, s, s.From, s.To))
	}
	return deltas, nil
}
