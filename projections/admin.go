package projections

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/eventchat/eventchat/domain/fault"
)

// ProjectorStatus is how far one projector has folded the log.
type ProjectorStatus struct {
	Name       string `json:"name"`
	Checkpoint uint64 `json:"checkpoint"`
	Head       uint64 `json:"head"`
	// Behind says the checkpoint is before the head; LagSeconds is then the
	// time from the first event not folded to the head event.
	Behind     bool    `json:"behind"`
	LagSeconds float64 `json:"lagSeconds"`
	LastError  string  `json:"lastError,omitempty"`
}

// Report is the engine's state for operators.
type Report struct {
	// Head is the position of the last event in the log, HeadTime its time.
	Head     uint64    `json:"head"`
	HeadTime time.Time `json:"headTime,omitzero"`
	// Position is what every projector has folded, those trailed too.
	Position uint64 `json:"position"`
	// Skipped counts events this version could not decode.
	Skipped   uint64 `json:"skipped"`
	Leader    string `json:"leader,omitempty"`
	LastError string `json:"lastError,omitempty"`
	// Publisher is the state of the hand-over of deltas to the bus, when
	// the publisher reports one.
	Publisher *PublishState     `json:"publisher,omitempty"`
	Projector []ProjectorStatus `json:"projectors"`
}

// Report tells, per projector, its checkpoint in the read store, the head
// of the log, whether it is behind and by how many seconds (the time from
// the first event it has not folded to the head event) and its last
// failure.
func (e *Engine) Report(ctx context.Context) (Report, error) {
	last, _, err := e.log.Last(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("projections: read the head: %w", err)
	}
	checkpoints, err := e.store.Checkpoints(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("projections: checkpoints: %w", err)
	}
	st := e.Status()
	head := last.Position
	r := Report{Head: head, HeadTime: last.Metadata.Time, Position: e.settled(), Skipped: st.Skipped, Leader: st.Leader, Projector: []ProjectorStatus{}}
	if st.LastErr != nil {
		r.LastError = st.LastErr.Error()
	}
	if pr, ok := e.pub.(PublishReporter); ok {
		ps := pr.PublishState()
		r.Publisher = &ps
	}
	// timeAfter is the time of the first event after pos.
	times := map[uint64]time.Time{}
	timeAfter := func(pos uint64) (time.Time, error) {
		if t, ok := times[pos]; ok {
			return t, nil
		}
		recs, err := e.log.ReadAll(ctx, pos, 1)
		if err != nil || len(recs) == 0 {
			return time.Time{}, err
		}
		times[pos] = recs[0].Metadata.Time
		return recs[0].Metadata.Time, nil
	}
	e.mu.Lock()
	errs := make(map[string]error, len(e.errs))
	for k, v := range e.errs {
		errs[k] = v
	}
	e.mu.Unlock()
	if t := e.trail; t != nil {
		t.mu.Lock()
		for k, v := range t.errs {
			errs[k] = v
		}
		t.mu.Unlock()
	}
	for _, p := range e.every() {
		cp := checkpoints[p.Name()]
		ps := ProjectorStatus{Name: p.Name(), Checkpoint: cp, Head: head}
		if cp < head {
			ps.Behind = true
			t, err := timeAfter(cp)
			if err != nil {
				return Report{}, fmt.Errorf("projections: read the log after %d: %w", cp, err)
			}
			if !t.IsZero() && !r.HeadTime.IsZero() {
				ps.LagSeconds = max(0, r.HeadTime.Sub(t).Seconds())
			}
		}
		if err := errs[p.Name()]; err != nil {
			ps.LastError = err.Error()
		}
		r.Projector = append(r.Projector, ps)
	}
	return r, nil
}

// Shadowing is a read store that can be rebuilt beside itself: a shadow
// store is folded from the start of the log while the live one serves, then
// takes its place.
type Shadowing interface {
	// OpenShadow opens the shadow store, resuming the one an interrupted
	// rebuild left behind.
	OpenShadow(ctx context.Context) (ReadStore, error)
	// SwapIn makes shadow the live store, atomically for readers, and
	// closes it; the old live data is dropped.
	SwapIn(ctx context.Context, shadow ReadStore) error
	// CloseShadow closes shadow and keeps it for a later rebuild to resume.
	CloseShadow(shadow ReadStore) error
}

