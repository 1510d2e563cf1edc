package httpapi

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/wallet"
	"github.com/eventchat/eventchat/projections"
)

// TopUpCommands are the top-up use cases.
type TopUpCommands interface {
	TopUpTerms(ctx context.Context, p commands.Principal) (commands.TopUpTerms, error)
	OrderTopUp(ctx context.Context, p commands.Principal, r commands.TopUp) (commands.TopUpOrder, error)
	ConfirmTopUp(ctx context.Context, op commands.Operator, tenant, id string) (commands.TopUpOrder, error)
	RejectTopUp(ctx context.Context, op commands.Operator, tenant, id, reason string) (commands.TopUpOrder, error)
	AdjustBalance(ctx context.Context, op commands.Operator, tenant, who, id string, amount int64, reason string) (commands.BalanceChange, error)
	MayListTopUps(op commands.Operator, tenant string) error
}

// TopUpInfo is what the top-up page needs: whether the tenant offers
// top-up, the member's balance and the terms of an order.
type TopUpInfo struct {
	commands.TopUpTerms
	Balance int64 `json:"balance"` // minor units
}

// TopUpItem is one line of a top-up history: an order with its status
// (Pending until it ends), or an adjustment (status Done).
type TopUpItem struct {
	projections.TopUpEntry
	projections.TopUpStatus
}

// TopUpPage is a page of a history, newest first.
type TopUpPage struct {
	Records  []TopUpItem `json:"records"`
	Total    int         `json:"total"`
	CurPage  int         `json:"curPage"`
	PageSize int         `json:"pageSize"`
}

// Bodies of the operators' top-up routes.
type (
	// AdminTopUp names an order of a tenant; reason is a rejection's.
	AdminTopUp struct {
		Tenant string `json:"tenant"`
		ID     string `json:"id"`
		Reason string `json:"reason,omitempty"`
	}
	// AdminAdjust credits (amount > 0) or debits a member's balance; id is
	// the operator's for the adjustment, which a retry repeats.
	AdminAdjust struct {
		Tenant  string `json:"tenant"`
		Account string `json:"account"`
		ID      string `json:"id"`
		Amount  int64  `json:"amount"`
		Reason  string `json:"reason"`
	}
)

const statusDone = "Done"

func (a *API) topUpRoutes() []route {
	page := []param{{"curPage", false, "page, from 1"}, {"pageSize", false, "1 to 100, default 20"}}
	settle := func(path, summary string, run func(ctx context.Context, op commands.Operator, r AdminTopUp) (commands.TopUpOrder, error)) route {
		return route{method: http.MethodPut, path: path, admin: true, summary: summary, body: AdminTopUp{},
			result: commands.TopUpOrder{}, handle: func(c echo.Context, _ commands.Principal) error {
				var r AdminTopUp
				if err := bind(c, &r); err != nil {
					return err
				}
				return answer(c)(run(c.Request().Context(), operator(c), r))
			}}
	}
	return []route{
		{method: http.MethodGet, path: "/member/topup/info",
			summary: "Whether the tenant offers top-up, the member's balance, the amounts offered, the bounds of an order (minor units), the cap on pending orders and how long an order waits for its payment.",
			result:  TopUpInfo{}, handle: a.topUpInfo},
		{method: http.MethodGet, path: "/member/topup/list",
			summary: "The member's top-up history, newest first: orders with their status (Pending, Confirmed, Rejected, Expired, Failed) and operators' adjustments (Done).",
			query:   page, result: TopUpPage{}, handle: a.topUpHistory},
		{method: http.MethodGet, path: "/member/topup/order",
			summary: "One of the member's orders; another member's answers 404.",
			query:   []param{{"id", true, "the order's id"}}, result: TopUpItem{}, handle: a.topUpOrder},
		commandRoute(a, http.MethodPost, "/member/topup/order",
			"Place a top-up order of amount (minor units, 100 to 1000000) under the client's requestId: the same requestId answers the same order, never a second one. 403 when the tenant has top-up off, 409 with 3 orders pending, 429 past 10 calls a minute, 503 when the payment provider fails (the order is Failed).",
			Commands.OrderTopUp),
		{method: http.MethodGet, path: "/admin/topup/list", admin: true,
			summary: "A tenant's top-up orders, newest first, with their status (operators).",
			query:   append([]param{{"tenant", true, "tenant code"}}, page...), result: TopUpPage{}, handle: a.adminTopUps},
		settle("/admin/topup/confirm", "Confirm that an order was paid: the member's balance is credited once; confirming again changes nothing; 409 once it was rejected or expired (operators).",
			func(ctx context.Context, op commands.Operator, r AdminTopUp) (commands.TopUpOrder, error) {
				return a.deps.Commands.ConfirmTopUp(ctx, op, r.Tenant, r.ID)
			}),
		settle("/admin/topup/reject", "Reject an order's payment, with an optional reason of up to 200 characters (operators).",
			func(ctx context.Context, op commands.Operator, r AdminTopUp) (commands.TopUpOrder, error) {
				return a.deps.Commands.RejectTopUp(ctx, op, r.Tenant, r.ID, r.Reason)
			}),
		{method: http.MethodPut, path: "/admin/topup/adjust", admin: true,
			summary: "Credit (amount > 0) or debit a member's balance by at most 1000000 minor units with a reason; the same id again changes nothing; a debit below zero is refused with 409 (operators).",
			body:    AdminAdjust{}, result: commands.BalanceChange{}, handle: func(c echo.Context, _ commands.Principal) error {
				var r AdminAdjust
				if err := bind(c, &r); err != nil {
					return err
				}
				return answer(c)(a.deps.Commands.AdjustBalance(c.Request().Context(), operator(c), r.Tenant, r.Account, r.ID, r.Amount, r.Reason))
			}},
	}
}

