// Package cache holds the in-memory caches the embedded stores keep in front
// of their files.
package cache

import "sync"

// maxStreams bounds Revisions; past it, arbitrary entries are dropped and
// read again from the store when next needed.
const maxStreams = 1 << 16

// Revisions is the last revision of streams known to exist.
type Revisions map[string]uint64

// Trim keeps r bounded.
func (r Revisions) Trim() {
	if len(r) <= maxStreams {
		return
	}
	for k := range r {
		delete(r, k)
		if len(r) <= maxStreams/2 {
			return
		}
	}
}

// Types interns the event types read, so that a page does not hold
// thousands of copies of the same few strings. Its zero value is ready.
type Types struct {
	mu sync.Mutex
	m  map[string]string
}

// Intern returns the one copy of the type t.
func (in *Types) Intern(t []byte) string {
	in.mu.Lock()
	defer in.mu.Unlock()
	if s, ok := in.m[string(t)]; ok {
		return s
	}
	if in.m == nil {
		in.m = make(map[string]string)
	}
	s := string(t)
	in.m[s] = s
	return s
}
