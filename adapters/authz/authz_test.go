package authz_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/authz"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/audit"
)

var _ = Describe("The policy", func() {
	enforcer, err := authz.New()
	It("loads", func() { Expect(err).NotTo(HaveOccurred()) })

	DescribeTable("answers each cell",
		func(role, scope, object, action string, want bool) {
			Expect(enforcer.Allowed(role, scope, object, action)).To(Equal(want))
		},
		Entry("friends send to each other", commands.RoleFriend, commands.ScopeSameTenant, "chat", "send", true),
		Entry("friends acknowledge reads", commands.RoleFriend, commands.ScopeSameTenant, "chat", "read", true),
		Entry("friends arrange their conversation", commands.RoleFriend, commands.ScopeSameTenant, "conversation", "arrange", true),
		Entry("strangers have no conversation to arrange", commands.RoleStranger, commands.ScopeSameTenant, "conversation", "arrange", false),
		Entry("friends call each other", commands.RoleFriend, commands.ScopeSameTenant, "chat", "call", true),
		Entry("strangers cannot call", commands.RoleStranger, commands.ScopeSameTenant, "chat", "call", false),
		Entry("strangers cannot send", commands.RoleStranger, commands.ScopeSameTenant, "chat", "send", false),
		Entry("strangers cannot acknowledge", commands.RoleStranger, commands.ScopeSameTenant, "chat", "read", false),
		Entry("a stranger is a member who may be asked", commands.RoleStranger, commands.ScopeSameTenant, "apply", "create", true),
		Entry("members ask members of their tenant", commands.RoleMember, commands.ScopeSameTenant, "apply", "create", true),
		Entry("members reach chats of their tenant", commands.RoleMember, commands.ScopeSameTenant, "chat", "open", true),
		Entry("no one asks across tenants", commands.RoleMember, commands.ScopeOtherTenant, "apply", "create", false),
		Entry("no one reaches chats across tenants", commands.RoleMember, commands.ScopeOtherTenant, "chat", "open", false),
		Entry("not even friends send across tenants", commands.RoleFriend, commands.ScopeOtherTenant, "chat", "send", false),
		Entry("an unknown role gets nothing", "nobody", commands.ScopeSameTenant, "chat", "send", false),
		Entry("an unknown action is denied", commands.RoleFriend, commands.ScopeSameTenant, "chat", "delete", false),
	)

	// The group matrix of spec section 6, one cell per role and action.
	groupActions := []string{"send", "read", "invite", "leave", "set-nickname", "modify", "mute", "remove-member",
		"pin-message", "delete-others-messages", "view-member", "add-member", "answer-join", "set-role", "transfer", "allow-leave", "dissolve", "delete-all-records"}
	allowed := map[string]int{"Normal": 5, "Admin": 13, "Owner": 18} // each role's actions: the first n above
	for _, role := range []string{"Owner", "Admin", "Normal"} {
		for i, action := range groupActions {
			want := i < allowed[role]
			It(fmt.Sprintf("%s may %s: %t", role, action, want), func() {
				Expect(enforcer.Allowed(role, "group", "group", action)).To(Equal(want))
				Expect(enforcer.Allowed(role, commands.ScopeSameTenant, "group", action)).To(BeFalse(), "only in the group scope")
			})
		}
	}
	// The audit matrix (docs/api-audit.md): one cell per role, scope and action.
	auditActions := []string{audit.ActionRead, audit.ActionExport, audit.ActionReplay, audit.ActionVerify, audit.ActionBrowse}
	auditCells := []struct {
		role, scope string
		want        bool
	}{
		{commands.RoleAuditor, commands.ScopeSameTenant, true},
		{commands.RoleAuditor, commands.ScopeOtherTenant, false},
		{commands.RoleAuditor, commands.ScopePlatform, false},
		{commands.RolePlatformAdmin, commands.ScopePlatform, true},
		{commands.RolePlatformAdmin, commands.ScopeSameTenant, false},
		{commands.RoleMember, commands.ScopeSameTenant, false},
		{commands.RoleFriend, commands.ScopeSameTenant, false},
		{"Owner", "group", false},
	}
	for _, cell := range auditCells {
		for _, action := range auditActions {
			It(fmt.Sprintf("%s in scope %s may %s the history: %t", cell.role, cell.scope, action, cell.want), func() {
				Expect(enforcer.Allowed(cell.role, cell.scope, audit.History, action)).To(Equal(cell.want))
			})
		}
	}
	It("lets no auditor write: its role holds only the history's actions", func() {
		for _, obj := range []string{"chat", "conversation", "apply", "tenant", "member", "group"} {
			for _, act := range []string{"send", "create", "configure", "ban", "modify", "open", "arrange"} {
				Expect(enforcer.Allowed(commands.RoleAuditor, commands.ScopeSameTenant, obj, act)).To(BeFalse())
			}
		}
		Expect(enforcer.Allowed(commands.RoleAuditor, commands.ScopeSameTenant, audit.History, "delete")).To(BeFalse())
	})

	It("gives non-members of a group nothing in it", func() {
		for _, action := range groupActions {
			Expect(enforcer.Allowed(commands.RoleMember, "group", "group", action)).To(BeFalse())
			Expect(enforcer.Allowed(commands.RoleFriend, "group", "group", action)).To(BeFalse())
		}
	})
})
