package commands

import (
	"context"
	"sync"

	"github.com/eventchat/eventchat/domain/call"
	"github.com/eventchat/eventchat/domain/es"
)

// callRegistry holds the calls of every tenant, folded from the log by
// Follow (which reads it from its start) and from this node's own appends.
// Ended calls are kept, up to maxEndedCalls, so that a late signal is told
// that its call ended rather than that it does not exist.
type callRegistry struct {
	mu     sync.Mutex
	ready  bool
	wake   chan struct{} // closed when ready turns true
	calls  map[string]*callEntry
	active map[string]map[string]struct{} // tenant|member -> ids of its calls not ended
	ended  []string                       // keys of ended calls, oldest first
}

type callEntry struct {
	tenant string
	chatID string
	since  uint64 // revision in the chat stream of the call's first event
	c      call.Call
}

const maxEndedCalls = 10_000

func callKey(tenant, id string) string { return tenant + "|" + id }

// reset empties the registry while Follow reads the log again.
func (r *callRegistry) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.setReady(false)
	r.calls = map[string]*callEntry{}
	r.active = map[string]map[string]struct{}{}
	r.ended = nil
}

// markReady says whether the registry holds every call of the log so far.
func (r *callRegistry) markReady(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.setReady(on)
}

func (r *callRegistry) setReady(on bool) {
	if r.wake == nil {
		r.wake = make(chan struct{})
	}
	switch {
	case on && !r.ready:
		close(r.wake)
	case !on && r.ready:
		r.wake = make(chan struct{})
	}
	r.ready = on
}

// wait blocks until the registry is ready, ctx ends or the wait is over.
func (r *callRegistry) wait(ctx context.Context) bool {
	r.mu.Lock()
	if r.ready {
		r.mu.Unlock()
		return true
	}
	if r.wake == nil {
		r.wake = make(chan struct{})
	}
	wake := r.wake
	r.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, callsReadyWait)
	defer cancel()
	select {
	case <-wake:
		return true
	case <-ctx.Done():
		return false
	}
}

// apply folds a call event at revision rev of the chat chatID of tenant; an
// answer of a call the registry does not hold is passed over.
func (r *callRegistry) apply(tenant, chatID string, rev uint64, e es.Event) {
	id := call.CallID(e)
	if id == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls == nil {
		r.calls, r.active = map[string]*callEntry{}, map[string]map[string]struct{}{}
	}
	key := callKey(tenant, id)
	entry, ok := r.calls[key]
	if !ok {
		switch e.(type) {
		case *call.CallStarted, *call.CallEnded: // a call to a busy member only ends
		default:
			return
		}
		entry = &callEntry{tenant: tenant, chatID: chatID, since: rev}
		r.calls[key] = entry
	}
	was := entry.c.State
	entry.c.Apply(e)
	switch {
	case was == "" && entry.c.State != call.StateEnded:
		for _, m := range []string{entry.c.Caller, entry.c.Callee} {
			k := callKey(tenant, m)
			if r.active[k] == nil {
				r.active[k] = map[string]struct{}{}
			}
			r.active[k][id] = struct{}{}
		}
	case was != call.StateEnded && entry.c.State == call.StateEnded:
		for _, m := range []string{entry.c.Caller, entry.c.Callee} {
			k := callKey(tenant, m)
			delete(r.active[k], id)
			if len(r.active[k]) == 0 {
				delete(r.active, k)
			}
		}
		r.ended = append(r.ended, key)
		if len(r.ended) > maxEndedCalls {
			delete(r.calls, r.ended[0])
			r.ended = r.ended[1:]
		}
	}
}

// get returns a copy of a call and its chat.
func (r *callRegistry) get(tenant, id string) (callEntry, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	entry, ok := r.calls[callKey(tenant, id)]
	if !ok {
		return callEntry{}, false
	}
	return *entry, true
}

// busy reports whether member is in a call, ringing or answered.
func (r *callRegistry) busy(tenant, member string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.active[callKey(tenant, member)]) > 0
}

// ringing returns a copy of every call still ringing.
func (r *callRegistry) ringing() []callEntry {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []callEntry
	for _, entry := range r.calls {
		if entry.c.State == call.StateRinging {
			out = append(out, *entry)
		}
	}
	return out
}
