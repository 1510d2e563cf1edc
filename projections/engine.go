// Package projections folds the event log into read models and turns what
// changed into deltas for the real-time gateways.
package projections

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/eventchat/eventchat/domain/es"
)

// Projector folds events into one or more read models. Name is a persisted
// identifier (the checkpoint key): a schema change is a new version and a
// rebuild, never an in-place migration.
type Projector interface {
	Name() string
	// Project folds events, in position order, inside tx and returns the
	// deltas the changes cause.
	Project(ctx context.Context, tx Tx, events []Envelope) ([]Delta, error)
}

// Envelope is a decoded event with where it is stored.
type Envelope struct {
	es.RecordedEvent
	Event  es.Event
	Tenant string
	Stream es.StreamName
}

// maxBatch bounds the events folded in one read-store transaction.
const maxBatch = 4096

// trailSlice bounds the events a trailing engine folds in one transaction
// on its lead's writer: each waits until its lead has no batch waiting, and
// a read store takes one transaction at a time, so that a batch of the
// lead's never waits long behind one of the trailing engine's, however far
// behind it is. On a writer of its own (TrailWriting) it folds maxBatch.
const trailSlice = 64

// trailPause is how long a trailing engine that has caught up gathers
// events before it folds them: its index grows by one segment per
// transaction, which a transaction a few events long makes dear, and
// nobody waits on it but a read with ?after= (which cuts the pause short).
const trailPause = 50 * time.Millisecond

// Engine runs projectors over the log: each batch of events is folded by
// every projector that has not seen it yet, in one read-store transaction
// together with their checkpoints; deltas are published after the commit.
//
// Only events appended after the engine started are published: what was
// already in the log was either seen by clients or is reloaded by them when
// they connect, and a restart must not flood them.
type Engine struct {
	log        EventLog
	store      ReadStore
	pub        Publisher
	registry   es.Registry
	projectors []Projector
	election   *Election
	// keep, when set, passes over the events it refuses (a replay folds
	// one tenant's).
	keep func(*es.RecordedEvent) bool
	// only, when set, names the event types the projectors fold: the
	// others are left undecoded (see Selective).
	only map[string]bool
	// holdNew is set when a rebuild can fold new projector versions: the
	// engine then never folds them into a store other versions filled.
	holdNew bool
	// OnHeld, when set, is called (on its own goroutine) with the
	// projectors the engine holds back each time it starts folding with
	// some: the server starts the rebuild that folds them.
	OnHeld func(names []string)
	// reload tells the engine, before its next fold, that its store was
	// swapped for a rebuilt one: its checkpoints are read again.
	reload atomic.Bool

	// trail, when set, folds projectors behind these (see Trail); ahead is
	// the engine a trailing one follows, slice the most it folds at once.
	trail, ahead *Engine
	slice        int
	// startWith, when set, are the checkpoints the next project starts
	// from instead of the store's.
	startWith map[string]uint64
	// catchingUp is set while batches wait to be folded: a trailing engine
	// leaves the store to its lead meanwhile.
	catchingUp atomic.Bool
	// hurry ends a trailing engine's pause: someone waits for it.
	hurry chan struct{}

	// started is the head of the log when Run was first called.
	started    uint64
	hasStarted bool

	// foldMu is held while a batch folds and publishes: Paused holds it to
	// keep the engine between batches.
	foldMu sync.Mutex

	mu       sync.Mutex
	position uint64
	// held are the projectors the engine does not fold (see holdNew).
	held map[string]bool
	// errs is the last failure of each projector, by name.
	errs     map[string]error
	advanced chan struct{}
	skipped  uint64
	lastErr  error
	leader   string
	// lastHolder is the last owner seen holding the lease.
	lastHolder string
}

// NewEngine returns an engine over projectors.
func NewEngine(log EventLog, store ReadStore, pub Publisher, registry es.Registry, projectors ...Projector) *Engine {
	return &Engine{log: log, store: store, pub: pub, registry: registry, projectors: projectors, only: selected(projectors),
		advanced: make(chan struct{}), hurry: make(chan struct{}, 1)}
}

