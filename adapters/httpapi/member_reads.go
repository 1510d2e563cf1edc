package httpapi

import "github.com/eventchat/eventchat/projections"

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
