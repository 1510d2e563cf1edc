package ws

import (
	"context"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/projections"
)

// Authenticator resolves the token of /message-ws?token=.
type Authenticator interface {
	// Authenticate checks a login token and returns who it is and the 32-byte AES-256 key of its frames.
	Authenticate(ctx context.Context, token string) (commands.Principal, []byte, error)
}

// Commands are the intents a client may send over the socket.
type Commands interface {
	// QueueSendMessage checks a send and queues its message to the log
	// (commands.App.QueueSendMessage); wait answers it once durable.
	QueueSendMessage(ctx context.Context, p commands.Principal, req commands.SendMessage, earlier func()) (wait func() (commands.SendResult, error), err error)
	AckRead(ctx context.Context, p commands.Principal, req commands.AckRead) (uint64, error)
	OperateSession(ctx context.Context, p commands.Principal, req commands.SessionOperation) (commands.Changed, error)
}

// DeltaSource feeds the gateway the projected deltas to push.
type DeltaSource interface {
	// Deltas delivers every projected delta until ctx ends.
	Deltas(ctx context.Context) (<-chan projections.Delta, error)
}
