package commands

import (
	"context"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/group"
)

// ScopeGroup is the policy's scope of an actor inside a group it belongs
// to; its role there is the subject.
const ScopeGroup = "group"

// CreateGroup is the body of POST /v1/chat/groupInfo/build.
type CreateGroup struct {
	Name      string   `json:"name"`
	HeadURL   string   `json:"headUrl"`
	Notice    string   `json:"notice"`
	MemberIDs []string `json:"memberIds"`
}

// GroupCreated answers the creation of a group.
type GroupCreated struct {
	GroupID  string `json:"groupId"`
	Position uint64 `json:"position"`
}

// GroupChange names a group and, for the calls about one member, the
// member; the other fields belong to the calls that need them.
type GroupChange struct {
	GroupID   string   `json:"groupId"`
	MemberID  string   `json:"memberId"`
	MemberIDs []string `json:"memberIds"`
	Role      string   `json:"role"`     // setMemberRole: Admin | Normal
	Nickname  string   `json:"nickname"` // modifyMemberNickname
	Minutes   int      `json:"minutes"`  // muteMember: 0 unmutes
}

// ModifyGroup is the body of PUT /v1/chat/groupInfo/modify: absent fields
// stay as they are.
type ModifyGroup struct {
	GroupID string  `json:"groupId"`
	Name    *string `json:"name"`
	HeadURL *string `json:"headUrl"`
	Notice  *string `json:"notice"`
	MuteAll *bool   `json:"muteAll"`
	// MuteAllMinutes, with muteAll true, ends the mute after that many
	// minutes (1 to 30 days); absent, it lasts until lifted.
	MuteAllMinutes *int    `json:"muteAllMinutes"`
	AllowLeave     *bool   `json:"allowLeave"`
	SendRate       *string `json:"sendRate"`
}

// GroupWritten answers a change of a group with its event's position (0
// when nothing changed).
type GroupWritten struct {
	Position uint64 `json:"position"`
}

// CreateGroup creates a group of p with friends of p as its members.
func (a *App) CreateGroup(ctx context.Context, p Principal, r CreateGroup) (GroupCreated, error) {
	if err := a.checkGroupAvatar(ctx, p, r.HeadURL); err != nil {
		return GroupCreated{}, err
	}
	id, err := a.NewID()
	if err != nil {
		return GroupCreated{}, err
	}
	e, err := group.Create(id, p.MemberID, r.Name, r.HeadURL, r.Notice, r.MemberIDs, a.Now())
	if err != nil {
		return GroupCreated{}, err
	}
	if err := a.checkFriends(ctx, p, e.(*group.Created).Members); err != nil {
		return GroupCreated{}, err
	}
	res, err := a.appendEvents(ctx, p, es.Stream(p.Tenant, es.CategoryGroup, id), es.NoStream, []es.Event{e})
	if err != nil {
		return GroupCreated{}, err
	}
	return GroupCreated{GroupID: id, Position: res.Position}, nil
}

// checkFriends fails unless every member is a friend of p.
func (a *App) checkFriends(ctx context.Context, p Principal, members []string) error {
	for _, m := range members {
		if _, err := a.authorizeFriendChat(ctx, p, m, "send"); err != nil {
			return err
		}
	}
	return nil
}

// groupOf folds the stream of a group p belongs to. Any other group, one
// p never was or no longer is in, or another tenant's, is not found, just
// as an id no group has (group.KnownTo).
func (a *App) groupOf(ctx context.Context, p Principal, id string) (*group.Group, streamState, error) {
	g := &group.Group{}
	if id == "" {
		return g, streamState{}, g.KnownTo(p.MemberID)
	}
	st, err := a.loadAll(ctx, es.Stream(p.Tenant, es.CategoryGroup, id), g.Apply)
	if err != nil {
		return g, st, err
	}
	return g, st, g.KnownTo(p.MemberID)
}

// actOnGroup lets p take action on a group: the policy must allow p's
// role there, then decide settles the event, appended with the expected
// revision and decided again after a concurrent change.
func (a *App) actOnGroup(ctx context.Context, p Principal, groupID, action string,
	decide func(g *group.Group, now time.Time) (es.Event, error)) (GroupWritten, error) {
	return a.actOnGroupEvents(ctx, p, groupID, action, func(g *group.Group, now time.Time) ([]es.Event, error) {
		e, err := decide(g, now)
		if e == nil {
			return nil, err
		}
		return []es.Event{e}, err
	})
}

