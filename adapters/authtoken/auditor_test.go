package authtoken_test

import (
	"bytes"
	"context"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/authtoken"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
)

var _ = Describe("Auditor tokens", func() {
	now := time.UnixMilli(1_800_000_000_000)
	var tokens *authtoken.Tokens
	BeforeEach(func() {
		var err error
		tokens, err = authtoken.New(bytes.Repeat([]byte{7}, 32), nil)
		Expect(err).NotTo(HaveOccurred())
	})
	issue := func(name, tenant string, ttl time.Duration) string {
		GinkgoHelper()
		t, err := tokens.IssueAuditor(name, tenant, now, now.Add(ttl))
		Expect(err).NotTo(HaveOccurred())
		return t
	}

	It("names the auditor and its tenant until the token ends", func() {
		token := issue("alice", "x0001", 8*time.Hour)
		Expect(token).To(HavePrefix("au."))
		au, err := tokens.AuthenticateAuditor(token, now.Add(7*time.Hour))
		Expect(err).NotTo(HaveOccurred())
		Expect(au).To(Equal(commands.Auditor{Name: "alice", Tenant: "x0001", Role: commands.RoleAuditor}))
		_, err = tokens.AuthenticateAuditor(token, now.Add(9*time.Hour))
		Expect(fault.Is(err, fault.Unauthorized)).To(BeTrue())
	})

	DescribeTable("is not issued",
		func(name, tenant string, ttl time.Duration) {
			_, err := tokens.IssueAuditor(name, tenant, now, now.Add(ttl))
			Expect(err).To(HaveOccurred())
		},
		Entry("for longer than 12 hours", "alice", "x0001", authtoken.MaxAuditorTTL+time.Minute),
		Entry("already ended", "alice", "x0001", -time.Minute),
		Entry("to a name holding the separator", "al|ice", "x0001", time.Hour),
		Entry("to no name", "", "x0001", time.Hour),
		Entry("for a malformed tenant", "alice", "x.0001", time.Hour),
	)

	DescribeTable("refuses with 401",
		func(token func() string) {
			_, err := tokens.AuthenticateAuditor(token(), now)
			Expect(fault.Is(err, fault.Unauthorized)).To(BeTrue(), "%v", err)
		},
		Entry("one signed with another secret", func() string {
			other, _ := authtoken.New(bytes.Repeat([]byte{8}, 32), nil)
			t, _ := other.IssueAuditor("alice", "x0001", now, now.Add(time.Hour))
			return t
		}),
		Entry("an operator's token", func() string { return tokens.IssueOperator("ops", now.Add(time.Minute)) }),
		Entry("an operator's token with the auditor prefix", func() string {
			return "au." + strings.TrimPrefix(tokens.IssueOperator("ops", now.Add(time.Minute)), "op.")
		}),
		Entry("a member's token", func() string {
			t, _ := tokens.Issue(commands.Principal{Tenant: "x0001", MemberID: "1", SessionID: "s"})
			return t
		}),
		Entry("nothing", func() string { return "" }),
	)

	It("is no operator token, and no member token", func() {
		token := issue("alice", "x0001", time.Hour)
		_, err := tokens.AuthenticateOperator(token, now)
		Expect(fault.Is(err, fault.Unauthorized)).To(BeTrue())
		_, _, err = tokens.Authenticate(context.Background(), token)
		Expect(fault.Is(err, fault.Unauthorized)).To(BeTrue())
	})
})
