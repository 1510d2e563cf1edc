package commands

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/member"
)

// erasures gathers the members whose erasure the log holds, as Follow
// reads it from the start, for SweepErasures: an erasure cut short after
// MemberErased (a crash, the key store or blob store out of reach) is
// completed at the next start of any node.
type erasures struct {
	mu      sync.Mutex
	pending map[string]map[string]bool // tenant -> member ids
	due     chan struct{}              // signalled when the log is read
}

func (e *erasures) init() { e.due = make(chan struct{}, 1) }

func (e *erasures) note(tenant, member string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pending == nil {
		e.pending = map[string]map[string]bool{}
	}
	if e.pending[tenant] == nil {
		e.pending[tenant] = map[string]bool{}
	}
	e.pending[tenant][member] = true
}

// noteErasure notes the member erased by r, when r is a MemberErased read
// while catching up, for SweepErasures; and, caught up or not, retires the
// tenant's replays made before it.
func (a *App) noteErasure(r es.RecordedEvent, catchingUp bool) error {
	name, _, err := es.ParseType(r.Type)
	if err != nil || name != member.TypeErased {
		return nil
	}
	sn, err := es.ParseStream(r.Stream)
	if err != nil || sn.Category != es.CategoryMember {
		return nil
	}
	if catchingUp {
		a.erasures.note(sn.Tenant, sn.ID)
	}
	if a.Replays == nil {
		return nil
	}
	return a.Replays.Retire(sn.Tenant, r.Metadata.Time)
}

// read tells the sweep that the log up to its head at start is read.
func (e *erasures) read() {
	select {
	case e.due <- struct{}{}:
	default:
	}
}

func (e *erasures) take() map[string]map[string]bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	p := e.pending
	e.pending = nil
	return p
}

// SweepErasures completes the erasure of every erased member Follow found
// in the log up to its head at start, once Follow has read that far, until
// ctx ends: the key of a member whose erasure stopped after MemberErased is
// destroyed, and the uploads of the erased members deleted, in one pass
// over each tenant's files that has some. EraseMember does all of it
// itself; this finds what an erasure cut short left, and what an upload
// still in flight stored after it. A failed round keeps what it did not
// complete for the next.
func (a *App) SweepErasures(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-a.erasures.due:
		}
		var failed error
		for tenant, members := range a.erasures.take() {
			ids := make([]string, 0, len(members))
			for id := range members {
				ids = append(ids, id)
				if err := a.destroyCutShort(ctx, tenant, id); err != nil {
					a.erasures.note(tenant, id)
					failed = errors.Join(failed, err)
				}
			}
			if a.Uploads == nil {
				continue
			}
			if _, err := a.Uploads.DeleteUploads(ctx, tenant, ids); err != nil {
				for _, id := range ids {
					a.erasures.note(tenant, id)
				}
				failed = errors.Join(failed, fmt.Errorf("commands: delete the uploads of erased members of %s: %w", tenant, err))
			}
		}
		if failed != nil {
			a.erasures.read()
			return failed
		}
	}
}

// destroyCutShort destroys the key of erased member id of tenant when its
// erasure stopped before it did.
func (a *App) destroyCutShort(ctx context.Context, tenant, id string) error {
	lives, err := a.Keys.KeyLives(ctx, tenant, id)
	if err == nil && lives {
		err = a.Keys.Destroy(ctx, tenant, id)
	}
	if err != nil {
		return fmt.Errorf("commands: destroy the key of erased member %s/%s: %w", tenant, id, err)
	}
	return nil
}
