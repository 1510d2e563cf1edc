package commands

import (
	"context"
	"fmt"

	"github.com/eventchat/eventchat/domain/assistant"
	"github.com/eventchat/eventchat/domain/call"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/friend"
)

type friendshipState struct {
	f  friend.Friendship
	st streamState
}

// maxFriendships bounds the cache of friend pairs.
const maxFriendships = 100_000

// friendship returns the current state of a pair and its revision.
func (a *App) friendship(ctx context.Context, tenant, pairID string) (friend.Friendship, streamState, error) {
	stream := es.Stream(tenant, es.CategoryFriendship, pairID)
	cached, hit, since := a.friendships.get(stream)
	if hit {
		return cached.f, cached.st, nil
	}
	var s friendshipState
	st, err := a.loadAll(ctx, stream, s.f.Apply)
	if err != nil {
		return friend.Friendship{}, streamState{}, err
	}
	s.st = st
	cached = s
	cached.f = s.f.Clone() // the cache keeps a copy of its own
	a.friendships.put(stream, cached, since)
	return s.f, s.st, nil
}

// appendFriendship appends decided events to a pair's stream and evicts the
// pair, so that the next command reads what this one wrote.
func (a *App) appendFriendship(ctx context.Context, p Principal, pairID string, expected es.ExpectedRevision, events []es.Event) (es.WriteResult, error) {
	stream := es.Stream(p.Tenant, es.CategoryFriendship, pairID)
	defer a.friendships.evict(stream)
	return a.appendEvents(ctx, p, stream, expected, events)
}

// Follow keeps the caches of the commands current from the live log until
// ctx ends; without it the commands read their state from the store each
// time. The calls are read from the start of the log: call signals wait
// until that read has reached the head. The erasures read up to there are
// handed to SweepErasures.
func (a *App) Follow(ctx context.Context, log LiveLog) error {
	head, err := log.Head(ctx)
	if err != nil {
		return fmt.Errorf("commands: follow: %w", err)
	}
	sub, err := log.SubscribeAll(ctx, 0)
	if err != nil {
		return fmt.Errorf("commands: follow: %w", err)
	}
	defer sub.Close()
	a.friendships.follow(true)
	defer a.friendships.follow(false)
	a.tenantConfigs.follow(true)
	defer a.tenantConfigs.follow(false)
	a.levels.follow(true)
	defer a.levels.follow(false)
	a.calls.reset()
	a.topUps.reset()
	defer a.calls.markReady(false)
	a.calls.markReady(head == 0)
	catchingUp := head > 0
	for {
		recs, err := sub.Next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("commands: follow: %w", err)
		}
		for _, r := range recs {
			if err := a.followed(r); err != nil {
				return fmt.Errorf("commands: follow: %w", err)
			}
			if err := a.noteErasure(r, catchingUp); err != nil {
				return fmt.Errorf("commands: follow: retire replays: %w", err)
			}
		}
		if n := len(recs); n > 0 && recs[n-1].Position >= head {
			a.calls.markReady(true)
			if catchingUp {
				catchingUp = false
				a.erasures.read()
			}
		}
	}
}

// followed updates the caches for one event of the log.
func (a *App) followed(r es.RecordedEvent) error {
	sn, err := es.ParseStream(r.Stream)
	if err != nil {
		return nil
	}
	switch {
	case sn.Category == es.CategoryFriendship:
		a.friendships.evict(r.Stream)
	case sn.Category == es.CategoryTenant:
		a.tenantConfigs.evict(sn.Tenant)
	case sn.Category == es.CategoryMember:
		a.levels.evict(r.Stream)
	case sn.Category == es.CategoryAssistant && r.Type == assistant.TypeStopRequested:
		e, err := a.registry.Decode(r.Type, r.Data)
		if err != nil {
			return err
		}
		a.answers.stop(sn.Tenant + "/" + e.(*assistant.StopRequested).QuestionID)
	case sn.Category == es.CategoryChat && call.IsCallEvent(r.Type):
		e, err := a.registry.Decode(r.Type, r.Data)
		if err != nil {
			return err
		}
		a.calls.apply(sn.Tenant, sn.ID, r.Revision, e)
	case sn.Category == es.CategoryWallet:
		e, err := a.registry.Decode(r.Type, r.Data)
		if err != nil {
			return err
		}
		a.topUps.apply(sn.Tenant, sn.ID, e)
	}
	return nil
}
