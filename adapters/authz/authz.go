// Package authz answers permission questions from the casbin model and
// policy beside it.
package authz

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/casbin/casbin/v2"
	"github.com/casbin/casbin/v2/model"
	stringadapter "github.com/casbin/casbin/v2/persist/string-adapter"
)

//go:embed model.conf
var modelText string

//go:embed policy.csv
var policyText string

// Enforcer answers whether a role in a scope may act on an object. The
// question space is small, so answers are cached: sends ask on every message.
type Enforcer struct {
	e *casbin.SyncedCachedEnforcer
}

// New loads the embedded model and policy.
func New() (*Enforcer, error) {
	m, err := model.NewModelFromString(modelText)
	if err != nil {
		return nil, fmt.Errorf("authz: model: %w", err)
	}
	e, err := casbin.NewSyncedCachedEnforcer(m, stringadapter.NewAdapter(withoutComments(policyText)))
	if err != nil {
		return nil, fmt.Errorf("authz: policy: %w", err)
	}
	return &Enforcer{e: e}, nil
}

// Allowed reports whether role in scope may do action on object. An error
// of the enforcer (a malformed request) denies.
func (a *Enforcer) Allowed(role, scope, object, action string) bool {
	ok, err := a.e.Enforce(role, scope, object, action)
	return err == nil && ok
}

func withoutComments(csv string) string {
	var b strings.Builder
	for _, line := range strings.Split(csv, "\n") {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
			b.WriteString(t)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
