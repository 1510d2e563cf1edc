package sqlitestore

import (
	"context"
	"errors"
	"fmt"

	"github.com/eventchat/eventchat/domain/es"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// commit decides and writes a batch in one transaction. It returns one reply
// per request and the events committed, in position order.
//
// Event ids are first assumed new, as they nearly always are: UNIQUE(id)
// refuses the insert otherwise, and the batch is then decided again with
// every id looked up.
func (w *writer) commit(batch []*appendRequest) ([]appendReply, []es.RecordedEvent) {
	replies := make([]appendReply, len(batch))
	rows, err := w.transact(batch, replies, false)
	if isConstraint(err) {
		w.stale = true
		rows, err = w.transact(batch, replies, true)
	}
	if err != nil {
		// The caches may hold what was rolled back.
		w.stale = true
		for i := range replies {
			replies[i] = appendReply{err: fmt.Errorf("sqlitestore: append: %w", err)}
		}
		return replies, nil
	}
	recs := make([]es.RecordedEvent, len(rows))
	for i := range rows {
		recs[i] = rows[i].rec
	}
	return replies, recs
}

func (w *writer) transact(batch []*appendRequest, replies []appendReply, lookUpAll bool) ([]storedRow, error) {
	ctx := context.Background() // a batch, once started, is not abandoned
	if _, err := w.stmts.begin.ExecContext(ctx); err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	rows, err := w.decideAndInsert(ctx, batch, replies, lookUpAll)
	if err == nil {
		if _, err = w.stmts.commit.ExecContext(ctx); err != nil {
			err = fmt.Errorf("commit: %w", err)
		}
	}
	if err != nil {
		w.stale = true
		_, _ = w.stmts.rollback.ExecContext(ctx) // fails when OR ROLLBACK already did it
		return nil, err
	}
	return rows, nil
}

func (w *writer) decideAndInsert(ctx context.Context, batch []*appendRequest, replies []appendReply, lookUpAll bool) ([]storedRow, error) {
	if err := w.syncWithFile(ctx); err != nil {
		return nil, err
	}
	known := make(map[string]knownEvent)
	if lookUpAll {
		if err := w.lookUp(ctx, batch, known); err != nil {
			return nil, err
		}
	}
	var rows []storedRow
	var err error
	for i, r := range batch {
		if rows, replies[i], err = w.decide(ctx, r, known, rows, lookUpAll); err != nil {
			return nil, err
		}
	}
	if err := w.insert(ctx, rows); err != nil {
		return nil, err
	}
	w.trimStreams()
	return rows, nil
}

// decide answers one request against the log plus the requests accepted
// before it in the batch, and appends its rows when it is accepted. known
// holds the ids of the batch found in the log (when looked up) and those of
// the requests accepted so far.
func (w *writer) decide(ctx context.Context, r *appendRequest, known map[string]knownEvent, rows []storedRow, lookedUp bool) ([]storedRow, appendReply, error) {
	if err := r.ctx.Err(); err != nil {
		return rows, appendReply{err: err}, nil
	}
	if reply, done := duplicateReply(r, known); done {
		return rows, reply, nil
	}
	last, exists, err := w.streamRevision(ctx, r.stream)
	if err != nil {
		return rows, appendReply{}, err
	}
	if !r.expected.Check(last, exists) {
		// A retried create-once append is a duplicate, not a conflict.
		if !lookedUp {
			if err := w.lookUp(ctx, []*appendRequest{r}, known); err != nil {
				return rows, appendReply{}, err
			}
			if reply, done := duplicateReply(r, known); done {
				return rows, reply, nil
			}
		}
		return rows, appendReply{err: concurrencyError(r.stream, last, exists, r.expected)}, nil
	}
	next := uint64(0)
	if exists {
		next = last + 1
	}
	for _, e := range r.events {
		w.head++
		rows = append(rows, storedRow{
			rec: es.RecordedEvent{
				ID: e.id, Stream: r.stream, Revision: next, Position: w.head,
				Type: e.typ, Data: e.data, Metadata: e.meta,
			},
			metaJSON: e.metaJSON,
		})
		known[e.id] = knownEvent{revision: next, position: w.head}
		next++
	}
	w.streams[r.stream] = next - 1
	return rows, appendReply{result: es.WriteResult{NextRevision: next - 1, Position: w.head}}, nil
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

func concurrencyError(stream string, last uint64, exists bool, expected es.ExpectedRevision) error {
	state := "has no events"
	if exists {
		state = fmt.Sprintf("is at revision %d", last)
	}
	want := expected.String()
	if rev, ok := expected.Revision(); ok {
		want = fmt.Sprintf("revision %d", rev)
	}
	return fmt.Errorf("%w: stream %s %s, expected %s", es.ErrConcurrency, stream, state, want)
}

// isConstraint reports a UNIQUE violation: an id already in the log, or rows
// written by another connection that the caches did not know of.
func isConstraint(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}
