package projections

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// Snapshots are read stores whose content can be pinned and compared with
// another's, one tenant's rows at a time.
type Snapshots interface {
	// Snapshot pins what the store holds now, until it is closed.
	Snapshot(ctx context.Context) (Snapshot, error)
}

// Snapshot is what a read store held when it was taken.
type Snapshot interface {
	// Checkpoints are the projectors' checkpoints in the snapshot.
	Checkpoints() map[string]uint64
	// CompareTenant compares tenant's rows of every read model with
	// other's.
	CompareTenant(ctx context.Context, other Snapshot, tenant string) ([]ModelComparison, error)
	Close() error
}

// ModelComparison tells whether one read model holds the same rows in two
// stores, and else the key of the first row that differs.
type ModelComparison struct {
	Name            string `json:"name"`
	Equal           bool   `json:"equal"`
	FirstDifference string `json:"firstDifference,omitempty"`
}

// ReplayShelf keeps the isolated read stores replays fold into, and what
// is known of each replay, across restarts.
type ReplayShelf interface {
	// Create opens a new, empty store for replay id.
	Create(id string) (ReadStore, error)
	// Open opens the store of replay id.
	Open(id string) (ReadStore, error)
	// Close closes a store Create or Open returned.
	Close(store ReadStore) error
	// Remove removes replay id's store and record.
	Remove(id string) error
	// Save records r.
	Save(r Replay) error
	// List returns every recorded replay.
	List() ([]Replay, error)
	// Stage creates the file an export to import as replay id is read
	// into; Remove removes it too.
	Stage(id string) (io.WriteCloser, error)
	// Staged opens the file Stage created for replay id.
	Staged(id string) (io.ReadCloser, error)
	// Unstage removes the file Stage created for replay id.
	Unstage(id string) error
}

// Replay states.
const (
	ReplayRunning = "running"
	ReplayDone    = "done"
	ReplayFailed  = "failed"
)

// Replay sources.
const (
	ReplayOfLog    = "log"
	ReplayOfImport = "import"
)

// Replay is the read models of one tenant as they stood at a position of
// the log, folded into a store of their own.
type Replay struct {
	ID     string `json:"id"`
	Tenant string `json:"tenant"`
	// Source is where the events came from: the log or an imported export.
	Source string `json:"source"`
	// Position is the last position folded; for an import, the head of the
	// log when the export was made.
	Position uint64 `json:"position"`
	// Time is the time asked for, when the replay was asked for a time.
	Time  time.Time `json:"time,omitzero"`
	State string    `json:"state"`
	// Done counts the tenant's events folded.
	Done       uint64    `json:"done"`
	Error      string    `json:"error,omitempty"`
	StartedAt  time.Time `json:"startedAt"`
	FinishedAt time.Time `json:"finishedAt,omitzero"`
}

// Verification compares a tenant's live read models with a fold of its
// events at the same position.
type Verification struct {
	Tenant   string            `json:"tenant"`
	Position uint64            `json:"position"`
	Models   []ModelComparison `json:"models"`
}

// Comparison compares the read models of two replays.
type Comparison struct {
	ReplayA string            `json:"replayA"`
	ReplayB string            `json:"replayB"`
	Tenant  string            `json:"tenant"`
	Models  []ModelComparison `json:"models"`
}

// Texts of replays' refusals, translated at the edges.
const (
	MsgReplayPositionAndTime = "give a position or a time, not both"
	MsgReplayBeyondHead      = "position %d is beyond the head of the log, %d"
	MsgReplayOtherTenant     = "stream %s is not of tenant %s"
	MsgReplayOrder           = "event %d is out of position order"
	MsgReplayBeyondExport    = "event %d is beyond the export's head %d"
	MsgReplayTenants         = "replay %s is of tenant %s, replay %s of %s"
	MsgReplayNotFound        = "no such replay"
	MsgReplayNotDone         = "the replay is not done yet"
	MsgReplaysFull           = "tenant %s keeps %d replays, the most it may: delete one to start another"
	MsgNoSnapshot            = "this read store cannot be verified while serving"
)

// ErrNoSnapshot refuses a verify on a read store that cannot be compared.
var ErrNoSnapshot = fault.New(fault.Conflict, MsgNoSnapshot)

// msgInterrupted is the error of a replay the server stopped while it ran.
const msgInterrupted = "interrupted: the server stopped while it ran"