// ShadowSettling is a Shadowing store that can write out what a shadow
// holds pending (its WAL, its dirty pages) while the live projections still
// fold: the swap, which holds them, then has little left to write.
type ShadowSettling interface {
	SettleShadow(ctx context.Context, shadow ReadStore) error
}

// Rebuild states.
const (
	RebuildIdle     = "idle"
	RebuildRunning  = "running"
	RebuildSwapping = "swapping"
	RebuildDone     = "done"
	RebuildFailed   = "failed"
	// RebuildCancelled: an operator stopped it; its shadow stays to resume.
	RebuildCancelled = "cancelled"
)

// Rebuild is the progress of a rebuild. Positions are tokens of the log,
// so progress is counted in events folded and measured in the log's time.
type Rebuild struct {
	State string `json:"state"`
	// Projectors are the projectors being rebuilt: all of them, since they
	// share tables.
	Projectors []string `json:"projectors,omitempty"`
	// From is the position the shadow started at (above 0 when an
	// interrupted rebuild is resumed).
	From uint64 `json:"from"`
	// Done counts the events the shadow has folded in this run. Position
	// is the last position folded, Head the log's last position as last
	// read: it grows with the log.
	Done     uint64 `json:"done"`
	Position uint64 `json:"position"`
	Head     uint64 `json:"head"`
	// Fraction is how far through the log's time the shadow is, from the
	// first event of the log to the head event.
	Fraction float64 `json:"fraction"`
	// Rate is in events per second since the start; ETASeconds is the time
	// left at the pace the shadow goes through the log's time.
	Rate       float64   `json:"rate"`
	ETASeconds float64   `json:"etaSeconds"`
	StartedAt  time.Time `json:"startedAt,omitzero"`
	FinishedAt time.Time `json:"finishedAt,omitzero"`
	// SwappedAt is the position at which the shadow became the live store;
	// SwapHeldMs is how long the swap held the live projections (and so
	// the pushes) back, in milliseconds.
	SwappedAt  uint64  `json:"swappedAt,omitempty"`
	SwapHeldMs float64 `json:"swapHeldMs,omitempty"`
	Error      string  `json:"error,omitempty"`

	// The log's time: of its first event, of the first and last events
	// this run folded, and of the head event.
	logStart, runStart, folded, headTime time.Time
}

// ErrRebuildRunning refuses a second rebuild.
var ErrRebuildRunning = errors.New("projections: a rebuild is already running")

// ErrNoRebuild refuses to cancel when no rebuild runs.
var ErrNoRebuild = errors.New("projections: no rebuild is running")

// ErrNoShadow refuses a rebuild on a read store that cannot be shadowed.
var ErrNoShadow = errors.New("projections: this read store cannot be rebuilt while serving")

// Texts of the refusals of a rebuild or a verify asked of a node whose
// engine does not fold the log, translated at the edges.
const (
	MsgNotLeader = "this node does not fold the log: ask %s, which holds the projection lease"
	MsgNoLeader  = "no node holds the projection lease yet: try again in a few seconds"
)

// foldsHere refuses, with a fault.Conflict (MsgNotLeader or MsgNoLeader),
// work that needs this engine to be the one folding the log: with an election, only the holder of the lease writes the read
// store, so only its engine can pause the writes (a rebuild's swap, a
// snapshot that cannot pin a read) and have its store fold what it has.
func (e *Engine) foldsHere() error {
	if e.election == nil {
		return nil
	}
	switch leader := e.Status().Leader; leader {
	case e.election.Owner:
		return nil
	case "":
		return fault.New(fault.Conflict, MsgNoLeader)
	default:
		return fault.New(fault.Conflict, MsgNotLeader, leader)
	}
}

// Rebuilder rebuilds every read model of a live engine into a shadow
// store and swaps it in (see docs/admin.md).
type Rebuilder struct {
	live  *Engine
	store Shadowing // nil when the live store cannot be shadowed

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	cur     Rebuild
	stopRun context.CancelCauseFunc // stops the running rebuild only

	// Progressed, when set before Start, is told the progress after each
	// batch the shadow folds.
	Progressed func(Rebuild)
}

