// Package audit holds what auditors and platform administrators do with a
// tenant's history: the filters of their reads, and AuditAccessed, the
// event recording each access, allowed or refused.
package audit

import (
	"encoding/json"
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

// Filter is what an audit call asked for, as it asked: each query value
// keeps its given text, a malformed one too. Replays fill Position or
// Time, and Replays with the replays a call names.
type Filter struct {
	From     string   `json:"from,omitempty"`
	To       string   `json:"to,omitempty"`
	Stream   string   `json:"stream,omitempty"`
	Chat     string   `json:"chat,omitempty"`
	Type     string   `json:"type,omitempty"`
	Actor    string   `json:"actor,omitempty"`
	After    Given    `json:"after,omitempty"`
	Size     Given    `json:"size,omitempty"`
	Position uint64   `json:"position,omitempty"`
	Time     string   `json:"time,omitempty"`
	Replays  []string `json:"replays,omitempty"`
	// Members, Groups and Find are what a directory call looked up.
	Members []string `json:"members,omitempty"`
	Groups  []string `json:"groups,omitempty"`
	Find    string   `json:"find,omitempty"`
}

// Given is a query value as the call gave it. Records made before values
// were kept as given hold a number there, read as its digits.
type Given string

func (g *Given) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] != '"' {
		if string(b) != "null" {
			*g = Given(b)
		}
		return nil
	}
	var s string
	err := json.Unmarshal(b, &s)
	*g = Given(s)
	return err
}

// Page sizes of the events page.
const (
	DefaultSize = 100
	MaxSize     = 500
)

// Texts of malformed filters.
const (
	MsgBadTime     = "%s must be an RFC 3339 time or Unix milliseconds"
	MsgBadRange    = "from must be before to"
	MsgBadSize     = "size must be 1 to 500"
	MsgBadPosition = "%s must be a log position"
	// MsgUnknownPosition refuses a position the log never gave out.
	MsgUnknownPosition = "%s is not a position of the log: pass one a page or an event gave"
	MsgForeignStream   = "stream must be a stream of tenant %s"
	MsgStreamOrChat    = "give stream or chat, not both"
	MsgBadFilter       = "%s is too long"
	MsgBadIDs          = "%s names at most 500 ids of up to 64 characters"
)

// A directory call's bounds: ids a list names, characters an id has.
const (
	MaxDirectoryIDs = 500
	maxIDText       = 64
)

// DirectoryIDs splits a comma-separated list of ids, refusing one longer
// than a directory call looks up; field names the list in the error.
func DirectoryIDs(field, list string) ([]string, error) {
	var ids []string
	for _, id := range strings.Split(list, ",") {
		if id = strings.TrimSpace(id); id == "" {
			continue
		}
		if len(id) > maxIDText || len(ids) == MaxDirectoryIDs {
			return nil, fault.New(fault.Invalid, MsgBadIDs, field)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// maxFilterText bounds each text field of a filter.
const maxFilterText = 512

// Selection is a validated filter over one tenant's events.
type Selection struct {
	Tenant   string
	From, To time.Time // zero: unbounded; From inclusive, To exclusive
	Stream   string    // "" : every stream of the tenant
	Types    []string  // nil: every type
	Actor    string
	After    uint64 // a page's cursor: events above this position
	Size     int    // a page's most events
}

// Select validates f for tenant's history.
func Select(tenant string, f Filter) (Selection, error) {
	s := Selection{Tenant: tenant, Stream: f.Stream, Actor: f.Actor, Size: DefaultSize}
	if f.After != "" {
		after, err := strconv.ParseUint(string(f.After), 10, 64)
		if err != nil {
			return Selection{}, fault.New(fault.Invalid, MsgBadPosition, "after")
		}
		s.After = after
	}
	if f.Size != "" {
		size, err := strconv.Atoi(string(f.Size))
		if err != nil || size < 1 || size > MaxSize {
			return Selection{}, fault.New(fault.Invalid, MsgBadSize)
		}
		s.Size = size
	}
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
