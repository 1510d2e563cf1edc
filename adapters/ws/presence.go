package ws

import (
	"context"
	"encoding/json"
	"time"

	"go.uber.org/zap"

	"github.com/eventchat/eventchat/projections"
)

// Friends lists the friends of a member, who are told when it comes online
// and goes offline (33).
type Friends interface {
	Friends(ctx context.Context, member string) ([]projections.Friend, error)
}

// OnlineStatus is the push 33: a friend's websocket presence.
type OnlineStatus struct {
	MemberID string `json:"memberId"`
	Online   bool   `json:"online"`
	Time     int64  `json:"time"`
}

// presenceQueue bounds the presence changes waiting to be told; past it a
// change is dropped (the friends' next REST read shows the state).
const presenceQueue = 1024

// ClusterPresence is the presence on the other gateway nodes.
type ClusterPresence interface {
	// Announce tells the other nodes, without blocking, that a member's
	// first connection here opened or its last one closed.
	Announce(tenant, member string, online bool)
	// Online reports whether member has a connection open on another node.
	Online(tenant, member string) bool
}

// Online reports whether member has a connection open on this gateway or,
// with a Cluster, on another node.
func (g *Gateway) Online(tenant, member string) bool {
	g.mu.RLock()
	here := len(g.members[memberKey{tenant, member}]) > 0
	g.mu.RUnlock()
	return here || (g.cfg.Cluster != nil && g.cfg.Cluster.Online(tenant, member))
}

// EachMember calls f for every member with a connection open on this
// gateway; f must not block.
func (g *Gateway) EachMember(f func(tenant, member string)) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	for k := range g.members {
		f(k.tenant, k.member)
	}
}

// PresenceChanged tells the friends of a member on this gateway its
// presence, which changed on another node.
func (g *Gateway) PresenceChanged(tenant, member string) {
	g.presenceChanged(memberKey{tenant, member})
}

// localPresenceChanged announces and tells a member whose first connection
// here opened or whose last one closed. Called with g.mu held.
func (g *Gateway) localPresenceChanged(k memberKey, online bool) {
	if g.cfg.Cluster != nil {
		g.cfg.Cluster.Announce(k.tenant, k.member, online)
	}
	g.presenceChanged(k)
}

// presenceChanged queues a member whose presence changed, to tell its
// friends.
func (g *Gateway) presenceChanged(k memberKey) {
	if g.cfg.Friends == nil {
		return
	}
	select {
	case g.presence <- k:
	default:
		g.log.Warn("presence queue full: a 33 push is dropped", zap.String("member", k.member))
	}
}

// tellPresence pushes 33 to the friends of each queued member, one at a
// time so that pushes keep the order of the changes. The state pushed is
// the member's state when it is told, so a quick reconnect never leaves
// friends seeing it offline.
func (g *Gateway) tellPresence() {
	for {
		select {
		case <-g.ctx.Done():
			return
		case k := <-g.presence:
			ctx, cancel := context.WithTimeout(g.ctx, 5*time.Second)
			friends, err := g.cfg.Friends.Friends(ctx, k.member)
			cancel()
			if err != nil {
				g.log.Warn("presence: friends not read", zap.String("member", k.member), zap.Error(err))
				continue
			}
			data, _ := json.Marshal(OnlineStatus{MemberID: k.member, Online: g.Online(k.tenant, k.member), Time: time.Now().UnixMilli()})
			frame := textFrame(pushJSON(projections.CmdOnline, data))
			g.mu.RLock()
			for _, f := range friends {
				for _, c := range g.members[memberKey{k.tenant, f.FriendID}] {
					c.push(frame)
				}
			}
			g.mu.RUnlock()
		}
	}
}
