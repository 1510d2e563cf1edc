package assistantkeys_test

import (
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/assistantkeys"
)

func TestAssistantKeys(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "assistantkeys")
}

var _ = Describe("The assistant key file", func() {
	var path string
	BeforeEach(func() { path = filepath.Join(GinkgoT().TempDir(), assistantkeys.FileName) })

	It("keeps each tenant's key across a reopen, readable by the server's user only, and forgets an empty one", func() {
		f, err := assistantkeys.Open(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(f.AssistantKey("x0001")).To(BeEmpty())
		Expect(f.SetAssistantKey("x0001", "sk-one")).To(Succeed())
		Expect(f.SetAssistantKey("x0002", "sk-two")).To(Succeed())
		info, err := os.Stat(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(info.Mode().Perm()).To(Equal(os.FileMode(0o600)))

		again, err := assistantkeys.Open(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(again.AssistantKey("x0001")).To(Equal("sk-one"))
		Expect(again.SetAssistantKey("x0001", "")).To(Succeed())
		third, err := assistantkeys.Open(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(third.AssistantKey("x0001")).To(BeEmpty())
		Expect(third.AssistantKey("x0002")).To(Equal("sk-two"))
	})

	It("refuses to start from a file that is not a JSON object of keys", func() {
		Expect(os.WriteFile(path, []byte("sk-plain"), 0o600)).To(Succeed())
		_, err := assistantkeys.Open(path)
		Expect(err).To(MatchError(ContainSubstring("not a JSON object")))
	})
})
