package chatmodel_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestChatModel(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "chatmodel")
}
