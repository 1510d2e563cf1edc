package main

import (
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"
)

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

var _ = Describe("The configuration", func() {
	DescribeTable("accepts the store and bus settings",
		func(args []string, env map[string]string, events, reads, deltas backend) {
			c, err := loadConfig(args, envOf(env))
			Expect(err).NotTo(HaveOccurred())
			Expect(c.Events).To(Equal(events))
			Expect(c.Reads).To(Equal(reads))
			Expect(c.Deltas).To(Equal(deltas))
			Expect(c.EventStore).To(Equal(events.Path), "the file or directory main.go opens")
			Expect(c.ReadStore).To(Equal(reads.Path), "the SQLite file main.go opens")
		},
		Entry("embedded by default, under the data directory", nil, map[string]string{"IM_DATA_DIR": "/srv/im"},
			backend{Kind: kindPebble, Path: filepath.Join("/srv/im", "events")},
			backend{Kind: kindSQLite, Path: filepath.Join("/srv/im", "read.db")},
			backend{Kind: kindGoChannel}),
		Entry("SQLite files given explicitly", nil, map[string]string{"IM_EVENTSTORE": "sqlite:/var/ev.db", "IM_READSTORE": "sqlite:rel/read.db", "IM_BUS": "gochannel"},
			backend{Kind: kindSQLite, Path: "/var/ev.db"},
			backend{Kind: kindSQLite, Path: "rel/read.db"},
			backend{Kind: kindGoChannel}),
		Entry("a Pebble directory given explicitly", nil, map[string]string{"IM_EVENTSTORE": "pebble:/var/events"},
			backend{Kind: kindPebble, Path: "/var/events"},
			backend{Kind: kindSQLite, Path: filepath.Join("data", "read.db")},
			backend{Kind: kindGoChannel}),
		Entry("the production profile of compose.yaml", nil, map[string]string{
			"IM_EVENTSTORE": "esdb://eventstore:2113?tls=false", "IM_READSTORE": "mongodb://mongo:27017/?replicaSet=rs0", "IM_BUS": "nats://nats:4222"},
			backend{Kind: kindESDB, URL: "esdb://eventstore:2113?tls=false", Hosts: []string{"eventstore:2113"}},
			backend{Kind: kindMongo, URL: "mongodb://mongo:27017/?replicaSet=rs0", Hosts: []string{"mongo:27017"}},
			backend{Kind: kindNATS, URL: "nats://nats:4222", Hosts: []string{"nats:4222"}}),
		Entry("clusters, credentials, SRV records and IPv6", nil, map[string]string{
			"IM_EVENTSTORE": "esdb+discover://admin:changeit@a:2113,b:2113,[::1]:2113", "IM_READSTORE": "mongodb+srv://cluster0.example.net/chat?retryWrites=true", "IM_BUS": "nats://[fd00::4]:4222"},
			backend{Kind: kindESDB, URL: "esdb+discover://admin:changeit@a:2113,b:2113,[::1]:2113", Hosts: []string{"a:2113", "b:2113", "[::1]:2113"}},
			backend{Kind: kindMongo, URL: "mongodb+srv://cluster0.example.net/chat?retryWrites=true", Hosts: []string{"cluster0.example.net"}},
			backend{Kind: kindNATS, URL: "nats://[fd00::4]:4222", Hosts: []string{"[fd00::4]:4222"}}),
		Entry("host lists mixing hosts with and without ports", nil, map[string]string{"IM_READSTORE": "mongodb://u:p@a:27017,b/db?replicaSet=rs0"},
			backend{Kind: kindPebble, Path: filepath.Join("data", "events")},
			backend{Kind: kindMongo, URL: "mongodb://u:p@a:27017,b/db?replicaSet=rs0", Hosts: []string{"a:27017", "b"}},
			backend{Kind: kindGoChannel}),
		Entry("flags over the environment", []string{"-eventstore", "esdb://flag:2113", "-bus", "nats://flag:4222"}, map[string]string{"IM_EVENTSTORE": "sqlite:env.db", "IM_BUS": "gochannel"},
			backend{Kind: kindESDB, URL: "esdb://flag:2113", Hosts: []string{"flag:2113"}},
			backend{Kind: kindSQLite, Path: filepath.Join("data", "read.db")},
			backend{Kind: kindNATS, URL: "nats://flag:4222", Hosts: []string{"flag:4222"}}),
	)

	DescribeTable("refuses a mistake with a message naming it",
		func(env map[string]string, says ...string) {
			_, err := loadConfig(nil, envOf(env))
			Expect(err).To(HaveOccurred())
			matchers := []types.GomegaMatcher{}
			for _, s := range says {
				matchers = append(matchers, ContainSubstring(s))
			}
			Expect(err.Error()).To(SatisfyAll(matchers...))
		},
		Entry("an unknown scheme", map[string]string{"IM_EVENTSTORE": "postgres://db:5432"}, `IM_EVENTSTORE="postgres://db:5432": unknown scheme "postgres"`, "want pebble:<dir>, sqlite:<path>, esdb://"),
		Entry("a scheme of another variable", map[string]string{"IM_EVENTSTORE": "mongodb://mongo:27017"}, `unknown scheme "mongodb"`),
		Entry("a bare path", map[string]string{"IM_READSTORE": "read.db"}, `IM_READSTORE="read.db": not a recognised value`, "mongodb://"),
		Entry("an empty SQLite path", map[string]string{"IM_EVENTSTORE": "sqlite:"}, `IM_EVENTSTORE="sqlite:": empty path`),
		Entry("an empty Pebble path", map[string]string{"IM_EVENTSTORE": "pebble:"}, `IM_EVENTSTORE="pebble:": empty path`),
		Entry("a Pebble directory for the read store", map[string]string{"IM_READSTORE": "pebble:/var/read"}, `IM_READSTORE="pebble:/var/read": not a recognised value`),
		Entry("a SQLite URL", map[string]string{"IM_READSTORE": "sqlite://read.db"}, "sqlite takes a file path, not a URL"),
		Entry("no host", map[string]string{"IM_EVENTSTORE": "esdb://?tls=false"}, "malformed URL: no host"),
		Entry("an empty host in a list", map[string]string{"IM_READSTORE": "mongodb://a,,b"}, `malformed URL: empty host in ""`),
		Entry("a port that is not a number", map[string]string{"IM_EVENTSTORE": "esdb://eventstore:http"}, `malformed URL: bad host:port "eventstore:http"`),
		Entry("a port out of range", map[string]string{"IM_BUS": "nats://nats:70000"}, `bad host:port "nats:70000"`),
		Entry("a host with a space", map[string]string{"IM_BUS": "nats://my nats:4222"}, `bad host "my nats:4222"`),
		Entry("a broken query", map[string]string{"IM_READSTORE": "mongodb://mongo/?replicaSet=%zz"}, "malformed URL: query"),
		Entry("a path where none belongs", map[string]string{"IM_EVENTSTORE": "esdb://eventstore:2113/streams"}, `unexpected path "/streams"`),
		Entry("mongodb+srv with a port", map[string]string{"IM_READSTORE": "mongodb+srv://cluster0.example.net:27017"}, "mongodb+srv takes one host name without a port"),
		Entry("several NATS servers", map[string]string{"IM_BUS": "nats://a:4222,b:4222"}, "nats takes one server"),
		Entry("an unknown bus", map[string]string{"IM_BUS": "kafka"}, `IM_BUS="kafka": not a recognised value; want gochannel or nats://host:port`),
		Entry("a listen address without a port", map[string]string{"IM_HTTP_ADDR": "8080"}, `IM_HTTP_ADDR="8080": want host:port`),
		Entry("a bad profiling address", map[string]string{"IM_PPROF_ADDR": "localhost"}, `IM_PPROF_ADDR="localhost"`),
		Entry("a lease TTL without a unit", map[string]string{"IM_LEASE_TTL": "3"}, `IM_LEASE_TTL="3": want a duration from 1s to 5m0s`),
		Entry("a lease TTL too short to renew", map[string]string{"IM_LEASE_TTL": "500ms"}, `IM_LEASE_TTL="500ms"`),
		Entry("a lease TTL that would stop projections for an hour", map[string]string{"IM_LEASE_TTL": "1h"}, `IM_LEASE_TTL="1h"`),
		Entry("a node claim TTL too short to renew", map[string]string{"IM_NODE_CLAIM_TTL": "10ms"}, `IM_NODE_CLAIM_TTL="10ms": want a duration of at least 100ms`),
		Entry("a top-up timeout that is not a duration", map[string]string{"IM_TOPUP_TIMEOUT": "15"}, `IM_TOPUP_TIMEOUT="15": want a positive duration such as 15m`),
		Entry("a presence TTL too short to announce", map[string]string{"IM_PRESENCE_TTL": "100ms"}, `IM_PRESENCE_TTL="100ms": want a duration of at least 300ms`),
		Entry("a password, which it hides", map[string]string{"IM_READSTORE": "mongodb://alice:s3cret@mongo:port"}, `"mongodb://xxxxx@mongo:port"`),
		Entry("an unknown blob store", map[string]string{"IM_BLOBSTORE": "s3"}, `IM_BLOBSTORE="s3": want local or gridfs`),
		Entry("GridFS without a MongoDB read store", map[string]string{"IM_BLOBSTORE": "gridfs"}, "IM_BLOBSTORE=gridfs keeps the files in the read store's MongoDB"),
	)

	It("takes the projection lease's TTL from the flag, the environment or the default", func() {
		c, err := loadConfig(nil, envOf(nil))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.LeaseTTL).To(Equal(3 * time.Second))
		c, err = loadConfig(nil, envOf(map[string]string{"IM_LEASE_TTL": "10s"}))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.LeaseTTL).To(Equal(10 * time.Second))
		c, err = loadConfig([]string{"-lease-ttl", "1.5s"}, envOf(map[string]string{"IM_LEASE_TTL": "10s"}))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.LeaseTTL).To(Equal(1500 * time.Millisecond))
	})

	It("keeps uploaded files where the read store is unless told otherwise", func() {
		mongo := map[string]string{"IM_READSTORE": "mongodb://mongo:27017/"}
		for _, c := range []struct {
			env  map[string]string
			want string
		}{
			{nil, "local"},
			{mongo, "gridfs"},
			{map[string]string{"IM_READSTORE": "mongodb://mongo:27017/", "IM_BLOBSTORE": "local"}, "local"},
		} {
			cfg, err := loadConfig(nil, envOf(c.env))
			Expect(err).NotTo(HaveOccurred())
			Expect(cfg.Blobs).To(Equal(c.want), "%v", c.env)
		}
		cfg, err := loadConfig([]string{"-blobstore", "local"}, envOf(mongo))
		Expect(err).NotTo(HaveOccurred())
		Expect(cfg.Blobs).To(Equal("local"))
	})

	It("gives the node claims a few seconds unless told otherwise", func() {
		c, err := loadConfig(nil, envOf(nil))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.NodeClaimTTL).To(Equal(5 * time.Second))
		c, err = loadConfig([]string{"-node-claim-ttl", "2s"}, envOf(map[string]string{"IM_NODE_CLAIM_TTL": "9s"}))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.NodeClaimTTL).To(Equal(2 * time.Second))
	})

	It("takes the presence TTL from the flag, the environment or the default", func() {
		c, err := loadConfig(nil, envOf(nil))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.PresenceTTL).To(Equal(6 * time.Second))
		c, err = loadConfig([]string{"-presence-ttl", "2s"}, envOf(map[string]string{"IM_PRESENCE_TTL": "9s"}))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.PresenceTTL).To(Equal(2 * time.Second))
	})

	It("reports every mistake at once", func() {
		_, err := loadConfig(nil, envOf(map[string]string{
			"IM_HTTP_ADDR": "nowhere", "IM_EVENTSTORE": "sqlite:", "IM_READSTORE": "redis://r", "IM_BUS": "nats://", "IM_LOG_LEVEL": "loud"}))
		Expect(err).To(HaveOccurred())
		for _, name := range []string{"IM_HTTP_ADDR=", "IM_EVENTSTORE=", "IM_READSTORE=", "IM_BUS=", "IM_LOG_LEVEL="} {
			Expect(err.Error()).To(ContainSubstring(name))
		}
	})

	It("never shows a password, in errors or in the value's String", func() {
		_, err := loadConfig(nil, envOf(map[string]string{"IM_EVENTSTORE": "esdb://admin:s3cret@es:bad", "IM_READSTORE": "mongodb://alice:s3cret@@x:1/?a=%zz"}))
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).NotTo(ContainSubstring("s3cret"))

		c, err := loadConfig(nil, envOf(map[string]string{"IM_READSTORE": "mongodb://alice:s3cret@mongo:27017/?replicaSet=rs0"}))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Reads.String()).To(Equal("mongodb://xxxxx@mongo:27017/?replicaSet=rs0"))
		Expect(c.Events.String()).To(Equal("pebble:" + filepath.Join("data", "events")))
		Expect(c.Deltas.String()).To(Equal("gochannel"))
	})
})
