package projections

import (
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/group"
	"slices"
)

// Viewer is whom a query answers for: a member of a tenant, or a tenant's
// auditor (see Auditor). Every query that takes ids takes the viewer and
// returns only what it may see. The rules are the methods below: the read
// stores gather the facts (a message, the viewer's membership of its
// group, its clear floor) and ask them, so both stores decide alike.
type Viewer struct {
	Tenant string
	Member string
	// auditor: the tenant as a whole, no member's own things.
	auditor bool
	// hiddenToo: the messages Member deleted for itself are seen too.
	hiddenToo bool
}

// HiddenToo is v seeing also the messages it deleted for itself, so that a
// delete for oneself repeated finds them.
func (v Viewer) HiddenToo() Viewer {
	v.hiddenToo = true
	return v
}

// Auditor is the viewer of tenant's auditor.
func Auditor(tenant string) Viewer { return Viewer{Tenant: tenant, auditor: true} }

// InGroupChat reports whether m is a message of a group's chat, which
// only the group's current members read.
func (m *Message) InGroupChat() bool { return m.GroupID != "" || m.ChatType == string(chat.Group) }

// ReadsChat reports whether v reads the chat m belongs to: a one-to-one
// chat is its two parties', a group's chat its current members' (inGroup:
// v is one now). The rule holds for every message of a chat alike.
func (v Viewer) ReadsChat(m *Message, inGroup bool) bool {
	switch {
	case m.Tenant != v.Tenant:
		return false
	case v.auditor:
		return true
	case m.InGroupChat():
		return inGroup
	default:
		return v.Member != "" && (m.From == v.Member || m.To == v.Member)
	}
}

// Sees reports whether v sees m: a message of a chat v reads, visible to v
// there (see Message.VisibleTo, floor being v's clear floor of the chat).
func (v Viewer) Sees(m *Message, floor uint64, inGroup bool) bool {
	if !v.ReadsChat(m, inGroup) {
		return false
	}
	if v.hiddenToo {
		return !m.Deleted && m.Seq >= floor
	}
	return m.VisibleTo(v.Member, floor)
}

// SeesCard reports whether v sees the public card of a member of tenant:
// anyone of the same tenant does (a friend request, a join request, a
// notice name members).
func (v Viewer) SeesCard(tenant string) bool { return tenant == v.Tenant }

// GroupSeen is what v sees of g: the whole group for its current members
// (isMember: v is one) and the tenant's auditor, its card (name, avatar)
// for the rest of its tenant, as a notice names it; nothing for others.
func (v Viewer) GroupSeen(g Group, isMember bool) (Group, bool) {
	switch {
	case g.Tenant != v.Tenant:
		return Group{}, false
	case v.auditor || isMember:
		return g, true
	default:
		return Group{ID: g.ID, Tenant: g.Tenant, Name: g.Name, HeadURL: g.HeadURL, Dissolved: g.Dissolved}, true
	}
}

// Roster returns ms, the members of one group, when v lists them, and
// none otherwise: the group's current members and its tenant's auditor do.
func (v Viewer) Roster(ms []GroupMember) []GroupMember {
	return inGroup(v, ms, func(m GroupMember) (string, string) { return m.Tenant, m.Member })
}

// ReadPositions returns rs, how far the members of one group have read
// its chat, when v is one of them or the tenant's auditor, and none
// otherwise.
func (v Viewer) ReadPositions(rs []GroupRead) []GroupRead {
	return inGroup(v, rs, func(r GroupRead) (string, string) { return r.Tenant, r.Member })
}

// inGroup returns rows, one group's rows by member (of tenant and member
// as of tells), when v is one of those members or the tenant's auditor,
// and none otherwise.
func inGroup[T any](v Viewer, rows []T, of func(T) (tenant, member string)) []T {
	if len(rows) == 0 {
		return rows
	}
	tenant, _ := of(rows[0])
	in := slices.ContainsFunc(rows, func(r T) bool { _, m := of(r); return m == v.Member })
	if tenant != v.Tenant || !(v.auditor || in) {
		return []T{}
	}
	return rows
}

// Manages reports whether v handles the join requests of a group, given
// m, v's membership of it: its owner and admins do.
func (v Viewer) Manages(m GroupMember) bool {
	return !v.auditor && m.Tenant == v.Tenant && m.Member == v.Member && (m.Role == string(group.Owner) || m.Role == string(group.Admin))
}

// Owns reports whether v owns what belongs to member of tenant (its
// personal items, its notices).
func (v Viewer) Owns(tenant, member string) bool {
	return !v.auditor && v.Member != "" && tenant == v.Tenant && member == v.Member
}

// Managed lists the groups v manages, given v's memberships.
func (v Viewer) Managed(memberships []GroupMember) []string {
	var out []string
	for _, m := range memberships {
		if v.Manages(m) {
			out = append(out, m.GroupID)
		}
	}
	return out
}
