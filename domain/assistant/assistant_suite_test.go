package assistant_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestAssistant(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "assistant")
}
