package esdb_test

import (
	"testing"

	client "github.com/EventStore/EventStore-Client-Go/v4/esdb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/eventstore/esdb/esdbtest"
)

func TestESDBStore(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "EventStoreDB event store")
}

// officialClient connects EventStoreDB's own client to the double, to
// talk to it without the adapter.
func officialClient(server *esdbtest.Server) *client.Client {
	GinkgoHelper()
	conf, err := client.ParseConnectionString(server.ConnectionString())
	Expect(err).NotTo(HaveOccurred())
	conf.Logger = client.NoopLogging()
	db, err := client.NewClient(conf)
	Expect(err).NotTo(HaveOccurred())
	return db
}
