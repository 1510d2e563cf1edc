package projections

import (
	"context"
	"slices"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/domain/group"
	"github.com/eventchat/eventchat/domain/member"
)

// Groups keeps groups and their members, and tells members that a group
// was created (22), changed (23), or left, by them or by all (21).
type Groups struct{}

// Name is the persisted checkpoint key.
func (Groups) Name() string { return "groups.v1" }

// groupChange is the push of 21 and 23.
type groupChange struct {
	GroupID       string `json:"groupId"`
	OperationType string `json:"operationType"`
	Member        string `json:"memberId,omitempty"`
	Position      uint64 `json:"position"`
}

// groupBatch holds the groups and members a batch changed.
type groupBatch struct {
	tx      Tx
	groups  map[string]*Group
	order   []string
	members map[string]map[string]*GroupMember // by group, by member; nil: deleted
	deltas  []Delta
}

// Project folds the events of group streams.
func (Groups) Project(ctx context.Context, tx Tx, events []Envelope) ([]Delta, error) {
	b := groupBatch{tx: tx, groups: map[string]*Group{}, members: map[string]map[string]*GroupMember{}}
	for _, env := range events {
		if _, ok := env.Event.(*member.Erased); ok && env.Stream.Category == es.CategoryMember {
			if err := b.erased(ctx, env); err != nil {
				return nil, err
			}
			continue
		}
		if env.Stream.Category != es.CategoryGroup {
			continue
		}
		if err := b.fold(ctx, env); err != nil {
			return nil, err
		}
	}
	return b.deltas, b.flush(ctx)
}

