package httpapi

import (
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/adapters/envelope"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/projections"
)

// SessionItem is one conversation of the list.
type SessionItem struct {
	projections.SessionView
	Name    string `json:"name"`
	Remark  string `json:"remark"`
	HeadURL string `json:"headUrl"`
	// LastMessageFromName and LastMessageForwardFromName are the names of
	// LastMessageFrom and LastMessageForwardFrom (an erased member's
	// placeholder).
	LastMessageFromName        string `json:"lastMessageFromName,omitempty"`
	LastMessageForwardFromName string `json:"lastMessageForwardFromName,omitempty"`
	// The conversation's unacknowledged mentions of the member, and the
	// marker the list shows for them.
	AtCount   int    `json:"atCount,omitempty"`
	AtContent string `json:"atContent,omitempty"`
}

const (
	defaultPage = 20
	maxPage     = 200
)

func (a *API) messageRoutes() []route {
	return []route{
		{method: http.MethodPost, path: "/message/send",
			summary: "Send a message; the same uuid again returns the first result and appends nothing.",
			body:    commands.SendMessage{}, result: commands.SendResult{}, handle: a.send},
		{method: http.MethodGet, path: "/message/sessionInfo/list",
			summary: "The conversation list: pinned first, then newest; an item names the last message's sender, file and forward's origin (lastMessageFrom, lastMessageFromName, lastMessageFileName, lastMessageForwardFrom, lastMessageForwardType, lastMessageForwardFromName).", result: []SessionItem{}, handle: a.sessions},
		{method: http.MethodGet, path: "/message/messagePush/history/list/page",
			summary: "A page of a chat's history in chat order.",
			query: []param{{"friendMemberId", false, "the friend of a one-to-one chat"}, {"groupId", false, "a group chat"},
				{"messageId", false, "anchor; the newest page when absent"}, {"queryType", false, "Up (older, default) | Down (newer)"},
				{"pageSize", false, "1 to 200, default 20"}},
			result: []projections.Message{}, handle: a.history},
	}
}

func (a *API) send(c echo.Context, p commands.Principal) error {
	var r commands.SendMessage
	if err := bind(c, &r); err != nil {
		return err
	}
	res, err := a.deps.Commands.SendMessage(c.Request().Context(), p, r)
	if err != nil {
		return err
	}
	return ok(c, res)
}

func (a *API) sessions(c echo.Context, p commands.Principal) error {
	out, err := a.memberReads().sessionItems(c, viewer(p), func(projections.Session) bool { return true })
	if err != nil {
		return err
	}
	return ok(c, out)
}

// sessionItems lists the sessions of v that keep admits, with their peers'
// names and avatars, mentions resolved to names in previews, and the
// marker of unacknowledged mentions.
func (r memberReads) sessionItems(c echo.Context, v projections.Viewer, keep func(projections.Session) bool) ([]SessionItem, error) {
	ctx := c.Request().Context()
	ss, err := r.q.Sessions(ctx, v.Member)
	if err != nil {
		return nil, err
	}
	ss = slices.DeleteFunc(ss, func(s projections.Session) bool { return !keep(s) })
	ids := make([]string, 0, len(ss))
	for _, s := range ss {
		ids = append(ids, s.Peer)
		for _, id := range []string{s.LastMessageFrom, s.LastMessageForwardFrom} {
			if id != "" {
				ids = append(ids, id)
			}
		}
		if s.LastMessageType == string(chat.AtText) || s.LastMessageType == string(chat.Event) {
			ids = append(ids, chat.Mentions(s.LastMessageContent)...)
		}
	}
	groups, err := r.groupSessions(c, v, ss)
	if err != nil {
		return nil, err
	}
	members, err := r.q.MembersByID(ctx, v, ids)
	if err != nil {
		return nil, err
	}
	mentions, err := r.q.Mentions(ctx, v.Member)
	if err != nil {
		return nil, err
	}
	atCount := map[string]int{}
	for _, m := range mentions {
		atCount[m.SessionID]++
	}
	lang := envelope.Language(c.Request().Header.Get("Accept-Language"))
	name := func(id string) (string, bool) {
		if id == chat.MentionAll {
			return envelope.Translate(lang, mentionAllName), true
		}
		m, ok := members[id]
		return m.Name, ok && m.Name != ""
	}
	out := make([]SessionItem, 0, len(ss))
	for _, s := range ss {
		m := members[s.Peer]
		item := SessionItem{SessionView: s.View(), Name: m.Name, HeadURL: m.HeadURL}
		item.LastMessageFromName = members[s.LastMessageFrom].Name
		item.LastMessageForwardFromName = members[s.LastMessageForwardFrom].Name
		if g, ok := groups[s.Peer]; ok {
			item.Name, item.HeadURL = g.Name, g.HeadURL
		}
		if s.LastMessageType == string(chat.AtText) || s.LastMessageType == string(chat.Event) {
			item.LastMessageContent = chat.ResolveMentions(item.LastMessageContent, name)
		}
		if s.ChatType == string(chat.Group) && s.LastMessageFrom != "" && s.LastMessageType != string(chat.Event) &&
			item.LastMessageContent != "" && item.LastMessageContent != projections.RecalledPreview {
			// A group's preview names its sender; a recall's names it in
			// lastMessageFromName, for the client to say who recalled.
			if n, ok := name(s.LastMessageFrom); ok {
				item.LastMessageContent = n + ": " + item.LastMessageContent
			}
		}
		if n := atCount[s.Peer]; n > 0 {
			item.AtCount, item.AtContent = n, envelope.Translate(lang, mentionedMarker)
		}
		out = append(out, item)
	}
	return out, nil
}

