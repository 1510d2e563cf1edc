package httpapi

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/audit"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/projections"
)

// The audit API (docs/api-audit.md): auditors and platform administrators
// read a tenant's history. Every handler of a route marked audit starts
// with a.audited, which decides and records the access, or with
// a.auditRefused when the call is refused before it names a tenant.

const (
	auditorKey     = "auditor"
	auditActionKey = "auditAction"
)

// authenticateAuditor accepts an operator token (a platform
// administrator) or an auditor token; a member's token is refused.
func (a *API) authenticateAuditor(c echo.Context) (commands.Auditor, error) {
	token, err := bearer(c)
	if err != nil {
		return commands.Auditor{}, err
	}
	now := time.Now()
	if op, err := a.deps.Tokens.AuthenticateOperator(token, now); err == nil {
		return op.Auditor(), nil
	}
	return a.deps.Tokens.AuthenticateAuditor(token, now)
}

// audited decides whether the caller may do the route's action on the
// history of tenant (for an auditor, "" is its own), records the access as
// an AuditAccessed event, allowed or refused, and returns the access or the
// refusal to answer with. filter is what the call asked for, as recorded;
// check, when set, validates the call for the resolved tenant, a failure
// being recorded as a refusal.
func (a *API) audited(c echo.Context, tenant string, filter audit.Filter, check func(tenant string) error) (commands.AuditAccess, error) {
	who := auditorOf(c)
	if who.Role == "" {
		return commands.AuditAccess{}, fault.New(fault.Unauthorized, fault.MsgLoginExpired)
	}
	action, _ := c.Get(auditActionKey).(string)
	return a.deps.Commands.AuditAccess(c.Request().Context(), who, action, tenant, filter, check)
}

// auditRefused records a call refused before it names a tenant (a body
// too large or malformed, an unknown replay) as refused with why, in an
// auditor's own tenant, and returns why. An operator has no tenant of its
// own: its refusal has no history to be recorded in.
func (a *API) auditRefused(c echo.Context, filter audit.Filter, why error) error {
	if auditorOf(c).Tenant == "" {
		return why
	}
	_, err := a.audited(c, "", filter, func(string) error { return why })
	return err
}

var auditFilterParams = []param{
	{"tenant", false, "tenant code; required of operators, an auditor's own by default"},
	{"from", false, "events at or after this time: RFC 3339 or Unix milliseconds (metadata time)"},
	{"to", false, "events before this time: RFC 3339 or Unix milliseconds"},
	{"stream", false, "one stream of the tenant, by its full name"},
	{"chat", false, "one conversation's stream, by conversation id (friend pair or group id)"},
	{"type", false, "event types, comma-separated"},
	{"actor", false, "the acting member id (metadata actor)"},
}

func (a *API) auditRoutes() []route {
	return []route{
		{method: http.MethodGet, path: "/admin/audit/events", audit: audit.ActionRead,
			summary: "A page of a tenant's event history, filtered, in log order (auditors of the tenant and operators; recorded as AuditAccessed).",
			query: append(auditFilterParams[:len(auditFilterParams):len(auditFilterParams)],
				param{"after", false, "global position cursor: events after it (0: from the start)"},
				param{"size", false, "events per page, 1 to 500, default 100"}),
			result: commands.AuditPage{}, handle: a.auditEvents},
		{method: http.MethodGet, path: "/admin/audit/export", audit: audit.ActionExport, contentType: "application/x-ndjson",
			summary: "A tenant's event history, filtered, as NDJSON: one event per line up to the log's head, then a line with the SHA-256 checksum of the lines before it (auditors of the tenant and operators; recorded as AuditAccessed).",
			query:   auditFilterParams, result: audit.Entry{}, handle: a.auditExport},
		{method: http.MethodGet, path: "/admin/audit/directory", audit: audit.ActionRead,
			summary: "Names the members and groups of a tenant's history: members by id or by exact account or phone, groups by id, as the read models hold them now; another tenant's ids answer nothing (auditors of the tenant and operators; recorded as AuditAccessed).",
			query: []param{{"tenant", false, "tenant code; required of operators, an auditor's own by default"},
				{"members", false, "member ids, comma-separated, at most 500"},
				{"groups", false, "group ids, comma-separated, at most 500"},
				{"find", false, "a member's account or phone, exactly"}},
			result: AuditDirectory{}, handle: a.auditDirectory},
	}
}

// AuditDirectory names the members and groups a directory call asked for,
// those of the tenant that exist.
type AuditDirectory struct {
	Members []AuditPerson `json:"members"`
	Groups  []AuditGroup  `json:"groups"`
}

