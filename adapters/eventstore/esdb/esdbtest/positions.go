package esdbtest

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/google/uuid"

	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	"github.com/eventchat/eventchat/domain/es"
)

// Positions are byte offsets in a log of records as EventStoreDB numbers
// them: the first event follows records a fresh server writes first, and
// each event's record takes its header and its content.
const (
	firstPosition = 1 << 12
	recordHeader  = 96
)

// positions numbers the SQLite store's events (consecutive from 1) as
// EventStoreDB does (byte offsets), and knows where each client event id
// was last written. It is built from the store when the double starts and
// follows it as events commit.
type positions struct {
	store *sqlitestore.Store

	mu     sync.Mutex
	commit []uint64 // commit[seq-1] is the position of SQLite event seq
	next   uint64   // where the next record will start
	ids    map[uuid.UUID]written
}

// written is where a client event id was last appended.
type written struct {
	stream   string
	revision uint64
}

func newPositions(store *sqlitestore.Store) *positions {
	return &positions{store: store, next: firstPosition, ids: map[uuid.UUID]written{}}
}

// catchUp numbers the events committed since the last call.
func (p *positions) catchUp(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		evs, err := p.store.ReadAll(ctx, uint64(len(p.commit)), readPage)
		if err != nil {
			return err
		}
		for _, e := range evs {
			id, err := clientID(e)
			if err != nil {
				return err
			}
			p.commit = append(p.commit, p.next)
			p.next += recordHeader + uint64(len(e.Stream)+len(e.Type)+len(e.Data))
			p.ids[id] = written{stream: e.Stream, revision: e.Revision}
		}
		if len(evs) < readPage {
			return nil
		}
	}
}

// of is the position of SQLite event seq.
func (p *positions) of(ctx context.Context, seq uint64) (uint64, error) {
	p.mu.Lock()
	known := uint64(len(p.commit))
	p.mu.Unlock()
	if seq > known {
		if err := p.catchUp(ctx); err != nil {
			return 0, err
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if seq == 0 || seq > uint64(len(p.commit)) {
		return 0, fmt.Errorf("esdbtest: no event %d", seq)
	}
	return p.commit[seq-1], nil
}

// before is the number of events before position pos (the SQLite position
// a read from pos starts after), false when pos is no record boundary: not
// the start, not an event's position and not the end of the log.
func (p *positions) before(ctx context.Context, pos uint64) (uint64, bool, error) {
	if pos == 0 {
		return 0, true, nil
	}
	if err := p.catchUp(ctx); err != nil {
		return 0, false, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if pos == p.next {
		return uint64(len(p.commit)), true, nil
	}
	i := sort.Search(len(p.commit), func(i int) bool { return p.commit[i] >= pos })
	if i == len(p.commit) || p.commit[i] != pos {
		return 0, false, nil
	}
	return uint64(i), true, nil
}

// lastWritten is where id was last appended.
func (p *positions) lastWritten(id uuid.UUID) (written, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w, ok := p.ids[id]
	return w, ok
}

// clientID is the id the client gave the event: the double stores every
// write under a fresh SQLite id, since EventStoreDB may store an id twice.
// Files written before the double kept client ids have them as SQLite ids.
func clientID(e es.RecordedEvent) (uuid.UUID, error) {
	var p payload
	if err := json.Unmarshal(e.Data, &p); err != nil {
		return uuid.UUID{}, fmt.Errorf("esdbtest: decode event %s: %w", e.ID, err)
	}
	if p.ID != "" {
		return uuid.Parse(p.ID)
	}
	return uuid.Parse(e.ID)
}
