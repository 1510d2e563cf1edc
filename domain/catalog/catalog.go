// Package catalog lists every event type of the domain.
package catalog

import (
	"github.com/eventchat/eventchat/domain/assistant"
	"github.com/eventchat/eventchat/domain/audit"
	"github.com/eventchat/eventchat/domain/call"
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/domain/group"
	"github.com/eventchat/eventchat/domain/inbox"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/notice"
	"github.com/eventchat/eventchat/domain/personal"
	"github.com/eventchat/eventchat/domain/tenant"
	"github.com/eventchat/eventchat/domain/wallet"
)

// Registry returns a registry of every domain event.
func Registry() es.Registry {
	r := es.Registry{}
	r.Add(tenant.Events()...)
	r.Add(member.Events()...)
	r.Add(member.ProfileEvents()...)
	r.Add(friend.Events()...)
	r.Add(chat.Events()...)
	r.Add(group.Events()...)
	r.Add(inbox.Events()...)
	r.Add(call.Events()...)
	r.Add(personal.Events()...)
	r.Add(notice.Events()...)
	r.Add(personal.PreferenceEvents()...)
	r.Add(audit.Events()...)
	r.Add(wallet.Events()...)
	r.Add(assistant.Events()...)
	return r
}
