package sqlitestore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// streamRevision returns the last revision of stream and whether it has
// events, from the cache or else from the file.
func (w *writer) streamRevision(ctx context.Context, stream string) (uint64, bool, error) {
	if rev, ok := w.streams[stream]; ok {
		return rev, true, nil
	}
	var rev int64
	err := w.stmts.streamRevision.QueryRowContext(ctx, stream).Scan(&rev)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, false, nil
	case err != nil:
		return 0, false, fmt.Errorf("read revision of %s: %w", stream, err)
	}
	w.streams[stream] = uint64(rev)
	return uint64(rev), true, nil
}

// lookUp adds to known the ids of requests already in the log.
func (w *writer) lookUp(ctx context.Context, requests []*appendRequest, known map[string]knownEvent) error {
	var ids []string
	for _, r := range requests {
		for _, e := range r.events {
			ids = append(ids, e.id)
		}
	}
	for start := 0; start < len(ids); start += idsPerLookup {
		if err := w.lookupIDs(ctx, ids[start:min(start+idsPerLookup, len(ids))], known); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) lookupIDs(ctx context.Context, ids []string, known map[string]knownEvent) error {
	list, err := jsonStrings(ids)
	if err != nil {
		return err
	}
	rows, err := w.stmts.knownIDs.QueryContext(ctx, list)
	if err != nil {
		return fmt.Errorf("look up event ids: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var rev, pos int64
		if err := rows.Scan(&id, &rev, &pos); err != nil {
			return fmt.Errorf("look up event ids: %w", err)
		}
		known[id] = knownEvent{revision: uint64(rev), position: uint64(pos)}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("look up event ids: %w", err)
	}
	return nil
}

// jsonStrings encodes ids as a JSON array, the one parameter json_each reads.
func jsonStrings(ids []string) (string, error) {
	b, err := json.Marshal(ids)
	if err != nil {
		return "", fmt.Errorf("encode ids: %w", err)
	}
	return string(b), nil
}
