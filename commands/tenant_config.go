package commands

import (
	"context"
	"strings"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/tenant"
)

// Message keys of the tenant settings' effects.
const (
	MsgSensitiveWords = "Content contains sensitive words, please use civilized language"
	MsgCallsOff       = "voice and video calls are turned off on this server"
	MsgBatchSendOff   = "the mass-send assistant is turned off on this server"
)

// loadTenant folds a tenant's stream.
func (a *App) loadTenant(ctx context.Context, code string) (*tenant.Tenant, streamState, error) {
	var t tenant.Tenant
	st, err := a.loadAll(ctx, es.Stream(code, es.CategoryTenant, code), t.Apply)
	return &t, st, err
}

// TenantConfig returns a tenant's configuration; an unknown or malformed
// code is 'tenant number invalid'. Its config is shared with the cache:
// callers never change it.
func (a *App) TenantConfig(ctx context.Context, code string) (tenant.Config, error) {
	if err := tenant.ValidateCode(code); err != nil {
		return tenant.Config{}, err
	}
	cfg, hit, since := a.tenantConfigs.get(code)
	if hit {
		return cfg, nil
	}
	t, _, err := a.loadTenant(ctx, code)
	if err != nil {
		return tenant.Config{}, err
	}
	if !t.Exists() {
		return tenant.Config{}, fault.New(fault.Invalid, fault.MsgTenantInvalid)
	}
	cfg = t.Config()
	a.tenantConfigs.put(code, cfg, since)
	return cfg, nil
}

// TenantSettings answers a change of settings.
type TenantSettings struct {
	Config   tenant.Config
	Position uint64 // 0 when nothing changed
}

// ConfigureTenant changes a tenant's settings (key=value, as imctl takes
// them); values equal to the current ones append nothing.
func (a *App) ConfigureTenant(ctx context.Context, op Operator, code string, settings map[string]string) (TenantSettings, error) {
	if err := a.operatorMay(op, "tenant", "configure"); err != nil {
		return TenantSettings{}, err
	}
	if err := tenant.ValidateCode(code); err != nil {
		return TenantSettings{}, err
	}
	settings, key, setKey, err := a.splitAssistantKey(settings)
	if err != nil {
		return TenantSettings{}, err
	}
	defer a.tenantConfigs.evict(code)
	res, err := retryOnConflict(ctx, func() (TenantSettings, error) {
		t, st, err := a.loadTenant(ctx, code)
		if err != nil {
			return TenantSettings{}, err
		}
		if setKey && len(settings) == 0 {
			if !t.Exists() {
				return TenantSettings{}, fault.New(fault.NotFound, fault.MsgTenantInvalid)
			}
			return TenantSettings{Config: t.Config()}, nil
		}
		events, err := t.Configure(settings, a.Now())
		if err != nil || len(events) == 0 {
			return TenantSettings{Config: t.Config()}, err
		}
		res, err := a.appendEvents(ctx, op.principal(code), es.Stream(code, es.CategoryTenant, code), st.expected(), events)
		if err != nil {
			return TenantSettings{}, err
		}
		for _, e := range events {
			t.Apply(e)
		}
		return TenantSettings{Config: t.Config(), Position: res.Position}, nil
	})
	if err == nil && setKey {
		err = a.Assistant.Keys.SetAssistantKey(code, key)
	}
	return res, err
}

// MsgAssistantKey refuses a provider key that cannot be one.
const MsgAssistantKey = "assistantKey must be at most 512 printable characters without spaces"

// splitAssistantKey takes the provider's key out of settings: it is kept in
// the key store, never in the log.
func (a *App) splitAssistantKey(settings map[string]string) (rest map[string]string, key string, found bool, err error) {
	rest = make(map[string]string, len(settings))
	for k, v := range settings {
		if !tenant.IsAssistantKey(k) {
			rest[k] = v
			continue
		}
		if found {
			return nil, "", false, fault.New(fault.Invalid, tenant.MsgSettingDuplicate, tenant.KeyAssistantKey)
		}
		key, found = strings.TrimSpace(v), true
	}
	if !found {
		return settings, "", false, nil
	}
	if a.Assistant.Keys == nil {
		return nil, "", false, fault.New(fault.Invalid, tenant.MsgSettingUnknown, tenant.KeyAssistantKey)
	}
	if len(key) > 512 || strings.IndexFunc(key, func(r rune) bool { return r <= ' ' || r > '~' }) >= 0 {
		return nil, "", false, fault.New(fault.Invalid, MsgAssistantKey)
	}
	return rest, key, true, nil
}

// checkContent refuses a message whose text holds one of the sensitive
// words of the sender's member level (spec messaging.md section 5). Every
// send path calls it once the message is valid: friend chats, mass send,
// edits, and group chats through send.
func (a *App) checkContent(ctx context.Context, p Principal, msgType chat.MsgType, content string) error {
	switch msgType {
	case chat.Text, chat.AtText, chat.Reply:
	default:
		return nil // media, cards and calls carry no text of the member's
	}
	cfg, err := a.TenantConfig(ctx, p.Tenant)
	if err != nil {
		return err
	}
	if cfg.IllegalWords || len(cfg.SensitiveWords) == 0 {
		return nil // the filter is off: no need to know the level
	}
	level, err := a.memberLevel(ctx, p)
	if err != nil {
		return err
	}
	if cfg.ContainsSensitive(level, content) {
		return fault.New(fault.Invalid, MsgSensitiveWords)
	}
	return nil
}

// memberLevel returns p's member level, folded from its stream once and
// then kept until an event of the stream commits.
func (a *App) memberLevel(ctx context.Context, p Principal) (string, error) {
	stream := es.Stream(p.Tenant, es.CategoryMember, p.MemberID)
	level, hit, since := a.levels.get(stream)
	if hit {
		return level, nil
	}
	var m member.Member
	if _, err := a.loadAll(ctx, stream, m.Apply); err != nil {
		return "", err
	}
	a.levels.put(stream, m.Level(), since)
	return m.Level(), nil
}

// checkCalls refuses calls on a tenant that turned them off (hasVoiceCall).
func (a *App) checkCalls(ctx context.Context, p Principal) error {
	cfg, err := a.TenantConfig(ctx, p.Tenant)
	if err != nil {
		return err
	}
	if !cfg.HasVoiceCall {
		return fault.New(fault.Forbidden, MsgCallsOff)
	}
	return nil
}