func (a *API) topUpInfo(c echo.Context, p commands.Principal) error {
	ctx := c.Request().Context()
	terms, err := a.deps.Commands.TopUpTerms(ctx, p)
	if err != nil {
		return err
	}
	info := TopUpInfo{TopUpTerms: terms}
	items, err := a.deps.Queries.PersonalItemsByID(ctx, viewer(p), wallet.KindBalance, []string{wallet.BalanceID})
	if err != nil {
		return err
	}
	if len(items) == 1 {
		var b projections.BalanceDoc
		if err := json.Unmarshal(items[0].Doc, &b); err != nil {
			return err
		}
		info.Balance = b.Balance
	}
	return ok(c, info)
}

func (a *API) topUpHistory(c echo.Context, p commands.Principal) error {
	out, err := a.topUpPage(c, viewer(p))
	if err != nil {
		return err
	}
	return ok(c, out)
}

func (a *API) adminTopUps(c echo.Context, _ commands.Principal) error {
	code := c.QueryParam("tenant")
	if err := a.deps.Commands.MayListTopUps(operator(c), code); err != nil {
		return err
	}
	out, err := a.topUpPage(c, projections.Viewer{Tenant: code, Member: wallet.OrdersOwner(code)})
	if err != nil {
		return err
	}
	return ok(c, out)
}

// topUpPage reads a page of v's history: its own, or its tenant's orders
// for the tenant's orders owner.
func (a *API) topUpPage(c echo.Context, v projections.Viewer) (TopUpPage, error) {
	page, size, err := pageParams(c, defaultNoticePage, 1, maxNoticePage)
	if err != nil {
		return TopUpPage{}, err
	}
	items, total, err := a.deps.Queries.PersonalItems(c.Request().Context(), v.Member, wallet.KindHistory, page, size)
	if err != nil {
		return TopUpPage{}, err
	}
	records, err := a.topUpItems(c.Request().Context(), v, items)
	return TopUpPage{Records: records, Total: total, CurPage: page, PageSize: size}, err
}

// topUpItems joins history entries with the status of the orders among
// them.
func (a *API) topUpItems(ctx context.Context, v projections.Viewer, items []projections.PersonalItem) ([]TopUpItem, error) {
	out := make([]TopUpItem, len(items))
	var orders []string
	for i, it := range items {
		if err := json.Unmarshal(it.Doc, &out[i].TopUpEntry); err != nil {
			return nil, err
		}
		if out[i].Type == projections.EntryTopUp {
			out[i].Status = string(wallet.Pending)
			orders = append(orders, it.ID)
		} else {
			out[i].Status, out[i].UpdateTime = statusDone, out[i].CreateTime
		}
	}
	if len(orders) == 0 {
		return out, nil
	}
	states, err := a.deps.Queries.PersonalItemsByID(ctx, v, wallet.KindStatus, orders)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]json.RawMessage, len(states))
	for _, s := range states {
		byID[s.ID] = s.Doc
	}
	for i := range out {
		if doc, ok := byID[out[i].ID]; ok && out[i].Type == projections.EntryTopUp {
			if err := json.Unmarshal(doc, &out[i].TopUpStatus); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func (a *API) topUpOrder(c echo.Context, p commands.Principal) error {
	id := c.QueryParam("id")
	if !wallet.OrderIDValid(id) {
		return fault.New(fault.NotFound, wallet.MsgOrderNotFound)
	}
	ctx := c.Request().Context()
	items, err := a.deps.Queries.PersonalItemsByID(ctx, viewer(p), wallet.KindHistory, []string{id})
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return fault.New(fault.NotFound, wallet.MsgOrderNotFound)
	}
	out, err := a.topUpItems(ctx, viewer(p), items)
	if err != nil {
		return err
	}
	return ok(c, out[0])
}