// MaxReplaysPerTenant is how many replays a tenant keeps at most, running,
// done or failed: each is a read store on disk until it is deleted.
const MaxReplaysPerTenant = 20

// DefaultReplayIdle is how long a done replay's store stays open after it
// was last browsed; the next browse opens it again.
const DefaultReplayIdle = 5 * time.Minute

// ScratchStores is a live read store that makes the temporary stores a
// verify folds into itself, of its own kind, so that their snapshots
// compare with its own; without it they come from the shelf.
type ScratchStores interface {
	// CreateScratch opens a new, empty store named by id (lowercase
	// letters and digits).
	CreateScratch(ctx context.Context, id string) (ReadStore, error)
	// DropScratch closes a store CreateScratch returned and deletes it.
	DropScratch(ctx context.Context, store ReadStore) error
}

// Replays folds tenants' events into isolated read stores, with the live
// engine's projectors through the engine's code, and compares read models.
type Replays struct {
	live  *Engine
	shelf ReplayShelf
	idle  time.Duration
	// Opener, when set, opens the personal fields an imported export
	// carries sealed, as the live log opens its own.
	Opener Opener

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu  sync.Mutex
	all map[string]*replayRun
	// starting counts, by tenant, the replays being created: they count
	// against the tenant's MaxReplaysPerTenant before they are listed.
	starting map[string]int
}

type replayRun struct {
	cur    Replay
	cancel context.CancelFunc
	done   chan struct{}
	// store is open while the replay folds, and from a browse until it has
	// not been browsed for the idle time.
	store ReadStore
	// use is read-held while the store is browsed, and held to close it.
	use     sync.RWMutex
	lastUse time.Time
}

// NewReplays returns the replays of live's log kept on shelf. Replays a
// stopped server left running are marked failed: their stores stay, but
// are not resumed. A done replay's store is closed once it has not been
// browsed for idle (DefaultReplayIdle in the server).
func NewReplays(live *Engine, shelf ReplayShelf, idle time.Duration) (*Replays, error) {
	if idle <= 0 {
		return nil, fmt.Errorf("projections: replays' idle time %s is not positive", idle)
	}
	kept, err := shelf.List()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &Replays{live: live, shelf: shelf, idle: idle, ctx: ctx, cancel: cancel,
		all: map[string]*replayRun{}, starting: map[string]int{}}
	for _, k := range kept {
		if k.State == ReplayRunning {
			k.State, k.Error = ReplayFailed, msgInterrupted
			if err := shelf.Save(k); err != nil {
				cancel()
				return nil, err
			}
		}
		done := make(chan struct{})
		close(done)
		r.all[k.ID] = &replayRun{cur: k, done: done}
	}
	r.wg.Add(1)
	go r.closeIdle()
	return r, nil
}

// closeIdle closes the stores of done replays not browsed for the idle
// time, so that the files kept open are those in use.
func (r *Replays) closeIdle() {
	defer r.wg.Done()
	tick := time.NewTicker(max(r.idle/2, time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-r.ctx.Done():
			return
		case now := <-tick.C:
			r.mu.Lock()
			for _, run := range r.all {
				if run.store == nil || run.cur.State == ReplayRunning || now.Sub(run.lastUse) < r.idle || !run.use.TryLock() {
					continue
				}
				// The store is let go either way; the next browse opens it.
				_ = r.shelf.Close(run.store)
				run.store = nil
				run.use.Unlock()
			}
			r.mu.Unlock()
		}
	}
}

// Room refuses a new replay of tenant when the tenant keeps
// MaxReplaysPerTenant already (Conflict).
func (r *Replays) Room(tenant string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.room(tenant)
}

func (r *Replays) room(tenant string) error {
	n := r.starting[tenant]
	for _, run := range r.all {
		if run.cur.Tenant == tenant {
			n++
		}
	}
	if n >= MaxReplaysPerTenant {
		return fault.New(fault.Conflict, MsgReplaysFull, tenant, MaxReplaysPerTenant)
	}
	return nil
}

// Close stops the running replays and closes the stores.
func (r *Replays) Close() error {
	r.cancel()
	r.wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	var errs []error
	for _, run := range r.all {
		if run.store != nil {
			errs = append(errs, r.shelf.Close(run.store))
			run.store = nil
		}
	}
	return errors.Join(errs...)
}

func inputErr(key string, args ...any) error { return fault.New(fault.Invalid, key, args...) }

