package storetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
)

// specLimit bounds every call of a spec, so that a store that loses an event
// fails the spec instead of hanging it.
const specLimit = 30 * time.Second

// fixture is the state of one spec: a store and a tenant of its own.
type fixture struct {
	factory Factory
	dir     string
	tenant  string
	ctx     context.Context

	mu    sync.Mutex
	store Store
}

func (x *fixture) setUp() {
	x.dir = GinkgoT().TempDir()
	x.tenant = "t" + strings.ReplaceAll(uuid.NewString(), "-", "")
	var cancel context.CancelFunc
	x.ctx, cancel = context.WithTimeout(context.Background(), specLimit)
	DeferCleanup(cancel)
	x.open()
	DeferCleanup(x.close)
}

func (x *fixture) open() {
	s, err := x.factory.Open(x.dir)
	Expect(err).NotTo(HaveOccurred())
	x.mu.Lock()
	x.store = s
	x.mu.Unlock()
}

// close closes the store once, however many times it is called.
func (x *fixture) close() {
	x.mu.Lock()
	s := x.store
	x.store = nil
	x.mu.Unlock()
	if s != nil {
		Expect(s.Close()).To(Succeed())
	}
}

func (x *fixture) reopen() {
	x.close()
	x.open()
}

func (x *fixture) s() Store {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.store
}

// whileBusy runs concurrent appends while the store commits a large append,
// so that they queue up and a group-committing store decides them in one
// batch.
func (x *fixture) whileBusy(appends func()) {
	GinkgoHelper()
	busy := x.events(3000, "busy")
	done := make(chan error, 1)
	go func() {
		_, err := x.s().Append(x.ctx, x.stream("busy"), es.Any, busy)
		done <- err
	}()
	time.Sleep(5 * time.Millisecond)
	appends()
	Expect(<-done).To(Succeed())
}

func (x *fixture) stream(id string) string { return es.Stream(x.tenant, es.CategoryChat, id) }

// event makes an event with a fresh id and recognisable data.
func (x *fixture) event(label string) es.EventData {
	return es.EventData{
		ID:   uuid.NewString(),
		Type: "TestEvent",
		Data: []byte(fmt.Sprintf(`{"label":%q}`, label)),
		Metadata: es.Metadata{
			Tenant:        x.tenant,
			Actor:         "m1",
			CorrelationID: uuid.NewString(),
			CausationID:   uuid.NewString(),
			ClientUUID:    uuid.NewString(),
			Time:          time.Now().UTC(),
		},
	}
}

func (x *fixture) events(n int, label string) []es.EventData {
	out := make([]es.EventData, n)
	for i := range out {
		out[i] = x.event(fmt.Sprintf("%s-%d", label, i))
	}
	return out
}

func (x *fixture) append(stream string, expected es.ExpectedRevision, evs ...es.EventData) es.WriteResult {
	GinkgoHelper()
	res, err := x.s().Append(x.ctx, stream, expected, evs)
	Expect(err).NotTo(HaveOccurred())
	return res
}

func (x *fixture) readStream(stream string, dir es.Direction, from uint64, max int) []es.RecordedEvent {
	GinkgoHelper()
	evs, err := x.s().ReadStream(x.ctx, stream, dir, from, max)
	Expect(err).NotTo(HaveOccurred())
	return evs
}

func (x *fixture) head() uint64 {
	GinkgoHelper()
	h, err := x.s().Head(x.ctx)
	Expect(err).NotTo(HaveOccurred())
	return h
}

// readAllMine pages through the log after position after and keeps the
// events of this spec's tenant.
func (x *fixture) readAllMine(after uint64, page int) []es.RecordedEvent {
	GinkgoHelper()
	var out []es.RecordedEvent
	for {
		evs, err := x.s().ReadAll(x.ctx, after, page)
		Expect(err).NotTo(HaveOccurred())
		Expect(len(evs)).To(BeNumerically("<=", page))
		if len(evs) == 0 {
			return out
		}
		expectAscending(evs, after)
		after = evs[len(evs)-1].Position
		out = append(out, x.mine(evs)...)
	}
}

func (x *fixture) mine(evs []es.RecordedEvent) []es.RecordedEvent {
	var out []es.RecordedEvent
	for _, e := range evs {
		if strings.HasPrefix(e.Stream, es.TenantPrefix(x.tenant)) {
			out = append(out, e)
		}
	}
	return out
}

// collect calls Next until it has n events of this spec's tenant, checking
// that every delivered event follows the previous one.
func (x *fixture) collect(sub es.Subscription, after uint64, n int) []es.RecordedEvent {
	GinkgoHelper()
	var out []es.RecordedEvent
	for len(out) < n {
		evs, err := sub.Next(x.ctx)
		Expect(err).NotTo(HaveOccurred(), "after %d of %d events", len(out), n)
		Expect(evs).NotTo(BeEmpty())
		expectAscending(evs, after)
		after = evs[len(evs)-1].Position
		out = append(out, x.mine(evs)...)
	}
	Expect(out).To(HaveLen(n))
	return out
}

func expectAscending(evs []es.RecordedEvent, after uint64) {
	GinkgoHelper()
	for _, e := range evs {
		Expect(e.Position).To(BeNumerically(">", after), "positions must increase strictly")
		after = e.Position
	}
}

// expectStored checks that rec holds what was appended as sent.
func expectStored(rec es.RecordedEvent, sent es.EventData) {
	GinkgoHelper()
	Expect(rec.ID).To(Equal(sent.ID))
	Expect(rec.Type).To(Equal(sent.Type))
	Expect(rec.Data).To(Equal(sent.Data))
	Expect(rec.Metadata.Tenant).To(Equal(sent.Metadata.Tenant))
	Expect(rec.Metadata.Actor).To(Equal(sent.Metadata.Actor))
	Expect(rec.Metadata.CorrelationID).To(Equal(sent.Metadata.CorrelationID))
	Expect(rec.Metadata.CausationID).To(Equal(sent.Metadata.CausationID))
	Expect(rec.Metadata.ClientUUID).To(Equal(sent.Metadata.ClientUUID))
	Expect(rec.Metadata.Time.Equal(sent.Metadata.Time)).To(BeTrue(), "time %v != %v", rec.Metadata.Time, sent.Metadata.Time)
}

func ids(evs []es.RecordedEvent) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.ID
	}
	return out
}

func sentIDs(evs []es.EventData) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.ID
	}
	return out
}

func revisions(evs []es.RecordedEvent) []uint64 {
	out := make([]uint64, len(evs))
	for i, e := range evs {
		out[i] = e.Revision
	}
	return out
}

func seq(from, to uint64) []uint64 {
	var out []uint64
	for r := from; r <= to; r++ {
		out = append(out, r)
	}
	return out
}
