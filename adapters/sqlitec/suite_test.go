package sqlitec_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestSQLiteC(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "SQLite C API")
}