// Start replays tenant's events up to position, or up to the last event at
// or before at, or (both zero) up to the head, in the background.
func (r *Replays) Start(ctx context.Context, tenant string, position uint64, at time.Time) (Replay, error) {
	to, err := r.Point(ctx, position, at)
	if err != nil {
		return Replay{}, err
	}
	prefix := es.TenantPrefix(tenant)
	keep := func(e *es.RecordedEvent) bool { return strings.HasPrefix(e.Stream, prefix) }
	return r.start(Replay{Tenant: tenant, Source: ReplayOfLog, Position: to, Time: at},
		r.live.log, keep, to)
}

// Point is the position a replay asked at position or at (one of them, or
// neither for the head) folds up to, or why it cannot be replayed.
func (r *Replays) Point(ctx context.Context, position uint64, at time.Time) (uint64, error) {
	if position > 0 && !at.IsZero() {
		return 0, inputErr(MsgReplayPositionAndTime)
	}
	head, err := r.live.log.Head(ctx)
	if err != nil {
		return 0, fmt.Errorf("projections: head: %w", err)
	}
	switch {
	case position > head:
		return 0, inputErr(MsgReplayBeyondHead, position, head)
	case !at.IsZero():
		return r.positionAt(ctx, at, head)
	case position == 0:
		return head, nil
	}
	return position, nil
}

// positionAt is the position of the last event of the log at or before
// at (0 when there is none). The events' times grow with their positions
// (the server stamps them as it appends), but positions are tokens that
// cannot be halved: the log is read from the start until an event after at,
// which costs no more reads than the replay's own fold up to it.
func (r *Replays) positionAt(ctx context.Context, at time.Time, head uint64) (uint64, error) {
	var pos uint64
	for pos < head {
		recs, err := r.live.log.ReadAll(ctx, pos, maxBatch)
		if err != nil {
			return 0, fmt.Errorf("projections: read the log: %w", err)
		}
		if len(recs) == 0 {
			break
		}
		for _, rec := range recs {
			if rec.Position > head || rec.Metadata.Time.After(at) {
				return pos, nil
			}
			pos = rec.Position
		}
	}
	return pos, nil
}

// start makes rp (its ID given, or a new one) a replay folding log up to
// to, when its tenant has room for it.
func (r *Replays) start(rp Replay, log EventLog, keep func(*es.RecordedEvent) bool, to uint64) (Replay, error) {
	r.mu.Lock()
	if err := r.room(rp.Tenant); err != nil {
		r.mu.Unlock()
		return Replay{}, err
	}
	r.starting[rp.Tenant]++
	r.mu.Unlock()
	started := false
	defer func() {
		if !started {
			r.mu.Lock()
			r.unreserve(rp.Tenant)
			r.mu.Unlock()
		}
	}()
	if rp.ID == "" {
		rp.ID = newReplayID()
	}
	rp.State, rp.StartedAt = ReplayRunning, time.Now().UTC()
	store, err := r.shelf.Create(rp.ID)
	if err != nil {
		return Replay{}, err
	}
	if err := r.shelf.Save(rp); err != nil {
		return Replay{}, errors.Join(err, r.shelf.Close(store), r.shelf.Remove(rp.ID))
	}
	ctx, cancel := context.WithCancel(r.ctx)
	run := &replayRun{cur: rp, cancel: cancel, done: make(chan struct{}), store: store}
	r.mu.Lock()
	r.unreserve(rp.Tenant)
	r.all[rp.ID] = run
	r.mu.Unlock()
	started = true
	e := NewEngine(log, store, nil, r.live.registry, r.live.every()...)
	e.keep = keep
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer close(run.done)
		err := e.FoldTo(ctx, to, func(f Folded) {
			r.mu.Lock()
			run.cur.Done = f.Events
			r.mu.Unlock()
		})
		if rp.Source == ReplayOfImport {
			err = errors.Join(err, r.shelf.Unstage(rp.ID))
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		run.cur.FinishedAt = time.Now().UTC()
		run.lastUse = run.cur.FinishedAt
		switch {
		case err != nil && r.ctx.Err() != nil:
			run.cur.State, run.cur.Error = ReplayFailed, msgInterrupted
		case err != nil:
			run.cur.State, run.cur.Error = ReplayFailed, err.Error()
		default:
			run.cur.State = ReplayDone
		}
		if err := r.shelf.Save(run.cur); err != nil && run.cur.Error == "" {
			run.cur.State, run.cur.Error = ReplayFailed, err.Error()
		}
	}()
	return rp, nil
}

