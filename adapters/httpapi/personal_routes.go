package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/personal"
	"github.com/eventchat/eventchat/projections"
)

// PersonalPage is a page of a member's favourites, stickers or mass
// messages, newest first.
type PersonalPage[T any] struct {
	Records  []T `json:"records"`
	Total    int `json:"total"`
	CurPage  int `json:"curPage"`
	PageSize int `json:"pageSize"`
}

const (
	defaultPersonalPage = 20
	maxPersonalPage     = 200
)

// idsQuery are ids given as ?ids=a,b when the body gives none.
var idsQuery = param{"ids", false, "comma-separated, when not in the body"}

func (a *API) personalRoutes() []route {
	page := []param{{"curPage", false, "page, from 1"}, {"pageSize", false, "1 to 200 (default 20), or -1 for all"}}
	return []route{
		commandRoute(a, http.MethodPost, "/chat/favoriteInfo/build",
			"Add a message the member sees to its favourites, as a snapshot of its type, content, sender and time.",
			Commands.AddFavourite),
		{method: http.MethodGet, path: "/chat/favoriteInfo/list", summary: "The member's favourites, newest first.",
			query: page, result: PersonalPage[personal.Favourite]{}, handle: personalList[personal.Favourite](a, personal.KindFavourite, defaultPersonalPage)},
		commandRoute(a, http.MethodPut, "/chat/favoriteInfo/modify", "Edit the text of a text favourite.", Commands.EditFavourite),
		{method: http.MethodDelete, path: "/chat/favoriteInfo/delete", summary: "Delete favourites (at most 100).",
			query: []param{idsQuery}, body: commands.PersonalIDs{}, result: commands.Dropped{}, handle: a.personalDelete(Commands.DeleteFavourites)},
		commandRoute(a, http.MethodPost, "/chat/favoriteInfo/forward",
			"Forward 1 to 10 favourites to friends; each becomes a Forward message, as /message/forward; the same uuid returns the first result.",
			Commands.ForwardFavourites),

		commandRoute(a, http.MethodPost, "/chat/emojInfo/build",
			"Add a sticker: a picture the member uploaded (filePath) or a favourite picture (favoriteId); the member's connections get cmd 43.",
			Commands.AddSticker),
		{method: http.MethodGet, path: "/chat/emojInfo/list", summary: "The member's stickers, newest first; pageSize -1 (the default) lists all.",
			query: page, result: PersonalPage[personal.Sticker]{}, handle: personalList[personal.Sticker](a, personal.KindSticker, -1)},
		{method: http.MethodDelete, path: "/chat/emojInfo/delete", summary: "Delete stickers; the member's connections get cmd 43.",
			query: []param{idsQuery}, body: commands.PersonalIDs{}, result: commands.Dropped{}, handle: a.personalDelete(Commands.DeleteStickers)},

		commandRoute(a, http.MethodPost, "/chat/batchSend/build",
			"Send one message (text or media) to each of 1 to 100 friends and record the mass message; needs sendBatchMessage Enable; the same uuid returns the first result.",
			Commands.SendBatch),
		{method: http.MethodGet, path: "/chat/batchSend/list", summary: "The member's mass messages, newest first, with recipients and content.",
			query: page, result: PersonalPage[personal.Batch]{}, handle: personalList[personal.Batch](a, personal.KindBatch, defaultPersonalPage)},
		{method: http.MethodPut, path: "/chat/batchSend/clear", summary: "Clear the member's list of mass messages.",
			result: written{}, handle: a.clearBatches},
		commandRoute(a, http.MethodPut, "/chat/batchSend/setting", "Turn the member's mass-send assistant on (Enable) or off (Disable).",
			Commands.SetBatchSend),
	}
}

// personalList serves a page of the member's items of kind.
func personalList[T any](a *API, kind string, defaultSize int) func(echo.Context, commands.Principal) error {
	return func(c echo.Context, p commands.Principal) error {
		page, size, err := pageParams(c, defaultSize, -1, maxPersonalPage)
		if err != nil {
			return err
		}
		if size == 0 {
			return fault.New(fault.Invalid, fault.MsgBadRequest)
		}
		items, total, err := a.deps.Queries.PersonalItems(c.Request().Context(), p.MemberID, kind, page, size)
		if err != nil {
			return err
		}
		out := PersonalPage[T]{Records: make([]T, len(items)), Total: total, CurPage: page, PageSize: size}
		for i, it := range items {
			if err := json.Unmarshal(it.Doc, &out.Records[i]); err != nil {
				return err
			}
		}
		return ok(c, out)
	}
}

// personalDelete serves a deletion whose ids come in the body or the query.
func (a *API) personalDelete(run func(Commands, context.Context, commands.Principal, commands.PersonalIDs) (commands.Dropped, error)) func(echo.Context, commands.Principal) error {
	return func(c echo.Context, p commands.Principal) error {
		var r commands.PersonalIDs
		if ids := c.QueryParam("ids"); ids != "" {
			r.IDs = strings.Split(ids, ",")
		}
		if c.Request().ContentLength != 0 {
			if err := bind(c, &r); err != nil {
				return err
			}
		}
		return answer(c)(run(a.deps.Commands, c.Request().Context(), p, r))
	}
}

func (a *API) clearBatches(c echo.Context, p commands.Principal) error {
	pos, err := a.deps.Commands.ClearBatches(c.Request().Context(), p)
	if err != nil {
		return err
	}
	return ok(c, written{Position: pos})
}

// withBatchSetting sets the member's own mass-send setting in its profile;
// a tenant that turned mass send off shows Disable to all its members.
func (a *API) withBatchSetting(ctx context.Context, u UserInfo) (UserInfo, error) {
	if cfg, err := a.deps.Commands.TenantConfig(ctx, u.TenantCode); err != nil {
		return u, err
	} else if !cfg.SendBatchMessage {
		u.SendBatchMessage = personal.Disable
		return u, nil
	}
	items, err := a.deps.Queries.PersonalItemsByID(ctx, projections.Viewer{Tenant: u.TenantCode, Member: u.ID}, personal.KindSetting, []string{personal.SettingBatchSend})
	if err != nil || len(items) == 0 {
		return u, err
	}
	var s struct {
		Value string `json:"value"`
	}
	if err := json.Unmarshal(items[0].Doc, &s); err != nil {
		return u, err
	}
	if s.Value != "" {
		u.SendBatchMessage = s.Value
	}
	return u, nil
}
