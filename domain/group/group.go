// Package group holds groups: their members and roles, settings, mutes and
// the rules for speaking in them. Which role may take which action is the
// policy's (casbin) to say; the rules here keep the group consistent
// whoever acts: members exist, ranks are respected, the owner stays.
package group

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// Role of a member in a group.
type Role string

const (
	Owner  Role = "Owner"
	Admin  Role = "Admin"
	Normal Role = "Normal"
)

// rank orders the roles: a member acts only on members of lower rank.
func (r Role) rank() int {
	switch r {
	case Owner:
		return 3
	case Admin:
		return 2
	case Normal:
		return 1
	}
	return 0
}

// SendRate limits how often each member may send.
type SendRate string

const (
	NoLimit       SendRate = "NoLimit"
	Backend       SendRate = "Backend" // the server's own limit
	TenPerMinute  SendRate = "TenPerMinute"
	FivePerMinute SendRate = "FivePerMinute"
)

// PerMinute is the number of messages a member may send in a minute; 0
// for no limit.
func (r SendRate) PerMinute() int {
	switch r {
	case TenPerMinute:
		return 10
	case FivePerMinute:
		return 5
	case Backend:
		return BackendPerMinute
	}
	return 0
}

// ParseSendRate accepts the four options.
func ParseSendRate(s string) (SendRate, error) {
	switch r := SendRate(s); r {
	case NoLimit, Backend, TenPerMinute, FivePerMinute:
		return r, nil
	}
	return "", fault.New(fault.Invalid, fault.MsgSendRateInvalid)
}

// Limits of groups.
const (
	MaxInvite        = 100 // members invited at once
	MaxNameRunes     = 64
	MaxNoticeRunes   = 2000
	MaxNicknameRunes = 32
	BackendPerMinute = 60 // the Backend send rate
	MaxPinned        = 10 // messages pinned at once
)

// Member is one member of a group.
type Member struct {
	Role       Role
	Nickname   string
	MutedUntil int64 // ms; 0 when not muted
	JoinedAt   int64
}

// Group is the state of a group, folded from its stream.
type Group struct {
	ID      string
	Name    string
	HeadURL string
	Notice  string
	Owner   string
	Members map[string]*Member
	MuteAll bool
	// MuteAllUntil ends MuteAll (ms); 0 while it lasts until lifted.
	MuteAllUntil int64
	AllowLeave   bool
	SendRate     SendRate
	Dissolved    bool
	Pinned       []string // message ids, the latest pinned first
	// Requests are the join requests still waiting, by id.
	Requests map[string]JoinRequest
	Revision uint64 // of the last event folded
	exists   bool
}

// RoleOf is member's role, "" when not a member.
func (g *Group) RoleOf(member string) Role {
	if m, ok := g.Members[member]; ok {
		return m.Role
	}
	return ""
}