// NewRebuilder returns a rebuilder of live's read store; store is that
// store, nil when it cannot be shadowed.
func NewRebuilder(live *Engine, store Shadowing) *Rebuilder {
	// New projector versions wait for a rebuild only where one can run.
	live.holdNew = store != nil
	ctx, cancel := context.WithCancel(context.Background())
	return &Rebuilder{live: live, store: store, ctx: ctx, cancel: cancel, cur: Rebuild{State: RebuildIdle}}
}

// errCancelled is the cause a rebuild stopped by CancelRun ends with.
var errCancelled = errors.New("projections: rebuild cancelled")

// Cancel stops a running rebuild, keeping its shadow to resume, without
// waiting for it to end, and refuses later ones.
func (r *Rebuilder) Cancel() { r.cancel() }

// CancelRun stops the running rebuild, keeping its shadow for the next
// rebuild to resume from; it ends as cancelled. A rebuild already swapping
// finishes: the swap is short and all or nothing.
func (r *Rebuilder) CancelRun() (Rebuild, error) {
	r.mu.Lock()
	running := r.cur.State == RebuildRunning
	stop := r.stopRun
	r.mu.Unlock()
	if !running || stop == nil {
		return r.Progress(), ErrNoRebuild
	}
	stop(errCancelled)
	return r.Progress(), nil
}

// Close stops a running rebuild, keeping its shadow to resume.
func (r *Rebuilder) Close() {
	r.cancel()
	r.wg.Wait()
}

// Progress returns the state of the running or last rebuild.
func (r *Rebuilder) Progress() Rebuild {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.cur
	out.Projectors = slicesClone(r.cur.Projectors)
	return out
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// Start starts rebuilding name ("all" or a projector's name: every
// projector is rebuilt, since they share tables) in the background. With
// an election it runs on the node holding the projection lease only: the
// swap pauses the engine that writes the read store (a fault.Conflict
// naming the holder elsewhere, see foldsHere).
func (r *Rebuilder) Start(name string) (Rebuild, error) {
	if r.store == nil {
		return Rebuild{}, ErrNoShadow
	}
	names := make([]string, 0, len(r.live.projectors))
	known := name == "all"
	for _, p := range r.live.every() {
		names = append(names, p.Name())
		known = known || p.Name() == name
	}
	if !known {
		return Rebuild{}, fmt.Errorf("projections: no projector %q", name)
	}
	if err := r.live.foldsHere(); err != nil {
		return Rebuild{}, err
	}
	last, _, err := r.live.log.Last(r.ctx)
	if err != nil {
		return Rebuild{}, fmt.Errorf("projections: head: %w", err)
	}
	first, err := r.live.log.ReadAll(r.ctx, 0, 1)
	if err != nil {
		return Rebuild{}, fmt.Errorf("projections: read the log: %w", err)
	}
	r.mu.Lock()
	if r.cur.State == RebuildRunning || r.cur.State == RebuildSwapping {
		r.mu.Unlock()
		return Rebuild{}, ErrRebuildRunning
	}
	r.cur = Rebuild{State: RebuildRunning, Projectors: names, StartedAt: time.Now(), Head: last.Position, headTime: last.Metadata.Time}
	if len(first) > 0 {
		r.cur.logStart = first[0].Metadata.Time
	}
	ctx, stop := context.WithCancelCause(r.ctx)
	r.stopRun = stop
	r.mu.Unlock()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		err := r.run(ctx)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.stopRun = nil
		stop(nil)
		r.cur.FinishedAt = time.Now()
		if err != nil && errors.Is(context.Cause(ctx), errCancelled) {
			r.cur.State, r.cur.ETASeconds = RebuildCancelled, 0
			return
		}
		if err != nil {
			r.cur.State, r.cur.Error = RebuildFailed, err.Error()
			return
		}
		r.cur.State, r.cur.ETASeconds, r.cur.Fraction = RebuildDone, 0, 1
	}()
	return r.Progress(), nil
}

