// Package presence shares across the gateway nodes which members have a
// websocket open. Each node announces its own members' first socket opening
// and last one closing, and all its members every TTL/3; a node's members
// count as online until TTL after its last announcement, so the members of a
// node killed without a goodbye go offline within about TTL.
package presence

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"go.uber.org/zap"
)

// Local is this node's gateway.
type Local interface {
	// EachMember calls f for every member with a socket open on this node;
	// f never blocks.
	EachMember(f func(tenant, member string))
	// PresenceChanged tells that a member's presence on another node changed.
	PresenceChanged(tenant, member string)
}

// Transport carries announcements between the nodes, every node receiving
// every announcement, its own included, in the order each node sent them.
type Transport interface {
	Announce(ctx context.Context, payload []byte) error
	Announcements(ctx context.Context) (<-chan []byte, error)
}

// Member is a member of a tenant.
type Member struct {
	Tenant string `json:"t"`
	ID     string `json:"m"`
}

// announcement is one member's change, or, when All is set, every member
// with a socket open on Node.
type announcement struct {
	Node    string   `json:"node"`
	TTL     int64    `json:"ttlMs"`
	All     bool     `json:"all,omitempty"`
	Members []Member `json:"members,omitempty"`
	Online  bool     `json:"online,omitempty"`
}

// changeQueue bounds the changes waiting to be announced; past it a change
// is dropped and the next announcement of every member carries it.
const changeQueue = 1024

// Cluster knows the members online on the other nodes and announces this
// node's.
type Cluster struct {
	node string
	ttl  time.Duration
	tr   Transport
	log  *zap.Logger

	changes chan announcement

	mu    sync.RWMutex
	nodes map[string]*remote
}

type remote struct {
	members map[Member]struct{}
	expires time.Time
}

// New returns the presence of the nodes other than node, which announces
// its own through tr.
func New(node string, ttl time.Duration, tr Transport, log *zap.Logger) *Cluster {
	return &Cluster{
		node: node, ttl: ttl, tr: tr, log: log,
		changes: make(chan announcement, changeQueue),
		nodes:   make(map[string]*remote),
	}
}

// Announce queues this node's change of a member's presence; it never
// blocks.
func (c *Cluster) Announce(tenant, member string, online bool) {
	a := announcement{Node: c.node, Members: []Member{{tenant, member}}, Online: online}
	select {
	case c.changes <- a:
	default:
		c.log.Warn("presence: announcement queue full; the next full announcement carries it", zap.String("member", member))
	}
}

// Online reports whether member has a socket open on another node that
// announced itself within its TTL.
func (c *Cluster) Online(tenant, member string) bool {
	now := time.Now()
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, r := range c.nodes {
		if _, ok := r.members[Member{tenant, member}]; ok && now.Before(r.expires) {
			return true
		}
	}
	return false
}

// Run announces local's members and follows the other nodes' until ctx
// ends; then it announces that none is left on this node.
func (c *Cluster) Run(ctx context.Context, local Local) error {
	in, err := c.tr.Announcements(ctx)
	if err != nil {
		return fmt.Errorf("presence: subscribe: %w", err)
	}
	tick := time.NewTicker(c.ttl / 3)
	defer tick.Stop()
	c.announceAll(ctx, local)
	for {
		select {
		case <-ctx.Done():
			c.publish(context.WithoutCancel(ctx), announcement{Node: c.node, All: true})
			return nil
		case a := <-c.changes:
			c.publish(ctx, a)
		case <-tick.C:
			c.announceAll(ctx, local)
			for _, m := range c.expire() {
				local.PresenceChanged(m.Tenant, m.ID)
			}
		case payload := <-in:
			var a announcement
			if err := json.Unmarshal(payload, &a); err != nil || a.Node == c.node {
				continue
			}
			for _, m := range c.apply(a) {
				local.PresenceChanged(m.Tenant, m.ID)
			}
		}
	}
}

// announceAll publishes every local member, after the changes queued
// before them so that none of those overtakes the list.
func (c *Cluster) announceAll(ctx context.Context, local Local) {
drain:
	for {
		select {
		case a := <-c.changes:
			c.publish(ctx, a)
		default:
			break drain
		}
	}
	all := announcement{Node: c.node, All: true}
	local.EachMember(func(tenant, member string) { all.Members = append(all.Members, Member{tenant, member}) })
	c.publish(ctx, all)
}

func (c *Cluster) publish(ctx context.Context, a announcement) {
	a.TTL = c.ttl.Milliseconds()
	payload, _ := json.Marshal(a)
	if err := c.tr.Announce(ctx, payload); err != nil {
		c.log.Warn("presence: announcement not sent", zap.Error(err))
	}
}

// apply records a and returns the members whose presence on a's node
// changed.
func (c *Cluster) apply(a announcement) []Member {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	var changed []Member
	r := c.nodes[a.Node]
	if r != nil && !now.Before(r.expires) {
		// silent past its TTL: its members went offline already
		for m := range r.members {
			changed = append(changed, m)
		}
		r = nil
	}
	if r == nil {
		r = &remote{members: make(map[Member]struct{})}
		c.nodes[a.Node] = r
	}
	r.expires = now.Add(time.Duration(a.TTL) * time.Millisecond)
	if a.All {
		next := make(map[Member]struct{}, len(a.Members))
		for _, m := range a.Members {
			next[m] = struct{}{}
			if _, ok := r.members[m]; !ok {
				changed = append(changed, m)
			}
		}
		for m := range r.members {
			if _, ok := next[m]; !ok {
				changed = append(changed, m)
			}
		}
		r.members = next
		return changed
	}
	for _, m := range a.Members {
		_, was := r.members[m]
		switch {
		case a.Online && !was:
			r.members[m] = struct{}{}
		case !a.Online && was:
			delete(r.members, m)
		default:
			continue
		}
		changed = append(changed, m)
	}
	return changed
}

// expire forgets the nodes silent for longer than their TTL and returns
// their members.
func (c *Cluster) expire() []Member {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	var gone []Member
	for node, r := range c.nodes {
		if now.Before(r.expires) {
			continue
		}
		for m := range r.members {
			gone = append(gone, m)
		}
		delete(c.nodes, node)
	}
	return gone
}
