package projections_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/projections"
)

func TestProjections(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Projections")
}

var ctx = context.Background()

func openStore() *sqliteread.Store {
	s, err := sqliteread.Open(filepath.Join(GinkgoT().TempDir(), "read.db"))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(s.Close)
	return s
}

// log builds envelopes as the engine would hand them over: positions grow
// by one, revisions by one per stream.
type log struct {
	envs      []projections.Envelope
	revisions map[string]uint64
	offset    int // positions of earlier logs this one continues
}

func newLog() *log { return &log{revisions: map[string]uint64{}} }

func (l *log) add(stream string, e es.Event) *log {
	sn, err := es.ParseStream(stream)
	Expect(err).NotTo(HaveOccurred())
	rev, seen := l.revisions[stream]
	if seen {
		rev++
	}
	l.revisions[stream] = rev
	l.envs = append(l.envs, projections.Envelope{
		RecordedEvent: es.RecordedEvent{ID: fmt.Sprintf("event-%d", l.offset+len(l.envs)+1), Stream: stream, Revision: rev, Position: uint64(l.offset + len(l.envs) + 1), Type: e.EventType()},
		Event:         e, Tenant: sn.Tenant, Stream: sn,
	})
	return l
}

// fold runs p over envs in batches of size n (all at once when n is 0) and
// returns every delta.
func fold(store projections.ReadStore, p projections.Projector, envs []projections.Envelope, n int) []projections.Delta {
	if n == 0 {
		n = len(envs)
	}
	var all []projections.Delta
	for len(envs) > 0 {
		k := min(n, len(envs))
		Expect(store.Update(ctx, func(tx projections.Tx) error {
			ds, err := p.Project(ctx, tx, envs[:k])
			all = append(all, ds...)
			return err
		})).To(Succeed())
		envs = envs[k:]
	}
	return all
}

func cmds(ds []projections.Delta) []int {
	out := make([]int, len(ds))
	for i, d := range ds {
		out[i] = d.Cmd
	}
	return out
}

// encoded is a delta's payload as the engine would publish it.
func encoded(d projections.Delta) []byte {
	raw, err := json.Marshal(d.Payload)
	Expect(err).NotTo(HaveOccurred())
	return raw
}

// as is member of x0001, the tenant of the specs' streams, as a viewer.
func as(member string) projections.Viewer { return projections.Viewer{Tenant: "x0001", Member: member} }