// mentionAllName is how a preview shows a mention of everyone;
// mentionedMarker what the list shows of a conversation that mentions the
// member.
const (
	mentionAllName  = "all"
	mentionedMarker = "[You were mentioned]"
)

func (a *API) history(c echo.Context, p commands.Principal) error {
	ms, err := a.memberReads().history(c, p, c.QueryParam("friendMemberId"), c.QueryParam("groupId"),
		c.QueryParam("messageId"), c.QueryParam("queryType"), c.QueryParam("pageSize"))
	if err != nil {
		return err
	}
	return ok(c, ms)
}

// history reads the page of p's chat with peer, or in group groupID,
// before or after the message anchorID (the newest when ""), in direction
// queryType (Up, Down), of pageSize messages.
func (r memberReads) history(c echo.Context, p commands.Principal, peer, groupID, anchorID, queryType, pageSize string) ([]projections.Message, error) {
	chatID := friend.PairID(p.MemberID, peer)
	switch {
	case groupID != "":
		g, _, err := r.memberGroup(c, p, groupID)
		if err != nil {
			return nil, err
		}
		chatID = g.ID
	case peer == "" || peer == p.MemberID:
		return nil, fault.New(fault.Invalid, fault.MsgFriendMissing)
	}
	dir := projections.Up
	switch queryType {
	case "", "Up":
	case "Down":
		dir = projections.Down
	default:
		return nil, fault.New(fault.Invalid, fault.MsgBadRequest)
	}
	size, err := intValue(pageSize, defaultPage, 1, maxPage)
	if err != nil {
		return nil, err
	}
	ctx := c.Request().Context()
	var anchor *uint64
	if anchorID != "" {
		cid, seq, found, err := r.q.MessageSeq(ctx, viewer(p), anchorID)
		if err != nil {
			return nil, err
		}
		if !found || cid != chatID {
			return nil, fault.New(fault.NotFound, fault.MsgMessageNotFound)
		}
		anchor = &seq
	}
	ms, err := r.q.HistoryPage(ctx, viewer(p), chatID, anchor, dir, size)
	if err != nil {
		return nil, err
	}
	if ms == nil {
		ms = []projections.Message{}
	}
	return ms, nil
}

// groupSessions finds the groups of the group sessions among ss.
func (r memberReads) groupSessions(c echo.Context, v projections.Viewer, ss []projections.Session) (map[string]projections.Group, error) {
	ctx := c.Request().Context()
	groups := map[string]projections.Group{}
	for _, s := range ss {
		if s.ChatType != string(chat.Group) {
			continue
		}
		g, ok, err := r.q.Group(ctx, v, s.Peer)
		if err != nil {
			return nil, err
		}
		if ok {
			groups[s.Peer] = g
		}
	}
	return groups, nil
}
