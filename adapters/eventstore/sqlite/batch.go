package sqlitestore

import (
	"fmt"

	"github.com/eventchat/eventchat/adapters/sqlitec"
	"github.com/eventchat/eventchat/domain/es"
)

// commit decides and writes a batch in one transaction. It returns one reply
// per request and the events committed, in position order, or the error
// that rolled the whole batch back.
//
// Event ids are first assumed new, as they nearly always are: UNIQUE(id)
// refuses the insert otherwise, and the batch is then decided again with
// every id looked up.
func (w *writer) commit(batch []*appendRequest) ([]appendReply, []es.RecordedEvent, error) {
	replies := make([]appendReply, len(batch))
	recs, err := w.transact(batch, replies, false)
	if sqlitec.HasCode(err, sqlitec.CodeConstraint) {
		w.stale = true
		recs, err = w.transact(batch, replies, true)
	}
	if err != nil {
		// The caches may hold what was rolled back.
		w.stale = true
		return nil, nil, fmt.Errorf("sqlitestore: append: %w", err)
	}
	return replies, recs, nil
}

func (w *writer) transact(batch []*appendRequest, replies []appendReply, lookUpAll bool) ([]es.RecordedEvent, error) {
	if err := w.st.begin.Exec(); err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	recs, err := w.decideAndInsert(batch, replies, lookUpAll)
	if err == nil {
		if err = w.st.commit.Exec(); err != nil {
			err = fmt.Errorf("commit: %w", err)
		}
	}
	if err != nil {
		w.stale = true
		w.conn.ResetAll()
		if w.conn.InTransaction() { // OR ROLLBACK may have ended it already
			_ = w.st.rollback.Exec() // nothing better to do: the batch fails anyway
		}
		return nil, err
	}
	return recs, nil
}

func (w *writer) decideAndInsert(batch []*appendRequest, replies []appendReply, lookUpAll bool) ([]es.RecordedEvent, error) {
	if err := w.syncWithFile(); err != nil {
		return nil, err
	}
	clear(w.known)
	if lookUpAll {
		if err := w.lookUp(batch); err != nil {
			return nil, err
		}
	}
	events := 0
	for _, r := range batch {
		events += len(r.events)
	}
	// recs is handed to the subscribers: a new slice for every batch.
	recs := make([]es.RecordedEvent, 0, events)
	w.metas = w.metas[:0]
	var err error
	for i, r := range batch {
		if recs, replies[i], err = w.decide(r, recs, lookUpAll); err != nil {
			return nil, err
		}
	}
	if err := w.insert(recs); err != nil {
		return nil, err
	}
	w.streams.Trim()
	return recs, nil
}

// decide answers one request against the log plus the requests accepted
// before it in the batch, and appends its events to recs when it is
// accepted. w.known holds the ids of the batch found in the log (when looked
// up) and those of the requests accepted so far.
func (w *writer) decide(r *appendRequest, recs []es.RecordedEvent, lookedUp bool) ([]es.RecordedEvent, appendReply, error) {
	if err := r.ctx.Err(); err != nil {
		return recs, appendReply{err: err}, nil
	}
	if reply, done := duplicateReply(r, w.known); done {
		return recs, reply, nil
	}
	last, exists, err := w.streamRevision(r.stream)
	if err != nil {
		return recs, appendReply{}, err
	}
	if !r.expected.Check(last, exists) {
		// A retried create-once append is a duplicate, not a conflict.
		if !lookedUp {
			if err := w.lookUp([]*appendRequest{r}); err != nil {
				return recs, appendReply{}, err
			}
			if reply, done := duplicateReply(r, w.known); done {
				return recs, reply, nil
			}
		}
		return recs, appendReply{err: es.ConcurrencyError(r.stream, last, exists, r.expected)}, nil
	}
	next := uint64(0)
	if exists {
		next = last + 1
	}
	for _, e := range r.events {
		w.head++
		recs = append(recs, es.RecordedEvent{
			ID: e.id, Stream: r.stream, Revision: next, Position: w.head,
			Type: e.typ, Data: e.data, Metadata: e.meta,
		})
		w.metas = append(w.metas, e.metaJSON)
		w.known[e.id] = knownEvent{revision: next, position: w.head}
		next++
	}
	w.streams[r.stream] = next - 1
	return recs, appendReply{result: es.WriteResult{NextRevision: next - 1, Position: w.head}}, nil
}

// duplicateReply applies the idempotency rule, which comes before the
// expected-revision check: all ids known is a duplicate, some is an error.
func duplicateReply(r *appendRequest, known map[string]knownEvent) (appendReply, bool) {
	var found int
	var last knownEvent
	for _, e := range r.events {
		if k, ok := known[e.id]; ok {
			found++
			if k.position > last.position {
				last = k
			}
		}
	}
	switch {
	case found == 0:
		return appendReply{}, false
	case found < len(r.events):
		return appendReply{err: fmt.Errorf("%w: %d of %d events of the append to %s are already stored",
			es.ErrPartialDuplicate, found, len(r.events), r.stream)}, true
	default:
		return appendReply{result: es.WriteResult{NextRevision: last.revision, Position: last.position, Duplicate: true}}, true
	}
}
