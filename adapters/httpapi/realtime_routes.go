package httpapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/personal"
	"github.com/eventchat/eventchat/projections"
)

// RealtimePage is what a device missed: the messages of the member's chats
// after Since, oldest first. Position is where the next call starts (pass
// it as since, or acknowledge it): the last record's when HasMore, else
// the position the read models had reached.
type RealtimePage struct {
	Records  []projections.Message `json:"records"`
	Since    uint64                `json:"since"`
	Position uint64                `json:"position"`
	HasMore  bool                  `json:"hasMore"`
}

const (
	defaultRealtimePage = 100
	maxRealtimePage     = 500
	// realtimeScan is the page in which each chat is read back from its
	// newest message to the starting point.
	realtimeScan = 100
)

func (a *API) realtimeRoutes() []route {
	return []route{
		{method: http.MethodGet, path: "/message/messagePush/realtime/list",
			summary: "The messages of the member's chats after a log position, oldest first, in their current state: after since, " +
				"else after the position this device (login) acknowledged, else none (position says where to start). A reconnecting client " +
				"calls it with the position of the last message it had, pages on with the answer's position while hasMore, then acknowledges.",
			query:  []param{{"since", false, "a log position (a message's or a push's position)"}, {"pageSize", false, "1 to 500, default 100"}},
			result: RealtimePage{}, handle: a.realtime},
		commandRoute(a, http.MethodPost, "/message/messagePush/realtime/messageAck",
			"Acknowledge that this device (login) has the messages up to position, or up to the newest of messageIds (at most 100, each one "+
				"the member sees); its realtime list then starts there. An acknowledgement at or behind the device's changes nothing (position 0).",
			Commands.AckDelivery),
	}
}

func (a *API) realtime(c echo.Context, p commands.Principal) error {
	size, err := intParam(c, "pageSize", defaultRealtimePage, 1, maxRealtimePage)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	head, err := a.deps.Log.Head(ctx)
	if err != nil {
		return err
	}
	a.waitFor(ctx, head)
	reached := min(head, a.deps.Projections.Position())
	var since uint64
	if raw := c.QueryParam("since"); raw != "" {
		if since, err = strconv.ParseUint(raw, 10, 64); err != nil {
			return fault.New(fault.Invalid, fault.MsgPositionInvalid)
		}
	} else {
		items, err := a.deps.Queries.PersonalItemsByID(ctx, viewer(p), personal.KindDelivery, []string{p.SessionID})
		if err != nil {
			return err
		}
		if since = reached; len(items) > 0 {
			var d struct{ Position uint64 }
			if err := json.Unmarshal(items[0].Doc, &d); err != nil {
				return err
			}
			since = d.Position
		}
	}
	out := RealtimePage{Records: []projections.Message{}, Since: since, Position: max(since, reached)}
	if since >= reached {
		return ok(c, out)
	}
	sessions, err := a.deps.Queries.Sessions(ctx, p.MemberID)
	if err != nil {
		return err
	}
	var missed []projections.Message
	for _, s := range sessions {
		var anchor *uint64
		for {
			page, err := a.deps.Queries.HistoryPage(ctx, viewer(p), s.ChatID, anchor, projections.Up, realtimeScan)
			if err != nil {
				return err
			}
			for _, m := range page {
				if m.Position > since && m.Position <= reached {
					missed = append(missed, m)
				}
			}
			if len(page) < realtimeScan || page[0].Position <= since {
				break
			}
			seq := page[0].Seq
			anchor = &seq
		}
	}
	slices.SortFunc(missed, func(x, y projections.Message) int {
		switch {
		case x.Position < y.Position:
			return -1
		case x.Position > y.Position:
			return 1
		}
		return 0
	})
	if len(missed) > size {
		missed, out.HasMore = missed[:size], true
		out.Position = missed[size-1].Position
	}
	out.Records = append(out.Records, missed...)
	return ok(c, out)
}