func (r *Replays) unreserve(tenant string) {
	if r.starting[tenant]--; r.starting[tenant] == 0 {
		delete(r.starting, tenant)
	}
}

func newReplayID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails
	return hex.EncodeToString(b[:])
}

// Get returns replay id.
func (r *Replays) Get(id string) (Replay, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	run, ok := r.all[id]
	if !ok {
		return Replay{}, fault.New(fault.NotFound, MsgReplayNotFound)
	}
	return run.cur, nil
}

// List returns every replay, oldest first.
func (r *Replays) List() []Replay {
	r.mu.Lock()
	out := make([]Replay, 0, len(r.all))
	for _, run := range r.all {
		out = append(out, run.cur)
	}
	r.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if !out[i].StartedAt.Equal(out[j].StartedAt) {
			return out[i].StartedAt.Before(out[j].StartedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Delete stops replay id if it runs and removes it.
func (r *Replays) Delete(id string) error {
	r.mu.Lock()
	run, ok := r.all[id]
	r.mu.Unlock()
	if !ok {
		return fault.New(fault.NotFound, MsgReplayNotFound)
	}
	if run.cancel != nil {
		run.cancel()
	}
	<-run.done
	// Browses under way end first.
	run.use.Lock()
	defer run.use.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.all[id]; !ok {
		return fault.New(fault.NotFound, MsgReplayNotFound)
	}
	var err error
	if run.store != nil {
		err = r.shelf.Close(run.store)
	}
	delete(r.all, id)
	return errors.Join(err, r.shelf.Remove(id))
}

// MsgReplayErased is the error of a replay retired by an erasure.
const MsgReplayErased = "a member of the tenant was erased after this replay was made: its read models are deleted; start it again"

// Retire deletes the read models of tenant's replays started before at,
// when a member of the tenant was erased: they may hold what the erasure
// took away. Each stays listed, failed with MsgReplayErased; one running
// is stopped first.
func (r *Replays) Retire(tenant string, at time.Time) error {
	r.mu.Lock()
	var runs []*replayRun
	for _, run := range r.all {
		if run.cur.Tenant == tenant && run.cur.StartedAt.Before(at) && run.cur.Error != MsgReplayErased {
			runs = append(runs, run)
		}
	}
	r.mu.Unlock()
	var errs []error
	for _, run := range runs {
		if run.cancel != nil {
			run.cancel()
		}
		<-run.done
		run.use.Lock()
		r.mu.Lock()
		if run.store != nil {
			errs = append(errs, r.shelf.Close(run.store))
			run.store = nil
		}
		run.cur.State, run.cur.Error = ReplayFailed, MsgReplayErased
		errs = append(errs, r.shelf.Remove(run.cur.ID), r.shelf.Save(run.cur))
		r.mu.Unlock()
		run.use.Unlock()
	}
	return errors.Join(errs...)
}

// Browse gives use the read models of replay id, once it is done. The
// store stays open while use runs; one closed for being idle is opened
// again.
func (r *Replays) Browse(id string, use func(Replay, ReadStore) error) error {
	r.mu.Lock()
	run, ok := r.all[id]
	r.mu.Unlock()
	if !ok {
		return fault.New(fault.NotFound, MsgReplayNotFound)
	}
	run.use.RLock()
	defer run.use.RUnlock()
	r.mu.Lock()
	switch {
	case r.all[id] != run:
		r.mu.Unlock()
		return fault.New(fault.NotFound, MsgReplayNotFound)
	case run.cur.State != ReplayDone:
		r.mu.Unlock()
		return fault.New(fault.Conflict, MsgReplayNotDone)
	case run.store == nil:
		s, err := r.shelf.Open(id)
		if err != nil {
			r.mu.Unlock()
			return err
		}
		run.store = s
	}
	cur, store := run.cur, run.store
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		run.lastUse = time.Now()
		r.mu.Unlock()
	}()
	return use(cur, store)
}

// Compare compares the read models of two replays of one tenant.
func (r *Replays) Compare(ctx context.Context, a, b string) (Comparison, error) {
	var out Comparison
	err := r.Browse(a, func(ra Replay, sa ReadStore) error {
		compare := func(rb Replay, sb ReadStore) error {
			if ra.Tenant != rb.Tenant {
				return inputErr(MsgReplayTenants, a, ra.Tenant, b, rb.Tenant)
			}
			models, err := compareStores(ctx, sa, sb, ra.Tenant)
			out = Comparison{ReplayA: a, ReplayB: b, Tenant: ra.Tenant, Models: models}
			return err
		}
		if a == b {
			// A second hold of its store could wait behind a delete waiting
			// on the first.
			return compare(ra, sa)
		}
		return r.Browse(b, compare)
	})
	if err != nil {
		return Comparison{}, err
	}
	return out, nil
}

func compareStores(ctx context.Context, a, b ReadStore, tenant string) ([]ModelComparison, error) {
	sa, sb, err := snapshots(ctx, a, b)
	if err != nil {
		return nil, err
	}
	out, err := sa.CompareTenant(ctx, sb, tenant)
	return out, errors.Join(err, sa.Close(), sb.Close())
}

func snapshots(ctx context.Context, a, b ReadStore) (Snapshot, Snapshot, error) {
	pa, okA := a.(Snapshots)
	pb, okB := b.(Snapshots)
	if !okA || !okB {
		return nil, nil, ErrNoSnapshot
	}
	sa, err := pa.Snapshot(ctx)
	if err != nil {
		return nil, nil, err
	}
	sb, err := pb.Snapshot(ctx)
	if err != nil {
		return nil, nil, errors.Join(err, sa.Close())
	}
	return sa, sb, nil
}

// Verify folds tenant's events into a temporary store up to the position
// of a snapshot of the live store, and compares the tenant's rows of both.
// The snapshot is a read of the live store as its last batch committed,
// checkpoints included: the live engine folds on meanwhile, or, on a store
// that cannot pin a read, waits until the comparison ends. It runs on the
// node whose engine folds the log (a Conflict elsewhere, see foldsHere); the temporary
// store is the live store's scratch store when it makes them (ScratchStores),
// else one of the shelf.
func (r *Replays) Verify(ctx context.Context, tenant string) (Verification, error) {
	live, ok := r.live.store.(Snapshots)
	if !ok {
		return Verification{}, ErrNoSnapshot
	}
	if err := r.live.foldsHere(); err != nil {
		return Verification{}, err
	}
	id := newReplayID()
	var tmp ReadStore
	var drop func() error
	if sc, ok := r.live.store.(ScratchStores); ok {
		s, err := sc.CreateScratch(ctx, id)
		if err != nil {
			return Verification{}, err
		}
		tmp, drop = s, func() error { return sc.DropScratch(context.WithoutCancel(ctx), s) }
	} else {
		id = "verify-" + id
		s, err := r.shelf.Create(id)
		if err != nil {
			return Verification{}, err
		}
		tmp, drop = s, func() error { return errors.Join(r.shelf.Close(s), r.shelf.Remove(id)) }
	}
	defer func() { _ = drop() }()
	if _, ok := tmp.(Snapshots); !ok {
		return Verification{}, ErrNoSnapshot
	}
	prefix := es.TenantPrefix(tenant)
	e := NewEngine(r.live.log, tmp, nil, r.live.registry, r.live.every()...)
	e.keep = func(ev *es.RecordedEvent) bool { return strings.HasPrefix(ev.Stream, prefix) }
	// What was folded when the verification was asked is compared: the
	// trailing projectors are hurried to it.
	if t := r.live.trail; t != nil {
		t.WaitFor(ctx, r.live.Position())
	}
	// Most of the fold happens before the snapshot, so that it is held
	// open only for the tail.
	if err := e.FoldTo(ctx, r.live.settled(), nil); err != nil {
		return Verification{}, err
	}
	snap, err := live.Snapshot(ctx)
	if err != nil {
		return Verification{}, err
	}
	defer snap.Close()
	pos := r.live.folded(snap.Checkpoints())
	if t := r.live.trail; t != nil {
		pos = min(pos, t.folded(snap.Checkpoints()))
	}
	if err := e.FoldTo(ctx, pos, nil); err != nil {
		return Verification{}, err
	}
	own, err := tmp.(Snapshots).Snapshot(ctx)
	if err != nil {
		return Verification{}, err
	}
	defer own.Close()
	models, err := snap.CompareTenant(ctx, own, tenant)
	if err != nil {
		return Verification{}, err
	}
	return Verification{Tenant: tenant, Position: pos, Models: models}, nil
}
