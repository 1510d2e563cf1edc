package commands

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/group"
)

// groupMember loads a live group p belongs to (groupOf) and asks the
// policy whether p's role there may take action on its chat.
func (a *App) groupMember(ctx context.Context, p Principal, groupID, action string) (*group.Group, error) {
	if groupID == "" {
		return nil, fault.New(fault.Invalid, fault.MsgGroupIDMissing)
	}
	g, _, err := a.groupOf(ctx, p, groupID)
	if err != nil {
		return nil, err
	}
	switch {
	case g.Dissolved:
		return nil, fault.New(fault.Conflict, fault.MsgGroupDissolved)
	case !a.Authz.Allowed(string(g.RoleOf(p.MemberID)), ScopeGroup, "group", action):
		return nil, fault.New(fault.Forbidden, fault.MsgForbidden)
	}
	return g, nil
}

// speakInGroup checks that p may send to a group now: a member, not muted
// (30021, 30022), within the group's send rate. earlier, when not nil,
// waits for p's sends still queued, so that the rate counts them.
//
// It returns the revision of the group's chat to append at: Any when the
// group has no send rate, else the revision its count of p's sends was read
// at, so that sends racing from p's devices, on any node, are counted one
// after the other (retryOnConflict decides a lost race again).
func (a *App) speakInGroup(ctx context.Context, p Principal, groupID string, earlier func()) (es.ExpectedRevision, error) {
	g, err := a.groupMember(ctx, p, groupID, "send")
	if err != nil {
		return es.Any, err
	}
	now := a.Now()
	var recent []int64
	at := es.Any
	if g.SendRate.PerMinute() > 0 {
		if earlier != nil {
			earlier()
		}
		if recent, at, err = a.recentSends(ctx, p, groupID, now.Add(-time.Minute)); err != nil {
			return es.Any, err
		}
	}
	return at, g.Speak(p.MemberID, recent, now)
}

// speakAndAppend appends p's intent to speak in a group (appendAt) at the
// revision speakInGroup answers. An intent the group refuses now is
// answered by orRetried.
func speakAndAppend[T any](ctx context.Context, a *App, p Principal, groupID string, earlier func(), appendAt func(es.ExpectedRevision) (T, error)) (T, error) {
	at, err := a.speakInGroup(ctx, p, groupID, earlier)
	if err != nil {
		return orRetried(err, appendAt)
	}
	return appendAt(at)
}

// recentSends are the times of p's messages in a group's chat since since,
// read back from the chat's end, and the revision of the chat they were
// read at. A retried send counts its first: the log answers it with the
// first all the same, whether the rate lets it through or not (orRetried).
func (a *App) recentSends(ctx context.Context, p Principal, groupID string, since time.Time) (_ []int64, at es.ExpectedRevision, _ error) {
	stream := es.Stream(p.Tenant, es.CategoryChat, groupID)
	var out []int64
	at = es.NoStream
	from := es.End
	for {
		recs, err := a.Store.ReadStream(ctx, stream, es.Backwards, from, readPage)
		if err != nil {
			return nil, at, err
		}
		if from == es.End && len(recs) > 0 {
			at = es.Exact(recs[0].Revision)
		}
		for _, r := range recs {
			if !r.Metadata.Time.After(since) {
				return out, at, nil
			}
			if r.Type == chat.TypeMessageSent && r.Metadata.Actor == p.MemberID {
				out = append(out, r.Metadata.Time.UnixMilli())
			}
		}
		if len(recs) < readPage || recs[len(recs)-1].Revision == 0 {
			return out, at, nil
		}
		from = recs[len(recs)-1].Revision - 1
	}
}

// unreached is an expected revision no chat reaches: appended at it, an
// intent appends nothing, and the log still answers it as a duplicate when
// it holds its event ids (the duplicate check comes first, see
// EventStore). It is below 1<<63: EventStoreDB reads a revision as a
// signed number.
var unreached = es.Exact(math.MaxInt64)

