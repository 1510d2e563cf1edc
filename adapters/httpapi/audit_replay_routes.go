package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/audit"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/projections"
)

// AuditReplays replays tenants' events into isolated read stores, browses
// them and compares read models (docs/api-audit.md).
type AuditReplays interface {
	// Room refuses another replay of a tenant that keeps the most it may.
	Room(tenant string) error
	// Point resolves the position a replay asked at a position or a time
	// folds up to, refusing a bad one.
	Point(ctx context.Context, position uint64, at time.Time) (uint64, error)
	Start(ctx context.Context, tenant string, position uint64, at time.Time) (projections.Replay, error)
	// Stage reads and checks an export to import, holding none of it.
	Stage(body io.Reader) (*projections.StagedImport, error)
	Import(tenant string, staged *projections.StagedImport) (projections.Replay, error)
	Get(id string) (projections.Replay, error)
	List() []projections.Replay
	Delete(id string) error
	// Browse gives use a done replay's read models.
	Browse(id string, use func(projections.Replay, projections.ReadStore) error) error
	Verify(ctx context.Context, tenant string) (projections.Verification, error)
	Compare(ctx context.Context, a, b string) (projections.Comparison, error)
}

// Bodies of the audit replay routes.
type (
	// AuditReplayRequest asks for a replay of tenant up to position or time
	// (RFC 3339 or Unix milliseconds); neither: the head.
	AuditReplayRequest struct {
		Tenant   string `json:"tenant"`
		Position uint64 `json:"position,omitempty"`
		Time     string `json:"time,omitempty"`
	}
	// AuditVerifyRequest names the tenant to verify.
	AuditVerifyRequest struct {
		Tenant string `json:"tenant"`
	}
	// AuditCompareRequest names two replays to compare.
	AuditCompareRequest struct {
		ReplayA string `json:"replayA"`
		ReplayB string `json:"replayB"`
	}
)

// maxExport caps an imported export.
const maxExport = 256 << 20

func (a *API) auditReplayRoutes() []route {
	member := []param{{"memberId", true, "the member whose view is shown"}}
	full := fmt.Sprintf("; 409 when the tenant keeps %d replays already.", projections.MaxReplaysPerTenant)
	return []route{
		{method: http.MethodPost, path: "/admin/audit/replays", audit: audit.ActionReplay,
			summary: "Replay a tenant's events up to a position or a time (or the head) into an isolated read store, in the background" + full,
			body:    AuditReplayRequest{}, result: projections.Replay{}, handle: a.startReplay},
		{method: http.MethodPost, path: "/admin/audit/replays/import", audit: audit.ActionReplay, streamed: true, maxBody: maxExport,
			summary: "Replay an audit export (the NDJSON body, streamed to a staged file and checked against its checksum before it is folded; a refused one is recorded as a refused access) into an isolated read store, in the background" + full,
			result:  projections.Replay{}, handle: a.importReplay},
		{method: http.MethodGet, path: "/admin/audit/replays", audit: audit.ActionReplay,
			summary: "Every replay with its progress (done/total positions), of one tenant when tenant is given.",
			query:   []param{{"tenant", false, "tenant code"}}, result: []projections.Replay{}, handle: a.listReplays},
		{method: http.MethodGet, path: "/admin/audit/replays/:id", audit: audit.ActionReplay,
			summary: "A replay's state and progress.", result: projections.Replay{}, handle: a.getReplay},
		{method: http.MethodDelete, path: "/admin/audit/replays/:id", audit: audit.ActionReplay,
			summary: "Stop a replay if it runs and remove it with its store.", result: projections.Replay{}, handle: a.deleteReplay},
		{method: http.MethodGet, path: "/admin/audit/replays/:id/sessions", audit: audit.ActionBrowse,
			summary: "A member's conversation list as it stood in the replay, as /message/sessionInfo/list.",
			query:   member, result: []SessionItem{}, handle: a.replaySessions},
		{method: http.MethodGet, path: "/admin/audit/replays/:id/history", audit: audit.ActionBrowse,
			summary: "A page of a member's chat as it stood in the replay, as /message/messagePush/history/list/page.",
			query: append(slices.Clone(member), param{"friendId", false, "the friend of a one-to-one chat"}, param{"groupId", false, "a group chat"},
				param{"anchor", false, "message id; the newest page when absent"}, param{"dir", false, "Up (older, default) | Down (newer)"},
				param{"size", false, "1 to 200, default 20"}),
			result: []projections.Message{}, handle: a.replayHistory},
		{method: http.MethodGet, path: "/admin/audit/replays/:id/groups", audit: audit.ActionBrowse,
			summary: "A member's groups with its role as they stood in the replay, as /chat/groupInfo/listMemberInGroup.",
			query:   member, result: MyGroups{}, handle: a.replayGroups},
		{method: http.MethodGet, path: "/admin/audit/replays/:id/groupMembers", audit: audit.ActionBrowse,
			summary: "A group's members and roles as they stood in the replay, as /chat/groupInfo/listGroupMember.",
			query:   []param{{"groupId", true, "the group"}}, result: []GroupMemberItem{}, handle: a.replayGroupMembers},
		{method: http.MethodGet, path: "/admin/audit/replays/:id/friends", audit: audit.ActionBrowse,
			summary: "A member's friends as they stood in the replay (all offline), as /chat/friendInfo/list's.",
			query:   member, result: []FriendView{}, handle: a.replayFriends},
		{method: http.MethodPost, path: "/admin/audit/verify", audit: audit.ActionVerify,
			summary: "Fold a tenant's events into a temporary store at the live store's position and compare each read model's rows of the tenant with the live ones.",
			body:    AuditVerifyRequest{}, result: projections.Verification{}, handle: a.verifyTenant},
		{method: http.MethodPost, path: "/admin/audit/compare", audit: audit.ActionVerify,
			summary: "Compare the read models of two done replays of one tenant.",
			body:    AuditCompareRequest{}, result: projections.Comparison{}, handle: a.compareReplays},
	}
}