// Trail has the engine fold projectors behind the others while it runs,
// on a goroutine of their own with checkpoints of their own, and returns
// the engine that folds them, which tells how far they are (WaitFor). They
// read what the others stored: they never fold past them, and fold only
// while the others have caught up, so that nothing the others fold or
// publish waits for them. A rebuild, a replay and a verify fold them
// together with the others, after them.
//
// On a store that writes them on a writer of their own (TrailWriting), the
// trailing engine folds with that one.
func (e *Engine) Trail(projectors ...Projector) (*Engine, error) {
	store, slice := e.store, trailSlice
	if tw, ok := store.(TrailWriting); ok {
		var err error
		if store, err = tw.Trailing(); err != nil {
			return nil, fmt.Errorf("projections: trail %d projectors: %w", len(projectors), err)
		}
		slice = maxBatch
	}
	e.trail = NewEngine(e.log, store, nil, e.registry, projectors...)
	e.trail.ahead, e.trail.slice = e, slice
	return e.trail, nil
}

// every is the projectors the engine folds, those it trails last.
func (e *Engine) every() []Projector {
	if e.trail == nil {
		return e.projectors
	}
	return append(slices.Clip(e.projectors), e.trail.projectors...)
}

// trailAlong runs the trailing engine until ctx ends, starting it again after
// a failure (which Status tells); its batches are folded under work, as the
// lead's are.
func (e *Engine) trailAlong(ctx, work context.Context) {
	e.holdNew, e.OnHeld = e.ahead.holdNew, e.ahead.OnHeld
	for ctx.Err() == nil {
		if err := e.project(ctx, work); err != nil {
			e.setErr(err)
			select {
			case <-time.After(time.Second):
			case <-ctx.Done():
			}
		}
	}
}

// Selective is a projector that folds the events of the types EventTypes
// names and no other: an engine whose projectors all are selective does not
// decode the others.
type Selective interface {
	EventTypes() []string
}

// selected is the event types projectors fold, nil unless all are
// selective.
func selected(projectors []Projector) map[string]bool {
	only := map[string]bool{}
	for _, p := range projectors {
		s, ok := p.(Selective)
		if !ok {
			return nil
		}
		for _, t := range s.EventTypes() {
			only[t] = true
		}
	}
	return only
}

// decoded is a page of the log, decoded, with the position of its last
// event (which may have been passed over).
type decoded struct {
	envs []Envelope
	last uint64
	err  error
}

// Run projects until ctx ends or the log or store fails; with an election,
// only while this engine holds the read store's lease (see Elect).
func (e *Engine) Run(ctx context.Context) error {
	if !e.hasStarted {
		// Deltas go out for events after the first start only: a restart
		// after a failure publishes what was appended in between.
		head, err := e.log.Head(ctx)
		if err != nil {
			return fmt.Errorf("projections: head: %w", err)
		}
		e.started, e.hasStarted = head, true
	}
	if e.election == nil {
		return e.project(ctx, context.WithoutCancel(ctx))
	}
	return e.elect(ctx)
}

// everyFolded is the position every projector it folds or trails has
// folded, by their checkpoints.
func (e *Engine) everyFolded(checkpoints map[string]uint64) uint64 {
	pos := e.folded(checkpoints)
	if e.trail != nil {
		pos = min(pos, e.trail.folded(checkpoints))
	}
	return pos
}

// folded is the position every projector it folds has folded, by their
// checkpoints.
func (e *Engine) folded(checkpoints map[string]uint64) uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	pos, any := ^uint64(0), false
	for _, p := range e.projectors {
		if !e.held[p.Name()] {
			pos, any = min(pos, checkpoints[p.Name()]), true
		}
	}
	if !any {
		return 0
	}
	return pos
}

// ErrNewVersion is the last error of a projector the engine holds back: a
// new version, or a new projector, whose read models only a rebuild fills.
var ErrNewVersion = errors.New("a new projector version: the rebuild folds it from the start of the log")

