// Package idgen makes 19-digit, time-ordered ids (snowflake layout: 41 bits
// of milliseconds since 2010-11-04, 10 bits of node, 12 bits of sequence).
package idgen

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/eventchat/eventchat/domain/fault"
)

const epochMs = 1288834974657

// Nodes is how many node numbers the layout holds: 0..Nodes-1.
const Nodes = 1024

// Snowflake generates ids for one node.
type Snowflake struct {
	mu    sync.Mutex
	node  int64
	last  int64
	seq   int64
	now   func() time.Time
	until func() time.Time
}

// New returns a generator for node (0..1023) whose ids carry a time before
// until(), the end of the node's hold on its number; when until is nil the
// ids never end.
func New(node int64, until func() time.Time) *Snowflake {
	return &Snowflake{node: node & (Nodes - 1), now: time.Now, until: until}
}

// Next returns a new id, or an error when its time would not be before
// until(): another node may hold the number by then.
func (s *Snowflake) Next() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ms := s.now().UnixMilli() - epochMs
	if ms < s.last {
		ms = s.last // the clock went back: keep counting from the last time
	}
	seq := int64(0)
	if ms == s.last {
		seq = (s.seq + 1) & 4095
		if seq == 0 {
			ms++ // sequence exhausted: borrow the next millisecond
		}
	}
	if s.until != nil {
		if end := s.until(); ms+epochMs >= end.UnixMilli() {
			return "", fmt.Errorf("idgen: node number %d is held only until %s: no id is made until its hold is renewed: %w",
				s.node, end.UTC().Format(time.RFC3339Nano), fault.New(fault.Unavailable, fault.MsgBusy))
		}
	}
	s.last, s.seq = ms, seq
	return strconv.FormatInt(ms<<22|s.node<<12|seq, 10), nil
}
