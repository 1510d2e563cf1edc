package ws

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/gobwas/ws"

	"github.com/eventchat/eventchat/projections"
)

// Run pushes every delta of src to the connections it concerns until ctx
// ends. Pushing never blocks: a connection that cannot keep up is told to
// resync, and dropped if it cannot take even that.
func (g *Gateway) Run(ctx context.Context, src DeltaSource) error {
	deltas, err := src.Deltas(ctx)
	if err != nil {
		return fmt.Errorf("ws: subscribe to deltas: %w", err)
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case d, ok := <-deltas:
			if !ok {
				if ctx.Err() != nil {
					return nil
				}
				return errors.New("ws: delta stream ended")
			}
			g.deliver(d)
		}
	}
}

// deliver frames d once and queues it on each matching connection, which
// seals it under its own key. A session end closes the connections after it.
func (g *Gateway) deliver(d projections.Delta) {
	frame := textFrame(pushJSON(d.Cmd, d.Data))
	g.mu.RLock()
	defer g.mu.RUnlock()
	if d.Cmd == projections.CmdResync && len(d.To) == 0 {
		// A gap on the bus or in the projections: anyone may have missed
		// pushes.
		frame.resync = true
		for _, cs := range g.members {
			for _, c := range cs {
				c.push(frame)
			}
		}
		return
	}
	for _, member := range d.To {
		for _, c := range g.members[memberKey{d.Tenant, member}] {
			if d.Session != "" && c.principal.SessionID != d.Session {
				continue
			}
			c.push(frame)
			if d.Cmd == projections.CmdSessionEnd {
				c.closeWith(ws.StatusNormalClosure, reasonSessionEnd)
			}
		}
	}
}

// pushJSON is {"cmd":cmd,"data":data}; data is JSON already.
func pushJSON(cmd int, data []byte) []byte {
	b := make([]byte, 0, len(data)+32)
	b = append(b, `{"cmd":`...)
	b = strconv.AppendInt(b, int64(cmd), 10)
	b = append(b, `,"data":`...)
	if len(data) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, data...)
	}
	return append(b, '}')
}
