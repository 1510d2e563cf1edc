package httpapi_test

import (
	"errors"
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/envelope"
	"github.com/eventchat/eventchat/domain/es"
)

var _ = Describe("Failures at the edge", func() {
	It("answer a lost concurrency race that escaped its handler 409 with a text, never 500", func() {
		for lang, text := range map[string]string{
			"en":    "this was being changed at the same time elsewhere, please try again",
			"zh_CN": "该内容正在别处同时被修改，请重试",
			"vi_VN": "Nội dung này đang được thay đổi đồng thời ở nơi khác, vui lòng thử lại",
		} {
			status, body := envelope.FromError(fmt.Errorf("append x0001.member-1: %w", es.ErrConcurrency), lang)
			Expect(status).To(Equal(http.StatusConflict))
			Expect(body.Code).To(Equal("409"))
			Expect(body.Info).To(Equal(text))
		}
	})

	It("answer any other failure that is not the domain's 500 without its text", func() {
		status, body := envelope.FromError(errors.New("disk on fire"), "en")
		Expect(status).To(Equal(http.StatusInternalServerError))
		Expect(body.Info).NotTo(ContainSubstring("fire"))
	})
})
