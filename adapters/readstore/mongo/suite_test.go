package mongoread_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestMongoReadStore(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "MongoDB read store")
}
