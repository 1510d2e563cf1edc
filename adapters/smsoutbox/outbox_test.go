package smsoutbox_test

import (
	"context"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/smsoutbox"
)

func TestOutbox(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "SMS outbox")
}

var _ = Describe("The outbox", func() {
	It("gives back the newest code sent to a phone, and none for another", func() {
		path := filepath.Join(GinkgoT().TempDir(), smsoutbox.FileName)
		o := smsoutbox.New(path, zap.NewNop())
		Expect(o.Send(context.Background(), "13800000001", "111111", "register")).To(Succeed())
		Expect(o.Send(context.Background(), "13800000002", "222222", "register")).To(Succeed())
		Expect(o.Send(context.Background(), "13800000001", "333333", "reset")).To(Succeed())
		Expect(smsoutbox.LastCode(path, "13800000001")).To(Equal("333333"))
		_, err := smsoutbox.LastCode(path, "13800000009")
		Expect(err).To(HaveOccurred())
	})
})
