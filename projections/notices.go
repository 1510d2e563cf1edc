package projections

import (
	"context"
	"slices"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/domain/group"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/notice"
)

// Notices keeps each member's system notices, derived from other members'
// acts: a friend request (to its addressee), its acceptance or refusal (to
// the requester), being brought into a group (to the invited), being
// made a group's owner (to the new owner), a join request (to the group's
// managers, marked with its answer), a login from a new device (with its
// verification code) and a back-end administrator's reply to feedback. The member's reading and
// deleting change them. Each member whose notices changed gets its unread
// counts (44).
type Notices struct{}

// Name is the persisted checkpoint key.
func (Notices) Name() string { return "notices.v1" }

// noticeCounts is the push 44: the client refreshes its notices and the
// badges of the fixed entry 003.
type noticeCounts struct {
	NoticeCounts
	Position uint64 `json:"position"`
}

// noticeBatch holds the notices a batch changed, by member and id; a nil
// notice is deleted.
type noticeBatch struct {
	tx      Tx
	touched map[string]map[string]*Notice
	order   []string // members in the order they were first touched
	last    map[string]Envelope
}

// Project folds the events that give or change notices.
func (Notices) Project(ctx context.Context, tx Tx, events []Envelope) ([]Delta, error) {
	b := noticeBatch{tx: tx, touched: map[string]map[string]*Notice{}, last: map[string]Envelope{}}
	for _, env := range events {
		if err := b.fold(ctx, env); err != nil {
			return nil, err
		}
	}
	return b.flush(ctx)
}

func (b *noticeBatch) fold(ctx context.Context, env Envelope) error {
	giveDetailed := func(id, member string, kind notice.Kind, actor, contentID, content string, detail NoticeDetail, at int64) {
		n := &Notice{Tenant: env.Tenant, Member: member, ID: id, Kind: string(kind), Tab: string(notice.TabOf(kind)), Actor: actor,
			ContentID: contentID, Content: content, CreatedAt: at, Position: env.Position, Detail: detail}
		b.of(env, member)[n.ID] = n
	}
	give := func(member string, kind notice.Kind, actor, contentID, content string, at int64) {
		giveDetailed(notice.ID(env.ID, member), member, kind, actor, contentID, content, NoticeDetail{}, at)
	}
	switch e := env.Event.(type) {
	case *member.DeviceVerificationIssued:
		if env.Stream.Category == es.CategoryMember {
			giveDetailed(notice.ID(env.ID, env.Stream.ID), env.Stream.ID, notice.Verification, "", "", "",
				NoticeDetail{Code: e.Code, ValidMinutes: e.ValidMinutes, System: e.System}, e.At)
		}
	case *member.FeedbackReplied:
		if env.Stream.Category == es.CategoryMember {
			give(env.Stream.ID, notice.FeedbackReply, "", e.ID, e.Reply, e.At)
		}
	case *group.JoinRequested:
		if env.Stream.Category == es.CategoryGroup {
			for _, r := range e.Requests {
				for _, m := range r.Managers {
					giveDetailed(notice.ID(r.ID, m), m, notice.GroupJoinRequest, e.By, env.Stream.ID, "",
						NoticeDetail{RequestID: r.ID, Member: r.Member, Status: friend.StatusPending}, e.At)
				}
			}
		}
	case *group.JoinAnswered:
		if env.Stream.Category == es.CategoryGroup {
			return b.answerJoin(ctx, env, e)
		}
	case *friend.Requested:
		give(e.To, notice.FriendRequest, e.From, e.ApplyID, erasedAs(e.Content, ErasedContent), e.At)
	case *friend.RequestAccepted:
		if to := friend.Peer(env.Stream.ID, e.By); to != "" {
			give(to, notice.FriendAccepted, e.By, e.ApplyID, "", e.At)
		}
	case *friend.RequestRejected:
		if to := friend.Peer(env.Stream.ID, e.By); to != "" {
			give(to, notice.FriendRefused, e.By, e.ApplyID, "", e.At)
		}
	case *group.Created:
		if env.Stream.Category == es.CategoryGroup {
			for _, m := range e.Members {
				give(m, notice.GroupInvite, e.Owner, env.Stream.ID, "", e.At)
			}
		}
	case *group.MembersAdded:
		if env.Stream.Category == es.CategoryGroup {
			for _, m := range e.Members {
				give(m, notice.GroupInvite, e.By, env.Stream.ID, "", e.At)
			}
		}
	case *group.OwnershipTransferred:
		if env.Stream.Category == es.CategoryGroup {
			give(e.To, notice.GroupOwner, e.From, env.Stream.ID, "", e.At)
		}
	case *member.Erased:
		if env.Stream.Category == es.CategoryMember {
			return b.erased(ctx, env)
		}
	case *notice.NoticesRead:
		return b.read(ctx, env, e)
	case *notice.NoticesDeleted:
		ns := b.of(env, e.Member)
		for _, id := range e.IDs {
			ns[id] = nil
		}
	}
	return nil
}