func (b *groupBatch) fold(ctx context.Context, env Envelope) error {
	id := env.Stream.ID
	if e, ok := env.Event.(*group.Created); ok {
		g := &Group{ID: id, Tenant: env.Tenant, Name: e.Name, HeadURL: e.HeadURL, Owner: e.Owner,
			AllowLeave: true, SendRate: string(group.NoLimit), CreatedAt: e.At}
		g.setNotice(e.Notice, e.Owner)
		b.put(g)
		b.join(env, g, e.Owner, group.Owner, e.At)
		for _, m := range e.Members {
			b.join(env, g, m, group.Normal, e.At)
		}
		b.push(env, CmdGroupCreated, groupChange{GroupID: id, OperationType: "Created", Position: env.Position}, g.Owner, e.Members...)
		return nil
	}
	g, err := b.group(ctx, id)
	if err != nil || g == nil {
		return err
	}
	everyone := func() ([]string, error) { return b.memberIDs(ctx, g) }
	switch e := env.Event.(type) {
	case *group.MembersAdded:
		for _, m := range e.Members {
			b.join(env, g, m, group.Normal, e.At)
		}
		b.push(env, CmdGroupCreated, groupChange{GroupID: id, OperationType: "Joined", Position: env.Position}, "", e.Members...)
		return b.pushAll(env, everyone, CmdGroupChanged, groupChange{GroupID: id, OperationType: "MembersAdded", Position: env.Position})
	case *group.MemberRemoved:
		b.leave(g, e.Member)
		b.push(env, CmdGroupLeft, groupChange{GroupID: id, OperationType: "Removed", Member: e.Member, Position: env.Position}, e.Member)
		return b.pushAll(env, everyone, CmdGroupChanged, groupChange{GroupID: id, OperationType: "MemberRemoved", Member: e.Member, Position: env.Position})
	case *group.MemberLeft:
		b.leave(g, e.Member)
		b.push(env, CmdGroupLeft, groupChange{GroupID: id, OperationType: "Left", Member: e.Member, Position: env.Position}, e.Member)
		return b.pushAll(env, everyone, CmdGroupChanged, groupChange{GroupID: id, OperationType: "MemberLeft", Member: e.Member, Position: env.Position})
	case *group.MemberRoleChanged:
		return b.changeMember(ctx, env, g, e.Member, "RoleChanged", func(m *GroupMember) { m.Role = string(e.Role) })
	case *group.MemberMuted:
		return b.changeMember(ctx, env, g, e.Member, "Muted", func(m *GroupMember) { m.MutedUntil = e.Until })
	case *group.NicknameSet:
		return b.changeMember(ctx, env, g, e.Member, "NicknameSet", func(m *GroupMember) { m.Nickname = erasedAs(e.Nickname, ErasedName) })
	case *group.OwnershipTransferred:
		g.Owner = e.To
		if err := b.changeMember(ctx, env, g, e.From, "", func(m *GroupMember) { m.Role = string(group.Admin) }); err != nil {
			return err
		}
		return b.changeMember(ctx, env, g, e.To, "OwnershipTransferred", func(m *GroupMember) { m.Role = string(group.Owner) })
	case *group.Modified:
		setIf(&g.Name, e.Name)
		setIf(&g.HeadURL, e.HeadURL)
		if e.Notice != nil {
			g.setNotice(*e.Notice, e.By)
		}
		setIf(&g.MuteAll, e.MuteAll)
		setIf(&g.MuteAllUntil, e.MuteAllUntil)
		setIf(&g.AllowLeave, e.AllowLeave)
		if e.SendRate != nil {
			g.SendRate = string(*e.SendRate)
		}
		return b.pushAll(env, everyone, CmdGroupChanged, groupChange{GroupID: id, OperationType: "Modified", Position: env.Position})
	case *group.Dissolved:
		g.Dissolved = true
		return b.pushAll(env, everyone, CmdGroupLeft, groupChange{GroupID: id, OperationType: "Dissolved", Position: env.Position})
	case *group.MessagePinned:
		g.Pinned = append([]string{e.MessageID}, g.Pinned...)
		return b.pushPins(env, g, everyone, pinChange{GroupID: id, MessageID: e.MessageID, OperationType: "AddTop", OperatorID: e.By})
	case *group.MessageUnpinned:
		g.Pinned = slices.DeleteFunc(slices.Clone(g.Pinned), func(m string) bool { return m == e.MessageID })
		return b.pushPins(env, g, everyone, pinChange{GroupID: id, MessageID: e.MessageID, OperationType: "DelTop", OperatorID: e.By})
	case *group.JoinRequested:
		as := make([]GroupApply, len(e.Requests))
		for i, r := range e.Requests {
			as[i] = GroupApply{ID: r.ID, Tenant: env.Tenant, GroupID: id, Member: r.Member, By: e.By,
				Status: friend.StatusPending, CreatedAt: e.At, UpdatedAt: e.At}
		}
		if err := b.tx.PutGroupApplies(ctx, as); err != nil {
			return err
		}
		return b.pushJoins(ctx, env, g, e.By)
	case *group.JoinAnswered:
		a, found, err := b.tx.GetGroupApply(ctx, env.Tenant, e.RequestID)
		if err != nil || !found {
			return err
		}
		a.Status, a.UpdatedAt = friend.StatusRejected, e.At
		if e.Accepted {
			a.Status = friend.StatusAccepted
		}
		if err := b.tx.PutGroupApplies(ctx, []GroupApply{a}); err != nil {
			return err
		}
		return b.pushJoins(ctx, env, g, a.By)
	}
	return nil
}

// pushJoins tells the owner, the admins and the inviter that the group's
// join requests changed (26).
func (b *groupBatch) pushJoins(ctx context.Context, env Envelope, g *Group, inviter string) error {
	return b.pushAll(env, func() ([]string, error) {
		if err := b.flush(ctx); err != nil {
			return nil, err
		}
		stored, err := b.tx.GetGroupMembers(ctx, g.ID, nil)
		if err != nil {
			return nil, err
		}
		to := []string{inviter}
		for id, m := range stored {
			if m.Role != string(group.Normal) && id != inviter {
				to = append(to, id)
			}
		}
		slices.Sort(to[1:])
		return to, nil
	}, CmdApplyRefresh, map[string]string{"groupId": g.ID})
}

// pinChange is the push of a pin result (50); pinRefresh the push of the
// list of pinned messages (39).
type (
	pinChange struct {
		GroupID       string `json:"groupId"`
		MessageID     string `json:"messageId"`
		OperationType string `json:"operationType"` // AddTop | DelTop
		OperatorID    string `json:"operatorId"`
		Position      uint64 `json:"position"`
	}
	pinRefresh struct {
		GroupID    string   `json:"groupId"`
		MessageIDs []string `json:"pinnedMessageIds"`
		Position   uint64   `json:"position"`
	}
)

