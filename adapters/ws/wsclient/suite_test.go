package wsclient_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestWSClient(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "wsclient")
}