// orRetried answers an intent to speak in a group that the group refuses
// now, muted or over its send rate, with the intent's first answer when the
// log holds it: the retry of a send or forward that passed then, however
// long ago. appendAt appends the intent at a revision; any other intent
// keeps the refusal.
func orRetried[T any](refusal error, appendAt func(es.ExpectedRevision) (T, error)) (T, error) {
	var zero T
	if !fault.Is(refusal, fault.RateLimited) && !fault.Is(refusal, fault.Forbidden) {
		return zero, refusal
	}
	res, err := appendAt(unreached)
	if errors.Is(err, es.ErrConcurrency) {
		return zero, refusal
	}
	return res, err
}

// DeleteGroupMessages is the query of DELETE
// /v1/chat/groupInfo/deleteRemoteGroupMessage.
type DeleteGroupMessages struct {
	GroupID    string   `json:"groupId"`
	MessageIDs []string `json:"messageIds"`
}

// DeleteRemoteGroupMessages deletes messages of a group's chat, anyone's,
// for every member: the owner's and admins' call.
func (a *App) DeleteRemoteGroupMessages(ctx context.Context, p Principal, r DeleteGroupMessages) (Deleted, error) {
	if err := chat.CheckIDs(r.MessageIDs); err != nil {
		return Deleted{}, err
	}
	g, err := a.groupMember(ctx, p, r.GroupID, "read")
	if err != nil {
		return Deleted{}, err
	}
	if !a.mayDeleteOthers(g, p) {
		return Deleted{}, fault.New(fault.Forbidden, fault.MsgRemoteDeleteDenied)
	}
	ms, err := a.sentMessages(ctx, p, r.MessageIDs)
	if err != nil {
		return Deleted{}, err
	}
	return a.deleteInGroup(ctx, p, g, ms)
}

func (a *App) mayDeleteOthers(g *group.Group, p Principal) bool {
	return a.Authz.Allowed(string(g.RoleOf(p.MemberID)), ScopeGroup, "group", "delete-others-messages")
}

// deleteInGroup deletes messages of g's chat for every member: one's own,
// or anyone's for the owner and admins.
func (a *App) deleteInGroup(ctx context.Context, p Principal, g *group.Group, ms []chat.Stored) (Deleted, error) {
	for _, m := range ms {
		if m.ChatID != g.ID {
			return Deleted{}, fault.New(fault.NotFound, fault.MsgMessageNotFound)
		}
	}
	ids := chat.WithBatches(ms)
	e, err := chat.DeleteForEveryone(ms, p.MemberID, ids, a.mayDeleteOthers(g, p), a.Now())
	if err != nil {
		return Deleted{}, err
	}
	res, err := a.appendToChat(ctx, p, ms[0], e)
	if err != nil {
		return Deleted{}, err
	}
	return Deleted{MessageIDs: ids, Position: res.Position}, nil
}

// GroupMessage names a message of a group's chat: the body of the pin
// calls.
type GroupMessage struct {
	GroupID   string `json:"groupId"`
	MessageID string `json:"messageId"`
}

// PinGroupMessage pins a message of a group's chat for every member.
func (a *App) PinGroupMessage(ctx context.Context, p Principal, r GroupMessage) (GroupWritten, error) {
	if r.MessageID == "" {
		return GroupWritten{}, fault.New(fault.Invalid, fault.MsgMessageNotFound)
	}
	if _, err := a.groupMember(ctx, p, r.GroupID, "pin-message"); err != nil {
		return GroupWritten{}, err
	}
	ms, err := a.Messages.SentMessages(ctx, p.Tenant, p.MemberID, []string{r.MessageID})
	if err != nil {
		return GroupWritten{}, err
	}
	if len(ms) == 0 || ms[0].ChatID != r.GroupID || ms[0].Recalled {
		return GroupWritten{}, fault.New(fault.NotFound, fault.MsgMessageNotFound)
	}
	return a.actOnGroup(ctx, p, r.GroupID, "pin-message", func(g *group.Group, now time.Time) (es.Event, error) {
		return g.Pin(p.MemberID, r.MessageID, now)
	})
}

// UnpinGroupMessage unpins a pinned message of a group.
func (a *App) UnpinGroupMessage(ctx context.Context, p Principal, r GroupMessage) (GroupWritten, error) {
	return a.actOnGroup(ctx, p, r.GroupID, "pin-message", func(g *group.Group, now time.Time) (es.Event, error) {
		return g.Unpin(p.MemberID, r.MessageID, now)
	})
}
