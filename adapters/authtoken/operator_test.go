package authtoken_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/authtoken"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
)

var _ = Describe("Operator tokens", func() {
	now := time.UnixMilli(1_800_000_000_000)
	var tokens *authtoken.Tokens
	BeforeEach(func() {
		var err error
		tokens, err = authtoken.New(bytes.Repeat([]byte{7}, 32), nil)
		Expect(err).NotTo(HaveOccurred())
	})

	It("names the operator until the token ends", func() {
		op, err := tokens.AuthenticateOperator(tokens.IssueOperator("ops", now.Add(time.Minute)), now)
		Expect(err).NotTo(HaveOccurred())
		Expect(op).To(Equal(commands.Operator{Name: "ops"}))
	})

	DescribeTable("refuses with 401",
		func(token func() string) {
			_, err := tokens.AuthenticateOperator(token(), now)
			Expect(fault.Is(err, fault.Unauthorized)).To(BeTrue(), "%v", err)
		},
		Entry("an ended token", func() string { return tokens.IssueOperator("ops", now.Add(-time.Second)) }),
		Entry("one good for longer than allowed", func() string {
			return tokens.IssueOperator("ops", now.Add(authtoken.MaxOperatorTTL+time.Minute))
		}),
		Entry("one signed with another secret", func() string {
			other, _ := authtoken.New(bytes.Repeat([]byte{8}, 32), nil)
			return other.IssueOperator("ops", now.Add(time.Minute))
		}),
		Entry("a changed name", func() string {
			t := tokens.IssueOperator("ops", now.Add(time.Minute))
			parts := strings.Split(t, ".")
			return "op." + strings.TrimSuffix(parts[1], "A") + "B." + parts[2]
		}),
		Entry("a member's token", func() string {
			t, _ := tokens.Issue(commands.Principal{Tenant: "x0001", MemberID: "1", SessionID: "s"})
			return t
		}),
		Entry("a member's token with the prefix", func() string {
			t, _ := tokens.Issue(commands.Principal{Tenant: "x0001", MemberID: "1", SessionID: "s"})
			return "op." + t
		}),
		Entry("garbage", func() string { return "op.%%%.!!!" }),
		Entry("nothing", func() string { return "" }),
	)
})

var _ = Describe("The signing secret", func() {
	It("is made once with create, read back after, and missing without", func() {
		dir := GinkgoT().TempDir()
		_, err := authtoken.LoadSecret(dir, false)
		Expect(os.IsNotExist(err)).To(BeTrue(), "%v", err)
		made, err := authtoken.LoadSecret(dir, true)
		Expect(err).NotTo(HaveOccurred())
		Expect(made).To(HaveLen(32))
		again, err := authtoken.LoadSecret(dir, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(again).To(Equal(made))
		info, err := os.Stat(filepath.Join(dir, authtoken.SecretFile))
		Expect(err).NotTo(HaveOccurred())
		Expect(info.Mode().Perm()).To(Equal(os.FileMode(0o600)))
	})

	It("refuses a short secret", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, authtoken.SecretFile), []byte("short"), 0o600)).To(Succeed())
		_, err := authtoken.LoadSecret(dir, true)
		Expect(err).To(MatchError(ContainSubstring("want 32")))
	})
})
