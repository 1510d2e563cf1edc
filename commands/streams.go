package commands

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

const readPage = 512

// streamState is what a load tells about a stream.
type streamState struct {
	revision uint64
	exists   bool
	position uint64 // global position of the last event
}

func (s streamState) expected() es.ExpectedRevision {
	if !s.exists {
		return es.NoStream
	}
	return es.Exact(s.revision)
}

// load folds the events of stream from revision from onwards into apply.
func (a *App) load(ctx context.Context, stream string, from uint64, apply func(es.Event)) (streamState, error) {
	var st streamState
	for {
		recs, err := a.Store.ReadStream(ctx, stream, es.Forwards, from, readPage)
		if err != nil {
			return st, fmt.Errorf("read %s: %w", stream, err)
		}
		for _, r := range recs {
			e, err := a.registry.Decode(r.Type, r.Data)
			if err != nil {
				return st, err
			}
			apply(e)
			st = streamState{revision: r.Revision, exists: true, position: r.Position}
		}
		if len(recs) < readPage {
			return st, nil
		}
		from = recs[len(recs)-1].Revision + 1
	}
}

// loadAll folds a whole stream.
func (a *App) loadAll(ctx context.Context, stream string, apply func(es.Event)) (streamState, error) {
	return a.load(ctx, stream, 0, apply)
}

// encode turns decided events into stored ones. ids, when given, are the
// event ids (deterministic ids make retries idempotent); otherwise new UUIDs.
func (a *App) encode(p Principal, clientUUID string, events []es.Event, ids ...string) ([]es.EventData, error) {
	md := es.Metadata{
		Tenant:        p.Tenant,
		Actor:         p.MemberID,
		CorrelationID: a.NewUUID(),
		ClientUUID:    clientUUID,
		Time:          a.Now().UTC(),
	}
	out := make([]es.EventData, len(events))
	for i, e := range events {
		data, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", e.EventType(), err)
		}
		id := a.NewUUID()
		if i < len(ids) {
			id = ids[i]
		}
		out[i] = es.EventData{ID: id, Type: es.StoredType(e), Data: data, Metadata: md}
	}
	return out, nil
}

// appendEvents encodes and appends events decided for p.
func (a *App) appendEvents(ctx context.Context, p Principal, stream string, expected es.ExpectedRevision, events []es.Event) (es.WriteResult, error) {
	data, err := a.encode(p, "", events)
	if err != nil {
		return es.WriteResult{}, err
	}
	return a.Store.Append(ctx, stream, expected, data)
}

// ensureTenant fails unless tenant exists; known tenants are cached, as a
// tenant is never deleted.
func (a *App) ensureTenant(ctx context.Context, tenant string) error {
	if _, ok := a.tenants.Load(tenant); ok {
		return nil
	}
	recs, err := a.Store.ReadStream(ctx, es.Stream(tenant, es.CategoryTenant, tenant), es.Forwards, 0, 1)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return fault.New(fault.Invalid, fault.MsgTenantInvalid)
	}
	a.tenants.Store(tenant, struct{}{})
	return nil
}

// queueAppend queues events to stream when the store can (AppendQueuer),
// and otherwise appends them before it returns.
func (a *App) queueAppend(ctx context.Context, stream string, expected es.ExpectedRevision, events []es.EventData) (func() (es.WriteResult, error), error) {
	if q, ok := a.Store.(AppendQueuer); ok {
		return q.QueueAppend(ctx, stream, expected, events)
	}
	res, err := a.Store.Append(ctx, stream, expected, events)
	if err != nil {
		return nil, err
	}
	return func() (es.WriteResult, error) { return res, nil }, nil
}
