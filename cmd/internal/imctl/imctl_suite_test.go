package imctl

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestImctl(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "imctl")
}