// actOnGroupEvents is actOnGroup for decisions of several events.
func (a *App) actOnGroupEvents(ctx context.Context, p Principal, groupID, action string,
	decide func(g *group.Group, now time.Time) ([]es.Event, error)) (GroupWritten, error) {
	return retryOnConflict(ctx, func() (GroupWritten, error) {
		g, st, err := a.groupOf(ctx, p, groupID)
		if err != nil {
			return GroupWritten{}, err
		}
		if !g.Dissolved && !a.Authz.Allowed(string(g.RoleOf(p.MemberID)), ScopeGroup, "group", action) {
			return GroupWritten{}, fault.New(fault.Forbidden, fault.MsgForbidden)
		}
		events, err := decide(g, a.Now())
		if err != nil || len(events) == 0 {
			return GroupWritten{}, err
		}
		res, err := a.appendEvents(ctx, p, es.Stream(p.Tenant, es.CategoryGroup, groupID), st.expected(), events)
		return GroupWritten{Position: res.Position}, err
	})
}

// InviteToGroup adds friends of p to a group p belongs to. The friends a
// Normal member invites wait, as join requests, for the owner or an admin
// to let them in, when the policy does not let p add members.
func (a *App) InviteToGroup(ctx context.Context, p Principal, r GroupChange) (GroupWritten, error) {
	return a.actOnGroup(ctx, p, r.GroupID, "invite", func(g *group.Group, now time.Time) (es.Event, error) {
		var e es.Event
		var err error
		var invited []string
		if a.Authz.Allowed(string(g.RoleOf(p.MemberID)), ScopeGroup, "group", "add-member") {
			if e, err = g.Invite(p.MemberID, r.MemberIDs, now); e != nil {
				invited = e.(*group.MembersAdded).Members
			}
		} else if e, err = g.RequestJoin(p.MemberID, r.MemberIDs, a.NewID, now); e != nil {
			for _, req := range e.(*group.JoinRequested).Requests {
				invited = append(invited, req.Member)
			}
		}
		if err != nil || e == nil {
			return nil, err
		}
		return e, a.checkFriends(ctx, p, invited)
	})
}

// AnswerGroupJoin lets the member of a join request into its group, or
// refuses them; the owner and the admins answer.
func (a *App) AnswerGroupJoin(ctx context.Context, p Principal, groupID string, r AnswerFriendRequest) (Answered, error) {
	accept, err := acceptance(r.Status)
	if err != nil {
		return Answered{}, err
	}
	w, err := a.actOnGroupEvents(ctx, p, groupID, "answer-join", func(g *group.Group, now time.Time) ([]es.Event, error) {
		return g.AnswerJoin(p.MemberID, r.ID, accept, now)
	})
	if err != nil {
		return Answered{}, err
	}
	return Answered{ID: r.ID, Status: r.Status, Position: w.Position}, nil
}

// RemoveGroupMembers removes members of lower rank than p, one event
// each.
func (a *App) RemoveGroupMembers(ctx context.Context, p Principal, r GroupChange) (GroupWritten, error) {
	ids := r.MemberIDs
	if r.MemberID != "" {
		ids = append(ids, r.MemberID)
	}
	if len(ids) == 0 {
		return GroupWritten{}, fault.New(fault.Invalid, fault.MsgNotGroupMember)
	}
	var last GroupWritten
	for _, id := range ids {
		w, err := a.actOnGroup(ctx, p, r.GroupID, "remove-member", func(g *group.Group, now time.Time) (es.Event, error) {
			if g.Members[id] == nil {
				return nil, nil
			}
			return g.Remove(p.MemberID, id, now)
		})
		if err != nil {
			return last, err
		}
		last.Position = max(last.Position, w.Position)
	}
	return last, nil
}

// LeaveGroup takes p out of a group.
func (a *App) LeaveGroup(ctx context.Context, p Principal, r GroupChange) (GroupWritten, error) {
	return a.actOnGroup(ctx, p, r.GroupID, "leave", func(g *group.Group, now time.Time) (es.Event, error) {
		return g.Leave(p.MemberID, now)
	})
}

// SetGroupRole makes a member Admin or Normal.
func (a *App) SetGroupRole(ctx context.Context, p Principal, r GroupChange) (GroupWritten, error) {
	return a.actOnGroup(ctx, p, r.GroupID, "set-role", func(g *group.Group, now time.Time) (es.Event, error) {
		return g.SetRole(p.MemberID, r.MemberID, group.Role(r.Role), now)
	})
}

