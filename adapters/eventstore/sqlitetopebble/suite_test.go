package sqlitetopebble_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestSQLiteToPebble(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "SQLite to Pebble event log migration")
}