// Managers are the owner and the admins, sorted by id.
func (g *Group) Managers() []string {
	var out []string
	for id, m := range g.Members {
		if m.Role == Owner || m.Role == Admin {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// Apply folds one event of the group's stream.
func (g *Group) Apply(e es.Event) {
	switch e := e.(type) {
	case *Created:
		*g = Group{ID: e.GroupID, Name: e.Name, HeadURL: e.HeadURL, Notice: e.Notice, Owner: e.Owner,
			Members: map[string]*Member{e.Owner: {Role: Owner, JoinedAt: e.At}}, AllowLeave: true, SendRate: NoLimit, exists: true}
		for _, m := range e.Members {
			g.Members[m] = &Member{Role: Normal, JoinedAt: e.At}
		}
	case *MembersAdded:
		for _, m := range e.Members {
			g.Members[m] = &Member{Role: Normal, JoinedAt: e.At}
		}
	case *MemberRemoved:
		delete(g.Members, e.Member)
	case *MemberLeft:
		delete(g.Members, e.Member)
	case *MemberRoleChanged:
		if m, ok := g.Members[e.Member]; ok {
			m.Role = e.Role
		}
	case *OwnershipTransferred:
		g.Members[e.From].Role = Admin
		g.Members[e.To].Role = Owner
		g.Owner = e.To
	case *Modified:
		setIf(&g.Name, e.Name)
		setIf(&g.HeadURL, e.HeadURL)
		setIf(&g.Notice, e.Notice)
		setIf(&g.MuteAll, e.MuteAll)
		setIf(&g.MuteAllUntil, e.MuteAllUntil)
		setIf(&g.AllowLeave, e.AllowLeave)
		setIf(&g.SendRate, e.SendRate)
	case *MemberMuted:
		if m, ok := g.Members[e.Member]; ok {
			m.MutedUntil = e.Until
		}
	case *NicknameSet:
		if m, ok := g.Members[e.Member]; ok {
			m.Nickname = e.Nickname
		}
	case *Dissolved:
		g.Dissolved = true
	case *MessagePinned:
		g.Pinned = append([]string{e.MessageID}, g.Pinned...)
	case *MessageUnpinned:
		g.Pinned = without(slices.Clone(g.Pinned), e.MessageID)
	case *JoinRequested:
		if g.Requests == nil {
			g.Requests = map[string]JoinRequest{}
		}
		for _, r := range e.Requests {
			g.Requests[r.ID] = r
		}
	case *JoinAnswered:
		delete(g.Requests, e.RequestID)
	}
}

func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// Create decides a new group of owner with the friends invited.
func Create(id, owner, name, headURL, notice string, members []string, now time.Time) (es.Event, error) {
	name = strings.TrimSpace(name)
	if err := checkName(name); err != nil {
		return nil, err
	}
	if utf8.RuneCountInString(notice) > MaxNoticeRunes {
		return nil, fault.New(fault.Invalid, fault.MsgGroupNoticeTooLong)
	}
	members = without(unique(members), owner)
	switch {
	case len(members) == 0:
		return nil, fault.New(fault.Invalid, fault.MsgGroupMembersEmpty)
	case len(members) > MaxInvite:
		return nil, fault.New(fault.Invalid, fault.MsgInviteTooMany)
	}
	return &Created{GroupID: id, Name: name, HeadURL: headURL, Notice: notice, Owner: owner, Members: members, At: now.UnixMilli()}, nil
}

func checkName(name string) error {
	switch {
	case name == "":
		return fault.New(fault.Invalid, fault.MsgGroupNameEmpty)
	case utf8.RuneCountInString(name) > MaxNameRunes:
		return fault.New(fault.Invalid, fault.MsgGroupNameTooLong)
	}
	return nil
}

// KnownTo fails as for a group never created unless member belongs to
// the group: whoever is not in it, never was or is no longer, learns
// nothing of it, not even that it exists.
func (g *Group) KnownTo(member string) error {
	if !g.exists || g.Members[member] == nil {
		return fault.New(fault.NotFound, fault.MsgGroupNotFound)
	}
	return nil
}

// live fails unless actor is a member of the group (KnownTo) and the group
// is not dissolved.
func (g *Group) live(actor string) error {
	if err := g.KnownTo(actor); err != nil {
		return err
	}
	if g.Dissolved {
		return fault.New(fault.Conflict, fault.MsgGroupDissolved)
	}
	return nil
}

// outranks fails unless actor's role is above target's, target a member.
func (g *Group) outranks(actor, target string) error {
	t := g.Members[target]
	if t == nil {
		return fault.New(fault.NotFound, fault.MsgNotGroupMember)
	}
	if g.Members[actor].Role.rank() <= t.Role.rank() {
		return fault.New(fault.Forbidden, fault.MsgGroupRankTooLow)
	}
	return nil
}

// Invite decides adding members; those already in are left out, and
// nothing is decided when none is new.
func (g *Group) Invite(actor string, members []string, now time.Time) (es.Event, error) {
	if err := g.live(actor); err != nil {
		return nil, err
	}
	members = unique(members)
	if len(members) > MaxInvite {
		return nil, fault.New(fault.Invalid, fault.MsgInviteTooMany)
	}
	members = slices.DeleteFunc(members, func(m string) bool { return g.Members[m] != nil })
	if len(members) == 0 {
		return nil, nil
	}
	return &MembersAdded{Members: members, By: actor, At: now.UnixMilli()}, nil
}

// RequestJoin decides join requests for the members a Normal member
// invites: one per member neither in the group nor already waiting.
// newID names each request.
func (g *Group) RequestJoin(actor string, members []string, newID func() (string, error), now time.Time) (es.Event, error) {
	if err := g.live(actor); err != nil {
		return nil, err
	}
	members = unique(members)
	if len(members) > MaxInvite {
		return nil, fault.New(fault.Invalid, fault.MsgInviteTooMany)
	}
	waiting := map[string]bool{}
	for _, r := range g.Requests {
		waiting[r.Member] = true
	}
	var rs []JoinRequest
	managers := g.Managers()
	for _, m := range members {
		if g.Members[m] == nil && !waiting[m] {
			id, err := newID()
			if err != nil {
				return nil, err
			}
			rs = append(rs, JoinRequest{ID: id, Member: m, Managers: managers})
		}
	}
	if len(rs) == 0 {
		return nil, nil
	}
	return &JoinRequested{Requests: rs, By: actor, At: now.UnixMilli()}, nil
}

// AnswerJoin decides the answer of the owner or an admin to a waiting join
// request; an acceptance lets the member in, unless they are in already.
func (g *Group) AnswerJoin(actor, requestID string, accept bool, now time.Time) ([]es.Event, error) {
	if err := g.live(actor); err != nil {
		return nil, err
	}
	r, ok := g.Requests[requestID]
	if !ok {
		return nil, fault.New(fault.Conflict, fault.MsgAlreadyProcessed)
	}
	events := []es.Event{&JoinAnswered{RequestID: requestID, Member: r.Member, Accepted: accept, By: actor, Asked: r.Managers, At: now.UnixMilli()}}
	if accept && g.Members[r.Member] == nil {
		events = append(events, &MembersAdded{Members: []string{r.Member}, By: actor, At: now.UnixMilli()})
	}
	return events, nil
}

// Remove decides removing target, who must rank below actor.
func (g *Group) Remove(actor, target string, now time.Time) (es.Event, error) {
	if err := g.live(actor); err != nil {
		return nil, err
	}
	if err := g.outranks(actor, target); err != nil {
		return nil, err
	}
	return &MemberRemoved{Member: target, By: actor, At: now.UnixMilli()}, nil
}

// Leave decides member leaving. The owner transfers or dissolves instead;
// others leave only while the group allows it.
func (g *Group) Leave(member string, now time.Time) (es.Event, error) {
	if err := g.live(member); err != nil {
		return nil, err
	}
	switch {
	case member == g.Owner:
		return nil, fault.New(fault.Conflict, fault.MsgOwnerCannotLeave)
	case !g.AllowLeave && g.Members[member].Role == Normal:
		return nil, fault.New(fault.Forbidden, fault.MsgLeaveNotAllowed)
	}
	return &MemberLeft{Member: member, At: now.UnixMilli()}, nil
}

// SetRole decides making target Admin or Normal; nil when it has the role.
func (g *Group) SetRole(actor, target string, role Role, now time.Time) (es.Event, error) {
	if err := g.live(actor); err != nil {
		return nil, err
	}
	if role != Admin && role != Normal {
		return nil, fault.New(fault.Invalid, fault.MsgGroupRoleInvalid)
	}
	if err := g.outranks(actor, target); err != nil {
		return nil, err
	}
	if g.Members[target].Role == role {
		return nil, nil
	}
	return &MemberRoleChanged{Member: target, Role: role, By: actor, At: now.UnixMilli()}, nil
}

// Transfer decides making target, a member, the owner.
func (g *Group) Transfer(actor, target string, now time.Time) (es.Event, error) {
	if err := g.live(actor); err != nil {
		return nil, err
	}
	switch {
	case actor != g.Owner:
		return nil, fault.New(fault.Forbidden, fault.MsgGroupRankTooLow)
	case g.Members[target] == nil:
		return nil, fault.New(fault.NotFound, fault.MsgNotGroupMember)
	case target == actor:
		return nil, nil
	}
	return &OwnershipTransferred{From: actor, To: target, At: now.UnixMilli()}, nil
}

// Settings are the changes asked of a group; nil fields stay as they are.
type Settings struct {
	Name    *string
	HeadURL *string
	Notice  *string
	MuteAll *bool
	// MuteAllUntil, with MuteAll on, ends the mute (ms; 0: until lifted).
	MuteAllUntil *int64
	AllowLeave   *bool
	SendRate     *SendRate
}

// Modify decides a change of settings, keeping only the fields that
// change; nil when none does.
func (g *Group) Modify(actor string, s Settings, now time.Time) (es.Event, error) {
	if err := g.live(actor); err != nil {
		return nil, err
	}
	if s.Name != nil {
		n := strings.TrimSpace(*s.Name)
		if err := checkName(n); err != nil {
			return nil, err
		}
		s.Name = &n
	}
	if s.Notice != nil && utf8.RuneCountInString(*s.Notice) > MaxNoticeRunes {
		return nil, fault.New(fault.Invalid, fault.MsgGroupNoticeTooLong)
	}
	e := &Modified{
		Name: changed(s.Name, g.Name), HeadURL: changed(s.HeadURL, g.HeadURL), Notice: changed(s.Notice, g.Notice),
		MuteAll: changed(s.MuteAll, g.MuteAll), AllowLeave: changed(s.AllowLeave, g.AllowLeave),
		SendRate: changed(s.SendRate, g.SendRate), By: actor, At: now.UnixMilli(),
	}
	if s.MuteAll != nil && (!*s.MuteAll || s.MuteAllUntil == nil) {
		var zero int64
		s.MuteAllUntil = &zero // lifted, or muted until lifted
	}
	if s.MuteAllUntil != nil {
		if *s.MuteAllUntil != 0 && *s.MuteAllUntil <= now.UnixMilli() {
			return nil, fault.New(fault.Invalid, fault.MsgMuteUntilPast)
		}
		e.MuteAllUntil = changed(s.MuteAllUntil, g.MuteAllUntil)
	}
	if e.Name == nil && e.HeadURL == nil && e.Notice == nil && e.MuteAll == nil && e.MuteAllUntil == nil && e.AllowLeave == nil && e.SendRate == nil {
		return nil, nil
	}
	return e, nil
}

func changed[T comparable](v *T, current T) *T {
	if v == nil || *v == current {
		return nil
	}
	return v
}

// Mute decides muting target, below actor in rank, until until; a zero
// until unmutes.
func (g *Group) Mute(actor, target string, until time.Time, now time.Time) (es.Event, error) {
	if err := g.live(actor); err != nil {
		return nil, err
	}
	if err := g.outranks(actor, target); err != nil {
		return nil, err
	}
	var ms int64
	if !until.IsZero() {
		if !until.After(now) {
			return nil, fault.New(fault.Invalid, fault.MsgMuteUntilPast)
		}
		ms = until.UnixMilli()
	}
	return &MemberMuted{Member: target, Muted: ms != 0, Until: ms, By: actor, At: now.UnixMilli()}, nil
}

// SetNickname decides member's nickname in the group.
func (g *Group) SetNickname(member, nickname string, now time.Time) (es.Event, error) {
	if err := g.live(member); err != nil {
		return nil, err
	}
	nickname = strings.TrimSpace(nickname)
	if utf8.RuneCountInString(nickname) > MaxNicknameRunes {
		return nil, fault.New(fault.Invalid, fault.MsgNicknameTooLong)
	}
	if g.Members[member].Nickname == nickname {
		return nil, nil
	}
	return &NicknameSet{Member: member, Nickname: nickname, At: now.UnixMilli()}, nil
}

// Dissolve decides the end of the group, by its owner.
func (g *Group) Dissolve(actor string, now time.Time) (es.Event, error) {
	if err := g.live(actor); err != nil {
		return nil, err
	}
	if actor != g.Owner {
		return nil, fault.New(fault.Forbidden, fault.MsgGroupRankTooLow)
	}
	return &Dissolved{By: actor, At: now.UnixMilli()}, nil
}

// Pin decides pinning a message of the group's chat, which the caller
// found there; nil when it is pinned already.
func (g *Group) Pin(actor, messageID string, now time.Time) (es.Event, error) {
	if err := g.live(actor); err != nil {
		return nil, err
	}
	switch {
	case slices.Contains(g.Pinned, messageID):
		return nil, nil
	case len(g.Pinned) >= MaxPinned:
		return nil, fault.New(fault.Conflict, fault.MsgPinnedTooMany)
	}
	return &MessagePinned{MessageID: messageID, By: actor, At: now.UnixMilli()}, nil
}

// Unpin decides unpinning a pinned message.
func (g *Group) Unpin(actor, messageID string, now time.Time) (es.Event, error) {
	if err := g.live(actor); err != nil {
		return nil, err
	}
	if !slices.Contains(g.Pinned, messageID) {
		return nil, fault.New(fault.NotFound, fault.MsgMessageNotPinned)
	}
	return &MessageUnpinned{MessageID: messageID, By: actor, At: now.UnixMilli()}, nil
}

// MutedAll reports whether the whole group is muted at now.
func (g *Group) MutedAll(now time.Time) bool {
	return g.MuteAll && (g.MuteAllUntil == 0 || g.MuteAllUntil > now.UnixMilli())
}

// Speak checks that member may send a message now, having sent recent
// messages at the times given (ms, any order) in the last minute: the
// owner and admins are never muted; a muted group answers code 30021, a
// muted member 30022.
func (g *Group) Speak(member string, recent []int64, now time.Time) error {
	if err := g.live(member); err != nil {
		return err
	}
	m := g.Members[member]
	if m.Role == Normal {
		if g.MutedAll(now) {
			return fault.WithCode(fault.Forbidden, CodeGroupMuted, fault.MsgMuted)
		}
		if m.MutedUntil > now.UnixMilli() {
			return fault.WithCode(fault.Forbidden, CodeMemberMuted, fault.MsgMuted)
		}
	}
	if limit := g.SendRate.PerMinute(); limit > 0 {
		since := now.Add(-time.Minute).UnixMilli()
		n := 0
		for _, t := range recent {
			if t > since {
				n++
			}
		}
		if n >= limit {
			return fault.New(fault.RateLimited, fault.MsgSendTooFast)
		}
	}
	return nil
}

// Business codes of a refused send.
const (
	CodeGroupMuted  = "30021"
	CodeMemberMuted = "30022"
)

func unique(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func without(ids []string, id string) []string {
	return slices.DeleteFunc(ids, func(x string) bool { return x == id })
}
