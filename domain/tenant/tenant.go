// Package tenant holds tenants: the servers members belong to.
package tenant

import (
	"regexp"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// Default is the tenant a fresh server creates.
const Default = "x0001"

// TypeCreated is the stored type name of Created.
const TypeCreated = "TenantCreated"

var codePattern = regexp.MustCompile(`^[a-z0-9]{2,16}$`)

// ValidateCode: lower-case letters and digits only, so that a code never holds
// the '.' or '-' of stream names.
func ValidateCode(code string) error {
	if code == "" {
		return fault.New(fault.Invalid, fault.MsgTenantEmpty)
	}
	if !codePattern.MatchString(code) {
		return fault.New(fault.Invalid, fault.MsgTenantInvalid)
	}
	return nil
}

// Created starts a tenant's stream.
type Created struct {
	Code string `json:"code"`
	Name string `json:"name"`
	At   int64  `json:"at"`
}

func (*Created) EventType() string { return TypeCreated }

// Create decides a new tenant.
func Create(code, name string, now time.Time) ([]es.Event, error) {
	if err := ValidateCode(code); err != nil {
		return nil, err
	}
	if name == "" {
		name = code
	}
	return []es.Event{&Created{Code: code, Name: name, At: now.UnixMilli()}}, nil
}

// Events lists the constructors of this package's events.
func Events() []func() es.Event {
	return []func() es.Event{func() es.Event { return &Created{} }, func() es.Event { return &SettingsChanged{} }}
}
