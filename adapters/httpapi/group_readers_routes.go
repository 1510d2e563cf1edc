package httpapi

import (
	"cmp"
	"context"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/projections"
)

// MessageReaders are who of a group's current members have read a message
// and who have not yet. The sender and the members who joined after the
// message are in neither list.
type MessageReaders struct {
	GroupID     string       `json:"groupId"`
	MessageID   string       `json:"messageId"`
	Read        []ReaderItem `json:"read"`
	Unread      []ReaderItem `json:"unread"`
	ReadCount   int          `json:"readCount"`
	UnreadCount int          `json:"unreadCount"`
}

// ReaderItem is a member with its name and avatar as they are now.
type ReaderItem struct {
	MemberID string `json:"memberId"`
	Name     string `json:"name"`
	HeadURL  string `json:"headUrl"`
}

// maxIDLength bounds the ids a query names: longer ones are no one's.
const maxIDLength = 64

func (a *API) messageReaders(c echo.Context, p commands.Principal) error {
	groupID, messageID := c.QueryParam("groupId"), c.QueryParam("messageId")
	switch {
	case len(groupID) > maxIDLength || len(messageID) > maxIDLength:
		return fault.New(fault.Invalid, fault.MsgReadersIDTooLong)
	case groupID == "":
		return fault.New(fault.Invalid, fault.MsgGroupIDMissing)
	case messageID == "":
		return fault.New(fault.Invalid, fault.MsgReadersMessageID)
	}
	r := a.memberReads()
	g, _, err := r.memberGroup(c, p, groupID)
	if err != nil {
		return err
	}
	return answer(c)(r.messageReaders(c.Request().Context(), viewer(p), g.ID, messageID))
}

// messageReaders tells who of the members of group groupID, which v is
// one of, have read v's message messageID. Only its sender asks: who read
// what, and so when each member was last in the chat, is the sender's to
// know about its own message, not everyone's about everyone's.
func (r memberReads) messageReaders(ctx context.Context, v projections.Viewer, groupID, messageID string) (MessageReaders, error) {
	ms, err := r.q.VisibleMessages(ctx, v, []string{messageID})
	if err != nil {
		return MessageReaders{}, err
	}
	if len(ms) == 0 || ms[0].ChatID != groupID {
		return MessageReaders{}, fault.New(fault.NotFound, fault.MsgMessageNotFound)
	}
	m := ms[0]
	if m.From != v.Member {
		return MessageReaders{}, fault.New(fault.Forbidden, fault.MsgReadersNotSender)
	}
	reads, err := r.q.GroupReads(ctx, v, groupID)
	if err != nil {
		return MessageReaders{}, err
	}
	var read, unread []string
	for _, x := range reads {
		switch {
		case x.Member == m.From || x.JoinSeq > m.Seq:
		case x.ReadSeq >= m.Seq:
			read = append(read, x.Member)
		default:
			unread = append(unread, x.Member)
		}
	}
	people, err := r.q.MembersByID(ctx, v, append(slices.Clone(read), unread...))
	if err != nil {
		return MessageReaders{}, err
	}
	items := func(ids []string) []ReaderItem {
		out := make([]ReaderItem, len(ids))
		for i, id := range ids {
			out[i] = ReaderItem{MemberID: id, Name: people[id].Name, HeadURL: people[id].HeadURL}
		}
		slices.SortStableFunc(out, func(x, y ReaderItem) int { return cmp.Compare(x.Name, y.Name) })
		return out
	}
	return MessageReaders{
		GroupID: groupID, MessageID: messageID, Read: items(read), Unread: items(unread),
		ReadCount: len(read), UnreadCount: len(unread),
	}, nil
}