// auditTenant decides and records (AuditAccessed) the caller's action on
// the history of the tenant asked for ("" : an auditor's own) and returns
// that tenant.
func (a *API) auditTenant(c echo.Context, asked string, f audit.Filter) (string, error) {
	access, err := a.audited(c, asked, f, nil)
	return access.Tenant, err
}

func (a *API) auditReplays() (AuditReplays, error) {
	if a.deps.Replays == nil {
		return nil, fault.New(fault.NotFound, fault.MsgNotFound)
	}
	return a.deps.Replays, nil
}

func (a *API) startReplay(c echo.Context, _ commands.Principal) error {
	rs, err := a.auditReplays()
	if err != nil {
		return err
	}
	var r AuditReplayRequest
	if err := bind(c, &r); err != nil {
		return a.auditRefused(c, audit.Filter{}, err)
	}
	ctx := c.Request().Context()
	at, badTime := audit.ParseTime("time", r.Time)
	// A refused point is recorded as refused: it is checked before the
	// access is recorded.
	check := func(tenant string) error {
		if badTime != nil {
			return badTime
		}
		if err := rs.Room(tenant); err != nil {
			return err
		}
		_, err := rs.Point(ctx, r.Position, at)
		return err
	}
	acc, err := a.audited(c, r.Tenant, audit.Filter{Position: r.Position, Time: r.Time}, check)
	if err != nil {
		return err
	}
	return answer(c)(rs.Start(ctx, acc.Tenant, r.Position, at))
}

func (a *API) importReplay(c echo.Context, _ commands.Principal) error {
	rs, err := a.auditReplays()
	if err != nil {
		return err
	}
	// The file is staged and checked whole before it is folded; the access
	// is recorded with the tenant it names, or as refused when it is none.
	staged, err := rs.Stage(c.Request().Body)
	if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
		err = fault.New(fault.TooLarge, fault.MsgBodyTooLarge)
	}
	if err != nil {
		return a.auditRefused(c, audit.Filter{}, err)
	}
	defer func() {
		if err := staged.Discard(); err != nil {
			a.log.Warn("staged audit import left", zap.String("requestId", requestID(c)), zap.Error(err))
		}
	}()
	acc, err := a.audited(c, staged.Trailer.Tenant, audit.Filter{Position: staged.Trailer.Head},
		func(tenant string) error {
			if err := staged.Check(tenant); err != nil {
				return err
			}
			return rs.Room(tenant)
		})
	if err != nil {
		return err
	}
	return answer(c)(rs.Import(acc.Tenant, staged))
}

func (a *API) listReplays(c echo.Context, _ commands.Principal) error {
	rs, err := a.auditReplays()
	if err != nil {
		return err
	}
	all := rs.List()
	// Operators see every tenant's replays unless they name one.
	if asked := c.QueryParam("tenant"); asked != "" || auditorOf(c).Role == commands.RoleAuditor {
		tenant, err := a.auditTenant(c, asked, audit.Filter{})
		if err != nil {
			return err
		}
		all = slices.DeleteFunc(all, func(r projections.Replay) bool { return r.Tenant != tenant })
	}
	return ok(c, all)
}

// replay finds the replay of the path, whose tenant's history the caller
// must be allowed the route's action on. An unknown replay is a refusal.
func (a *API) replay(c echo.Context) (AuditReplays, projections.Replay, error) {
	rs, err := a.auditReplays()
	if err != nil {
		return nil, projections.Replay{}, err
	}
	id := c.Param("id")
	r, err := rs.Get(id)
	if err != nil {
		return nil, r, a.auditRefused(c, audit.Filter{Replays: []string{id}}, err)
	}
	if _, err := a.auditTenant(c, r.Tenant, audit.Filter{Position: r.Position, Replays: []string{id}}); err != nil {
		return nil, r, err
	}
	return rs, r, nil
}

