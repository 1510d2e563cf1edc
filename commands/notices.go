package commands

import (
	"context"

	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/notice"
)

// Notices finds a member's system notices in the read models.
type Notices interface {
	// NoticeFlags tells which of the notices among ids of member of tenant
	// exist and whether each is unread.
	NoticeFlags(ctx context.Context, tenant, member string, ids []string) (map[string]bool, error)
	// UnreadNoticeCount counts member's unread notices.
	UnreadNoticeCount(ctx context.Context, member string) (int, error)
}

// NoticeID names one notice: the body of PUT
// /v1/message/messagePush/history/systemNotify/read.
type NoticeID struct {
	ID string `json:"id"`
}

// NoticeIDs names notices: the body of POST
// /v1/message/deleteSystemMessageBatch.
type NoticeIDs struct {
	IDs []string `json:"ids"`
}

// NoticesChanged answers a change of notices: the ids changed and the
// position to pass as ?after= (0 when nothing changed).
type NoticesChanged struct {
	IDs      []string `json:"ids"`
	Position uint64   `json:"position"`
}

// known fails with not found unless every id is one of p's notices, and
// returns which are unread.
func (a *App) knownNotices(ctx context.Context, p Principal, ids []string) (map[string]bool, error) {
	if err := notice.CheckIDs(ids); err != nil {
		return nil, err
	}
	flags, err := a.Notices.NoticeFlags(ctx, p.Tenant, p.MemberID, ids)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if _, ok := flags[id]; !ok {
			return nil, fault.New(fault.NotFound, fault.MsgNoticeNotFound)
		}
	}
	return flags, nil
}

// ReadNotice marks one of p's notices Read; a read one stays as it is.
func (a *App) ReadNotice(ctx context.Context, p Principal, r NoticeID) (NoticesChanged, error) {
	ids := []string{r.ID}
	unread, err := a.knownNotices(ctx, p, ids)
	if err != nil {
		return NoticesChanged{}, err
	}
	events, err := notice.Read(p.MemberID, ids, unread, a.Now())
	if err != nil || len(events) == 0 {
		return NoticesChanged{IDs: []string{}}, err
	}
	res, err := a.appendInbox(ctx, p, events...)
	if err != nil {
		return NoticesChanged{}, err
	}
	return NoticesChanged{IDs: ids, Position: res.Position}, nil
}

// ReadAllNotices marks every notice p was given until now Read.
func (a *App) ReadAllNotices(ctx context.Context, p Principal) (NoticesChanged, error) {
	n, err := a.Notices.UnreadNoticeCount(ctx, p.MemberID)
	if err != nil {
		return NoticesChanged{}, err
	}
	events := notice.ReadAll(p.MemberID, n, a.Now())
	if len(events) == 0 {
		return NoticesChanged{IDs: []string{}}, nil
	}
	res, err := a.appendInbox(ctx, p, events...)
	if err != nil {
		return NoticesChanged{}, err
	}
	return NoticesChanged{IDs: []string{}, Position: res.Position}, nil
}

// DeleteNotices drops notices of p; every one must be p's.
func (a *App) DeleteNotices(ctx context.Context, p Principal, r NoticeIDs) (NoticesChanged, error) {
	if _, err := a.knownNotices(ctx, p, r.IDs); err != nil {
		return NoticesChanged{}, err
	}
	events, err := notice.Delete(p.MemberID, r.IDs, a.Now())
	if err != nil {
		return NoticesChanged{}, err
	}
	res, err := a.appendInbox(ctx, p, events...)
	if err != nil {
		return NoticesChanged{}, err
	}
	return NoticesChanged{IDs: r.IDs, Position: res.Position}, nil
}
