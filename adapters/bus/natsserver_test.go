package bus_test

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/bus"
	"github.com/eventchat/eventchat/adapters/bus/bustest"
)

// startNATS runs a JetStream server on 127.0.0.1 storing under dir; port
// -1 picks a free port.
func startNATS(dir string, port int) *server.Server {
	GinkgoHelper()
	ns, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: port, JetStream: true, StoreDir: dir, NoLog: true, NoSigs: true,
	})
	Expect(err).NotTo(HaveOccurred())
	ns.Start()
	Expect(ns.ReadyForConnections(5 * time.Second)).To(BeTrue())
	return ns
}

// embeddedNATS starts a server for the current spec and returns its URL.
func embeddedNATS() (string, *server.Server) {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	ns := startNATS(dir, -1)
	DeferCleanup(func() {
		ns.Shutdown()
		ns.WaitForShutdown()
	})
	return ns.ClientURL(), ns
}

// openNATS opens n nodes on url, all on one stream of their own.
func openNATS(url, stream string, n int) []*bus.Bus {
	GinkgoHelper()
	bs := make([]*bus.Bus, n)
	for i := range bs {
		b, err := bus.NewNATS(url, zap.NewNop(), bus.WithStream(stream))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(b.Close)
		bs[i] = b
	}
	return bs
}

func asContract(bs []*bus.Bus) []bustest.Bus {
	out := make([]bustest.Bus, len(bs))
	for i, b := range bs {
		out[i] = b
	}
	return out
}

// testStream names a stream no other spec or run uses.
func testStream() string {
	return fmt.Sprintf("IM_DELTAS_TEST_%s", uuid.NewString()[:8])
}

// deleteStream removes a test stream from a shared server.
func deleteStream(url, stream string) {
	nc, err := nats.Connect(url)
	Expect(err).NotTo(HaveOccurred())
	defer nc.Close()
	js, err := jetstream.New(nc)
	Expect(err).NotTo(HaveOccurred())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	Expect(js.DeleteStream(ctx, stream)).To(Succeed())
}