func (a *API) getReplay(c echo.Context, _ commands.Principal) error {
	_, r, err := a.replay(c)
	if err != nil {
		return err
	}
	return ok(c, r)
}

func (a *API) deleteReplay(c echo.Context, _ commands.Principal) error {
	rs, r, err := a.replay(c)
	if err != nil {
		return err
	}
	if err := rs.Delete(r.ID); err != nil {
		return err
	}
	return ok(c, r)
}

// browseReplay gives view the member views of a done replay, and the
// principal of the member named by memberId, which must be a member of the
// replay's tenant there (no member when the view needs none).
func (a *API) browseReplay(c echo.Context, needMember bool, view func(memberReads, commands.Principal) error) error {
	rs, r, err := a.replay(c)
	if err != nil {
		return err
	}
	return rs.Browse(r.ID, func(_ projections.Replay, store projections.ReadStore) error {
		p := commands.Principal{Tenant: r.Tenant}
		if needMember {
			id := c.QueryParam("memberId")
			ms, err := store.MembersByID(c.Request().Context(), projections.Viewer{Tenant: r.Tenant}, []string{id})
			if err != nil {
				return err
			}
			if m, found := ms[id]; !found || m.Tenant != r.Tenant {
				return fault.New(fault.NotFound, fault.MsgMemberNotFound)
			}
			p.MemberID = id
		}
		return view(memberReads{q: store}, p)
	})
}

func (a *API) replaySessions(c echo.Context, _ commands.Principal) error {
	return a.browseReplay(c, true, func(r memberReads, p commands.Principal) error {
		return answer(c)(r.sessionItems(c, viewer(p), func(projections.Session) bool { return true }))
	})
}

func (a *API) replayHistory(c echo.Context, _ commands.Principal) error {
	return a.browseReplay(c, true, func(r memberReads, p commands.Principal) error {
		return answer(c)(r.history(c, p, c.QueryParam("friendId"), c.QueryParam("groupId"),
			c.QueryParam("anchor"), c.QueryParam("dir"), c.QueryParam("size")))
	})
}

func (a *API) replayGroups(c echo.Context, _ commands.Principal) error {
	return a.browseReplay(c, true, func(r memberReads, p commands.Principal) error {
		return answer(c)(r.myGroups(c.Request().Context(), viewer(p)))
	})
}

func (a *API) replayGroupMembers(c echo.Context, _ commands.Principal) error {
	return a.browseReplay(c, false, func(r memberReads, p commands.Principal) error {
		ctx := c.Request().Context()
		auditor := projections.Auditor(p.Tenant)
		g, err := r.tenantGroup(ctx, auditor, c.QueryParam("groupId"))
		if err != nil {
			return err
		}
		return answer(c)(r.groupMemberItems(ctx, auditor, g.ID))
	})
}

func (a *API) replayFriends(c echo.Context, _ commands.Principal) error {
	return a.browseReplay(c, true, func(r memberReads, p commands.Principal) error {
		return answer(c)(r.friendViews(c, p))
	})
}

func (a *API) verifyTenant(c echo.Context, _ commands.Principal) error {
	rs, err := a.auditReplays()
	if err != nil {
		return err
	}
	var r AuditVerifyRequest
	if err := bind(c, &r); err != nil {
		return a.auditRefused(c, audit.Filter{}, err)
	}
	tenant, err := a.auditTenant(c, r.Tenant, audit.Filter{})
	if err != nil {
		return err
	}
	return answer(c)(rs.Verify(c.Request().Context(), tenant))
}

// compareReplays records one access, to the tenant of the replays named
// (of the first one known), refused when either is unknown or of another
// tenant.
func (a *API) compareReplays(c echo.Context, _ commands.Principal) error {
	rs, err := a.auditReplays()
	if err != nil {
		return err
	}
	var r AuditCompareRequest
	if err := bind(c, &r); err != nil {
		return a.auditRefused(c, audit.Filter{}, err)
	}
	f := audit.Filter{Replays: []string{r.ReplayA, r.ReplayB}}
	ra, errA := rs.Get(r.ReplayA)
	rb, errB := rs.Get(r.ReplayB)
	tenant := ra.Tenant
	switch {
	case errA != nil && errB != nil:
		return a.auditRefused(c, f, errA)
	case errA != nil:
		tenant = rb.Tenant
	}
	_, err = a.audited(c, tenant, f, func(string) error {
		switch {
		case errA != nil:
			return errA
		case errB != nil:
			return errB
		case ra.Tenant == rb.Tenant:
			return nil
		case auditorOf(c).Role == commands.RoleAuditor: // its own tenant's replays only
			return fault.New(fault.Forbidden, fault.MsgForbidden)
		}
		return fault.New(fault.Invalid, projections.MsgReplayTenants, ra.ID, ra.Tenant, rb.ID, rb.Tenant)
	})
	if err != nil {
		return err
	}
	return answer(c)(rs.Compare(c.Request().Context(), r.ReplayA, r.ReplayB))
}
