// Package idgen makes 19-digit, time-ordered ids (snowflake layout: 41 bits
// of milliseconds since 2010-11-04, 10 bits of node, 12 bits of sequence).
package idgen

import (
	"strconv"
	"sync"
	"time"
)

const epochMs = 1288834974657

// Snowflake generates ids for one node.
type Snowflake struct {
	mu   sync.Mutex
	node int64
	last int64
	seq  int64
	now  func() time.Time
}

// New returns a generator for node (0..1023).
func New(node int64) *Snowflake {
	return &Snowflake{node: node & 1023, now: time.Now}
}

// Next returns a new id.
func (s *Snowflake) Next() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ms := s.now().UnixMilli() - epochMs
	if ms < s.last {
		ms = s.last // the clock went back: keep counting from the last time
	}
	if ms == s.last {
		s.seq = (s.seq + 1) & 4095
		if s.seq == 0 {
			ms++ // sequence exhausted: borrow the next millisecond
		}
	} else {
		s.seq = 0
	}
	s.last = ms
	return strconv.FormatInt(ms<<22|s.node<<12|s.seq, 10)
}
