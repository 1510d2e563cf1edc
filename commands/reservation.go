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

// claimKey names the claim on an account name or a phone number.
type claimKey struct{ tenant, category, value string }

func accountClaim(tenant, account string) claimKey {
	return claimKey{tenant, es.CategoryAccount, account}
}

func phoneClaim(tenant, phone string) claimKey { return claimKey{tenant, es.CategoryPhone, phone} }

// claimStream is the stream of k. It is named by Blind(value), so that
// the log's stream names hold no phone number or account name; a claim
// made before that is named by the value itself, and stays there.
func (a *App) claimStream(ctx context.Context, k claimKey) (string, error) {
	legacy := es.Stream(k.tenant, k.category, k.value)
	recs, err := a.Store.ReadStream(ctx, legacy, es.Backwards, es.End, 1)
	if err != nil || len(recs) > 0 {
		return legacy, err
	}
	return es.Stream(k.tenant, k.category, a.Blind(k.value)), nil
}

type claim struct {
	stream   string
	member   string
	revision uint64
	at       time.Time
	exists   bool
}

func (a *App) lastClaim(ctx context.Context, k claimKey) (claim, error) {
	stream, err := a.claimStream(ctx, k)
	if err != nil {
		return claim{}, err
	}
	recs, err := a.Store.ReadStream(ctx, stream, es.Backwards, es.End, 1)
	if err != nil || len(recs) == 0 {
		return claim{stream: stream}, err
	}
	e, err := a.registry.Decode(recs[0].Type, recs[0].Data)
	if err != nil {
		return claim{}, err
	}
	c := claim{stream: stream, revision: recs[0].Revision, at: recs[0].Metadata.Time, exists: true}
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

// holder returns the registered member holding a claim, or "".
func (a *App) holder(ctx context.Context, k claimKey) (string, error) {
	c, err := a.lastClaim(ctx, k)
	if err != nil || !c.exists || c.member == "" {
		return "", err
	}
	ok, err := a.memberExists(ctx, k.tenant, c.member)
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

// reserve claims k for p's member; it reports false when taken. A claim
// appended meanwhile is read again: another registration's holds it, a
// release frees it.
func (a *App) reserve(ctx context.Context, p Principal, k claimKey, e es.Event) (bool, error) {
	return retryOnConflict(ctx, func() (bool, error) {
		c, err := a.lastClaim(ctx, k)
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
		_, err = a.appendEvents(ctx, p, c.stream, expected, []es.Event{e})
		return err == nil, err
	})
}

// release appends release to the stream of k.
func (a *App) release(ctx context.Context, p Principal, k claimKey, release es.Event) error {
	stream, err := a.claimStream(ctx, k)
	if err == nil {
		_, err = a.appendEvents(ctx, p, stream, es.Any, []es.Event{release})
	}
	return err
}
