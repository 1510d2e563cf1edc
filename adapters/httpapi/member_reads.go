package httpapi

import (
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/projections"
)

// memberReads answers the member views (conversations, history, groups,
// friends) from one set of read models: the live ones for members, a
// replay's for auditors.
type memberReads struct {
	q        projections.Queries
	presence Presence // nil: every friend shows offline
}

// memberReads reads the live read models.
func (a *API) memberReads() memberReads {
	return memberReads{q: a.deps.Queries, presence: a.deps.Presence}
}

// viewer is p as the read models' queries know it.
func viewer(p commands.Principal) projections.Viewer {
	return projections.Viewer{Tenant: p.Tenant, Member: p.MemberID}
}
