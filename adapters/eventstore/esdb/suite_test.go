package esdb_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestESDBStore(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "EventStoreDB event store")
}