// AuditPerson is a member as an auditor reads it next to its id.
type AuditPerson struct {
	ID      string `json:"id"`
	Account string `json:"account"`
	Phone   string `json:"phone"`
	Name    string `json:"name"`
}

// AuditGroup is a group as an auditor reads it next to its id.
type AuditGroup struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Dissolved bool   `json:"dissolved"`
}

func (a *API) auditDirectory(c echo.Context, _ commands.Principal) error {
	q := c.QueryParams()
	members, badMembers := audit.DirectoryIDs("members", q.Get("members"))
	groups, badGroups := audit.DirectoryIDs("groups", q.Get("groups"))
	f := audit.Filter{Find: q.Get("find"), Members: members, Groups: groups}
	check := func(string) error {
		switch {
		case badMembers != nil:
			return badMembers
		case badGroups != nil:
			return badGroups
		case len(f.Find) > 64:
			return fault.New(fault.Invalid, audit.MsgBadFilter, "find")
		}
		return nil
	}
	acc, err := a.audited(c, q.Get("tenant"), f, check)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	viewer := projections.Auditor(acc.Tenant)
	out := AuditDirectory{Members: []AuditPerson{}, Groups: []AuditGroup{}}
	people, err := a.deps.Queries.MembersByID(ctx, viewer, f.Members)
	if err != nil {
		return err
	}
	if f.Find != "" {
		m, found, err := a.deps.Queries.FindMember(ctx, acc.Tenant, f.Find)
		if err != nil {
			return err
		}
		if found {
			people[m.ID] = m
		}
	}
	for _, m := range people {
		out.Members = append(out.Members, AuditPerson{ID: m.ID, Account: m.Account, Phone: m.Phone, Name: m.Name})
	}
	slices.SortFunc(out.Members, func(x, y AuditPerson) int { return strings.Compare(x.ID, y.ID) })
	for _, id := range f.Groups {
		g, found, err := a.deps.Queries.Group(ctx, viewer, id)
		if err != nil {
			return err
		}
		if found {
			out.Groups = append(out.Groups, AuditGroup{ID: g.ID, Name: g.Name, Dissolved: g.Dissolved})
		}
	}
	return ok(c, out)
}

// auditSelection reads the filter of the query, as given, and returns it
// with the check that turns it into sel for the resolved tenant.
func auditSelection(c echo.Context, sel *audit.Selection) (audit.Filter, func(string) error) {
	q := c.QueryParams()
	f := audit.Filter{From: q.Get("from"), To: q.Get("to"), Stream: q.Get("stream"), Chat: q.Get("chat"),
		Type: q.Get("type"), Actor: q.Get("actor"), After: audit.Given(q.Get("after")), Size: audit.Given(q.Get("size"))}
	return f, func(tenant string) error {
		var err error
		*sel, err = audit.Select(tenant, f)
		return err
	}
}

func (a *API) auditEvents(c echo.Context, _ commands.Principal) error {
	var sel audit.Selection
	f, check := auditSelection(c, &sel)
	if _, err := a.audited(c, c.QueryParam("tenant"), f, check); err != nil {
		return err
	}
	return answer(c)(a.deps.Commands.AuditEvents(c.Request().Context(), sel, sel.After))
}

// auditFlushEvery is how many lines of an export are written between
// flushes.
const auditFlushEvery = 500

func (a *API) auditExport(c echo.Context, _ commands.Principal) error {
	var sel audit.Selection
	f, check := auditSelection(c, &sel)
	acc, err := a.audited(c, c.QueryParam("tenant"), f, check)
	if err != nil {
		return err
	}
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, "application/x-ndjson")
	res.WriteHeader(http.StatusOK)
	x := audit.NewExportWriter(res)
	lines := 0
	head, err := a.deps.Commands.ExportAudit(c.Request().Context(), sel, func(e audit.Entry) error {
		if err := x.Write(e); err != nil {
			return err
		}
		if lines++; lines%auditFlushEvery == 0 {
			res.Flush()
		}
		return nil
	})
	if err == nil {
		err = x.Close(acc.Tenant, head)
	}
	if err != nil {
		// The answer has begun: its missing checksum line tells the client.
		a.log.Warn("audit export cut short", zap.String("requestId", requestID(c)), zap.Error(err))
	}
	return nil
}

// auditorOf is the caller of an audit route.
func auditorOf(c echo.Context) commands.Auditor {
	who, _ := c.Get(auditorKey).(commands.Auditor)
	return who
}
