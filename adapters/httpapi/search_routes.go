package httpapi

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/projections"
)

// SearchHit is a message found, with the conversation it belongs to.
type SearchHit struct {
	Message      projections.Message `json:"message"`
	Conversation SearchConversation  `json:"conversation"`
}

// SearchConversation names a hit's conversation as the list does: the
// friend's or the group's id, name and avatar.
type SearchConversation struct {
	Type    string `json:"type"` // Friend | Group
	ID      string `json:"id"`
	Name    string `json:"name"`
	HeadURL string `json:"headUrl"`
}

func (a *API) searchRoutes() []route {
	return []route{
		{method: http.MethodGet, path: "/message/search",
			summary: "The messages of the member's conversations whose text holds q, newest first; case and diacritics do not matter.",
			query: []param{{"q", true, "the text, 1 to 100 characters"},
				{"chatType", false, "Friend | Group: with to, one conversation only"},
				{"to", false, "the friend's member id or the group id of that conversation"},
				{"messageId", false, "the last message of the previous page: the page after it"},
				{"pageSize", false, "1 to 100, default 20"}},
			result: []SearchHit{}, handle: a.search, searched: true},
	}
}

func (a *API) search(c echo.Context, p commands.Principal) error {
	ctx := c.Request().Context()
	v := viewer(p)
	text := strings.TrimSpace(c.QueryParam("q"))
	switch {
	case text == "":
		return fault.New(fault.Invalid, fault.MsgSearchEmpty)
	case utf8.RuneCountInString(text) > projections.MaxSearchText:
		return fault.New(fault.Invalid, fault.MsgSearchTooLong)
	}
	size, err := intValue(c.QueryParam("pageSize"), 20, 1, 100)
	if err != nil {
		return err
	}
	q := projections.SearchQuery{Text: text, Size: size}
	r := a.memberReads()
	switch ct, to := c.QueryParam("chatType"), c.QueryParam("to"); {
	case ct == "" && to == "":
	case ct == "" || to == "":
		return fault.New(fault.Invalid, fault.MsgSearchTarget)
	case ct == string(chat.Group):
		g, _, err := r.memberGroup(c, p, to)
		if err != nil {
			return err
		}
		q.ChatID = g.ID
	case ct == string(chat.Friend):
		if to == p.MemberID {
			return fault.New(fault.Invalid, fault.MsgFriendMissing)
		}
		q.ChatID = friend.PairID(p.MemberID, to)
	default:
		return fault.New(fault.Invalid, fault.MsgChatTypeInvalid)
	}
	if id := c.QueryParam("messageId"); id != "" {
		// The cursor is a message the member sees: another's answers as an
		// unknown one does.
		seen, err := r.q.VisibleMessages(ctx, v, []string{id})
		if err != nil {
			return err
		}
		if len(seen) == 0 {
			return fault.New(fault.NotFound, fault.MsgMessageNotFound)
		}
		q.Before = id
	}
	ms, err := r.q.SearchMessages(ctx, v, q)
	if err != nil {
		return err
	}
	hits, err := r.searchHits(c, v, ms)
	if err != nil {
		return err
	}
	return ok(c, hits)
}

// searchHits names the conversation of each of ms.
func (r memberReads) searchHits(c echo.Context, v projections.Viewer, ms []projections.Message) ([]SearchHit, error) {
	ctx := c.Request().Context()
	var peers []string
	groups := map[string]projections.Group{}
	for _, m := range ms {
		if m.InGroupChat() {
			groups[m.GroupID] = projections.Group{}
		} else {
			peers = append(peers, peerOf(m, v.Member))
		}
	}
	members, err := r.q.MembersByID(ctx, v, peers)
	if err != nil {
		return nil, err
	}
	for id := range groups {
		g, _, err := r.q.Group(ctx, v, id)
		if err != nil {
			return nil, err
		}
		groups[id] = g
	}
	out := make([]SearchHit, 0, len(ms))
	for _, m := range ms {
		h := SearchHit{Message: m}
		if m.InGroupChat() {
			g := groups[m.GroupID]
			h.Conversation = SearchConversation{Type: string(chat.Group), ID: m.GroupID, Name: g.Name, HeadURL: g.HeadURL}
		} else {
			peer := members[peerOf(m, v.Member)]
			h.Conversation = SearchConversation{Type: string(chat.Friend), ID: peerOf(m, v.Member), Name: peer.Name, HeadURL: peer.HeadURL}
		}
		out = append(out, h)
	}
	return out, nil
}

// peerOf is the other party of member in m, a one-to-one message.
func peerOf(m projections.Message, member string) string {
	if m.From == member {
		return m.To
	}
	return m.From
}
