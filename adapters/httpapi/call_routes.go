package httpapi

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
)

// CallCommands are the call signals and the media grants.
type CallCommands interface {
	StartCall(ctx context.Context, p commands.Principal, r commands.StartCall) (commands.CallResult, error)
	AnswerCall(ctx context.Context, p commands.Principal, r commands.CallSignal) (commands.CallResult, error)
	RejectCall(ctx context.Context, p commands.Principal, r commands.CallSignal) (commands.CallResult, error)
	CancelCall(ctx context.Context, p commands.Principal, r commands.CallSignal) (commands.CallResult, error)
	CompleteCall(ctx context.Context, p commands.Principal, r commands.CallSignal) (commands.CallResult, error)
	NoAnswerCall(ctx context.Context, p commands.Principal, r commands.CallSignal) (commands.CallResult, error)
	BusyCall(ctx context.Context, p commands.Principal, r commands.CallSignal) (commands.CallResult, error)
	MediaToken(ctx context.Context, p commands.Principal, media string) (commands.MediaToken, error)
}

// socketToken answers getTokenByMemberId.
type socketToken struct {
	MemberID string `json:"memberId"`
	Token    string `json:"token"`
	WSKey    []byte `json:"wsKey"`
}

func (a *API) callRoutes() []route {
	signal := func(path, summary string, run func(Commands, context.Context, commands.Principal, commands.CallSignal) (commands.CallResult, error)) route {
		return commandRoute(a, http.MethodPost, "/message/call/"+path, summary, run)
	}
	media := func(m string) route {
		return route{method: http.MethodGet, path: "/message/getAgoraTokenByMemberId/" + m,
			summary: "The " + m + " call media grant of the configured provider; 409 when none is configured.",
			result:  commands.MediaToken{}, handle: func(c echo.Context, p commands.Principal) error {
				return answer(c)(a.deps.Commands.MediaToken(c.Request().Context(), p, m))
			}}
	}
	return []route{
		commandRoute(a, http.MethodPost, "/message/call/start",
			"Ring a friend (media voice | video); both get cmd 12 Start. A callee in a call makes it end at once as Busy.",
			Commands.StartCall),
		signal("answer", "The callee answers a ringing call; both get cmd 12 Answer.", Commands.AnswerCall),
		signal("reject", "The callee rejects a ringing call; cmd 12 Reject and a call record (11).", Commands.RejectCall),
		signal("cancel", "The caller cancels a ringing call; cmd 12 Cancel and a call record (11).", Commands.CancelCall),
		signal("complete", "Either member hangs up an answered call; cmd 12 Complete and a call record (11).", Commands.CompleteCall),
		signal("noAnswer", "The caller stops ringing; cmd 12 NoAnswer and a call record (11).", Commands.NoAnswerCall),
		signal("busy", "The callee is in another call; cmd 12 Busy and a call record (11).", Commands.BusyCall),
		{method: http.MethodGet, path: "/message/getTokenByMemberId",
			summary: "The member's websocket token and key, as login returned them.",
			query:   []param{{"memberId", false, "when given, the member's own id: another member's is 403, an unknown one 404"}},
			result:  socketToken{}, handle: a.socketToken},
		media("voice"),
		media("video"),
	}
}

// socketToken answers another member of the tenant 403, and any other id,
// another tenant's member's too, 404 as unknown.
func (a *API) socketToken(c echo.Context, p commands.Principal) error {
	if id := c.QueryParam("memberId"); id != "" && id != p.MemberID {
		ms, err := a.deps.Queries.MembersByID(c.Request().Context(), viewer(p), []string{id})
		if err != nil {
			return err
		}
		if _, found := ms[id]; !found {
			return fault.New(fault.NotFound, fault.MsgMemberNotFound)
		}
		return fault.New(fault.Forbidden, fault.MsgForbidden)
	}
	token, key := a.deps.Tokens.Issue(p)
	return ok(c, socketToken{MemberID: p.MemberID, Token: token, WSKey: key})
}
