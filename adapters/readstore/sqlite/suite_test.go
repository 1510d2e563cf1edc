package sqliteread_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestSQLiteReadStore(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "SQLite read store")
}
