package commands

// Roles and scopes the handlers ask the policy about. A role is the actor's
// relation to the object; a scope is whether they share a tenant.
const (
	RoleMember   = "member"
	RoleFriend   = "friend"
	RoleStranger = "stranger"

	ScopeSameTenant  = "same-tenant"
	ScopeOtherTenant = "other-tenant"
)
