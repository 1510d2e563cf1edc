package personal_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestPersonal(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "personal")
}
