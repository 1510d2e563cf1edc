package esdb_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"

	"github.com/eventchat/eventchat/adapters/eventstore/esdb"
	"github.com/eventchat/eventchat/adapters/eventstore/esdb/esdbtest"
	"github.com/eventchat/eventchat/adapters/eventstore/storetest"
)

// storeOnDouble is the adapter together with the double it talks to, so
// that closing and reopening the store restarts the server on the same file.
type storeOnDouble struct {
	*esdb.Store
	server *esdbtest.Server
}

func (s storeOnDouble) Close() error {
	return errors.Join(s.Store.Close(), s.server.Close())
}

func openOnDouble(dir string) (storetest.Store, error) {
	server, err := esdbtest.Start(filepath.Join(dir, "esdb.db"))
	if err != nil {
		return nil, err
	}
	store, err := esdb.Open(context.Background(), server.ConnectionString())
	if err != nil {
		return nil, errors.Join(err, server.Close())
	}
	return storeOnDouble{Store: store, server: server}, nil
}

var _ = Describe("EventStoreDB adapter on the esdbtest double", func() {
	storetest.Contract(storetest.Factory{Open: openOnDouble, Reopens: true})
})

var _ = Describe("EventStoreDB adapter on a real server", func() {
	conn := os.Getenv("IM_TEST_ESDB")
	if conn == "" {
		It("runs the contract", func() {
			Skip("IM_TEST_ESDB unset: set it to a connection string such as esdb://localhost:2113?tls=false to run the contract against EventStoreDB")
		})
		return
	}
	storetest.Contract(storetest.Factory{
		Open: func(string) (storetest.Store, error) {
			return esdb.Open(context.Background(), conn)
		},
		Reopens: true,
	})
})