func (r *Rebuilder) update(fn func(p *Rebuild)) {
	r.mu.Lock()
	fn(&r.cur)
	defer func() {
		p := r.cur
		r.mu.Unlock()
		if r.Progressed != nil {
			r.Progressed(p)
		}
	}()
	c := &r.cur
	if span := c.headTime.Sub(c.logStart); span > 0 && !c.folded.IsZero() {
		c.Fraction = min(1, max(0, float64(c.folded.Sub(c.logStart))/float64(span)))
	}
	el := time.Since(c.StartedAt).Seconds()
	if el <= 0 || c.Done == 0 {
		return
	}
	c.Rate = float64(c.Done) / el
	c.ETASeconds = 0
	if pace := c.folded.Sub(c.runStart).Seconds() / el; pace > 0 && c.headTime.After(c.folded) {
		c.ETASeconds = c.headTime.Sub(c.folded).Seconds() / pace
	}
}

// shadowEngine is the engine that folds every projector of e into a
// shadow: those e trails on a writer of their own when the shadow has one
// (TrailWriting), so that they fold on another core; else with the others.
func (e *Engine) shadowEngine(shadow ReadStore) (*Engine, error) {
	if _, ok := shadow.(TrailWriting); !ok || e.trail == nil {
		return NewEngine(e.log, shadow, nil, e.registry, e.every()...), nil
	}
	sh := NewEngine(e.log, shadow, nil, e.registry, e.projectors...)
	if _, err := sh.Trail(e.trail.projectors...); err != nil {
		return nil, err
	}
	return sh, nil
}

// catchUpSlack is how close to the live engine the shadow gets before the
// live engine is paused to fold the rest and swap.
const catchUpSlack = maxBatch

func (r *Rebuilder) run(ctx context.Context) (err error) {
	shadow, err := r.store.OpenShadow(ctx)
	if err != nil {
		return err
	}
	swapped := false
	defer func() {
		if !swapped {
			err = errors.Join(err, r.store.CloseShadow(shadow))
		}
	}()
	e := r.live
	sh, err := e.shadowEngine(shadow)
	if err != nil {
		return err
	}
	checkpoints, err := shadow.Checkpoints(ctx)
	if err != nil {
		return fmt.Errorf("projections: shadow checkpoints: %w", err)
	}
	from := sh.everyFolded(checkpoints)
	r.update(func(p *Rebuild) { p.From, p.Position = from, from })
	var folded uint64 // events folded by the folds before the current one
	progress := func(f Folded) {
		r.update(func(p *Rebuild) {
			p.Position, p.Done = f.Position, folded+f.Events
			if f.Time.IsZero() {
				return
			}
			if p.runStart.IsZero() {
				p.runStart = f.Time
			}
			p.folded = f.Time
		})
	}
	foldTo := func(to uint64) error {
		var n uint64
		err := sh.FoldTo(ctx, to, func(f Folded) {
			n = f.Events
			progress(f)
		})
		folded += n
		return err
	}
	// Fold from the start to the head, and again to the new head, until
	// the shadow is close behind the live engine; then write out what the
	// shadow holds pending, and fold what came meanwhile.
	settler, settle := r.store.(ShadowSettling)
	for {
		last, _, err := e.log.Last(ctx)
		if err != nil {
			return fmt.Errorf("projections: head: %w", err)
		}
		head := last.Position
		r.update(func(p *Rebuild) { p.Head, p.headTime = head, last.Metadata.Time })
		if err := foldTo(head); err != nil {
			return err
		}
		// The live engine must have folded what the shadow has before
		// it pauses: the shadow cannot unfold.
		if !e.WaitFor(ctx, head) {
			return ctx.Err()
		}
		// Close enough when a batch holds what was appended meanwhile.
		if recs, err := e.log.ReadAll(ctx, head, catchUpSlack+1); err != nil || len(recs) <= catchUpSlack {
			if !settle {
				break
			}
			if err := settler.SettleShadow(ctx, shadow); err != nil {
				return err
			}
			settle = false
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	r.update(func(p *Rebuild) { p.State = RebuildSwapping })
	return e.Paused(func(pos uint64) error {
		held := time.Now()
		// The live engine may have folded past the last head read.
		r.update(func(p *Rebuild) { p.Head = max(p.Head, pos) })
		if err := foldTo(pos); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := r.store.SwapIn(ctx, shadow); err != nil {
			return err
		}
		e.reload.Store(true)
		if e.trail != nil {
			e.trail.reload.Store(true)
		}
		swapped = true
		r.update(func(p *Rebuild) {
			p.SwappedAt, p.SwapHeldMs = pos, float64(time.Since(held).Microseconds())/1000
		})
		return nil
	})
}
