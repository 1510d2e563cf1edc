package sqlitestore_test

import (
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"

	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	"github.com/eventchat/eventchat/adapters/eventstore/storetest"
)

var _ = Describe("SQLite event store", func() {
	storetest.Contract(storetest.Factory{
		Open:    func(dir string) (storetest.Store, error) { return sqlitestore.Open(filepath.Join(dir, "events.db")) },
		Reopens: true,
	})
})
