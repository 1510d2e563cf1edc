package es

import (
	"fmt"
	"strings"
)

// StreamName is a tenant-scoped stream name "<tenant>.<category>-<id>". Tenant
// codes and categories hold neither '.' nor '-'; the id may hold anything.
type StreamName struct {
	Tenant   string
	Category string
	ID       string
}

// Stream builds a stream name.
func Stream(tenant, category, id string) string {
	return tenant + "." + category + "-" + id
}

// ParseStream splits a stream name into its parts.
func ParseStream(s string) (StreamName, error) {
	dot := strings.IndexByte(s, '.')
	if dot <= 0 {
		return StreamName{}, fmt.Errorf("es: stream %q has no tenant", s)
	}
	rest := s[dot+1:]
	dash := strings.IndexByte(rest, '-')
	if dash <= 0 || dash == len(rest)-1 {
		return StreamName{}, fmt.Errorf("es: stream %q has no category or id", s)
	}
	return StreamName{Tenant: s[:dot], Category: rest[:dash], ID: rest[dash+1:]}, nil
}

// TenantPrefix is the prefix selecting every stream of one tenant.
func TenantPrefix(tenant string) string { return tenant + "." }

// Stream categories.
const (
	CategoryTenant     = "tenant"
	CategoryMember     = "member"
	CategoryAccount    = "account" // reservation of an account name
	CategoryPhone      = "phone"   // reservation of a phone number
	CategorySMS        = "sms"
	CategoryFriendship = "friendship"
	CategoryChat       = "chat"
	CategoryInbox      = "inbox"
	CategoryGroup      = "group"
	CategoryAudit      = "audit"  // an auditor's or operator's accesses to the tenant's history
	CategoryWallet     = "wallet" // a member's balance and top-up orders
	CategoryAssistant  = "assistant"
)
