package commands

import (
	"context"
	"errors"

	"github.com/eventchat/eventchat/domain/audit"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/tenant"
)

// RoleAuditor reads the history of its own tenant (ScopeSameTenant).
const RoleAuditor = "auditor"

// Auditor is whoever calls the audit API: an auditor of one tenant, or a
// platform administrator (an operator) of every tenant.
type Auditor struct {
	Name   string
	Role   string // RoleAuditor or RolePlatformAdmin
	Tenant string // an auditor's tenant; "" for platform administrators
}

// Auditor is the operator as a caller of the audit API.
func (op Operator) Auditor() Auditor {
	return Auditor{Name: op.name(), Role: RolePlatformAdmin}
}

// Actor is the auditor's name in events' metadata: auditor:<name> or
// operator:<name>.
func (au Auditor) Actor() string {
	if au.Role == RoleAuditor {
		return "auditor:" + au.Name
	}
	return "operator:" + au.Name
}

// AuditAccess is an allowed, recorded access to a tenant's history.
type AuditAccess struct {
	Auditor  Auditor
	Tenant   string
	Position uint64 // of its AuditAccessed event
}

// AuditAccess decides and records one audit call of who: action on the
// history of the tenant asked for (an auditor's own when ""), with filter
// as asked. check, when set, validates the call for the resolved tenant; a
// refusal by the policy (403) or by check is recorded as refused and
// returned. The record goes to the tenant asked for when it exists, else to
// the auditor's own; a platform administrator naming no existing tenant is
// refused without a record, as there is no history to record it in.
func (a *App) AuditAccess(ctx context.Context, who Auditor, action, asked string, filter audit.Filter,
	check func(tenant string) error) (AuditAccess, error) {
	if asked == "" {
		asked = who.Tenant
	}
	scope := ScopePlatform
	if who.Role == RoleAuditor {
		scope = ScopeSameTenant
		if asked != who.Tenant {
			scope = ScopeOtherTenant
		}
	}
	var refusal error
	if !a.Authz.Allowed(who.Role, scope, audit.History, action) {
		refusal = fault.New(fault.Forbidden, fault.MsgForbidden)
	}
	record := asked
	if err := a.existingTenant(ctx, asked); err != nil {
		if refusal == nil {
			refusal = err
		}
		record = who.Tenant
		if record == "" || a.existingTenant(ctx, record) != nil {
			return AuditAccess{}, refusal
		}
	}
	if refusal == nil && check != nil {
		refusal = check(asked)
	}
	e := &audit.Accessed{Auditor: who.Name, Role: who.Role, Action: action, Tenant: asked, Filter: filter,
		Allowed: refusal == nil, Time: a.Now().UTC()}
	if refusal != nil {
		e.Refusal = refusal.Error()
	}
	p := Principal{Tenant: record, MemberID: who.Actor()}
	res, err := a.appendEvents(ctx, p, es.Stream(record, es.CategoryAudit, who.Actor()), es.Any, []es.Event{e})
	if err != nil {
		return AuditAccess{}, err
	}
	if refusal != nil {
		return AuditAccess{}, refusal
	}
	return AuditAccess{Auditor: who, Tenant: asked, Position: res.Position}, nil
}

func (a *App) existingTenant(ctx context.Context, code string) error {
	if err := tenant.ValidateCode(code); err != nil {
		return err
	}
	return a.ensureTenant(ctx, code)
}

// AuditPage is one page of a tenant's history.
type AuditPage struct {
	Events []audit.Entry `json:"events"`
	// Next is the position to pass as after for the next page; 0 when the
	// end of the log was reached.
	Next uint64 `json:"next"`
}

// History is the global log as auditors read it.
type History interface {
	ReadAll(ctx context.Context, after uint64, max int) ([]es.RecordedEvent, error)
	Head(ctx context.Context) (uint64, error)
}

// Bounds of a scan of the log: the events read per store call, and per
// page. A page scans at most auditScan events whatever it finds, so that
// a narrow filter over a long log answers in bounded time: its next cursor
// then resumes the scan.
const (
	auditChunk = 1000
	auditScan  = 20 * auditChunk
)

// AuditEvents returns the events sel selects with a position above after.
func (a *App) AuditEvents(ctx context.Context, sel audit.Selection, after uint64) (AuditPage, error) {
	page := AuditPage{Events: []audit.Entry{}}
	scanned := 0
	for scanned < auditScan {
		recs, err := a.History.ReadAll(ctx, after, auditChunk)
		if errors.Is(err, es.ErrInvalidPosition) {
			return AuditPage{}, fault.New(fault.Invalid, audit.MsgUnknownPosition, "after")
		}
		if err != nil {
			return AuditPage{}, err
		}
		for _, r := range recs {
			after = r.Position
			if !sel.Matches(r) {
				continue
			}
			page.Events = append(page.Events, audit.EntryOf(r))
			if len(page.Events) == sel.Size {
				page.Next = after
				return page, nil
			}
		}
		if len(recs) < auditChunk {
			return page, nil
		}
		scanned += len(recs)
	}
	page.Next = after
	return page, nil
}

// ExportAudit gives each event sel selects, in position order, up to the
// log's head when it starts, and returns that head. sel.Size is ignored.
// Personal fields stay sealed: an export outlives no erasure.
func (a *App) ExportAudit(ctx context.Context, sel audit.Selection, each func(audit.Entry) error) (uint64, error) {
	head, err := a.Stored.Head(ctx)
	if err != nil {
		return 0, err
	}
	var after uint64
	for after < head {
		recs, err := a.Stored.ReadAll(ctx, after, auditChunk)
		if err != nil {
			return 0, err
		}
		for _, r := range recs {
			if r.Position > head {
				return head, nil
			}
			after = r.Position
			if sel.Matches(r) {
				if err := each(audit.EntryOf(r)); err != nil {
					return 0, err
				}
			}
		}
		if len(recs) < auditChunk {
			break
		}
	}
	return head, nil
}