// TransferGroup makes another member the owner.
func (a *App) TransferGroup(ctx context.Context, p Principal, r GroupChange) (GroupWritten, error) {
	return a.actOnGroup(ctx, p, r.GroupID, "transfer", func(g *group.Group, now time.Time) (es.Event, error) {
		return g.Transfer(p.MemberID, r.MemberID, now)
	})
}

// MuteGroupMember mutes a member for r.Minutes, or unmutes it at 0.
func (a *App) MuteGroupMember(ctx context.Context, p Principal, r GroupChange) (GroupWritten, error) {
	if r.Minutes < 0 || r.Minutes > maxMuteMinutes {
		return GroupWritten{}, fault.New(fault.Invalid, fault.MsgMuteUntilPast)
	}
	return a.actOnGroup(ctx, p, r.GroupID, "mute", func(g *group.Group, now time.Time) (es.Event, error) {
		var until time.Time
		if r.Minutes > 0 {
			until = now.Add(time.Duration(r.Minutes) * time.Minute)
		}
		return g.Mute(p.MemberID, r.MemberID, until, now)
	})
}

// maxMuteMinutes bounds a mute: 30 days.
const maxMuteMinutes = 30 * 24 * 60

// SetGroupNickname sets p's nickname in a group.
func (a *App) SetGroupNickname(ctx context.Context, p Principal, r GroupChange) (GroupWritten, error) {
	return a.actOnGroup(ctx, p, r.GroupID, "set-nickname", func(g *group.Group, now time.Time) (es.Event, error) {
		return g.SetNickname(p.MemberID, r.Nickname, now)
	})
}

// DissolveGroup ends a group.
func (a *App) DissolveGroup(ctx context.Context, p Principal, r GroupChange) (GroupWritten, error) {
	return a.actOnGroup(ctx, p, r.GroupID, "dissolve", func(g *group.Group, now time.Time) (es.Event, error) {
		return g.Dissolve(p.MemberID, now)
	})
}

// ModifyGroup changes a group's settings. Each kind of setting needs its
// own permission: info (name, notice, avatar, send rate) and muting all
// are an admin's, allowing members to leave the owner's.
func (a *App) ModifyGroup(ctx context.Context, p Principal, r ModifyGroup) (GroupWritten, error) {
	s := group.Settings{Name: r.Name, HeadURL: r.HeadURL, Notice: r.Notice, MuteAll: r.MuteAll, AllowLeave: r.AllowLeave}
	if r.MuteAllMinutes != nil {
		if r.MuteAll == nil || !*r.MuteAll || *r.MuteAllMinutes <= 0 || *r.MuteAllMinutes > maxMuteMinutes {
			return GroupWritten{}, fault.New(fault.Invalid, fault.MsgMuteUntilPast)
		}
		until := a.Now().Add(time.Duration(*r.MuteAllMinutes) * time.Minute).UnixMilli()
		s.MuteAllUntil = &until
	}
	if r.SendRate != nil {
		rate, err := group.ParseSendRate(*r.SendRate)
		if err != nil {
			return GroupWritten{}, err
		}
		s.SendRate = &rate
	}
	action := "modify"
	switch {
	case r.AllowLeave != nil:
		action = "allow-leave"
	case r.MuteAll != nil && r.Name == nil && r.HeadURL == nil && r.Notice == nil && r.SendRate == nil:
		action = "mute"
	}
	return a.actOnGroup(ctx, p, r.GroupID, action, func(g *group.Group, now time.Time) (es.Event, error) {
		if r.HeadURL != nil && *r.HeadURL != g.HeadURL { // a form sends the current avatar back unchanged
			if err := a.checkGroupAvatar(ctx, p, *r.HeadURL); err != nil {
				return nil, err
			}
		}
		return g.Modify(p.MemberID, s, now)
	})
}

// checkGroupAvatar fails unless headURL is empty or names a jpg or png
// picture p uploaded: every member's client fetches it, so no outside
// address, script or other member's file.
func (a *App) checkGroupAvatar(ctx context.Context, p Principal, headURL string) error {
	if headURL == "" {
		return nil
	}
	return a.checkPicture(ctx, p, headURL, fault.MsgGroupAvatarInvalid, "jpg", "png")
}
