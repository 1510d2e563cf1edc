package commands

import (
	"context"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/member"
)

// Account names and phone numbers are unique per tenant: each has a stream
// of its own whose last event claims it for a member. Claims are appended
// with an exact expected revision, so two registrations cannot both win.
// Registration claims the phone, then the account, then creates the member;
// a claim whose member never came to exist (a registration that lost the
// account race or died) lapses after staleClaim and can be claimed again.
const staleClaim = time.Minute

type claim struct {
	member   string
	revision uint64
	at       time.Time
	exists   bool
}

func (a *App) lastClaim(ctx context.Context, stream string) (claim, error) {
	recs, err := a.Store.ReadStream(ctx, stream, es.Backwards, es.End, 1)
	if err != nil || len(recs) == 0 {
		return claim{}, err
	}
	e, err := a.registry.Decode(recs[0].Type, recs[0].Data)
	if err != nil {
		return claim{}, err
	}
	c := claim{revision: recs[0].Revision, at: recs[0].Metadata.Time, exists: true}
	switch e := e.(type) {
	case *member.AccountReserved:
		c.member = e.MemberID
	case *member.PhoneReserved:
		c.member = e.MemberID
	}
	return c, nil
}

func (a *App) memberExists(ctx context.Context, tenant, id string) (bool, error) {
	recs, err := a.Store.ReadStream(ctx, es.Stream(tenant, es.CategoryMember, id), es.Forwards, 0, 1)
	return len(recs) > 0, err
}

// holder returns the registered member holding a claim stream, or "".
func (a *App) holder(ctx context.Context, tenant, stream string) (string, error) {
	c, err := a.lastClaim(ctx, stream)
	if err != nil || !c.exists || c.member == "" {
		return "", err
	}
	ok, err := a.memberExists(ctx, tenant, c.member)
	if err != nil || !ok {
		return "", err
	}
	return c.member, nil
}

// taken reports whether a claim stream is held by a member or by a
// registration still in flight.
func (a *App) taken(ctx context.Context, tenant string, c claim) (bool, error) {
	if !c.exists || c.member == "" { // never claimed, or released
		return false, nil
	}
	if a.Now().Sub(c.at) < staleClaim {
		return true, nil
	}
	return a.memberExists(ctx, tenant, c.member)
}

// reserve claims stream for p's member; it reports false when taken. A
// claim appended meanwhile is read again: another registration's holds it,
// a release frees it.
func (a *App) reserve(ctx context.Context, p Principal, stream string, e es.Event) (bool, error) {
	return retryOnConflict(ctx, func() (bool, error) {
		c, err := a.lastClaim(ctx, stream)
		if err != nil {
			return false, err
		}
		if held, err := a.taken(ctx, p.Tenant, c); err != nil || held {
			return false, err
		}
		expected := es.NoStream
		if c.exists {
			expected = es.Exact(c.revision)
		}
		_, err = a.appendEvents(ctx, p, stream, expected, []es.Event{e})
		return err == nil, err
	})
}