// newVersions are the projectors that have folded nothing into a store
// that others have filled: new versions (a schema change) or new read
// models. Folding them from the start into that store would fold the
// history again over what older versions left, so only a rebuild, into a
// store of its own, may fold them.
func newVersions(projectors []Projector, checkpoints map[string]uint64) []string {
	filled := false
	for _, pos := range checkpoints {
		filled = filled || pos > 0
	}
	if !filled {
		return nil
	}
	var out []string
	for _, p := range projectors {
		if checkpoints[p.Name()] == 0 {
			out = append(out, p.Name())
		}
	}
	return out
}

// hold sets the projectors the engine holds back from checkpoints, when a
// rebuild may fold them, and returns their names.
func (e *Engine) hold(checkpoints map[string]uint64) []string {
	var names []string
	if e.holdNew {
		names = newVersions(e.projectors, checkpoints)
	}
	held := map[string]bool{}
	for _, name := range names {
		held[name] = true
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for name := range e.held {
		if !held[name] {
			delete(e.errs, name)
		}
	}
	for name := range held {
		if e.errs == nil {
			e.errs = map[string]error{}
		}
		e.errs[name] = ErrNewVersion
	}
	e.held = held
	return names
}

// heldNow is the set of projectors held back; hold replaces it whole, so
// it may be read without the lock.
func (e *Engine) heldNow() map[string]bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.held
}

// project folds the log from the checkpoints until ctx ends or the log or
// store fails. Reading and decoding the log runs ahead of folding, on its
// own goroutine. A batch taken before ctx ends is folded under work, which
// only the lease's loss ends.
func (e *Engine) project(ctx, work context.Context) error {
	checkpoints, err := e.startWith, error(nil)
	e.startWith = nil
	if checkpoints == nil {
		checkpoints, err = e.store.Checkpoints(ctx)
	}
	if err != nil {
		return fmt.Errorf("projections: checkpoints: %w", err)
	}
	e.reload.Store(false)
	if held := e.hold(checkpoints); len(held) > 0 && e.OnHeld != nil {
		go e.OnHeld(held)
	}
	from := e.folded(checkpoints)
	e.advance(from)
	sub, err := e.log.SubscribeAll(ctx, from)
	if err != nil {
		return fmt.Errorf("projections: subscribe: %w", err)
	}
	defer sub.Close()

	// The subscription ends with the caller's ctx, which may happen before
	// the cancellation reaches ctx's children: stopping is told by parent.
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pages := make(chan decoded, 4)
	go e.read(ctx, sub, pages)
	if e.trail != nil {
		// The trailing engine tells new projectors of its own by the
		// checkpoints as they were before this one folded anything.
		e.trail.startWith = maps.Clone(checkpoints)
		trailing := make(chan struct{})
		go func() {
			defer close(trailing)
			e.trail.trailAlong(ctx, work)
		}()
		defer func() {
			cancel()
			<-trailing
		}()
	}
	for {
		var batch decoded
		select {
		case batch = <-pages:
		case <-ctx.Done():
			return nil
		}
		// Merge what is already decoded into one transaction.
	merge:
		for batch.err == nil && len(batch.envs) < maxBatch {
			select {
			case more := <-pages:
				batch.envs = append(batch.envs, more.envs...)
				batch.last, batch.err = max(batch.last, more.last), more.err
			default:
				break merge
			}
		}
		for envs := batch.envs; batch.last > 0; {
			n, last := len(envs), batch.last
			if e.ahead != nil && n > e.slice {
				n, last = e.slice, envs[e.slice-1].Position
			}
			if !e.behindLead(ctx, last) {
				return nil
			}
			if err := e.fold(work, envs[:n], last, checkpoints); err != nil {
				e.setErr(err)
				return err
			}
			if envs = envs[n:]; len(envs) == 0 {
				break
			}
		}
		e.catchingUp.Store(len(pages) > 0)
		if e.ahead != nil && len(batch.envs) < trailSlice && batch.err == nil {
			e.pause(ctx)
		}
		if batch.err != nil {
			if parent.Err() != nil {
				return nil
			}
			return fmt.Errorf("projections: next: %w", batch.err)
		}
	}
}