// pushPins tells every member what changed and the pinned messages now.
func (b *groupBatch) pushPins(env Envelope, g *Group, members func() ([]string, error), c pinChange) error {
	c.Position = env.Position
	if err := b.pushAll(env, members, CmdPinResult, c); err != nil {
		return err
	}
	return b.pushAll(env, members, CmdPinRefresh, pinRefresh{GroupID: g.ID, MessageIDs: slices.Clone(g.Pinned), Position: env.Position})
}

func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// group returns the batch's copy of a group, loading it; nil when unknown.
func (b *groupBatch) group(ctx context.Context, id string) (*Group, error) {
	if g, ok := b.groups[id]; ok {
		return g, nil
	}
	found, err := b.tx.GetGroups(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	g, ok := found[id]
	if !ok {
		return nil, nil
	}
	b.put(&g)
	return &g, nil
}

func (b *groupBatch) put(g *Group) {
	if _, ok := b.groups[g.ID]; !ok {
		b.order = append(b.order, g.ID)
	}
	b.groups[g.ID] = g
}

func (b *groupBatch) changed(groupID string) map[string]*GroupMember {
	ms := b.members[groupID]
	if ms == nil {
		ms = map[string]*GroupMember{}
		b.members[groupID] = ms
	}
	return ms
}

func (b *groupBatch) join(env Envelope, g *Group, member string, role group.Role, at int64) {
	ms := b.changed(g.ID)
	if m, ok := ms[member]; !ok || m == nil {
		g.MemberCount++
	}
	ms[member] = &GroupMember{GroupID: g.ID, Tenant: env.Tenant, Member: member, Role: string(role), JoinedAt: at}
}

func (b *groupBatch) leave(g *Group, member string) {
	b.changed(g.ID)[member] = nil
	g.MemberCount = max(0, g.MemberCount-1)
}

// changeMember changes a member of g as fn says and tells every member,
// unless operation is "".
func (b *groupBatch) changeMember(ctx context.Context, env Envelope, g *Group, member, operation string, fn func(*GroupMember)) error {
	ms := b.changed(g.ID)
	m, ok := ms[member]
	if !ok {
		found, err := b.tx.GetGroupMembers(ctx, g.ID, []string{member})
		if err != nil {
			return err
		}
		if stored, ok := found[member]; ok {
			m = &stored
		}
	}
	if m == nil {
		return nil
	}
	fn(m)
	ms[member] = m
	if operation == "" {
		return nil
	}
	return b.pushAll(env, func() ([]string, error) { return b.memberIDs(ctx, g) }, CmdGroupChanged,
		groupChange{GroupID: g.ID, OperationType: operation, Member: member, Position: env.Position})
}

// memberIDs lists the current members of g as the batch sees them.
func (b *groupBatch) memberIDs(ctx context.Context, g *Group) ([]string, error) {
	if err := b.flush(ctx); err != nil {
		return nil, err
	}
	stored, err := b.tx.GetGroupMembers(ctx, g.ID, nil)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(stored))
	for id := range stored {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids, nil
}

func (b *groupBatch) push(env Envelope, cmd int, payload any, first string, rest ...string) {
	to := rest
	if first != "" {
		to = append([]string{first}, rest...)
	}
	b.deltas = append(b.deltas, delta(env, cmd, payload, to...))
}

func (b *groupBatch) pushAll(env Envelope, members func() ([]string, error), cmd int, payload any) error {
	to, err := members()
	if err != nil {
		return err
	}
	b.deltas = append(b.deltas, delta(env, cmd, payload, to...))
	return nil
}

// flush writes what the batch changed so far.
func (b *groupBatch) flush(ctx context.Context) error {
	if len(b.order) > 0 {
		gs := make([]Group, len(b.order))
		for i, id := range b.order {
			gs[i] = *b.groups[id]
		}
		if err := b.tx.PutGroups(ctx, gs); err != nil {
			return err
		}
	}
	for groupID, ms := range b.members {
		var put []GroupMember
		var gone []string
		for id, m := range ms {
			if m == nil {
				gone = append(gone, id)
			} else {
				put = append(put, *m)
			}
		}
		if len(gone) > 0 {
			if err := b.tx.DeleteGroupMembers(ctx, groupID, gone); err != nil {
				return err
			}
		}
		if len(put) > 0 {
			if err := b.tx.PutGroupMembers(ctx, put); err != nil {
				return err
			}
		}
	}
	clear(b.members)
	return nil
}
