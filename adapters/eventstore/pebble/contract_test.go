package pebblestore_test

import (
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"

	pebblestore "github.com/eventchat/eventchat/adapters/eventstore/pebble"
	"github.com/eventchat/eventchat/adapters/eventstore/storetest"
)

var _ = Describe("Pebble event store", func() {
	storetest.Contract(storetest.Factory{
		Open:    func(dir string) (storetest.Store, error) { return pebblestore.Open(filepath.Join(dir, "events")) },
		Reopens: true,
	})
})