// behindLead waits, for a trailing engine, until its lead has folded last
// and has no batch waiting; it reports false when ctx ends first.
// pause waits trailPause, or until ctx ends or WaitFor hurries it.
func (e *Engine) pause(ctx context.Context) {
	t := time.NewTimer(trailPause)
	defer t.Stop()
	select {
	case <-t.C:
	case <-e.hurry:
	case <-ctx.Done():
	}
}

func (e *Engine) behindLead(ctx context.Context, last uint64) bool {
	if e.ahead == nil {
		return true
	}
	if !e.ahead.WaitFor(ctx, last) {
		return false
	}
	for e.ahead.catchingUp.Load() {
		select {
		case <-time.After(10 * time.Millisecond):
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// read decodes pages of the subscription into out until ctx ends or the
// subscription fails.
func (e *Engine) read(ctx context.Context, sub es.Subscription, out chan<- decoded) {
	for {
		recs, err := sub.Next(ctx)
		page := decoded{err: err}
		if len(recs) > 0 {
			page.envs, page.last = e.decode(recs), recs[len(recs)-1].Position
		}
		select {
		case out <- page:
		case <-ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

func (e *Engine) decode(recs []es.RecordedEvent) []Envelope {
	envs := make([]Envelope, 0, len(recs))
	for i := range recs {
		r := &recs[i]
		if e.keep != nil && !e.keep(r) {
			continue
		}
		if e.only != nil {
			if name, _, err := es.ParseType(r.Type); err == nil && !e.only[name] {
				continue
			}
		}
		ev, err := e.registry.Decode(r.Type, r.Data)
		if err != nil {
			// An event this version cannot read (written by a newer one, or
			// not ours) is passed over rather than stopping every projection.
			e.mu.Lock()
			e.skipped++
			e.lastErr = err
			e.mu.Unlock()
			continue
		}
		sn, err := es.ParseStream(r.Stream)
		if err != nil {
			continue
		}
		envs = append(envs, Envelope{RecordedEvent: *r, Event: ev, Tenant: sn.Tenant, Stream: sn})
	}
	return envs
}

func (e *Engine) fold(ctx context.Context, envs []Envelope, last uint64, checkpoints map[string]uint64) error {
	e.foldMu.Lock()
	defer e.foldMu.Unlock()
	if e.reload.Swap(false) {
		// A rebuilt store was swapped in (under foldMu) at the lead's
		// position: its checkpoints hold every projector's, a trailing
		// one's beyond what it had folded.
		fresh, err := e.store.Checkpoints(ctx)
		if err != nil {
			e.reload.Store(true)
			return fmt.Errorf("projections: checkpoints: %w", err)
		}
		clear(checkpoints)
		maps.Copy(checkpoints, fresh)
		e.hold(checkpoints)
	}
	var deltas []Delta
	held := e.heldNow()
	err := e.store.Update(ctx, func(tx Tx) error {
		deltas = deltas[:0]
		for _, p := range e.projectors {
			cp := checkpoints[p.Name()]
			if cp >= last || held[p.Name()] {
				continue
			}
			ds, err := p.Project(ctx, tx, envs[firstAfter(envs, cp):])
			if err != nil {
				e.setProjectorErr(p.Name(), err)
				return fmt.Errorf("projections: %s: %w", p.Name(), err)
			}
			deltas = append(deltas, ds...)
			if err := tx.SetCheckpoint(ctx, p.Name(), last); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range e.projectors {
		if !held[p.Name()] {
			checkpoints[p.Name()] = max(checkpoints[p.Name()], last)
		}
	}
	e.advance(last)
	e.publish(ctx, deltas)
	return nil
}

// publish encodes and publishes the deltas of events appended after the
// engine started.
func (e *Engine) publish(ctx context.Context, deltas []Delta) {
	if e.pub == nil {
		return
	}
	live := deltas[:0]
	for _, d := range deltas {
		if d.Position <= e.started {
			continue
		}
		if d.Data == nil {
			raw, err := json.Marshal(d.Payload)
			if err != nil {
				e.setErr(fmt.Errorf("projections: encode delta %d: %w", d.Cmd, err))
				continue
			}
			d.Data = raw
		}
		live = append(live, d)
	}
	if len(live) == 0 {
		return
	}
	if err := e.pub.Publish(ctx, live); err != nil {
		e.setErr(fmt.Errorf("projections: publish: %w", err))
	}
}

func (e *Engine) advance(pos uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if pos <= e.position && pos != 0 {
		return
	}
	e.position = pos
	close(e.advanced)
	e.advanced = make(chan struct{})
}

func (e *Engine) setErr(err error) {
	e.mu.Lock()
	e.lastErr = err
	e.mu.Unlock()
}

// Position is the last log position every projector has folded.
func (e *Engine) Position() uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.position
}

// settled is the position the projectors it trails have folded too.
func (e *Engine) settled() uint64 {
	if e.trail == nil {
		return e.Position()
	}
	return min(e.Position(), e.trail.Position())
}

// Status tells how far the engine is and what went wrong last.
type Status struct {
	Position uint64
	Skipped  uint64
	LastErr  error
	// Leader is the owner of the read store's lease as last seen, with an
	// election ("" when none holds it or without an election).
	Leader string
}

// Status returns the engine's status.
func (e *Engine) Status() Status {
	e.mu.Lock()
	defer e.mu.Unlock()
	return Status{Position: e.position, Skipped: e.skipped, LastErr: e.lastErr, Leader: e.leader}
}

// WaitFor blocks until every projector has folded position pos or ctx ends;
// it reports whether the position was reached.
func (e *Engine) WaitFor(ctx context.Context, pos uint64) bool {
	for {
		e.mu.Lock()
		reached, ch := e.position >= pos, e.advanced
		e.mu.Unlock()
		if reached {
			return true
		}
		select {
		case e.hurry <- struct{}{}:
		default:
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// All lists every projector the server runs, but those it trails.
func All() []Projector {
	return []Projector{Members{}, Auth{}, Friends{}, Chats{}, Groups{}, Calls{}, Personal{}, Notices{}, Feedback{}, Wallet{}, Assistant{}}
}

// Trailing lists the projectors the server folds behind All (see Trail).
func Trailing() []Projector { return []Projector{SearchIndex{}} }

func (e *Engine) setProjectorErr(name string, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.errs == nil {
		e.errs = map[string]error{}
	}
	e.errs[name] = err
}

// Paused runs fn while the engine folds nothing, with the position every
// projector has folded; the engine carries on from there when fn returns.
// A rebuild swaps the read store in fn.
func (e *Engine) Paused(fn func(position uint64) error) error {
	e.foldMu.Lock()
	defer e.foldMu.Unlock()
	if e.trail != nil {
		e.trail.foldMu.Lock()
		defer e.trail.foldMu.Unlock()
	}
	return fn(e.Position())
}

// FoldTo folds the log from the store's checkpoints up to position to
// (inclusive) and stops, telling progress the position reached after each
// batch. It reads and decodes ahead of folding as Run does. Deltas are
// published as by Run: an engine built for a rebuild has no publisher, and
// its deltas are discarded.
//
// The projectors it trails (Trail) fold alongside, on their own writer and
// so on another core, each batch once the others have folded it: the batch
// they folded, when it holds every event the trailed ones fold, instead of
// the log read and decoded again. FoldTo returns once both have folded to.
// The position progress tells is then the one both have folded, and its
// events those of the others.
func (e *Engine) FoldTo(ctx context.Context, to uint64, progress func(Folded)) error {
	if e.trail == nil {
		return e.foldTo(ctx, to, nil, nil, progress)
	}
	// Both positions are set before either folds, so that the first
	// progress told is never below where they start.
	for _, x := range []*Engine{e, e.trail} {
		checkpoints, err := x.store.Checkpoints(ctx)
		if err != nil {
			return fmt.Errorf("projections: checkpoints: %w", err)
		}
		x.advance(x.folded(checkpoints))
	}
	var mu sync.Mutex
	var led Folded // the others' last progress
	tell := func() {
		if progress != nil {
			f := led
			f.Position = e.settled()
			progress(f)
		}
	}
	trailTell := func(Folded) {
		mu.Lock()
		defer mu.Unlock()
		tell()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The trailed ones read the log themselves up to readTo: where the
	// others start, when these hand them their batches.
	var hand chan decoded
	readTo := to
	if e.feeds(e.trail) {
		hand, readTo = make(chan decoded, 2), min(e.Position(), to)
	}
	trailed := make(chan error, 1)
	go func() {
		err := e.trail.foldTo(ctx, readTo, nil, nil, trailTell)
		if err == nil && hand != nil {
			err = e.trail.foldTo(ctx, to, hand, nil, trailTell)
		}
		if err != nil && hand != nil {
			cancel() // the others would wait to hand it their next batch
		}
		trailed <- err
	}()
	err := e.foldTo(ctx, to, nil, hand, func(f Folded) {
		mu.Lock()
		defer mu.Unlock()
		led = f
		tell()
	})
	if err != nil {
		cancel()
	}
	return errors.Join(err, <-trailed)
}

// feeds reports whether the batches e folds hold every event the trailing
// engine t folds: e decodes every type t does, and neither passes events
// over by their record.
func (e *Engine) feeds(t *Engine) bool {
	if e.keep != nil || t.keep != nil {
		return false
	}
	if e.only == nil {
		return true
	}
	if t.only == nil {
		return false
	}
	for typ := range t.only {
		if !e.only[typ] {
			return false
		}
	}
	return true
}

// foldTo folds from the store's checkpoints up to to: the log, which it
// reads and decodes ahead of folding, or, when fed is set, the batches its
// lead folded (of which it folds what it has not). Each batch it folds then
// goes to handOn, when set.
func (e *Engine) foldTo(ctx context.Context, to uint64, fed <-chan decoded, handOn chan<- decoded, progress func(Folded)) error {
	checkpoints, err := e.store.Checkpoints(ctx)
	if err != nil {
		return fmt.Errorf("projections: checkpoints: %w", err)
	}
	from := e.folded(checkpoints)
	e.advance(from)
	if from >= to {
		return nil
	}
	pages := fed
	if pages == nil {
		sub, err := e.log.SubscribeAll(ctx, from)
		if err != nil {
			return fmt.Errorf("projections: subscribe: %w", err)
		}
		defer sub.Close()
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		read := make(chan decoded, 4)
		go e.read(ctx, sub, read)
		pages = read
	}
	var done Folded
	for from < to {
		var batch decoded
		select {
		case batch = <-pages:
		case <-ctx.Done():
			return ctx.Err()
		}
	merge:
		for batch.err == nil && len(batch.envs) < maxBatch && batch.last < to {
			select {
			case more := <-pages:
				batch.envs = append(batch.envs, more.envs...)
				batch.last, batch.err = max(batch.last, more.last), more.err
			default:
				break merge
			}
		}
		if batch.last > to {
			batch.envs, batch.last, batch.err = batch.envs[:firstAfter(batch.envs, to)], to, nil
		}
		if batch.last > from {
			if e.ahead != nil && !e.ahead.WaitFor(ctx, batch.last) {
				return ctx.Err()
			}
			if err := e.fold(ctx, batch.envs, batch.last, checkpoints); err != nil {
				e.setErr(err)
				return err
			}
			if handOn != nil {
				select {
				case handOn <- decoded{envs: batch.envs, last: batch.last}:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			from = batch.last
			done.Position, done.Events = from, done.Events+uint64(len(batch.envs))
			if n := len(batch.envs); n > 0 {
				done.Time = batch.envs[n-1].Metadata.Time
			}
			if progress != nil {
				progress(done)
			}
		}
		if batch.err != nil {
			return fmt.Errorf("projections: next: %w", batch.err)
		}
	}
	return nil
}

// Folded is how far a fold has got: positions are only compared, so
// progress is told in events and in the time of the log.
type Folded struct {
	Position uint64    // the last position folded
	Time     time.Time // the time of the last event folded, zero before one
	Events   uint64    // events folded
}

// firstAfter is the index of the first of envs (in position order) whose
// position is above pos.
func firstAfter(envs []Envelope, pos uint64) int {
	return sort.Search(len(envs), func(i int) bool { return envs[i].Position > pos })
}
