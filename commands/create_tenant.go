package commands

import (
	"context"
	"errors"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/tenant"
)

// CreateTenant creates a tenant; creating one that exists reports Conflict.
func (a *App) CreateTenant(ctx context.Context, code, name string) (uint64, error) {
	events, err := tenant.Create(code, name, a.Now())
	if err != nil {
		return 0, err
	}
	res, err := a.appendEvents(ctx, Principal{Tenant: code}, es.Stream(code, es.CategoryTenant, code), es.NoStream, events)
	if errors.Is(err, es.ErrConcurrency) {
		return 0, fault.New(fault.Conflict, "already exists")
	}
	if err != nil {
		return 0, err
	}
	a.tenants.Store(code, struct{}{})
	return res.Position, nil
}

// EnsureTenant creates a tenant unless it exists.
func (a *App) EnsureTenant(ctx context.Context, code, name string) error {
	_, err := a.CreateTenant(ctx, code, name)
	if fault.Is(err, fault.Conflict) {
		return nil
	}
	return err
}
