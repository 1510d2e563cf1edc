package projections

import (
	"context"
	"errors"
	"io"

	"github.com/eventchat/eventchat/domain/audit"
	"github.com/eventchat/eventchat/domain/es"
)

// StagedImport is an export read into a file of the shelf and checked
// against its checksum line: not a replay yet, and listed nowhere. Import
// makes it one; Discard removes it.
type StagedImport struct {
	id      string
	shelf   ReplayShelf
	Trailer audit.Trailer
	// tenant is that of the first event's stream, first that stream.
	tenant, first string
	last          uint64
	// problem is why the events cannot be replayed, told once the
	// checksum has passed, as a changed file is a checksum's refusal.
	problem  error
	imported bool
}

// Stage reads an export from body into a file of the shelf, checking its
// lines and checksum as they pass and holding none of them: memory does
// not grow with the file. A refused file is removed; body's own read
// errors (an *http.MaxBytesError) are returned as they are.
func (r *Replays) Stage(body io.Reader) (*StagedImport, error) {
	s := &StagedImport{id: newReplayID(), shelf: r.shelf}
	f, err := r.shelf.Stage(s.id)
	if err != nil {
		return nil, err
	}
	s.Trailer, err = audit.ReadExport(io.TeeReader(body, f), func(e audit.Entry) error {
		rec, err := e.Recorded()
		if err != nil || s.problem != nil {
			return err
		}
		switch {
		case s.first == "":
			s.tenant, s.first = rec.Metadata.Tenant, rec.Stream
		case rec.Metadata.Tenant != s.tenant:
			s.problem = inputErr(MsgReplayOtherTenant, rec.Stream, s.tenant)
			return nil
		}
		if rec.Position <= s.last {
			s.problem = inputErr(MsgReplayOrder, rec.Position)
		}
		s.last = rec.Position
		return nil
	})
	if err = errors.Join(err, f.Close()); err == nil && s.problem == nil && s.last > s.Trailer.Head {
		s.problem = inputErr(MsgReplayBeyondExport, s.last, s.Trailer.Head)
	}
	if err != nil {
		return nil, errors.Join(err, r.shelf.Unstage(s.id))
	}
	return s, nil
}

// Check tells why s cannot be replayed as tenant's history: events out of
// position order, beyond the export's head, or of another tenant.
func (s *StagedImport) Check(tenant string) error {
	if s.problem == nil && s.tenant != "" && s.tenant != tenant {
		return inputErr(MsgReplayOtherTenant, s.first, tenant)
	}
	return s.problem
}

// Discard removes s's file unless it became a replay.
func (s *StagedImport) Discard() error {
	if s.imported {
		return nil
	}
	return s.shelf.Unstage(s.id)
}

// Import replays s, an export of tenant's, in the background, when the
// tenant has room for another replay. The replay's position is the log's
// head when the export was made; the staged file goes when the fold ends.
func (r *Replays) Import(tenant string, s *StagedImport) (Replay, error) {
	if err := s.Check(tenant); err != nil {
		return Replay{}, err
	}
	var log EventLog = stagedLog{shelf: r.shelf, id: s.id, head: s.last}
	if r.Opener != nil {
		log = openedLog{EventLog: log, opener: r.Opener}
	}
	rp, err := r.start(Replay{ID: s.id, Tenant: tenant, Source: ReplayOfImport, Position: s.Trailer.Head}, log, nil, s.last)
	if err == nil {
		s.imported = true
	}
	return rp, err
}

// stagedLog is the events of a staged export, read from its file again,
// the checksum with them, each time they are asked for.
type stagedLog struct {
	shelf ReplayShelf
	id    string
	head  uint64
}

// errEnough ends a read that has what it needed.
var errEnough = errors.New("enough")

// read gives each event above after to each, in order.
func (l stagedLog) read(after uint64, each func(es.RecordedEvent) error) error {
	f, err := l.shelf.Staged(l.id)
	if err != nil {
		return err
	}
	_, err = audit.ReadExport(f, func(e audit.Entry) error {
		rec, err := e.Recorded()
		if err != nil || rec.Position <= after {
			return err
		}
		return each(rec)
	})
	return errors.Join(err, f.Close())
}

func (l stagedLog) ReadAll(_ context.Context, after uint64, max int) ([]es.RecordedEvent, error) {
	var out []es.RecordedEvent
	err := l.read(after, func(rec es.RecordedEvent) error {
		if len(out) == max {
			return errEnough
		}
		out = append(out, rec)
		return nil
	})
	if errors.Is(err, errEnough) {
		err = nil
	}
	return out, err
}

func (l stagedLog) Head(context.Context) (uint64, error) { return l.head, nil }

// Last is the export's last event.
func (l stagedLog) Last(context.Context) (es.RecordedEvent, bool, error) {
	var last es.RecordedEvent
	found := false
	err := l.read(0, func(rec es.RecordedEvent) error {
		last, found = rec, true
		return nil
	})
	return last, found, err
}

// SubscribeAll reads the file in the background, a page of up to maxBatch
// events at a time, and then waits as a live subscription does.
func (l stagedLog) SubscribeAll(ctx context.Context, after uint64) (es.Subscription, error) {
	ctx, cancel := context.WithCancel(ctx)
	sub := &stagedSub{pages: make(chan []es.RecordedEvent), ended: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(sub.ended)
		var page []es.RecordedEvent
		send := func() error {
			select {
			case sub.pages <- page:
				page = nil
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		sub.err = l.read(after, func(rec es.RecordedEvent) error {
			if page = append(page, rec); len(page) == maxBatch {
				return send()
			}
			return nil
		})
		if sub.err == nil && len(page) > 0 {
			sub.err = send()
		}
	}()
	return sub, nil
}

type stagedSub struct {
	pages  chan []es.RecordedEvent
	ended  chan struct{}
	err    error // set before ended closes
	cancel context.CancelFunc
}

func (s *stagedSub) Next(ctx context.Context) ([]es.RecordedEvent, error) {
	select {
	case page := <-s.pages:
		return page, nil
	case <-s.ended:
		if s.err != nil {
			return nil, s.err
		}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

func (s *stagedSub) Close() error {
	s.cancel()
	<-s.ended
	return nil
}