// answerJoin shows the answer to a join request on the notices of the
// managers it was put to, and marks them Read: it needs nobody else's
// answer. A notice its manager deleted stays deleted.
func (b *noticeBatch) answerJoin(ctx context.Context, env Envelope, e *group.JoinAnswered) error {
	status := friend.StatusRejected
	if e.Accepted {
		status = friend.StatusAccepted
	}
	for _, m := range e.Asked {
		id := notice.ID(e.RequestID, m)
		ns := b.of(env, m)
		n, inBatch := ns[id]
		if !inBatch {
			stored, err := b.tx.GetNotices(ctx, m, []string{id})
			if err != nil {
				return err
			}
			if s, ok := stored[id]; ok {
				n = &s
				ns[id] = n
			}
		}
		if n != nil {
			n.Detail.Status, n.Read = status, true
		}
	}
	return nil
}

// of returns the batch's notices of member, noting env as the last event
// that touched them.
func (b *noticeBatch) of(env Envelope, member string) map[string]*Notice {
	ns, ok := b.touched[member]
	if !ok {
		ns = map[string]*Notice{}
		b.touched[member] = ns
		b.order = append(b.order, member)
	}
	b.last[member] = env
	return ns
}

// read marks notices Read: the ones named, or all given up to e.At.
func (b *noticeBatch) read(ctx context.Context, env Envelope, e *notice.NoticesRead) error {
	ns := b.of(env, e.Member)
	var candidates []*Notice
	if e.All {
		stored, err := b.tx.UnreadNotices(ctx, e.Member)
		if err != nil {
			return err
		}
		for _, n := range stored {
			if _, mine := ns[n.ID]; !mine {
				ns[n.ID] = &n
			}
		}
		for _, n := range ns {
			if n != nil && n.CreatedAt <= e.At {
				candidates = append(candidates, n)
			}
		}
	} else {
		var missing []string
		for _, id := range e.IDs {
			if _, ok := ns[id]; !ok {
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			stored, err := b.tx.GetNotices(ctx, e.Member, missing)
			if err != nil {
				return err
			}
			for id, n := range stored {
				ns[id] = &n
			}
		}
		for _, id := range e.IDs {
			if n := ns[id]; n != nil {
				candidates = append(candidates, n)
			}
		}
	}
	for _, n := range candidates {
		n.Read = true
	}
	return nil
}

// flush stores the batch's notices and tells each member touched its
// unread counts, from its stored unread notices overlaid by the batch's.
func (b *noticeBatch) flush(ctx context.Context) ([]Delta, error) {
	var puts []Notice
	var deltas []Delta
	for _, member := range b.order {
		ns := b.touched[member]
		var deleted []string
		for id, n := range ns {
			if n == nil {
				deleted = append(deleted, id)
			} else {
				puts = append(puts, *n)
			}
		}
		stored, err := b.tx.UnreadNotices(ctx, member)
		if err != nil {
			return nil, err
		}
		var counts NoticeCounts
		for _, n := range stored {
			if _, mine := ns[n.ID]; !mine {
				counts.Add(n)
			}
		}
		for _, n := range ns {
			if n != nil && !n.Read {
				counts.Add(*n)
			}
		}
		if len(deleted) > 0 {
			slices.Sort(deleted)
			if err := b.tx.DeleteNotices(ctx, member, deleted); err != nil {
				return nil, err
			}
		}
		env := b.last[member]
		deltas = append(deltas, delta(env, CmdNotices, noticeCounts{NoticeCounts: counts, Position: env.Position}, member))
	}
	if len(puts) > 0 {
		slices.SortFunc(puts, func(x, y Notice) int { return cmpNotice(x, y) })
		if err := b.tx.PutNotices(ctx, puts); err != nil {
			return nil, err
		}
	}
	return deltas, nil
}

func cmpNotice(x, y Notice) int {
	if x.Member != y.Member {
		if x.Member < y.Member {
			return -1
		}
		return 1
	}
	if x.ID < y.ID {
		return -1
	}
	if x.ID > y.ID {
		return 1
	}
	return 0
}

// NoticeFlags tells which of the notices among ids of member of tenant
// exist and whether each is unread. It first waits for the read models to
// reach the log's head, so that a command never acts on a notice already
// read or deleted.
func (l Lookups) NoticeFlags(ctx context.Context, tenant, member string, ids []string) (map[string]bool, error) {
	l.caughtUp(ctx)
	ns, err := l.Q.NoticesByID(ctx, Viewer{Tenant: tenant, Member: member}, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(ns))
	for _, n := range ns {
		out[n.ID] = !n.Read
	}
	return out, nil
}

// UnreadNoticeCount counts member's unread notices, once the read models
// have reached the log's head.
func (l Lookups) UnreadNoticeCount(ctx context.Context, member string) (int, error) {
	l.caughtUp(ctx)
	c, err := l.Q.NoticeCounts(ctx, member)
	return c.Total, err
}
