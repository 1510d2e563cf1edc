// Package audit holds what auditors and platform administrators do with a
// tenant's history: the filters of their reads, and AuditAccessed, the
// event recording each access, allowed or refused.
package audit

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// Actions on the policy object History.
const (
	History = "history"

	ActionRead   = "read"
	ActionExport = "export"
	ActionReplay = "replay"
	ActionVerify = "verify"
	ActionBrowse = "browse"
)

// TypeAccessed is the stored type name of Accessed.
const TypeAccessed = "AuditAccessed"

// Accessed records one audit call: who asked for what of which tenant's
// history, and whether it was allowed. It is appended to the tenant's
// stream of the actor (es.CategoryAudit) before the call is answered.
type Accessed struct {
	Auditor string    `json:"auditor"`
	Role    string    `json:"role"`
	Action  string    `json:"action"`
	Tenant  string    `json:"tenant"`
	Filter  Filter    `json:"filter"`
	Allowed bool      `json:"allowed"`
	Refusal string    `json:"refusal,omitempty"` // why not, in English
	Time    time.Time `json:"time"`
}

func (*Accessed) EventType() string { return TypeAccessed }

// Events lists the constructors of this package's events.
func Events() []func() es.Event {
	return []func() es.Event{func() es.Event { return &Accessed{} }}
}

// Filter is what an audit call asked for, as it asked: times keep their
// given text. Replays fill Position or Time.
type Filter struct {
	From     string `json:"from,omitempty"`
	To       string `json:"to,omitempty"`
	Stream   string `json:"stream,omitempty"`
	Chat     string `json:"chat,omitempty"`
	Type     string `json:"type,omitempty"`
	Actor    string `json:"actor,omitempty"`
	After    uint64 `json:"after,omitempty"`
	Size     int    `json:"size,omitempty"`
	Position uint64 `json:"position,omitempty"`
	Time     string `json:"time,omitempty"`
}

// Page sizes of the events page.
const (
	DefaultSize = 100
	MaxSize     = 500
)

// Texts of malformed filters.
const (
	MsgBadTime       = "%s must be an RFC 3339 time or Unix milliseconds"
	MsgBadRange      = "from must be before to"
	MsgBadSize       = "size must be 1 to 500"
	MsgBadPosition   = "%s must be a log position"
	MsgForeignStream = "stream must be a stream of tenant %s"
	MsgStreamOrChat  = "give stream or chat, not both"
	MsgBadFilter     = "%s is too long"
)

// maxFilterText bounds each text field of a filter.
const maxFilterText = 512

// Selection is a validated filter over one tenant's events.
type Selection struct {
	Tenant   string
	From, To time.Time // zero: unbounded; From inclusive, To exclusive
	Stream   string    // "" : every stream of the tenant
	Types    []string  // nil: every type
	Actor    string
	Size     int
}

// Select validates f for tenant's history.
func Select(tenant string, f Filter) (Selection, error) {
	s := Selection{Tenant: tenant, Stream: f.Stream, Actor: f.Actor, Size: f.Size}
	for name, v := range map[string]string{"stream": f.Stream, "chat": f.Chat, "type": f.Type, "actor": f.Actor} {
		if len(v) > maxFilterText {
			return Selection{}, fault.New(fault.Invalid, MsgBadFilter, name)
		}
	}
	var err error
	if s.From, err = ParseTime("from", f.From); err != nil {
		return Selection{}, err
	}
	if s.To, err = ParseTime("to", f.To); err != nil {
		return Selection{}, err
	}
	if !s.From.IsZero() && !s.To.IsZero() && !s.From.Before(s.To) {
		return Selection{}, fault.New(fault.Invalid, MsgBadRange)
	}
	switch {
	case s.Size == 0:
		s.Size = DefaultSize
	case s.Size < 1 || s.Size > MaxSize:
		return Selection{}, fault.New(fault.Invalid, MsgBadSize)
	}
	if f.Chat != "" {
		if f.Stream != "" {
			return Selection{}, fault.New(fault.Invalid, MsgStreamOrChat)
		}
		s.Stream = es.Stream(tenant, es.CategoryChat, f.Chat)
	}
	if s.Stream != "" {
		if n, err := es.ParseStream(s.Stream); err != nil || n.Tenant != tenant {
			return Selection{}, fault.New(fault.Invalid, MsgForeignStream, tenant)
		}
	}
	for _, t := range strings.Split(f.Type, ",") {
		if t = strings.TrimSpace(t); t != "" {
			s.Types = append(s.Types, t)
		}
	}
	return s, nil
}

// ParseTime reads an RFC 3339 time or Unix milliseconds; "" is the zero
// time. field names the parameter in the error.
func ParseTime(field, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	if ms, err := strconv.ParseInt(v, 10, 64); err == nil && ms >= 0 {
		return time.UnixMilli(ms), nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, fault.New(fault.Invalid, MsgBadTime, field)
	}
	return t, nil
}

// Matches reports whether a stored event is selected.
func (s Selection) Matches(r es.RecordedEvent) bool {
	switch {
	case !strings.HasPrefix(r.Stream, es.TenantPrefix(s.Tenant)):
		return false
	case s.Stream != "" && r.Stream != s.Stream:
		return false
	case s.Actor != "" && r.Metadata.Actor != s.Actor:
		return false
	case !s.From.IsZero() && r.Metadata.Time.Before(s.From):
		return false
	case !s.To.IsZero() && !r.Metadata.Time.Before(s.To):
		return false
	}
	return s.Types == nil || slices.Contains(s.Types, r.Type)
}
